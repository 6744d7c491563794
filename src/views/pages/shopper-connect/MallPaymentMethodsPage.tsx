import type Highcharts from 'highcharts';
import { useMemo } from 'react';
import { formatPercentage } from '../../../domain/format';
import { type PaymentOverTime, paymentOverTimeRows } from '../../../domain/mallReportViews';
import { percentOf, share } from '../../../domain/reports';
import { paymentMethodsReportMachine } from '../../../machines/mallReportMachine';
import { Chart } from '../../charts/Chart';
import { Money, useMallCurrency } from '../../common/Money';
import { PageHeader } from '../../filters/PageHeader';
import {
  type Column,
  categoryAxis,
  MallReportSection,
  ReportBlock,
  ReportTable,
  ReportToolbar,
  valueAxis,
} from '../../reports/ReportParts';
import { paymentPieOptions } from '../../reports/reportCharts';
import { useReport } from '../../reports/useReport';
import type { PageProps } from '../pageProps';

interface ShareRow {
  payment_method: string;
  sum: number;
  share: number;
}

const SHARE_COLUMNS: Column<ShareRow>[] = [
  { key: 'payment_method', kind: 'text', label: 'Payment Method', render: (row) => row.payment_method },
  { key: 'sum', kind: 'money', label: 'Sum', render: (row) => <Money value={row.sum} /> },
  { key: 'share', kind: 'percent', label: 'Share', render: (row) => formatPercentage(row.share) },
];

/** The top methods of each bucket as stacked columns, the largest method first. */
function overTimeOptions(overTime: PaymentOverTime | undefined): Highcharts.Options {
  return {
    chart: { type: 'column' },
    title: { text: undefined },
    xAxis: categoryAxis(overTime?.labels ?? []),
    yAxis: valueAxis('Sum'),
    plotOptions: { column: { stacking: 'normal' } },
    series: (overTime?.methods ?? []).map((method, index) => ({
      type: 'column' as const,
      name: method,
      data: [...(overTime?.sums[index] ?? [])],
    })),
  };
}

/** Mall payment methods: the overall split and the top methods over time. */
export function MallPaymentMethodsPage({ title, header }: PageProps) {
  const report = useReport(paymentMethodsReportMachine);
  const overall = report.dataOf('overall') ?? [];
  const overTime = report.dataOf('overTime');
  const total = overall.reduce((sum, row) => sum + row.sum, 0);
  const shares = useMemo(() => overall.map((row) => ({ ...row, share: share(row.sum, total) })), [overall, total]);
  const currency = useMallCurrency();
  const pie = useMemo(() => paymentPieOptions(overall, currency), [overall, currency]);
  const overTimeChart = useMemo(() => overTimeOptions(overTime), [overTime]);
  const overTimeRows = useMemo(() => paymentOverTimeRows(overTime), [overTime]);
  const methods = overTime?.methods ?? [];
  const overTimeColumns = useMemo<Column<Record<string, string | number>>[]>(
    () => [
      { key: 'period', kind: 'text', label: 'Period', render: (row) => String(row.period) },
      ...methods.map((method) => ({
        key: method,
        label: method,
        kind: 'money' as const,
        render: (row: Record<string, string | number>) => <Money value={Number(row[method] ?? 0)} />,
      })),
    ],
    [methods],
  );

  return (
    <MallReportSection testId="mall-payment-methods-page">
      <PageHeader title={title} header={header} />
      <ReportToolbar
        report={report}
        base="mall_payment_methods"
        files={() => [
          {
            name: 'payment_methods',
            keys: ['payment_method', 'sum', 'share_percent'],
            rows: shares.map((row) => ({ ...row, share_percent: percentOf(row.share) })),
          },
          { name: 'payment_methods_over_time', keys: ['period', ...methods], rows: overTimeRows },
        ]}
      />
      <ReportBlock
        testId="payment-overall"
        title="Payment Methods"
        panel={report.panelOf('overall')}
        chart={<Chart testId="payment-overall-chart" options={pie} />}
        table={<ReportTable testId="payment-overall-table" columns={SHARE_COLUMNS} rows={shares} />}
      />
      <ReportBlock
        testId="payment-over-time"
        title="Top Payment Methods over Time"
        panel={report.panelOf('overTime')}
        chart={<Chart testId="payment-over-time-chart" options={overTimeChart} />}
        table={<ReportTable testId="payment-over-time-table" columns={overTimeColumns} rows={overTimeRows} />}
        tablePlacement="below"
      />
    </MallReportSection>
  );
}
