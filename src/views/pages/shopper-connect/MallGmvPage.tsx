import { Button, ButtonGroup, Tab, Tabs } from '@blueprintjs/core';
import { useMemo, useState } from 'react';
import { formatMonth, formatNumber } from '../../../domain/format';
import type { MonthlyReportRow } from '../../../domain/mallReportViews';
import { sortMonths } from '../../../domain/reports';
import { mallGmvReportMachine } from '../../../machines/mallReportMachine';
import { Chart } from '../../charts/Chart';
import { useChartAnnotations } from '../../charts/chartAnnotations';
import { Money, useMallCurrency } from '../../common/Money';
import { useToday } from '../../filters/filterHeaderContext';
import { PageHeader } from '../../filters/PageHeader';
import { OutletLink } from '../../reports/OutletLink';
import {
  type Column,
  MallReportSection,
  PanelContent,
  panelShown,
  ReportBlock,
  ReportTable,
  ReportToolbar,
} from '../../reports/ReportParts';
import { dailyTrendOptions, monthlyTrendOptions, rankingBarOptions } from '../../reports/reportCharts';
import { useReport } from '../../reports/useReport';
import type { PageProps } from '../pageProps';

type Breakdown = 'outlet' | 'category' | 'level';
interface BreakdownRow {
  /** An outlet's id (the outlet breakdown): its name opens its page. */
  outletId?: string;
  name: string;
  gmv: number;
  transactions: number;
  average_transaction_value: number;
}

const MONTHLY_COLUMNS: Column<MonthlyReportRow>[] = [
  { key: 'month', kind: 'date', label: 'Month', render: (row) => formatMonth(row.month) },
  { key: 'gmv', kind: 'money', label: 'GMV', render: (row) => <Money value={row.gmv} /> },
  { key: 'transactions', kind: 'count', label: 'Transactions', render: (row) => formatNumber(row.transactions) },
];

const BREAKDOWN_COLUMNS = (label: string): Column<BreakdownRow>[] => [
  {
    key: 'name',
    kind: 'text',
    label,
    text: (row) => row.name,
    render: (row) => (row.outletId === undefined ? row.name : <OutletLink outletId={row.outletId} name={row.name} />),
  },
  { key: 'gmv', kind: 'money', label: 'GMV', render: (row) => <Money value={row.gmv} /> },
  { key: 'transactions', kind: 'count', label: 'Transactions', render: (row) => formatNumber(row.transactions) },
  {
    key: 'average_transaction_value',
    kind: 'money',
    label: 'Avg. Transaction Value',
    render: (row) => <Money value={row.average_transaction_value} />,
  },
];

const DAILY_COLUMNS = [
  { key: 'date', kind: 'date' as const, label: 'Date', render: (row: { date: string }) => row.date },
  { key: 'gmv', kind: 'money' as const, label: 'GMV', render: (row: { gmv: number }) => <Money value={row.gmv} /> },
  {
    key: 'transactions',
    kind: 'count' as const,
    label: 'Transactions',
    render: (row: { transactions: number }) => formatNumber(row.transactions),
  },
];

/** The panel each breakdown tab draws. */
const BREAKDOWN_PANEL: Record<Breakdown, 'outlets' | 'categories' | 'levels'> = {
  outlet: 'outlets',
  category: 'categories',
  level: 'levels',
};

