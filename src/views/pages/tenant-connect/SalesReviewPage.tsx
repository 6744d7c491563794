import { Callout, Classes, Icon, Tag } from '@blueprintjs/core';
import type Highcharts from 'highcharts';
import { useMemo } from 'react';
import { Link } from 'wouter';
import { type CurrencyFormat, currencyFormat, formatNumber } from '../../../domain/format';
import {
  DECLARED_BY_LABELS,
  type SalesReviewDay,
  salesReviewCsv,
  salesReviewMarks,
  salesReviewNote,
} from '../../../domain/nonTradingDays';
import { salesReviewMachine } from '../../../machines/tenantConnect/salesReviewMachine';
import { Chart } from '../../charts/Chart';
import { CurrencyContext, Money, useOutletCurrency } from '../../common/Money';
import { DateRangeHeader } from '../../filters/DateRangeHeader';
import { useToday } from '../../filters/filterHeaderContext';
import { type Column, ReportBlock, ReportTable, ReportToolbar } from '../../reports/ReportParts';
import { dayLabel, gmvTransactionsOptions } from '../../reports/reportCharts';
import { useReport } from '../../reports/useReport';
import type { PageProps } from '../pageProps';
import './nonTradingDays.css';
import './tenantConnect.css';

/** The band behind a day the outlet did not trade. */
const NON_TRADING_BAND = 'rgba(95, 107, 124, 0.15)';

/** GMV columns and a transactions line a day; today's drawn apart ('so far'), non-trading days banded and labelled. */
function salesReviewChart(
  days: readonly SalesReviewDay[],
  today: string,
  shown: boolean,
  currency: CurrencyFormat,
): Highcharts.Options {
  const options = gmvTransactionsOptions(salesReviewMarks(days, today, dayLabel), days, shown, currency);
  const plotBands = days.flatMap((day, index) =>
    day.non_trading ? [{ from: index - 0.5, to: index + 0.5, color: NON_TRADING_BAND }] : [],
  );
  return { ...options, xAxis: { ...(options.xAxis as Highcharts.XAxisOptions), plotBands } };
}

function columnsFor(today: string): Column<SalesReviewDay>[] {
  return [
    { key: 'date', kind: 'date', label: 'Date', render: (row) => row.date },
    { key: 'gmv', kind: 'money', label: 'GMV', render: (row) => <Money value={row.gmv} /> },
    { key: 'transactions', kind: 'count', label: 'Transactions', render: (row) => formatNumber(row.transactions) },
    {
      key: 'note',
      kind: 'text',
      label: 'Note',
      value: (row) => salesReviewNote(row, today),
      text: (row) => salesReviewNote(row, today),
      render: (row) =>
        row.non_trading ? (
          <span className="sales-review-note" data-testid="sales-review-non-trading">
            <Tag minimal intent="warning">
              Not trading
            </Tag>
            {row.non_trading.reason} ({DECLARED_BY_LABELS[row.non_trading.declared_by]})
          </span>
        ) : (
          salesReviewNote(row, today)
        ),
    },
  ];
}

/**
 * Tenant Connect's sales review (where the tenant-only account lands): the top bar's outlet's daily GMV and
 * transactions over the header's date range in the outlet's currency, the days it did not trade marked with their
 * reason and today's figures so far; the table is the chart's text alternative, and exports as CSV.
 */
export function SalesReviewPage({ title }: PageProps) {
  const report = useReport(salesReviewMachine);
  const answer = report.dataOf('days');
  const panel = report.panelOf('days');
  const headerToday = useToday();
  const outletCurrency = useOutletCurrency();
  const currency = useMemo(() => (answer ? currencyFormat(answer.currency) : outletCurrency), [answer, outletCurrency]);
  const today = answer?.today ?? headerToday;
  const days = answer?.data ?? [];
  const chart = useMemo(
    () => salesReviewChart(days, today, answer !== undefined, currency),
    [days, today, answer, currency],
  );
  const columns = useMemo(() => columnsFor(today), [today]);

  return (
    <CurrencyContext.Provider value={currency}>
      <section className="tenant-connect-page" data-testid="sales-review-page">
        <DateRangeHeader title={title} />
        <div className="ntd-links">
          <Link
            href="/tenant-connect/sales-review/non-trading-day"
            className={Classes.BUTTON}
            data-testid="sales-review-non-trading-link"
          >
            <Icon icon="calendar" />
            <span className={Classes.BUTTON_TEXT}>Non-trading days</span>
          </Link>
          <ReportToolbar report={report} base="sales_review" files={() => [salesReviewCsv(days, today)]} />
        </div>
        {report.query === undefined && !report.loading ? (
          <Callout intent="primary" data-testid="sales-review-choose">
            Choose an Outlet to see its sales.
          </Callout>
        ) : null}
        <ReportBlock
          testId="sales-review"
          title="Daily GMV and Transactions"
          panel={panel}
          tablePlacement="below"
          chart={<Chart testId="sales-review-chart" options={chart} />}
          table={<ReportTable testId="sales-review-table" columns={columns} rows={days} rowKey={(row) => row.date} />}
        />
      </section>
    </CurrencyContext.Provider>
  );
}
