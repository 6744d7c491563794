import type Highcharts from 'highcharts';
import { useMemo } from 'react';
import { formatPercentage } from '../../../domain/format';
import type { PaymentMethodsData } from '../../../domain/mallReportViews';
import { share } from '../../../domain/reports';
import { paymentMethodsReportMachine } from '../../../machines/mallReportMachine';
import { Chart } from '../../charts/Chart';
import { Money } from '../../common/Money';
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
  { key: 'payment_method', label: 'Payment Method', render: (row) => row.payment_method },
  { key: 'sum', label: 'Sum', render: (row) => <Money value={row.sum} />, numeric: true },
  { key: 'share', label: 'Share', render: (row) => formatPercentage(row.share), numeric: true },
];

/** The top methods of each bucket as stacked columns (methods ordered by their overall sum). */
function overTimeOptions(data: PaymentMethodsData | undefined): {
  options: Highcharts.Options;
  rows: Record<string, string | number>[];
  methods: string[];
} {
  const buckets = data?.buckets ?? [];
  const methods = [
    ...new Set([
      ...(data?.overall ?? []).map((row) => row.payment_method),
      ...buckets.flatMap((bucket) => bucket.rows.map((row) => row.payment_method)),
    ]),
  ];
  const used = methods.filter((method) =>
    buckets.some((bucket) => bucket.rows.some((row) => row.payment_method === method)),
  );
  const rows = buckets.map((bucket) => ({
    period: bucket.label,
    ...Object.fromEntries(
      used.map((method) => [method, bucket.rows.find((row) => row.payment_method === method)?.sum ?? 0]),
    ),
  }));
  return {
    methods: used,
    rows,
    options: {
      chart: { type: 'column' },
      title: { text: undefined },
      xAxis: categoryAxis(buckets.map((bucket) => bucket.label)),
      yAxis: valueAxis('Sum'),
      plotOptions: { column: { stacking: 'normal' } },
      series: used.map((method) => ({
        type: 'column' as const,
        name: method,
        data: buckets.map((bucket) => bucket.rows.find((row) => row.payment_method === method)?.sum ?? 0),
      })),
    },
  };
}

/** Mall payment methods: the overall split and the top methods over time. */
export function MallPaymentMethodsPage({ title, header }: PageProps) {
  const report = useReport(paymentMethodsReportMachine);
  const { data } = report;
  const overall = data?.overall ?? [];
  const total = overall.reduce((sum, row) => sum + row.sum, 0);
  const shares = useMemo(() => overall.map((row) => ({ ...row, share: share(row.sum, total) })), [overall, total]);
  const pie = useMemo(() => paymentPieOptions(overall), [overall]);
  const overTime = useMemo(() => overTimeOptions(data), [data]);
  const overTimeColumns = useMemo<Column<Record<string, string | number>>[]>(
    () => [
      { key: 'period', label: 'Period', render: (row) => String(row.period) },
      ...overTime.methods.map((method) => ({
        key: method,
        label: method,
        render: (row: Record<string, string | number>) => <Money value={Number(row[method] ?? 0)} />,
        numeric: true,
      })),
    ],
    [overTime.methods],
  );

  return (
    <MallReportSection testId="mall-payment-methods-page">
      <PageHeader title={title} header={header} />
      <ReportToolbar
        report={report}
        base="mall_payment_methods"
        files={() => [
          { name: 'payment_methods', keys: ['payment_method', 'sum', 'share'], rows: shares },
          { name: 'payment_methods_over_time', keys: ['period', ...overTime.methods], rows: overTime.rows },
        ]}
      />
      <ReportBlock
        testId="payment-overall"
        title="Payment Methods"
        chart={<Chart testId="payment-overall-chart" options={pie} />}
        table={<ReportTable testId="payment-overall-table" columns={SHARE_COLUMNS} rows={shares} />}
      />
      <ReportBlock
        testId="payment-over-time"
        title="Top Payment Methods over Time"
        chart={<Chart testId="payment-over-time-chart" options={overTime.options} />}
        table={<ReportTable testId="payment-over-time-table" columns={overTimeColumns} rows={overTime.rows} />}
      />
    </MallReportSection>
  );
}
