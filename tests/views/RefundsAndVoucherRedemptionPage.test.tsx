import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routeMetaFor } from '../../src/routes';
import {
  RefundsPage,
  VoucherRedemptionPage,
} from '../../src/views/pages/shopper-connect/RefundsAndVoucherRedemptionPage';
import {
  type Answer,
  BASE,
  bodyRows,
  captureDownloads,
  chartIn,
  chooseLast30Days,
  deferred,
  describeCalls,
  exportDownload,
  FILE_RANGE,
  headerCells,
  installNetwork,
  ok,
  RANGE,
  type RecordedCall,
  renderReportPage,
  seriesValues,
  serverError,
  sortedCalls,
  tableIn,
  tearDownReportPage,
  toastTexts,
  unzip,
  waitForLookups,
  waitForReport,
} from './mallReportHarness';

/*
 * The refunds and voucher redemption pages inside the app (§2: no mall header; their own Malls select and date
 * range, the header's filters). The default filters are both malls of client 3 over 9–15 March 2024, today the
 * 15th: each page asks its report of the range (one call for its three panels) and of the complete days 9–14
 * March (the KPIs' growth), and draws the KPIs, the days (today 'so far') and the outlets, sortable and exported.
 */

afterEach(tearDownReportPage);

const YESTERDAY = '2024-03-14';
const RANGE_DAYS = ['2024-03-09', '2024-03-10', '2024-03-11', '2024-03-12', '2024-03-13', '2024-03-14', '2024-03-15'];

/** 9–15 March: 82.50 in 3 receipts of GMV 1,650.00; 2–8 March 50.00 in 2 of GMV 1,000.00. */
const RANGE_REPORT = {
  current: { amount: 82.5, count: 3, gmv: 1650, transactions: 40 },
  previous: { amount: 50, count: 2, gmv: 1000, transactions: 30 },
  previous_start_time: '2024-03-02',
  previous_end_time: '2024-03-08',
  daily: RANGE_DAYS.map((date) => ({
    date,
    amount: { '2024-03-09': 12.5, '2024-03-11': 60, '2024-03-15': 10 }[date] ?? 0,
    count: { '2024-03-09': 1, '2024-03-11': 1, '2024-03-15': 1 }[date] ?? 0,
  })),
  outlets: [
    {
      outlet_id: 21,
      outlet_name: 'Shoe Box',
      mall_id: 2,
      mall_name: 'East',
      amount: 60,
      count: 1,
      gmv: 400,
      transactions: 5,
    },
    {
      outlet_id: 12,
      outlet_name: 'Kopi Corner',
      mall_id: 1,
      mall_name: 'Central',
      amount: 22.5,
      count: 2,
      gmv: 1250,
      transactions: 35,
    },
  ],
};
/** The complete days 9–14 March (72.50 in 2 of GMV 1,450.00) against 3–8 March (58.00 in 4 of GMV 1,160.00). */
const COMPLETE_REPORT = {
  ...RANGE_REPORT,
  current: { amount: 72.5, count: 2, gmv: 1450, transactions: 36 },
  previous: { amount: 58, count: 4, gmv: 1160, transactions: 32 },
  previous_start_time: '2024-03-03',
  daily: [],
  outlets: [],
};

const EMPTY_REPORT = {
  current: { amount: 0, count: 0, gmv: 1650, transactions: 40 },
  previous: { amount: 0, count: 0, gmv: 1000, transactions: 30 },
  previous_start_time: '2024-03-02',
  previous_end_time: '2024-03-08',
  daily: RANGE_DAYS.map((date) => ({ date, amount: 0, count: 0 })),
  outlets: [],
};

/** Answers the range with `range` and the complete days with COMPLETE_REPORT. */
function answers(range: unknown = RANGE_REPORT) {
  return (call: RecordedCall): Answer | undefined => {
    if (call.path !== '/api/mall_report/refund' && call.path !== '/api/mall_report/voucher') return undefined;
    return ok(call.query.get('end_time') === YESTERDAY ? COMPLETE_REPORT : range);
  };
}

