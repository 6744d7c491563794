import { HTMLSelect } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useId, useMemo } from 'react';
import type { CurrencyFormat } from '../../../domain/format';
import {
  DEFAULT_SALES_TRENDS_COMPARISON,
  monthFigureText,
  monthGrowthLine,
  openMonthNote,
  SALES_TRENDS_RULES,
  type SalesTrendMonth,
  salesTrendsCsv,
  salesTrendsYears,
} from '../../../domain/salesTrends';
import { salesTrendsPageMachine, yearShown } from '../../../machines/salesTrendsMachine';
import { Chart } from '../../charts/Chart';
import { useMallCurrency } from '../../common/Money';
import { usePageActor } from '../../common/usePageActor';
import { FilterHeaderContext } from '../../filters/filterHeaderContext';
import { MallsSelect } from '../../filters/MallsSelect';
import { PageTitle } from '../../filters/PageTitle';
import { ComparisonControls } from '../../reports/ComparisonControls';
import { type Column, MallReportSection, ReportBlock, ReportTable, ReportToolbar } from '../../reports/ReportParts';
import { useReportActor } from '../../reports/useReport';
import type { PageProps } from '../pageProps';
import { measureFormat, type TrendMeasure, yearOverYearOptions } from './salesTrendsCharts';
import '../../filters/filters.css';

/**
 * The table of a measure: each year's figure ('No Data' for a month without a sale) and the growth with the two
 * figures it compares and their days ('+18.63%: $720,447.58, 1–27 Nov, vs $607,297.18, 1–27 Nov 2025').
 */
function columnsOf(measure: TrendMeasure, year: number, currency: CurrencyFormat): Column<SalesTrendMonth>[] {
  const format = measureFormat(measure, currency);
  return [
    // Sorted by the month's number, so that Jan to Dec is the ascending order.
    { key: 'month', kind: 'date', label: 'Month', render: (row) => row.label, value: (row) => row.month },
    {
      key: 'this_year',
      kind: 'count',
      label: String(year),
      render: (row) => monthFigureText(row.thisYear, measure, format),
      value: (row) => row.thisYear?.[measure],
    },
    {
      key: 'last_year',
      kind: 'count',
      label: String(year - 1),
      render: (row) => monthFigureText(row.lastYear, measure, format),
      value: (row) => row.lastYear[measure],
    },
    {
      key: 'growth',
      kind: 'percent',
      label: 'Growth',
      // A sentence: it wraps rather than widening the table (or the phone's page) past its width.
      render: (row) => <span className="data-table-wrap">{monthGrowthLine(row, measure, format)}</span>,
      value: (row) => row.growth?.[measure],
    },
  ];
}

/** The page's controls (§2: no mall header here): its title, the Malls multi-select and the year. */
function SalesTrendsHeader({
  title,
  years,
  year,
  onYear,
}: {
  readonly title: string;
  readonly years: readonly number[];
  readonly year: number | undefined;
  readonly onYear: (year: number) => void;
}) {
  const disabled = FilterHeaderContext.useSelector((state) => state.hasTag('disabled'));
  const yearId = useId();
  return (
    <header data-testid="sales-trends-header" aria-busy={disabled} className="mall-header">
      <PageTitle title={title} />
      <div className="mall-header-controls">
        <MallsSelect />
        <label htmlFor={yearId}>Year</label>
        <HTMLSelect
          id={yearId}
          data-testid="year-select"
          value={year ?? ''}
          disabled={disabled || year === undefined}
          options={years.map((option) => ({ value: option, label: String(option) }))}
          onChange={(event) => onYear(Number(event.currentTarget.value))}
        />
      </div>
    </header>
  );
}

/**
 * Sales trends: the selected malls' GMV and transactions a month, Jan to Dec, the year chosen beside the year
 * before, with each month's growth (against the same month of the year before, or by the rule chosen in the
 * comparison controls); the month still open is labelled partial.
 */
export function SalesTrendsPage({ title }: PageProps) {
  const page = usePageActor(salesTrendsPageMachine);
  const today = useSelector(page, (snapshot) => snapshot?.context.today);
  const year = useSelector(page, (snapshot) => (snapshot ? yearShown(snapshot.context) : undefined));
  const comparison = useSelector(page, (snapshot) => snapshot?.context.comparison) ?? DEFAULT_SALES_TRENDS_COMPARISON;
  const reportActor = useSelector(page, (snapshot) => snapshot?.children.report);
  const report = useReportActor(reportActor);
  const currency = useMallCurrency();
  const trends = report.dataOf('trends');
  const panel = report.panelOf('trends');
  const shownYear = trends?.year ?? year ?? 0;
  const years = useMemo(() => (today === undefined ? [] : salesTrendsYears(today)), [today]);
  const gmv = useMemo(() => yearOverYearOptions(trends, 'gmv', currency), [trends, currency]);
  const transactions = useMemo(() => yearOverYearOptions(trends, 'transactions'), [trends]);
  const months = trends?.months ?? [];
  const note = trends ? openMonthNote(trends) : undefined;
  const monthKey = (row: SalesTrendMonth) => String(row.month);

  return (
    <MallReportSection testId="sales-trends-page">
      <SalesTrendsHeader
        title={title}
        years={years}
        year={year}
        onYear={(chosen) => page?.send({ type: 'year.change', year: chosen })}
      />
      <ReportToolbar report={report} base="sales_trends" files={() => [salesTrendsCsv(trends)]} />
      <ComparisonControls
        value={comparison}
        onChange={(chosen) => page?.send({ type: 'comparison.change', comparison: chosen })}
        disabled={report.loading}
        rules={SALES_TRENDS_RULES}
      />
      <ReportBlock
        testId="trends-gmv"
        title={`GMV by Month, ${shownYear} and ${shownYear - 1}`}
        panel={panel}
        chart={<Chart testId="trends-gmv-chart" options={gmv} />}
        table={
          <ReportTable
            testId="trends-gmv-table"
            columns={columnsOf('gmv', shownYear, currency)}
            rows={months}
            rowKey={monthKey}
          />
        }
      />
      <ReportBlock
        testId="trends-transactions"
        title={`Transactions by Month, ${shownYear} and ${shownYear - 1}`}
        panel={panel}
        chart={<Chart testId="trends-transactions-chart" options={transactions} />}
        table={
          <ReportTable
            testId="trends-transactions-table"
            columns={columnsOf('transactions', shownYear, currency)}
            rows={months}
            rowKey={monthKey}
          />
        }
      />
      {note ? (
        <p className="report-currency-note" data-testid="sales-trends-partial-note">
          {note}
        </p>
      ) : null}
    </MallReportSection>
  );
}