/** Mall GMV: daily or monthly GMV and transactions, with the outlet, category and level breakdowns. */
export function MallGmvPage({ title, header }: PageProps) {
  const report = useReport(mallGmvReportMachine);
  const [view, setView] = useState<'daily' | 'monthly'>('daily');
  const [breakdown, setBreakdown] = useState<Breakdown>('outlet');
  const currency = useMallCurrency();
  const dailyData = report.dataOf('daily');
  const monthlyData = report.dataOf('monthly');
  const daily = dailyData ?? [];
  const annotations = useChartAnnotations(
    report.dataOf('annotations'),
    daily.map((row) => row.date),
  );
  const monthly = useMemo(() => sortMonths(monthlyData ?? [], (row) => row.month), [monthlyData]);
  const outletData = report.dataOf('outlets');
  const categoryData = report.dataOf('categories');
  const levelData = report.dataOf('levels');
  const breakdowns = useMemo<Record<Breakdown, BreakdownRow[]>>(
    () => ({
      outlet: (outletData ?? []).map(({ key, ...row }) => ({ outletId: key, ...row })),
      category: (categoryData ?? []).map(({ category, ...row }) => ({ name: category, ...row })),
      level: (levelData ?? []).map(({ level, ...row }) => ({ name: level, ...row })),
    }),
    [outletData, categoryData, levelData],
  );
  const shown = view === 'daily' ? dailyData !== undefined : monthlyData !== undefined;
  const today = useToday();
  const start = report.query?.start;
  const end = report.query?.end;
  const trend = useMemo(() => {
    const period = { today, range: start && end ? { start, end } : undefined };
    return view === 'daily'
      ? dailyTrendOptions(daily, shown, currency, period)
      : monthlyTrendOptions(monthly, shown, currency, period);
  }, [view, daily, monthly, shown, currency, today, start, end]);
  const rows = breakdowns[breakdown];
  const bars = useMemo(
    () =>
      rankingBarOptions(
        rows.slice(0, 15).map((row) => ({ name: row.name, value: row.gmv })),
        'GMV',
        currency,
      ),
    [rows, currency],
  );
  const label = breakdown === 'outlet' ? 'Outlet' : breakdown === 'category' ? 'Category' : 'Level';
  const breakdownState = report.panelOf(BREAKDOWN_PANEL[breakdown]);
  const breakdownChart = (
    <PanelContent panel={breakdownState} label={`GMV by ${label}`}>
      <Chart testId="gmv-breakdown-chart" options={bars} />
    </PanelContent>
  );

  return (
    <MallReportSection testId="mall-gmv-page">
      <PageHeader title={title} header={header} />
      <ReportToolbar
        report={report}
        base="mall_gmv"
        files={() => [
          view === 'daily'
            ? { name: 'daily', keys: ['date', 'gmv', 'transactions'], rows: daily }
            : { name: 'monthly', keys: ['month', 'gmv', 'transactions'], rows: monthly },
          {
            name: 'outlets',
            keys: ['name', 'gmv', 'transactions', 'average_transaction_value'],
            rows: breakdowns.outlet,
          },
          {
            name: 'categories',
            keys: ['name', 'gmv', 'transactions', 'average_transaction_value'],
            rows: breakdowns.category,
          },
          {
            name: 'levels',
            keys: ['name', 'gmv', 'transactions', 'average_transaction_value'],
            rows: breakdowns.level,
          },
        ]}
      />
      <ReportBlock
        testId="gmv-trend"
        title={view === 'daily' ? 'Daily GMV and Transactions' : 'Monthly GMV and Transactions'}
        panel={report.panelOf(view)}
        controls={
          <ButtonGroup className="report-metric-switch">
            <Button data-testid="view-daily" active={view === 'daily'} onClick={() => setView('daily')}>
              Daily
            </Button>
            <Button data-testid="view-monthly" active={view === 'monthly'} onClick={() => setView('monthly')}>
              Monthly
            </Button>
          </ButtonGroup>
        }
        chart={
          <Chart testId="gmv-trend-chart" options={trend} annotations={view === 'daily' ? annotations : undefined} />
        }
        table={
          view === 'daily' ? (
            <ReportTable testId="gmv-table" columns={DAILY_COLUMNS} rows={shown ? daily : []} />
          ) : (
            <ReportTable testId="gmv-table" columns={MONTHLY_COLUMNS} rows={shown ? monthly : []} />
          )
        }
      />
      <ReportBlock
        testId="gmv-breakdown"
        title={`GMV by ${label}`}
        chart={
          <>
            {/* The chart is the selected tab's panel (the tab controls it). */}
            <Tabs
              id="gmv-breakdown"
              selectedTabId={breakdown}
              onChange={(id) => setBreakdown(id as Breakdown)}
              renderActiveTabPanelOnly
            >
              <Tab id="outlet" title="Outlet" panel={breakdownChart} />
              <Tab id="category" title="Category" panel={breakdownChart} />
              <Tab id="level" title="Level" panel={breakdownChart} />
            </Tabs>
          </>
        }
        table={panelShown(breakdownState) ? <ReportTable columns={BREAKDOWN_COLUMNS(label)} rows={rows} /> : null}
      />
    </MallReportSection>
  );
}