const PAGE_FILTERS = { period: 'range', outletMode: 'disabled' } as const;
const renderRefunds = () => renderReportPage(RefundsPage, { title: 'Refunds', header: 'none', page: PAGE_FILTERS });
const renderVouchers = () =>
  renderReportPage(VoucherRedemptionPage, { title: 'Voucher Redemption', header: 'none', page: PAGE_FILTERS });

const RANGE_PARAMS: Record<string, string | string[]> = {
  client_id: BASE.client_id,
  mall_ids: BASE.mall_ids,
  start_time: RANGE.start,
  end_time: RANGE.end,
};
/** The range's report and its complete days' (today left out), each against the previous period. */
const pageCalls = (path: string, range = RANGE_PARAMS) => {
  const params = { ...range, compare: 'previous', like_for_like: 'false' };
  return sortedCalls([
    { path, params },
    { path, params: { ...params, end_time: YESTERDAY } },
  ]);
};

const text = (testId: string) => screen.getByTestId(testId).textContent ?? '';

describe('RefundsPage', { timeout: 30_000 }, () => {
  it('has its own malls and date range instead of the mall header (§2), and asks the range and its complete days', async () => {
    expect(routeMetaFor('/shopper-connect/refunds')?.header).toBe('none');
    expect(routeMetaFor('/shopper-connect/voucher-redemption')?.header).toBe('none');
    const network = installNetwork(answers());
    renderRefunds();
    expect(await screen.findByRole('heading', { level: 1, name: 'Refunds' })).toBeDefined();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.queryByTestId('mall-header')).toBeNull();
    const header = screen.getByTestId('amount-header');
    expect(within(header).getByTestId('malls-select')).toBeDefined();
    expect(within(header).getByTestId('date-range-button')).toBeDefined();
    await waitForReport();
    // One call of the range for the three panels, one of its complete days for the growth.
    expect(describeCalls(network.reportCalls())).toEqual(pageCalls('/api/mall_report/refund'));

    // Only Central, then the last 30 days: asked again, as the header's filters.
    network.calls.length = 0;
    await waitForLookups();
    fireEvent.click(screen.getByTestId('malls-select'));
    fireEvent.click(screen.getByTestId('malls-deselect-all'));
    fireEvent.click(screen.getByTestId('malls-option-1'));
    fireEvent.click(screen.getByTestId('malls-apply'));
    await waitFor(() => expect(network.reportCalls()).toHaveLength(2));
    await waitForReport();
    expect(describeCalls(network.reportCalls())).toEqual(
      pageCalls('/api/mall_report/refund', { ...RANGE_PARAMS, mall_ids: ['1'] }),
    );
    network.calls.length = 0;
    chooseLast30Days();
    await waitFor(() => expect(network.reportCalls()).toHaveLength(2));
    await waitForReport();
    expect(describeCalls(network.reportCalls())).toEqual(
      pageCalls('/api/mall_report/refund', { ...RANGE_PARAMS, mall_ids: ['1'], start_time: '2024-02-15' }),
    );
  });

  it('shows the KPIs of the range with their growth over its complete days, and the periods compared', async () => {
    installNetwork(answers());
    renderRefunds();
    await waitForReport();
    expect(text('kpi-amount')).toContain('Refund Amount');
    expect(text('kpi-amount-value')).toBe('$82.50');
    // (72.50 − 58.00) / 58.00 = 25.00 %; (2 − 4) / 4 = −50.00 %; 5.00 % of GMV against 5.00 %: 0.00 %.
    expect(text('kpi-amount-growth')).toBe('▲ 25.00% vs 3–8 Mar (today left out)');
    expect(text('kpi-count-value')).toBe('3');
    expect(text('kpi-count')).toContain('Refund Transactions');
    expect(text('kpi-count-growth')).toBe('▼ -50.00% vs 3–8 Mar (today left out)');
    // 82.50 / 1,650.00 = 5.0 %.
    expect(text('kpi-rate-value')).toBe('5.0%');
    expect(text('kpi-rate')).toContain('Refund Rate');
    expect(text('kpi-rate-growth')).toBe('0.00% vs 3–8 Mar (today left out)');
    expect(text('amount-comparison')).toBe('Growth: 9–14 Mar against 3–8 Mar; today is left out until it is over.');
  });

  it('draws the days with today so far, and the outlets, in tables sortable by every column', async () => {
    installNetwork(answers());
    renderRefunds();
    await waitForReport();
    const daily = tableIn('amount-daily-table');
    expect(headerCells(daily)).toEqual(['Date', 'Refund Amount', 'Refund Transactions']);
    expect(bodyRows(daily)).toEqual([
      ['2024-03-09', '$12.50', '1'],
      ['2024-03-10', '$0.00', '0'],
      ['2024-03-11', '$60.00', '1'],
      ['2024-03-12', '$0.00', '0'],
      ['2024-03-13', '$0.00', '0'],
      ['2024-03-14', '$0.00', '0'],
      ['2024-03-15 (so far)', '$10.00', '1'],
    ]);
    const chart = chartIn('amount-daily-chart');
    expect(chart.series.map((series) => series.name)).toEqual(['Refund Amount', 'Refund Transactions']);
    expect(seriesValues(chart, 0)).toEqual([12.5, 0, 60, 0, 0, 0, 10]);
    expect(seriesValues(chart, 1)).toEqual([1, 0, 1, 0, 0, 0, 1]);
    expect(chart.xAxis[0]?.categories?.at(-1)).toBe('15/03 (so far)');

    const outlets = tableIn('amount-outlets-table');
    expect(headerCells(outlets)).toEqual([
      'Outlet',
      'Mall',
      'Refund Amount',
      'Refund Transactions',
      'Refund Rate',
      'GMV',
    ]);
    expect(bodyRows(outlets)).toEqual([
      ['Shoe Box', 'East', '$60.00', '1', '15.0%', '$400.00'],
      ['Kopi Corner', 'Central', '$22.50', '2', '1.8%', '$1,250.00'],
    ]);
    // The outlet opens its own page.
    expect(within(outlets).getByRole('link', { name: 'Kopi Corner' }).getAttribute('href')).toContain(
      '/shopper-connect/mall-outlet/12',
    );
    const sortBy = (name: string) =>
      fireEvent.click(within(outlets).getByRole('button', { name: new RegExp(`^${name}`) }));
    const firstColumn = () => bodyRows(outlets).map((row) => row[0]);
    // Text sorts ascending first, figures descending; a second click reverses.
    sortBy('Outlet');
    expect(firstColumn()).toEqual(['Kopi Corner', 'Shoe Box']);
    expect(
      within(outlets)
        .getByRole('columnheader', { name: /^Outlet/ })
        .getAttribute('aria-sort'),
    ).toBe('ascending');
    sortBy('Outlet');
    expect(firstColumn()).toEqual(['Shoe Box', 'Kopi Corner']);
    for (const [column, descending] of [
      ['Mall', ['Shoe Box', 'Kopi Corner']],
      ['Refund Amount', ['Shoe Box', 'Kopi Corner']],
      ['Refund Transactions', ['Kopi Corner', 'Shoe Box']],
      ['Refund Rate', ['Shoe Box', 'Kopi Corner']],
      ['GMV', ['Kopi Corner', 'Shoe Box']],
    ] as const) {
      sortBy(column);
      // Mall is text: East before Central descends only on the second click.
      if (column === 'Mall') sortBy(column);
      expect(firstColumn()).toEqual(descending);
    }
    // The days sort too: the largest amount first.
    fireEvent.click(within(daily).getByRole('button', { name: /^Refund Amount/ }));
    expect(bodyRows(daily)[0]).toEqual(['2024-03-11', '$60.00', '1']);
  });

  it('exports the KPIs, the days and the outlets as CSV files with title-cased headers', async () => {
    installNetwork(answers());
    const downloads = captureDownloads();
    renderRefunds();
    await waitForReport();
    const download = await exportDownload(downloads, () => fireEvent.click(screen.getByTestId('export-csv')));
    expect(download.fileName).toBe(`refunds_${FILE_RANGE}.zip`);
    const files = await unzip(download.blob);
    expect(Object.keys(files)).toEqual([
      `daily_${FILE_RANGE}.csv`,
      `kpis_${FILE_RANGE}.csv`,
      `outlets_${FILE_RANGE}.csv`,
    ]);
    expect(files[`daily_${FILE_RANGE}.csv`]).toEqual([
      'Date,Refund Amount,Refund Transactions,Currency',
      ...RANGE_REPORT.daily.map((day) => `${day.date},${day.amount},${day.count},SGD`),
    ]);
    expect(files[`outlets_${FILE_RANGE}.csv`]).toEqual([
      'Outlet,Mall,Refund Amount,Refund Transactions,Refund Rate Percent,GMV,Currency',
      'Shoe Box,East,60,1,15,400,SGD',
      'Kopi Corner,Central,22.5,2,1.8,1250,SGD',
    ]);
    expect(files[`kpis_${FILE_RANGE}.csv`]).toEqual([
      'Measure,Current,Compared Period,Compared,Previous Period,Previous,Currency',
      'Refund Amount,82.5,2024-03-09 to 2024-03-14,72.5,2024-03-03 to 2024-03-08,58,SGD',
      'Refund Transactions,3,2024-03-09 to 2024-03-14,2,2024-03-03 to 2024-03-08,4,SGD',
      'Refund Rate (%),5,2024-03-09 to 2024-03-14,5,2024-03-03 to 2024-03-08,5,SGD',
    ]);
  });

  it('draws a skeleton for each panel while it loads, never zeros or No Data', async () => {
    const answer = deferred<{ status: number; body: unknown }>();
    installNetwork(() => answer.promise);
    renderRefunds();
    await waitFor(() => expect(screen.getAllByTestId('panel-loading')).toHaveLength(5));
    expect(screen.queryByText('No Data')).toBeNull();
    expect(screen.queryByTestId('kpi-amount-value')).toBeNull();
    expect(screen.getByTestId('amount-header').getAttribute('aria-busy')).toBe('true');
    answer.resolve(ok(RANGE_REPORT));
    await waitForReport();
    expect(screen.queryByTestId('panel-loading')).toBeNull();
  });

  it("says 'No Data' for the days and outlets of a range without refunds, and 0 in the KPIs", async () => {
    installNetwork(answers(EMPTY_REPORT));
    renderRefunds();
    await waitForReport();
    expect(bodyRows(tableIn('amount-daily-table'))).toEqual([['No Data']]);
    expect(bodyRows(tableIn('amount-outlets-table'))).toEqual([['No Data']]);
    expect(text('kpi-amount-value')).toBe('$0.00');
    expect(text('kpi-rate-value')).toBe('0.0%');
    expect(chartIn('amount-daily-chart').series[0]?.points).toHaveLength(0);
  });

  it('fails the panels of a failed call, with the toast and a retry that loads them again', async () => {
    const network = installNetwork(() => serverError());
    renderRefunds();
    await waitFor(() => expect(screen.getAllByTestId('panel-retry')).toHaveLength(3));
    await waitFor(() => expect(toastTexts()).toEqual(['Refunds error occurs. Please try again later.']));
    expect(screen.queryByText('No Data')).toBeNull();
    network.answerReports(answers());
    fireEvent.click(within(screen.getByTestId('amount-outlets')).getByTestId('panel-retry'));
    await waitFor(() => expect(bodyRows(tableIn('amount-outlets-table'))).toHaveLength(2));
    // The other panels keep their retry.
    expect(screen.getAllByTestId('panel-retry')).toHaveLength(2);
  });

  it("shows each currency's figures when the malls' currencies cannot be converted (409)", async () => {
    const reason = 'No exchange rate to SGD for MYR in March 2024.';
    installNetwork(
      () => ({
        status: 409,
        body: {
          statusCode: 409,
          error: 'Conflict',
          message: reason,
          by_currency: [
            { currency: 'MYR', gmv: 48210.5, transactions: 812 },
            { currency: 'SGD', gmv: 10250, transactions: 240 },
          ],
        },
      }),
      [
        { id: 1, name: 'Central', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
        { id: 2, name: 'Bukit', currency: 'MYR', time_zone: 'Asia/Kuala_Lumpur', country: 'MY' },
      ],
    );
    renderRefunds();
    await waitFor(() => expect(screen.getAllByTestId('panel-by-currency')).toHaveLength(3));
    expect(within(screen.getByTestId('amount-daily')).getByText(reason)).toBeDefined();
    expect(bodyRows(within(screen.getByTestId('amount-daily')).getByTestId('panel-by-currency'))).toEqual([
      ['RM48,210.50', '812'],
      ['$10,250.00', '240'],
    ]);
  });

  it('says the reporting currency of malls in several currencies, and shows the money in it', async () => {
    installNetwork(answers(), [
      { id: 1, name: 'Central', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
      { id: 2, name: 'Bukit', currency: 'MYR', time_zone: 'Asia/Kuala_Lumpur', country: 'MY' },
    ]);
    // The client's reporting currency (the harness's network answers no /clients).
    const inner = globalThis.fetch;
    vi.stubGlobal('fetch', async (request: Request) =>
      new URL(request.url).pathname === '/clients'
        ? new Response(JSON.stringify([{ id: 3, name: 'Client 3', reporting_currency: 'SGD' }]), {
            status: 200,
            headers: { 'Content-Type': 'application/json' },
          })
        : inner(request),
    );
    renderRefunds();
    await waitForReport();
    await waitFor(() => expect(screen.queryByTestId('currency-note')).not.toBeNull());
    expect(text('currency-note')).toBe(
      'Figures in SGD; MYR converted per outlet and day at each month’s rate and rounded only for display, so the breakdowns add up to the totals.',
    );
    expect(text('kpi-amount-value')).toBe('$82.50');
  });
});

describe('VoucherRedemptionPage', { timeout: 30_000 }, () => {
  it('asks the voucher report and names its figures: voucher amount, voucher transactions, share of GMV', async () => {
    const network = installNetwork(answers());
    renderVouchers();
    expect(await screen.findByRole('heading', { level: 1, name: 'Voucher Redemption' })).toBeDefined();
    await waitForReport();
    expect(describeCalls(network.reportCalls())).toEqual(pageCalls('/api/mall_report/voucher'));
    expect(text('kpi-amount')).toContain('Voucher Amount');
    expect(text('kpi-amount-value')).toBe('$82.50');
    expect(text('kpi-count')).toContain('Voucher Transactions');
    expect(text('kpi-rate')).toContain('Voucher Share of GMV');
    expect(screen.getByTestId('amount-daily').textContent).toContain('Voucher Redemption by Day');
    expect(headerCells(tableIn('amount-outlets-table'))).toEqual([
      'Outlet',
      'Mall',
      'Voucher Amount',
      'Voucher Transactions',
      'Voucher Share of GMV',
      'GMV',
    ]);
  });

  it('says its own failure', async () => {
    installNetwork(() => serverError());
    renderVouchers();
    await waitFor(() => expect(screen.getAllByTestId('panel-retry')).toHaveLength(3));
    await waitFor(() => expect(toastTexts()).toEqual(['Voucher redemption error occurs. Please try again later.']));
  });
});
