import type Highcharts from 'highcharts';
import { useMemo } from 'react';
import type { Metric } from '../../../domain/dateLimits';
import { formatNumber, formatPercentage } from '../../../domain/format';
import type { OutletRankRow } from '../../../domain/mallReportViews';
import { share } from '../../../domain/reports';
import { memberReportMachine } from '../../../machines/mallReportMachine';
import { Chart } from '../../charts/Chart';
import { Money, useMallCurrency } from '../../common/Money';
import { PageHeader } from '../../filters/PageHeader';
import {
  type Column,
  categoryAxis,
  MallReportSection,
  pointsOrNone,
  ReportBlock,
  ReportTable,
  ReportToolbar,
  valueAxis,
} from '../../reports/ReportParts';
import { formatMetric, METRIC_LABELS, metricTitle, periodPoints, rankingBarOptions } from '../../reports/reportCharts';
import { usePeriodMarks } from '../../reports/usePeriodMarks';
import { useReport } from '../../reports/useReport';
import type { PageProps } from '../pageProps';

const OUTLET_COLUMNS: Column<OutletRankRow>[] = [
  { key: 'outlet_name', kind: 'text', label: 'Outlet', render: (row) => row.outlet_name },
  { key: 'mall_name', kind: 'text', label: 'Mall', render: (row) => row.mall_name },
  { key: 'gmv', kind: 'money', label: 'GMV', render: (row) => <Money value={row.gmv} /> },
  { key: 'transactions', kind: 'count', label: 'Transactions', render: (row) => formatNumber(row.transactions) },
];

/** An outlet's figure of the chosen metric. */
function metricOf(row: OutletRankRow, metric: Metric): number {
  return metric === 'transactions' ? row.transactions : metric === 'gmv' ? row.gmv : row.average_transaction_value;
}

/** Member vs non-member (Header V2): the overall comparison over time and the outlet rankings of each side. */
export function MemberVsNonMemberPage({ title, header }: PageProps) {
  const report = useReport(memberReportMachine);
  const { query } = report;
  const overall = report.dataOf('overall');
  const currency = useMallCurrency();
  const metric = query?.metric ?? 'gmv';
  const shown = overall !== undefined;
  const rows = overall?.data ?? [];
  const total = overall?.total ?? { member: 0, non_member: 0 };
  const marks = usePeriodMarks(
    query,
    rows.map((row) => row.period),
  );
  const series = useMemo<Highcharts.Options>(() => {
    const empty = rows.map((row) => row.member === 0 && row.non_member === 0);
    // A period cut short or still open: a hollow, dashed point.
    const partial = { marker: { fillColor: '#ffffff', lineWidth: 2 }, dashStyle: 'Dash' };
    return {
      title: { text: undefined },
      xAxis: categoryAxis(marks.map((mark) => mark.label)),
      yAxis: valueAxis(metricTitle(metric, currency)),
      series: [
        {
          type: 'line',
          name: 'Member',
          data: pointsOrNone(
            shown,
            periodPoints(
              rows.map((row) => row.member),
              marks,
              empty,
              partial,
            ),
          ),
        },
        {
          type: 'line',
          name: 'Non-member',
          data: pointsOrNone(
            shown,
            periodPoints(
              rows.map((row) => row.non_member),
              marks,
              empty,
              partial,
            ),
          ),
        },
      ],
    };
  }, [rows, marks, shown, metric, currency]);
  const split = useMemo<Highcharts.Options>(
    () => ({
      title: { text: undefined },
      series: [
        {
          type: 'pie',
          name: METRIC_LABELS[metric],
          data: shown
            ? [
                { name: 'Member', y: total.member },
                { name: 'Non-member', y: total.non_member },
              ]
            : [],
        },
      ],
    }),
    [total, shown, metric],
  );
  const members = report.dataOf('members') ?? [];
  const nonMembers = report.dataOf('nonMembers') ?? [];
  const memberBars = useMemo(
    () =>
      rankingBarOptions(
        members.map((row) => ({ name: row.outlet_name, value: metricOf(row, metric) })),
        METRIC_LABELS[metric],
        metric === 'transactions' ? undefined : currency,
      ),
    [members, metric, currency],
  );
  const nonMemberBars = useMemo(
    () =>
      rankingBarOptions(
        nonMembers.map((row) => ({ name: row.outlet_name, value: metricOf(row, metric) })),
        METRIC_LABELS[metric],
        metric === 'transactions' ? undefined : currency,
      ),
    [nonMembers, metric, currency],
  );
  const totalsRows = shown
    ? [
        { group: 'Member', value: total.member, share: share(total.member, total.member + total.non_member) },
        {
          group: 'Non-member',
          value: total.non_member,
          share: share(total.non_member, total.member + total.non_member),
        },
      ]
    : [];
  const outletKeys = ['outlet_name', 'mall_name', 'gmv', 'transactions', 'average_transaction_value'];

  return (
    <MallReportSection testId="member-vs-non-member-page">
      <PageHeader title={title} header={header} />
      <ReportToolbar
        report={report}
        base="member_vs_non_member"
        files={() => [
          { name: 'member_vs_non_member', keys: ['period', 'member', 'non_member'], rows: shown ? rows : [] },
          { name: 'member_outlets', keys: outletKeys, rows: members },
          { name: 'non_member_outlets', keys: outletKeys, rows: nonMembers },
        ]}
      />
      <ReportBlock
        testId="member-overall"
        title={`Member vs Non-member ${METRIC_LABELS[metric]}`}
        panel={report.panelOf('overall')}
        chart={<Chart testId="member-overall-chart" options={series} />}
        table={
          <>
            <Chart
              testId="member-split-chart"
              title={`Member and Non-member Share of ${METRIC_LABELS[metric]}`}
              options={split}
              height={220}
            />
            <ReportTable
              testId="member-totals"
              columns={[
                { key: 'group', kind: 'text', label: '', render: (row: (typeof totalsRows)[number]) => row.group },
                {
                  key: 'value',
                  kind: metric === 'transactions' ? 'count' : 'money',
                  label: METRIC_LABELS[metric],
                  render: (row) => formatMetric(metric, row.value, currency),
                },
                ...(metric === 'average_transaction_value'
                  ? []
                  : [
                      {
                        key: 'share',
                        kind: 'percent' as const,
                        label: 'Share',
                        render: (row: (typeof totalsRows)[number]) => formatPercentage(row.share),
                      },
                    ]),
              ]}
              rows={totalsRows}
            />
          </>
        }
      />
      <ReportBlock
        testId="member-outlets"
        title="Top Outlets: Members"
        panel={report.panelOf('members')}
        chart={<Chart testId="member-outlets-chart" options={memberBars} />}
        table={<ReportTable columns={OUTLET_COLUMNS} rows={members} />}
      />
      <ReportBlock
        testId="non-member-outlets"
        title="Top Outlets: Non-members"
        panel={report.panelOf('nonMembers')}
        chart={<Chart testId="non-member-outlets-chart" options={nonMemberBars} />}
        table={<ReportTable columns={OUTLET_COLUMNS} rows={nonMembers} />}
      />
    </MallReportSection>
  );
}
