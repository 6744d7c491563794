import { useMemo } from 'react';
import { formatMoney, formatNumber, formatPercentage } from '../../../domain/format';
import {
  comparisonNote,
  MALL_AMOUNT_LABELS,
  type MallAmountDayRow,
  type MallAmountKind,
  type MallAmountLabels,
  type MallAmountOutletRow,
  mallAmountCsvFiles,
} from '../../../domain/mallAmounts';
import { type Kpi, kpiGrowthLine, kpiValueText } from '../../../domain/mallReportViews';
import { dayMark } from '../../../domain/periods';
import { refundsMachine, voucherRedemptionMachine } from '../../../machines/refundsAndVoucherRedemptionMachine';
import { Chart } from '../../charts/Chart';
import { useChartAnnotations } from '../../charts/chartAnnotations';
import { MallsDateRangeHeader } from '../../common/MallsDateRangeHeader';
import { Money, useMallCurrency } from '../../common/Money';
import { useToday } from '../../filters/filterHeaderContext';
import { ComparisonControls } from '../../reports/ComparisonControls';
import { OutletLink } from '../../reports/OutletLink';
import {
  type Column,
  KpiCard,
  KpiRow,
  MallReportSection,
  ReportBlock,
  ReportTable,
  ReportToolbar,
} from '../../reports/ReportParts';
import { dayLabel, gmvTransactionsOptions, rankingBarOptions } from '../../reports/reportCharts';
import { useReport } from '../../reports/useReport';
import type { PageProps } from '../pageProps';

const MACHINES = { refund: refundsMachine, voucher: voucherRedemptionMachine } as const;

/** The outlets the bar chart ranks (the table lists them all). */
const CHART_OUTLETS = 10;

function dailyColumns(labels: MallAmountLabels): Column<MallAmountDayRow>[] {
  return [
    // Today is labelled 'so far'; the days sort by their date.
    { key: 'date', kind: 'date', label: 'Date', render: (row) => row.label, value: (row) => row.date },
    { key: 'amount', kind: 'money', label: labels.amount, render: (row) => <Money value={row.amount} /> },
    { key: 'count', kind: 'count', label: labels.count, render: (row) => formatNumber(row.count) },
  ];
}

function outletColumns(labels: MallAmountLabels): Column<MallAmountOutletRow>[] {
  return [
    // Each outlet opens its own page.
    {
      key: 'outlet',
      kind: 'text',
      label: 'Outlet',
      text: (row) => row.outlet,
      render: (row) => <OutletLink outletId={row.outletId} name={row.outlet} />,
    },
    { key: 'mall', kind: 'text', label: 'Mall', render: (row) => row.mall },
    { key: 'amount', kind: 'money', label: labels.amount, render: (row) => <Money value={row.amount} /> },
    { key: 'count', kind: 'count', label: labels.count, render: (row) => formatNumber(row.count) },
    { key: 'rate', kind: 'percent', label: labels.rate, render: (row) => formatPercentage(row.rate) },
    { key: 'gmv', kind: 'money', label: 'GMV', render: (row) => <Money value={row.gmv} /> },
  ];
}

const NO_DAYS: readonly MallAmountDayRow[] = [];
const NO_OUTLETS: readonly MallAmountOutletRow[] = [];
const dayKey = (row: MallAmountDayRow) => row.date;
const outletKey = (row: MallAmountOutletRow) => String(row.outletId);

/**
 * Refunds or voucher redemption of the malls and days chosen on the page (§2: no mall header): the amount, count
 * and rate with their growth, the amount and count by day, and the outlets with any, each sortable table exported
 * as CSV. Everything it loads is the page machine's (machines/refundsAndVoucherRedemptionMachine).
 */
