import {
  Button,
  Callout,
  Card,
  Checkbox,
  FormGroup,
  HTMLSelect,
  ProgressBar,
  Radio,
  RadioGroup,
} from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import {
  byCurrencyNote,
  EXPORT_FORMATS,
  EXPORT_REPORTS,
  exportDoneMessage,
  exportFailureMessage,
  exportProgress,
  isExportFormat,
  workbookFailureMessage,
  workbookPageDescription,
  workbookProgress,
} from '../../../domain/export';
import { isWorkbookPage, reportWorkbook } from '../../../domain/reportWorkbooks';
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
 * (zipped when there are several), or the Excel workbook built by the server of the report page the user picks
 * (among those they may download); a progress bar and Cancel while it runs, what failed and a retry when it fails.
 * Everything it does is the export machine's.
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
  const inWorkbook = snapshot?.matches('workbook') ?? false;
  const progress = inWorkbook ? workbookProgress(context?.workbook) : exportProgress(counts.done, counts.total);
  const selected = context?.selected ?? [];
  const format = context?.format ?? 'csv';
  const formatId = `${legendId}-format`;
  const workbookPages = context?.workbookPages ?? [];
  const workbookPage = context?.workbookPage ?? 'mall_home';
  const workbookPageId = `${legendId}-workbook-page`;

  return (
    <MallReportSection testId="export-page">
      <MallsDateRangeHeader title={title} testId="export-header" />
      <Card className="export-card">
        {workbookPages.length > 0 ? (
          <RadioGroup
            className="export-formats"
            label="Download as"
            name={formatId}
            selectedValue={format}
            disabled={!can({ type: 'export.format', format: format === 'csv' ? 'workbook' : 'csv' })}
            onChange={(event) => {
              const chosen = event.currentTarget.value;
              if (isExportFormat(chosen)) page?.send({ type: 'export.format', format: chosen });
            }}
          >
            {EXPORT_FORMATS.map((option) => (
              <Radio
                key={option.id}
                value={option.id}
                data-testid={`export-format-${option.id}`}
                aria-describedby={`${formatId}-${option.id}`}
                labelElement={
                  <>
                    {option.label}{' '}
                    <span id={`${formatId}-${option.id}`} className="export-report-description">
                      {option.description}
                    </span>
                  </>
                }
              />
            ))}
          </RadioGroup>
        ) : null}
        {format === 'workbook' && workbookPages.length > 0 ? (
          <FormGroup
            className="export-workbook-page"
            label="Report page"
            labelFor={workbookPageId}
            helperText={
              <span id={`${workbookPageId}-sheets`} data-testid="export-workbook-page-sheets">
                {workbookPageDescription(workbookPage)}
              </span>
            }
          >
            <HTMLSelect
              id={workbookPageId}
              data-testid="export-workbook-page"
              aria-describedby={`${workbookPageId}-sheets`}
              value={workbookPage}
              disabled={!can({ type: 'export.workbookPage', page: workbookPage })}
              options={workbookPages.map((option) => ({ value: option, label: reportWorkbook(option).title }))}
              onChange={(event) => {
                const chosen = event.currentTarget.value;
                if (isWorkbookPage(chosen)) page?.send({ type: 'export.workbookPage', page: chosen });
              }}
            />
          </FormGroup>
        ) : null}
        <fieldset
          className="export-reports"
          aria-describedby={`${legendId}-hint`}
          disabled={format === 'workbook'}
          data-testid="export-reports"
        >
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
              {context.failure.workbook
                ? workbookFailureMessage(context.failure.workbook, context.failure.detail)
                : exportFailureMessage(context.failure.report, context.failure.detail)}
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
