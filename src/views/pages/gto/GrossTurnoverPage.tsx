import { Button, Callout } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type Highcharts from 'highcharts';
import { useMemo } from 'react';
import type { GtoOutletMonth } from '../../../api/gto';
import { type CurrencyFormat, currencyFormat, formatMoney, formatMonth } from '../../../domain/format';
import { variancePercentText } from '../../../domain/gto';
import { grossTurnoverMachine } from '../../../machines/gto/grossTurnoverMachine';
import { Chart } from '../../charts/Chart';
import { useNoticeToasts } from '../../common/Notifications';
import { usePageActor } from '../../common/usePageActor';
import { MonthPicker } from '../../filters/MonthPicker';
import { PageTitle } from '../../filters/PageTitle';
import {
  type Column,
  categoryAxis,
  isSettled,
  ReportBlock,
  ReportTable,
  SubscribeToolbar,
  valueAxis,
} from '../../reports/ReportParts';
import { moneyTitle, moneyTooltip } from '../../reports/reportCharts';
import type { PanelState } from '../../reports/useReport';
import type { PageProps } from '../pageProps';
import './gto.css';

const money = (value: number | null, currency: CurrencyFormat) =>
  value === null ? 'Not submitted' : formatMoney(value, currency);

function columnsFor(currency: CurrencyFormat): Column<GtoOutletMonth>[] {
  return [
    { key: 'month', kind: 'date', label: 'Month', render: (row) => formatMonth(row.month) },
    { key: 'declared', kind: 'money', label: 'Declared GTO', render: (row) => money(row.declared, currency) },
    { key: 'captured', kind: 'money', label: 'Captured sales', render: (row) => formatMoney(row.captured, currency) },
    {
      key: 'difference',
      kind: 'money',
      label: 'Difference',
      render: (row) => (row.difference === null ? '—' : formatMoney(row.difference, currency)),
    },
    {
      key: 'difference_percent',
      kind: 'percent',
      label: 'Difference %',
      render: (row) => (row.difference_percent === null ? '—' : variancePercentText(row.difference_percent)),
    },
  ];
}

/** Declared GTO beside the captured sales, a pair of columns a month. */
function monthsChart(rows: readonly GtoOutletMonth[], currency: CurrencyFormat): Highcharts.Options {
  return {
    title: { text: undefined },
    xAxis: categoryAxis(rows.map((row) => formatMonth(row.month))),
    yAxis: valueAxis(moneyTitle('Amount', currency)),
    series: [
      {
        type: 'column',
        name: 'Declared GTO',
        tooltip: moneyTooltip(currency),
        data: rows.map((row) => row.declared),
      },
      {
        type: 'column',
        name: 'Captured sales',
        tooltip: moneyTooltip(currency),
        data: rows.map((row) => row.captured),
      },
    ],
  };
}

/**
 * The tenant's Gross Turnover (§1, §2): for the outlet and month of the header, the GTO it declared month by month
 * over the year up to that month, beside the sales captured from its receipts, with the difference.
 */
export function GrossTurnoverPage({ title }: PageProps) {
  const actor = usePageActor(grossTurnoverMachine);
  useNoticeToasts(actor);
  const status = useSelector(actor, (state) => {
    if (!state || state.hasTag('loading')) return 'loading' as const;
    if (state.matches('failure')) return 'failed' as const;
    if (state.matches('empty')) return 'empty' as const;
    return state.matches('idle') ? ('idle' as const) : ('loaded' as const);
  });
  const answer = useSelector(actor, (state) => state?.context.answer);
  const canExport = useSelector(actor, (state) => state?.can({ type: 'months.export' }) === true);
  const exporting = useSelector(actor, (state) => state?.matches('exporting') === true);
  const currency = useMemo(() => currencyFormat(answer?.currency), [answer?.currency]);
  const rows = status === 'loaded' && answer ? answer.data : [];
  const chart = useMemo(() => monthsChart(rows, currency), [rows, currency]);
  const columns = useMemo(() => columnsFor(currency), [currency]);
  const panel: PanelState = { status, retry: () => actor?.send({ type: 'months.retry' }) };

  return (
    <section className="gto-page" data-testid="gross-turnover-page">
      <header className="gto-header">
        <PageTitle title={title} />
        <div className="gto-header-filters">
          <MonthPicker />
          <Button
            icon="export"
            text="Export CSV"
            data-testid="gross-turnover-export"
            loading={exporting}
            disabled={!canExport}
            onClick={() => actor?.send({ type: 'months.export' })}
          />
          {/* Ready once the months of a chosen outlet and month have settled: the server's browser prints them. */}
          <SubscribeToolbar report={{ ready: isSettled(status) }} />
        </div>
      </header>
      {status === 'idle' ? (
        <Callout intent="primary" data-testid="gross-turnover-choose">
          Choose an Outlet and a month to see its gross turnover.
        </Callout>
      ) : null}
      <ReportBlock
        testId="gross-turnover"
        title="Declared GTO and captured sales, the year to the month"
        panel={panel}
        tablePlacement="below"
        chart={<Chart testId="gross-turnover-chart" options={chart} />}
        table={<ReportTable columns={columns} rows={rows} rowKey={(row) => row.month} testId="gross-turnover-table" />}
      />
    </section>
  );
}
