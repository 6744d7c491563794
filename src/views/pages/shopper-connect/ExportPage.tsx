import { Button, Callout, Card, Checkbox, ProgressBar } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import {
  byCurrencyNote,
  EXPORT_REPORTS,
  exportDoneMessage,
  exportFailureMessage,
  exportProgress,
} from '../../../domain/export';
import { exportCounts, exportMachine } from '../../../machines/exportMachine';
import { MallsDateRangeHeader } from '../../common/MallsDateRangeHeader';
import { useMallCurrency } from '../../common/Money';
import { useNoticeToasts } from '../../common/Notifications';
import { usePageActor } from '../../common/usePageActor';
import { MallReportSection } from '../../reports/ReportParts';
import type { PageProps } from '../pageProps';
import './export.css';

/**
 * Export: the mall reports the user ticks, for the malls and dates chosen above, downloaded as one CSV a report
 * (zipped when there are several); a progress bar and Cancel while it runs, the failed report and a retry when
 * one fails. Everything it does is the export machine's.
 */
export function ExportPage({ title }: PageProps) {
  const page = usePageActor(exportMachine);
  useNoticeToasts(page);
  const currency = useMallCurrency().code;
  const legendId = useId();
  const snapshot = useSelector(page, (state) => state);
  const context = snapshot?.context;
  const busy = snapshot?.hasTag('busy') ?? false;
  const saving = snapshot?.matches({ working: 'saving' }) ?? false;
  const failed = snapshot?.matches('failed') ?? false;
  const done = snapshot?.matches('done') ?? false;
  const can = (event: Parameters<NonNullable<typeof snapshot>['can']>[0]) => snapshot?.can(event) ?? false;
  const counts = context ? exportCounts(context) : { done: 0, total: 0 };
  const progress = exportProgress(counts.done, counts.total);
  const selected = context?.selected ?? [];

  return (
    <MallReportSection testId="export-page">
      <MallsDateRangeHeader title={title} testId="export-header" />
      <Card className="export-card">
        <fieldset className="export-reports" aria-describedby={`${legendId}-hint`}>
          <legend id={legendId}>Reports</legend>
          <p id={`${legendId}-hint`} className="export-hint">
            One CSV file a report, for the malls and dates above; several files are zipped.
          </p>
          <div className="export-selection-actions">
            <Button
              size="small"
              text="Select all"
              data-testid="export-select-all"
              disabled={!can({ type: 'export.selectAll' })}
              onClick={() => page?.send({ type: 'export.selectAll' })}
            />
            <Button
              size="small"
              text="Clear"
              data-testid="export-clear-all"
              disabled={!can({ type: 'export.clearAll' })}
              onClick={() => page?.send({ type: 'export.clearAll' })}
            />
          </div>
          <ul className="export-report-list">
            {EXPORT_REPORTS.map((report) => (
              <li key={report.id}>
                <Checkbox
                  label={report.label}
                  checked={selected.includes(report.id)}
                  disabled={!can({ type: 'export.toggle', report: report.id })}
                  data-testid={`export-report-${report.id}`}
                  aria-describedby={`${legendId}-${report.id}`}
                  onChange={() => page?.send({ type: 'export.toggle', report: report.id })}
                />
                <span id={`${legendId}-${report.id}`} className="export-report-description">
                  {report.description}
                </span>
              </li>
            ))}
          </ul>
        </fieldset>
        <div className="export-actions">
          <Button
            intent="primary"
            icon="download"
            text="Export"
            data-testid="export-start"
            loading={busy}
            disabled={!can({ type: 'export.start', currency })}
            onClick={() => page?.send({ type: 'export.start', currency })}
          />
          {busy ? (
            <Button
              text="Cancel"
              data-testid="export-cancel"
              disabled={!can({ type: 'export.cancel' })}
              onClick={() => page?.send({ type: 'export.cancel' })}
            />
          ) : null}
        </div>
        {busy ? (
          <div className="export-progress" data-testid="export-progress">
            <ProgressBar
              value={progress.value}
              intent="primary"
              aria-label="Export progress"
              aria-valuetext={progress.text}
            />
            <p role="status" data-testid="export-progress-text">
              {saving ? `${progress.text}: writing the file…` : progress.text}
            </p>
          </div>
        ) : null}
        {failed && context?.failure ? (
          <Callout intent="danger" title="Export failed" role="alert" data-testid="export-failed">
            <p data-testid="export-failure-message">
              {exportFailureMessage(context.failure.report, context.failure.detail)}
            </p>
            <Button
              icon="refresh"
              text="Retry"
              data-testid="export-retry"
              disabled={!can({ type: 'export.retry' })}
              onClick={() => page?.send({ type: 'export.retry' })}
            />
          </Callout>
        ) : null}
        {done && context?.downloaded ? (
          <Callout intent="success" role="status" data-testid="export-done">
            <p>{exportDoneMessage(context.downloaded)}</p>
            {context.byCurrency.length > 0 ? (
              <ul className="export-by-currency" data-testid="export-by-currency">
                {context.byCurrency.map(({ report, reason }) => (
                  <li key={report}>{byCurrencyNote(report, reason)}</li>
                ))}
              </ul>
            ) : null}
          </Callout>
        ) : null}
      </Card>
    </MallReportSection>
  );
}