export function MallAmountPage({ kind, title }: PageProps & { readonly kind: MallAmountKind }) {
  const labels = MALL_AMOUNT_LABELS[kind];
  const report = useReport(MACHINES[kind]);
  const currency = useMallCurrency();
  const headerToday = useToday();
  const today = report.query?.today ?? headerToday;
  const kpis = report.dataOf('kpis');
  const kpiPanel = report.panelOf('kpis');
  const kpisLoading = kpiPanel.status === 'loading';
  const dailyData = report.dataOf('daily');
  const annotationItems = report.dataOf('annotations');
  const outletData = report.dataOf('outlets');
  const days = dailyData ?? NO_DAYS;
  const outlets = outletData ?? NO_OUTLETS;
  const annotations = useChartAnnotations(
    annotationItems,
    days.map((row) => row.date),
  );
  const columns = useMemo(() => ({ daily: dailyColumns(labels), outlets: outletColumns(labels) }), [labels]);

  const trend = useMemo(
    () =>
      gmvTransactionsOptions(
        days.map((row) => dayMark(row.date, today, dayLabel)),
        days.map((row) => ({ gmv: row.amount, transactions: row.count })),
        dailyData !== undefined,
        currency,
        { money: labels.amount, count: labels.count },
      ),
    [days, dailyData, today, currency, labels],
  );
  const ranking = useMemo(
    () =>
      rankingBarOptions(
        outlets.slice(0, CHART_OUTLETS).map((row) => ({ name: row.outlet, value: row.amount })),
        labels.amount,
        currency,
      ),
    [outlets, labels, currency],
  );
  const money = (value: number) => formatMoney(value, currency);
  const growthOf = (kpi: Kpi | undefined, format: (value: number) => string) =>
    kpi && kpis ? kpiGrowthLine(kpi, kpis.comparison, format) : undefined;
  const note = kpis ? comparisonNote(kpis.comparison) : undefined;

  return (
    <MallReportSection testId={`${labels.base}-page`}>
      <MallsDateRangeHeader title={title} testId="amount-header" />
      <ReportToolbar
        report={report}
        base={labels.base}
        files={() => mallAmountCsvFiles(kind, { kpis, days: dailyData, outlets: outletData })}
      />
      <ComparisonControls value={report.comparison} onChange={report.compare} disabled={report.loading} />
      <KpiRow panel={kpiPanel} label="Key figures">
        <KpiCard
          testId="kpi-amount"
          label={labels.amount}
          value={kpiValueText(kpis?.noData, kpis?.amount.current ?? 0, money)}
          growth={growthOf(kpis?.amount, money)}
          loading={kpisLoading}
        />
        <KpiCard
          testId="kpi-count"
          label={labels.count}
          value={kpiValueText(kpis?.noData, kpis?.count.current ?? 0, formatNumber)}
          growth={growthOf(kpis?.count, formatNumber)}
          loading={kpisLoading}
        />
        <KpiCard
          testId="kpi-rate"
          label={labels.rate}
          value={kpiValueText(kpis?.noData, kpis?.rate.current ?? 0, formatPercentage)}
          growth={growthOf(kpis?.rate, formatPercentage)}
          loading={kpisLoading}
        />
      </KpiRow>
      {note ? (
        <p className="report-currency-note" data-testid="amount-comparison">
          {note}
        </p>
      ) : null}
      <ReportBlock
        testId="amount-daily"
        title={labels.byDay}
        panel={report.panelOf('daily')}
        chart={<Chart testId="amount-daily-chart" options={trend} annotations={annotations} />}
        table={<ReportTable testId="amount-daily-table" columns={columns.daily} rows={days} rowKey={dayKey} />}
      />
      <ReportBlock
        testId="amount-outlets"
        title={labels.outlets}
        panel={report.panelOf('outlets')}
        tablePlacement="below"
        chart={<Chart testId="amount-outlets-chart" options={ranking} />}
        table={
          <ReportTable testId="amount-outlets-table" columns={columns.outlets} rows={outlets} rowKey={outletKey} />
        }
      />
    </MallReportSection>
  );
}

/** /shopper-connect/refunds. */
export function RefundsPage(props: PageProps) {
  return <MallAmountPage kind="refund" {...props} />;
}

/** /shopper-connect/voucher-redemption. */
export function VoucherRedemptionPage(props: PageProps) {
  return <MallAmountPage kind="voucher" {...props} />;
}
