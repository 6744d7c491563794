import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type Highcharts from 'highcharts';
import { afterEach, describe, expect, it } from 'vitest';
import { previousPeriod, round2 } from '../../src/domain/reports';
import { exportCsvFiles } from '../../src/machines/reportExport';
import { MallGmvPage } from '../../src/views/pages/shopper-connect/MallGmvPage';
import { MallHomePage } from '../../src/views/pages/shopper-connect/MallHomePage';
import { MallPaymentMethodsPage } from '../../src/views/pages/shopper-connect/MallPaymentMethodsPage';
import {
  BASE,
  blobText,
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
  MALLS,
  ok,
  PERMISSIONS,
  RANGE,
  type RecordedCall,
  renderReportPage,
  seriesValues,
  serverError,
  sortedCalls,
  TODAY,
  tableIn,
  tearDownReportPage,
  toastTexts,
  unzip,
  waitForLookups,
  waitForReport,
  xAxisLabels,
} from './mallReportHarness';

/*
 * The Shopper Connect pages with the mall header (mall home, mall GMV, payment methods): their calls, what they
 * draw from the answers, 'No Data', the failure toast, the disabled header while loading and the CSV export.
 * The Header V2 pages are in MallReportPages.headerV2.test.tsx.
 */

afterEach(tearDownReportPage);

async function selectMalls(...ids: number[]): Promise<void> {
  await waitForLookups();
  fireEvent.click(screen.getByTestId('malls-select'));
  fireEvent.click(screen.getByTestId('malls-deselect-all'));
  for (const id of ids) fireEvent.click(screen.getByTestId(`malls-option-${id}`));
  fireEvent.click(screen.getByTestId('malls-apply'));
}

function chartText(testId: string): string {
  return screen.getByTestId(testId).textContent ?? '';
}

/* ================================================================ mall home */

const CURRENT_MALLS = [
  { mall_id: 1, mall_name: 'Central', gmv: 1500.25, transactions: 30, average_transaction_value: 50.01 },
  { mall_id: 2, mall_name: 'East', gmv: 500.25, transactions: 20, average_transaction_value: 25.01 },
];
/** The complete days of RANGE (today left out). */
const COMPLETE_MALLS = [
  { mall_id: 1, mall_name: 'Central', gmv: 1200.25, transactions: 28, average_transaction_value: 42.87 },
  { mall_id: 2, mall_name: 'East', gmv: 400.25, transactions: 16, average_transaction_value: 25.02 },
];
const PREVIOUS_MALLS = [
  { mall_id: 1, mall_name: 'Central', gmv: 2500, transactions: 40, average_transaction_value: 62.5 },
];
const YESTERDAY = '2024-03-14';
/** RANGE's complete days (up to yesterday) and the 6 days just before them: what the growth compares. */
const COMPLETE_RANGE = { start: RANGE.start, end: YESTERDAY } as const;
const HOME_DAILY = [
  { date: '2024-03-09', gmv: 1234.5, transactions: 1200 },
  { date: '2024-03-10', gmv: 766, transactions: 0 },
];
const HOME_OUTLETS = Array.from({ length: 11 }, (_, index) => ({
  key: String(100 + index),
  name: `Outlet ${index + 1}`,
  gmv: 1100 - index * 100,
  transactions: 11 - index,
  average_transaction_value: 100,
}));
const HOME_PAYMENTS = [
  { payment_method: 'VISA', sum: 1200.5 },
  { payment_method: 'CASH', sum: 800 },
];

/**
 * The committed ranges (ending today, or `ended`) answer CURRENT_MALLS, RANGE's complete days COMPLETE_MALLS and
 * the periods before them PREVIOUS_MALLS (the members likewise).
 */
function mallHomeAnswersEnding(ended: string) {
  return (call: RecordedCall) => {
    const end = call.query.get('end_time');
    const kind = end === RANGE.end || end === ended ? 'current' : end === YESTERDAY ? 'complete' : 'previous';
    switch (call.path) {
      case '/api/mall_report/growth': {
        // The growth's days (the complete days, or the whole range that ended) against as many days before them.
        const start = call.query.get('start_time') ?? '';
        const last = end ?? '';
        const before = previousPeriod(start, last);
        const side = kind === 'complete' ? COMPLETE_MALLS : CURRENT_MALLS;
        const members = kind === 'complete' ? 800.25 : 1500.375;
        return ok({
          compare: 'previous',
          current: growthSide(side, members, { start, end: last }),
          compared: growthSide(PREVIOUS_MALLS, 0, before),
          aligned: [],
          like_for_like: null,
        });
      }
      case '/api/mall_report/mall':
        return ok({ data: { current: CURRENT_MALLS, complete: COMPLETE_MALLS, previous: PREVIOUS_MALLS }[kind] });
      case '/api/mall_report/member/overall':
        return ok(
          {
            current: {
              data: [{ period: RANGE.start, member: 1500.375, non_member: 500.125 }],
              total: { member: 1500.375, non_member: 500.125 },
            },
            complete: {
              data: [{ period: RANGE.start, member: 800.25, non_member: 800.25 }],
              total: { member: 800.25, non_member: 800.25 },
            },
            previous: { data: [], total: { member: 0, non_member: 0 } },
          }[kind],
        );
      default:
        return otherMallHomeAnswers(call);
    }
  };
}

const mallHomeAnswers = mallHomeAnswersEnding(RANGE.end);

/** A side of GET /api/mall_report/growth: the malls' sums over its days. */
function growthSide(malls: readonly { gmv: number; transactions: number }[], memberGmv: number, days: Span) {
  const gmv = round2(malls.reduce((sum, mall) => sum + mall.gmv, 0));
  const transactions = malls.reduce((sum, mall) => sum + mall.transactions, 0);
  return {
    start_time: days.start,
    end_time: days.end,
    days: 6,
    has_data: transactions > 0,
    gmv,
    transactions,
    average_transaction_value: transactions === 0 ? 0 : round2(gmv / transactions),
    member_gmv: memberGmv,
  };
}

function otherMallHomeAnswers(call: RecordedCall) {
  switch (call.path) {
    case '/api/mall_report/daily':
      return ok({ data: HOME_DAILY });
    case '/api/mall_report/outlet':
      return ok({ data: HOME_OUTLETS });
    case '/api/mall_report/payment_method/overall':
      return ok({ data: HOME_PAYMENTS });
    default:
      return undefined;
  }
}

type Span = { start: string; end: string };

/**
 * The mall home's calls: the KPIs of the whole range, their growth over its complete days (`complete`: the range
 * itself when it has ended; none when the range is today alone) in one call; the daily trend, outlets and payments.
 */
function mallHomeCalls(base: Record<string, string | string[]>, growth: { complete?: Span }) {
  const { complete } = growth;
  return sortedCalls([
    { path: '/api/mall_report/mall', params: { ...base, rank_by: 'gmv' } },
    { path: '/api/mall_report/member/overall', params: { ...base, time_range: 'daily', metric: 'gmv' } },
    ...(complete
      ? [
          {
            path: '/api/mall_report/growth',
            params: {
              ...base,
              start_time: complete.start,
              end_time: complete.end,
              compare: 'previous',
              like_for_like: 'false',
            },
          },
        ]
      : []),
    { path: '/api/mall_report/daily', params: base },
    { path: '/api/mall_report/outlet', params: { ...base, group_by: 'outlet' } },
    { path: '/api/mall_report/payment_method/overall', params: { ...base, limit: '10' } },
  ]);
}

const renderMallHome = () => renderReportPage(MallHomePage, { title: 'Mall Home', header: 'mall' });

describe('MallHomePage', { timeout: 30_000 }, () => {
  it('asks for the KPIs (the range, its complete days and as many days before), the daily trend, the outlets and the payment methods of the committed filters', async () => {
    const network = installNetwork(mallHomeAnswers);
    renderMallHome();
    expect(await screen.findByRole('heading', { name: 'Mall Home' })).toBeDefined();
    await waitForReport();
    const growth = { complete: COMPLETE_RANGE };
    expect(describeCalls(network.reportCalls())).toEqual(mallHomeCalls(BASE, growth));

    // Apply only Central: everything is asked again for mall 1.
    network.calls.length = 0;
    await selectMalls(1);
    await waitFor(() => expect(network.reportCalls()).toHaveLength(6));
    await waitForReport();
    expect(describeCalls(network.reportCalls())).toEqual(mallHomeCalls({ ...BASE, mall_ids: ['1'] }, growth));

    // Last 30 days: its 29 complete days, compared with the 29 days before them.
    network.calls.length = 0;
    chooseLast30Days();
    await waitFor(() => expect(network.reportCalls()).toHaveLength(6));
    await waitForReport();
    expect(describeCalls(network.reportCalls())).toEqual(
      mallHomeCalls(
        { ...BASE, mall_ids: ['1'], start_time: '2024-02-15' },
        { complete: { start: '2024-02-15', end: YESTERDAY } },
      ),
    );
  });

  it('shows the KPIs of the whole range, with their growth over its complete days against as many days before (§9), 0.00% when the previous figure is zero', async () => {
    const network = installNetwork(mallHomeAnswers);
    renderMallHome();
    await waitForReport();
    const rangesOf = (path: string) =>
      network
        .reportCalls()
        .filter((call) => call.path === path)
        .map((call) => `${call.query.get('start_time')} ${call.query.get('end_time')}`)
        .sort();
    // The range up to today for the figures; 9–14 Mar (today left out) against the 6 days before for the growth.
    expect(rangesOf('/api/mall_report/mall')).toEqual(['2024-03-09 2024-03-15']);
    expect(rangesOf('/api/mall_report/member/overall')).toEqual(['2024-03-09 2024-03-15']);
    expect(rangesOf('/api/mall_report/growth')).toEqual(['2024-03-09 2024-03-14']);

    // GMV 2,000.50 over the range; 1,600.50 over its complete days, 2,500 before: -35.98%.
    expect(screen.getByTestId('kpi-gmv-value').textContent).toBe('$2,000.50');
    const gmvGrowth = screen.getByTestId('kpi-gmv-growth');
    expect(gmvGrowth.textContent).toBe('▼ -35.98% vs 3–8 Mar (today left out)');
    expect(gmvGrowth.className).toBe('bp6-text-danger');
    // The card says the two figures the rate compares and their days (the headline's 2,000.50 holds today).
    expect(screen.getByTestId('kpi-gmv-compared').textContent).toBe('$1,600.50, 9–14 Mar vs $2,500.00, 3–8 Mar');
    // Transactions 50 over the range; 44 over its complete days, 40 before: +10.00%.
    expect(screen.getByTestId('kpi-transactions-value').textContent).toBe('50');
    expect(screen.getByTestId('kpi-transactions-growth').textContent).toBe('▲ 10.00% vs 3–8 Mar (today left out)');
    expect(screen.getByTestId('kpi-transactions-growth').className).toBe('bp6-text-success');
    // Average transaction value 40.01 over the range; 1600.5 / 44 = 36.38 over its complete days, 62.50 before:
    // -41.79%.
    expect(screen.getByTestId('kpi-atv-value').textContent).toBe('$40.01');
    expect(screen.getByTestId('kpi-atv-growth').textContent).toBe('▼ -41.79% vs 3–8 Mar (today left out)');
    // Member share 75% over the range (50% over its complete days); the days before had no sales (share 0): 0.00%,
    // neither up nor down.
    expect(screen.getByTestId('kpi-member-share-value').textContent).toBe('75.0%');
    expect(screen.getByTestId('kpi-member-share-growth').textContent).toBe('0.00% vs 3–8 Mar (today left out)');
    expect(screen.getByTestId('kpi-member-share-growth').className).toBe('bp6-text-muted');
    expect(screen.getByTestId('kpi-member-share-compared').textContent).toBe('50.0%, 9–14 Mar vs 0.0%, 3–8 Mar');
  });

  it('asks the growth again with the comparison chosen, and says what it compares', async () => {
    const network = installNetwork((call) => {
      if (call.path !== '/api/mall_report/growth' || call.query.get('compare') !== 'festival_aligned') {
        return mallHomeAnswers(call);
      }
      return ok({
        compare: 'festival_aligned',
        current: growthSide(COMPLETE_MALLS, 800.25, COMPLETE_RANGE),
        compared: growthSide(PREVIOUS_MALLS, 0, { start: '2023-03-11', end: '2023-03-16' }),
        aligned: [],
        like_for_like: call.query.get('like_for_like') === 'true' ? { kept: 3, left_out: 1 } : null,
      });
    });
    renderMallHome();
    await waitForReport();
    network.calls.length = 0;
    fireEvent.change(screen.getByTestId('comparison-rule'), { target: { value: 'festival_aligned' } });
    await waitFor(() => expect(network.reportCalls()).toHaveLength(6));
    await waitForReport();
    const growthCall = network.reportCalls().find((call) => call.path === '/api/mall_report/growth');
    expect(growthCall?.query.get('compare')).toBe('festival_aligned');
    expect(screen.getByTestId('kpi-gmv-growth').textContent).toBe(
      '▼ -35.98% vs 11–16 Mar 2023, same weekdays last year: no festival in the range (today left out)',
    );
    expect(screen.getByTestId('kpi-gmv-compared').textContent).toBe('$1,600.50, 9–14 Mar vs $2,500.00, 11–16 Mar 2023');
    // Like-for-like: only the outlets trading through both; it says how many it left out.
    network.calls.length = 0;
    fireEvent.click(screen.getByTestId('comparison-like-for-like'));
    await waitFor(() => expect(network.reportCalls()).toHaveLength(6));
    await waitForReport();
    expect(screen.getByTestId('kpi-gmv-growth').textContent).toContain('like-for-like: 1 outlet left out');
  });

  it('compares a range that ended before today whole, with the period of equal length before it', async () => {
    const ended = { start: '2024-03-01', end: '2024-03-07' };
    const network = installNetwork(mallHomeAnswersEnding(ended.end));
    const page = renderMallHome();
    await waitForReport();
    network.calls.length = 0;
    act(() => page.header().send({ type: 'dateRange.change', range: ended }));
    await waitFor(() => expect(network.reportCalls()).toHaveLength(6));
    await waitForReport();
    expect(describeCalls(network.reportCalls())).toEqual(
      mallHomeCalls({ ...BASE, start_time: ended.start, end_time: ended.end }, { complete: ended }),
    );
    // GMV 2,000.50 against 2,500: -19.98%; transactions 50 against 40: +25.00%.
    expect(screen.getByTestId('kpi-gmv-value').textContent).toBe('$2,000.50');
    expect(screen.getByTestId('kpi-gmv-growth').textContent).toBe('▼ -19.98% vs 23–29 Feb');
    expect(screen.getByTestId('kpi-transactions-growth').textContent).toBe('▲ 25.00% vs 23–29 Feb');
  });

  it("gives no growth rate when the range is only today: 'No complete day to compare yet.'", async () => {
    const network = installNetwork(mallHomeAnswers);
    const page = renderMallHome();
    await waitForReport();
    network.calls.length = 0;
    act(() => page.header().send({ type: 'dateRange.change', range: { start: TODAY, end: TODAY } }));
    await waitFor(() => expect(network.reportCalls()).toHaveLength(5));
    await waitForReport();
    expect(describeCalls(network.reportCalls())).toEqual(
      mallHomeCalls({ ...BASE, start_time: TODAY, end_time: TODAY }, {}),
    );
    expect(screen.getByTestId('kpi-gmv-value').textContent).toBe('$2,000.50');
    for (const kpi of ['gmv', 'transactions', 'atv', 'member-share']) {
      const growth = screen.getByTestId(`kpi-${kpi}-growth`);
      expect(growth.textContent).toBe('No complete day to compare yet.');
      expect(growth.className).toBe('bp6-text-muted');
    }
  });

  it("writes money with the malls' currency symbol when they share one, '$' when they do not", async () => {
    installNetwork(
      mallHomeAnswers,
      MALLS.map((mall) => ({ ...mall, currency: 'MYR' })),
    );
    renderMallHome();
    await waitForReport();
    expect(screen.getByTestId('kpi-gmv-value').textContent).toBe('RM2,000.50');
    expect(screen.getByTestId('kpi-atv-value').textContent).toBe('RM40.01');
    expect(bodyRows(within(screen.getByTestId('payment-split')).getByRole('table'))[0]?.[1]).toMatch(/^RM/);
    cleanup();

    // Rupiah has no minor units: no decimals; the money axis and tooltip carry the currency.
    installNetwork(
      mallHomeAnswers,
      MALLS.map((mall) => ({ ...mall, currency: 'IDR' })),
    );
    renderMallHome();
    await waitForReport();
    expect(screen.getByTestId('kpi-gmv-value').textContent).toBe('Rp2,001');
    const trend = chartIn('daily-trend-chart');
    expect(trend.yAxis[0]?.options.title?.text).toBe('GMV (Rp)');
    expect((trend.series[0]?.options as Highcharts.SeriesColumnOptions | undefined)?.tooltip).toMatchObject({
      valuePrefix: 'Rp',
      valueDecimals: 0,
    });
    cleanup();

    installNetwork(mallHomeAnswers, [
      { ...MALLS[0], currency: 'MYR' },
      { ...MALLS[1], currency: 'IDR' },
    ]);
    renderMallHome();
    await waitForReport();
    expect(screen.getByTestId('kpi-gmv-value').textContent).toBe('$2,000.50');
  });

  it('draws the daily trend, the top 10 outlets and the payment split, with the formatted figures in the tables beside them', async () => {
    installNetwork(mallHomeAnswers);
    renderMallHome();
    await waitForReport();

    const trend = chartIn('daily-trend-chart');
    expect(trend.xAxis[0]?.categories).toEqual(['09/03', '10/03']);
    expect(trend.series.map((series) => series.name)).toEqual(['GMV', 'Transactions']);
    expect(seriesValues(trend, 0)).toEqual([1234.5, 766]);
    expect(seriesValues(trend, 1)).toEqual([1200, 0]);
    expect(headerCells(tableIn('daily-trend'))).toEqual(['Date', 'GMV', 'Transactions']);
    expect(bodyRows(tableIn('daily-trend'))).toEqual([
      ['2024-03-09', '$1,234.50', '1,200'],
      ['2024-03-10', '$766.00', '0'],
    ]);

    const ranking = chartIn('outlet-ranking-chart');
    expect(ranking.xAxis[0]?.categories).toEqual(HOME_OUTLETS.slice(0, 10).map((row) => row.name));
    expect(seriesValues(ranking)).toEqual([1100, 1000, 900, 800, 700, 600, 500, 400, 300, 200]);
    const outletRows = bodyRows(tableIn('outlet-ranking'));
    expect(outletRows).toHaveLength(10);
    expect(outletRows[0]).toEqual(['Outlet 1', '$1,100.00', '11']);
    expect(outletRows[9]).toEqual(['Outlet 10', '$200.00', '2']);
    expect(screen.getByTestId('outlet-ranking').textContent).not.toContain('Outlet 11');

    const split = chartIn('payment-split-chart');
    expect(split.series[0]?.points.map((point) => [point.name, point.y])).toEqual([
      ['VISA', 1200.5],
      ['CASH', 800],
    ]);
    expect(bodyRows(tableIn('payment-split'))).toEqual([
      ['VISA', '$1,200.50'],
      ['CASH', '$800.00'],
    ]);
    expect(chartText('daily-trend-chart')).not.toContain('No Data');
  });

  it("says 'No Data' in its charts and tables when there were no sales", async () => {
    installNetwork((call) => {
      if (call.path === '/api/mall_report/member/overall') return ok({ data: [], total: { member: 0, non_member: 0 } });
      if (call.path === '/api/mall_report/daily') return ok({ data: [{ date: RANGE.start, gmv: 0, transactions: 0 }] });
      if (call.path === '/api/mall_report/growth') {
        return ok({
          compare: 'previous',
          current: growthSide([], 0, COMPLETE_RANGE),
          compared: growthSide([], 0, { start: '2024-03-03', end: '2024-03-08' }),
          aligned: [],
          like_for_like: null,
        });
      }
      return ok({ data: [] });
    });
    renderMallHome();
    await waitForReport();
    for (const block of ['daily-trend', 'outlet-ranking', 'payment-split']) {
      expect(bodyRows(tableIn(block))).toEqual([['No Data']]);
      expect(chartText(`${block}-chart`)).toContain('No Data');
    }
    expect(seriesValues(chartIn('daily-trend-chart'))).toEqual([]);
    // No sale at all: the figures say so rather than $0.00, and the growth has nothing to compare (§9's 0.00%).
    expect(screen.getByTestId('kpi-gmv-value').textContent).toBe('No Data');
    expect(screen.getByTestId('kpi-gmv-growth').textContent).toBe(
      '0.00% vs 3–8 Mar (today left out) · nothing to compare',
    );
    expect(screen.getByTestId('kpi-gmv-compared').textContent).toBe('no data, 9–14 Mar vs no data, 3–8 Mar');
  });

  it("fails only the panel whose call failed, with 'Mall home error occurs. Please try again later.' once and a retry", async () => {
    const network = installNetwork((call) =>
      call.path === '/api/mall_report/payment_method/overall' ? serverError() : mallHomeAnswers(call),
    );
    renderMallHome();
    await waitFor(() => expect(toastTexts()).toEqual(['Mall home error occurs. Please try again later.']));
    await waitForReport();
    // The failed panel says so and offers a retry; the others keep their figures.
    const payments = screen.getByTestId('payment-split');
    expect(payments.textContent).toContain('Payment Methods could not be loaded.');
    expect(within(payments).queryByTestId('payment-split-chart')).toBeNull();
    expect(bodyRows(tableIn('daily-trend'))[0]).toEqual(['2024-03-09', '$1,234.50', '1,200']);
    expect(screen.getByTestId('kpi-gmv-value').textContent).toBe('$2,000.50');
    // The header is usable again (not left disabled by the failed fetch).
    expect(screen.getByTestId('mall-header').getAttribute('aria-busy')).toBe('false');

    // Retry loads that panel alone again.
    network.calls.length = 0;
    network.answerReports(mallHomeAnswers);
    fireEvent.click(within(payments).getByTestId('panel-retry'));
    await waitFor(() => expect(bodyRows(tableIn('payment-split')).length).toBeGreaterThan(0));
    await waitFor(() => expect(within(payments).queryByTestId('panel-retry')).toBeNull());
    expect(network.reportCalls().map((call) => call.path)).toEqual(['/api/mall_report/payment_method/overall']);
    expect(bodyRows(tableIn('payment-split'))).not.toEqual([['No Data']]);

    // Failing again (another Apply) does not stack a second toast.
    network.answerReports((call) =>
      call.path === '/api/mall_report/payment_method/overall' ? serverError() : mallHomeAnswers(call),
    );
    network.calls.length = 0;
    await selectMalls(2);
    await waitFor(() => expect(network.reportCalls()).toHaveLength(6));
    await waitForReport();
    expect(toastTexts()).toEqual(['Mall home error occurs. Please try again later.']);
  });

  it('shows a spinner and disables the mall header and the export while its calls are pending', async () => {
    const pending = deferred<{ status: number; body: unknown }>();
    const network = installNetwork((call) =>
      call.path === '/api/mall_report/daily' ? pending.promise : mallHomeAnswers(call),
    );
    renderMallHome();
    await waitFor(() => expect(network.reportCalls()).toHaveLength(6));
    expect(screen.getByTestId('report-loading')).toBeDefined();
    expect(screen.getByTestId('mall-header').getAttribute('aria-busy')).toBe('true');
    expect(screen.getByTestId('malls-select')).toHaveProperty('disabled', true);
    expect(screen.getByTestId('date-range-button')).toHaveProperty('disabled', true);
    expect(screen.getByTestId('export-csv')).toHaveProperty('disabled', true);
    // The pending panel shows a skeleton, not 'No Data'; the answered ones their figures.
    expect(within(screen.getByTestId('daily-trend')).getByTestId('panel-loading')).toBeDefined();
    expect(within(screen.getByTestId('daily-trend')).queryByText('No Data')).toBeNull();
    await waitFor(() => expect(within(screen.getByTestId('outlet-ranking')).queryByTestId('panel-loading')).toBeNull());

    await act(async () => pending.resolve(ok({ data: HOME_DAILY })));
    await waitForReport();
    expect(screen.getByTestId('mall-header').getAttribute('aria-busy')).toBe('false');
    expect(screen.getByTestId('malls-select')).toHaveProperty('disabled', false);
    expect(screen.getByTestId('date-range-button')).toHaveProperty('disabled', false);
    expect(bodyRows(tableIn('daily-trend'))[0]).toEqual(['2024-03-09', '$1,234.50', '1,200']);
  });

  it('re-enables the filter header when the page is left while its calls are pending', async () => {
    const pending = deferred<{ status: number; body: unknown }>();
    const network = installNetwork((call) =>
      call.path === '/api/mall_report/daily' ? pending.promise : mallHomeAnswers(call),
    );
    const page = renderMallHome();
    await waitFor(() => expect(network.reportCalls()).toHaveLength(6));
    expect(page.header().getSnapshot().hasTag('disabled')).toBe(true);
    page.leavePage();
    expect(screen.queryByTestId('mall-home-page')).toBeNull();
    expect(page.header().getSnapshot().hasTag('disabled')).toBe(false);
    await act(async () => pending.resolve(ok({ data: HOME_DAILY })));
    expect(page.header().getSnapshot().hasTag('disabled')).toBe(false);
  });

  it('offers no Add event to a user who may not add an event', async () => {
    installNetwork(mallHomeAnswers);
    renderMallHome();
    await waitForReport();
    expect(screen.queryByTestId('mall-home-add-event')).toBeNull();
  });

  it('offers Add event to a user who may add one, opened on the page’s first mall and days', async () => {
    installNetwork(mallHomeAnswers);
    renderReportPage(MallHomePage, {
      title: 'Mall Home',
      header: 'mall',
      permissions: [...PERMISSIONS, '/api/mall_events::Create'],
    });
    await waitForReport();
    const add = screen.getByTestId('mall-home-add-event');
    expect(add.hasAttribute('disabled')).toBe(false);
    fireEvent.click(add);
    const form = await screen.findByTestId('event-form');
    expect(within(form).getByTestId('event-start')).toHaveProperty('value', RANGE.start);
    expect(within(form).getByTestId('event-end')).toHaveProperty('value', RANGE.end);
  });

  it('exports the KPIs, the daily trend, the outlets and the payment methods as CSV files zipped together', async () => {
    installNetwork(mallHomeAnswers);
    const downloads = captureDownloads();
    renderMallHome();
    await waitForReport();
    const download = await exportDownload(downloads, () => fireEvent.click(screen.getByTestId('export-csv')));
    expect(download.fileName).toBe(`mall_home_${FILE_RANGE}.zip`);
    const files = await unzip(download.blob);
    expect(Object.keys(files)).toEqual([
      `daily_${FILE_RANGE}.csv`,
      `kpis_${FILE_RANGE}.csv`,
      `outlets_${FILE_RANGE}.csv`,
      `payment_methods_${FILE_RANGE}.csv`,
    ]);
    expect(files[`kpis_${FILE_RANGE}.csv`]).toEqual([
      'Measure,Current,Compared Period,Compared,Previous Period,Previous,Currency',
      'GMV,2000.5,2024-03-09 to 2024-03-14,1600.5,2024-03-03 to 2024-03-08,2500,SGD',
      'Transactions,50,2024-03-09 to 2024-03-14,44,2024-03-03 to 2024-03-08,40,SGD',
      'Average Transaction Value,40.01,2024-03-09 to 2024-03-14,36.38,2024-03-03 to 2024-03-08,62.5,SGD',
      'Member Share (%),75,2024-03-09 to 2024-03-14,50,2024-03-03 to 2024-03-08,0,SGD',
    ]);
    expect(files[`daily_${FILE_RANGE}.csv`]).toEqual([
      'Date,GMV,Transactions,Currency',
      '2024-03-09,1234.5,1200,SGD',
      '2024-03-10,766,0,SGD',
    ]);
    const outlets = files[`outlets_${FILE_RANGE}.csv`] ?? [];
    expect(outlets[0]).toBe('Name,GMV,Transactions,Average Transaction Value,Currency');
    expect(outlets.slice(1)).toHaveLength(10);
    expect(outlets[1]).toBe('Outlet 1,1100,11,100,SGD');
    expect(files[`payment_methods_${FILE_RANGE}.csv`]).toEqual([
      'Payment Method,Sum,Currency',
      'VISA,1200.5,SGD',
      'CASH,800,SGD',
    ]);
  });
});

/* ================================================================ mall GMV */

const GMV_DAILY = [
  { date: '2024-03-09', gmv: 1000, transactions: 10 },
  { date: '2024-03-10', gmv: 2345.6, transactions: 1234 },
];
const GMV_MONTHLY = [
  { month: '2024-03', gmv: 3345.6, transactions: 1244 },
  { month: '2024-02', gmv: 100, transactions: 1 },
];
const GMV_OUTLETS = [
  { key: '12', name: 'Kopi Corner', gmv: 2000, transactions: 100, average_transaction_value: 20 },
  { key: '13', name: 'Noodle Bar', gmv: 1345.6, transactions: 1144, average_transaction_value: 1.18 },
];
const GMV_CATEGORIES = [
  { category: 'F&B', gmv: 3000, transactions: 1200, average_transaction_value: 2.5 },
  { category: 'Fashion', gmv: 345.6, transactions: 44, average_transaction_value: 7.85 },
];
const GMV_LEVELS = [{ level: 'L1', gmv: 3345.6, transactions: 1244, average_transaction_value: 2.69 }];

function mallGmvAnswers(call: RecordedCall) {
  switch (call.path) {
    case '/api/mall_report/daily':
      return ok({ data: GMV_DAILY });
    case '/api/mall_report/monthly':
      return ok({ data: GMV_MONTHLY });
    case '/api/mall_report/outlet':
      return ok({ data: GMV_OUTLETS });
    case '/api/mall_report/category':
      return ok({ data: GMV_CATEGORIES });
    case '/api/mall_report/level':
      return ok({ data: GMV_LEVELS });
    default:
      return undefined;
  }
}

const renderMallGmv = () => renderReportPage(MallGmvPage, { title: 'Mall GMV', header: 'mall' });

describe('MallGmvPage', { timeout: 30_000 }, () => {
  it('asks for the daily, monthly, outlet, category and level reports of the committed malls and dates', async () => {
    const network = installNetwork(mallGmvAnswers);
    renderMallGmv();
    await waitForReport();
    expect(describeCalls(network.reportCalls())).toEqual(
      sortedCalls([
        { path: '/api/mall_report/daily', params: BASE },
        { path: '/api/mall_report/monthly', params: BASE },
        { path: '/api/mall_report/outlet', params: { ...BASE, group_by: 'outlet' } },
        { path: '/api/mall_report/category', params: BASE },
        { path: '/api/mall_report/level', params: BASE },
      ]),
    );
    network.calls.length = 0;
    await selectMalls(2);
    await waitFor(() => expect(network.reportCalls()).toHaveLength(5));
    expect(network.reportCalls().every((call) => call.query.getAll('mall_ids').join() === '2')).toBe(true);
  });

  it('draws daily or monthly GMV and transactions (months Jan to Dec) with the figures beside them', async () => {
    installNetwork(mallGmvAnswers);
    renderMallGmv();
    await waitForReport();

    const daily = chartIn('gmv-trend-chart');
    expect(daily.xAxis[0]?.categories).toEqual(['09/03', '10/03']);
    expect(seriesValues(daily, 0)).toEqual([1000, 2345.6]);
    expect(seriesValues(daily, 1)).toEqual([10, 1234]);
    expect(headerCells(tableIn('gmv-table'))).toEqual(['Date', 'GMV', 'Transactions']);
    expect(bodyRows(tableIn('gmv-table'))).toEqual([
      ['2024-03-09', '$1,000.00', '10'],
      ['2024-03-10', '$2,345.60', '1,234'],
    ]);

    fireEvent.click(screen.getByTestId('view-monthly'));
    expect(within(screen.getByTestId('gmv-trend')).getByText('Monthly GMV and Transactions')).toBeDefined();
    const monthly = chartIn('gmv-trend-chart');
    // The range (9 to 15 March, today) leaves March partial and still open.
    expect(monthly.xAxis[0]?.categories).toEqual(['February 2024', 'March 2024 (9–15 Mar, so far)']);
    expect(seriesValues(monthly, 0)).toEqual([100, 3345.6]);
    expect(seriesValues(monthly, 1)).toEqual([1, 1244]);
    expect(headerCells(tableIn('gmv-table'))).toEqual(['Month', 'GMV', 'Transactions']);
    expect(bodyRows(tableIn('gmv-table'))).toEqual([
      ['February 2024', '$100.00', '1'],
      ['March 2024', '$3,345.60', '1,244'],
    ]);
  });

  it('breaks GMV down by outlet, category and level', async () => {
    installNetwork(mallGmvAnswers);
    renderMallGmv();
    await waitForReport();

    const block = screen.getByTestId('gmv-breakdown');
    expect(within(block).getByText('GMV by Outlet')).toBeDefined();
    const outlets = chartIn('gmv-breakdown-chart');
    expect(outlets.xAxis[0]?.categories).toEqual(['Kopi Corner', 'Noodle Bar']);
    expect(seriesValues(outlets)).toEqual([2000, 1345.6]);
    expect(headerCells(tableIn('gmv-breakdown'))).toEqual(['Outlet', 'GMV', 'Transactions', 'Avg. Transaction Value']);
    expect(bodyRows(tableIn('gmv-breakdown'))).toEqual([
      ['Kopi Corner', '$2,000.00', '100', '$20.00'],
      ['Noodle Bar', '$1,345.60', '1,144', '$1.18'],
    ]);
    // Every column sorts: numbers largest first, then the other way; text A to Z.
    const transactions = within(tableIn('gmv-breakdown')).getByRole('button', { name: /^Transactions/ });
    fireEvent.click(transactions);
    expect(bodyRows(tableIn('gmv-breakdown')).map((row) => row[0])).toEqual(['Noodle Bar', 'Kopi Corner']);
    expect(transactions.closest('th')?.getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(transactions);
    expect(bodyRows(tableIn('gmv-breakdown')).map((row) => row[0])).toEqual(['Kopi Corner', 'Noodle Bar']);
    expect(transactions.closest('th')?.getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(tableIn('gmv-breakdown')).getByRole('button', { name: /^Outlet/ }));
    expect(bodyRows(tableIn('gmv-breakdown')).map((row) => row[0])).toEqual(['Kopi Corner', 'Noodle Bar']);

    fireEvent.click(within(block).getByRole('tab', { name: 'Category' }));
    expect(within(block).getByText('GMV by Category')).toBeDefined();
    // Given to Highcharts escaped (text, never markup: issue 29), drawn as they are.
    expect(chartIn('gmv-breakdown-chart').xAxis[0]?.categories).toEqual(['F&amp;B', 'Fashion']);
    expect(xAxisLabels('gmv-breakdown-chart')).toEqual(['F&B', 'Fashion']);
    expect(seriesValues(chartIn('gmv-breakdown-chart'))).toEqual([3000, 345.6]);
    expect(headerCells(tableIn('gmv-breakdown'))[0]).toBe('Category');
    expect(bodyRows(tableIn('gmv-breakdown'))).toEqual([
      ['F&B', '$3,000.00', '1,200', '$2.50'],
      ['Fashion', '$345.60', '44', '$7.85'],
    ]);

    fireEvent.click(within(block).getByRole('tab', { name: 'Level' }));
    expect(headerCells(tableIn('gmv-breakdown'))[0]).toBe('Level');
    expect(bodyRows(tableIn('gmv-breakdown'))).toEqual([['L1', '$3,345.60', '1,244', '$2.69']]);
  });

  it("says 'No Data' when the days had no transactions", async () => {
    installNetwork((call) =>
      call.path === '/api/mall_report/daily'
        ? ok({ data: [{ date: RANGE.start, gmv: 0, transactions: 0 }] })
        : ok({ data: [] }),
    );
    renderMallGmv();
    await waitForReport();
    expect(bodyRows(tableIn('gmv-table'))).toEqual([['No Data']]);
    expect(bodyRows(tableIn('gmv-breakdown'))).toEqual([['No Data']]);
    expect(chartText('gmv-trend-chart')).toContain('No Data');
    expect(chartText('gmv-breakdown-chart')).toContain('No Data');
  });

  it("shows 'Mall GMV error occurs. Please try again later.' once when its calls fail", async () => {
    installNetwork((call) => (call.path === '/api/mall_report/daily' ? mallGmvAnswers(call) : serverError()));
    renderMallGmv();
    await waitFor(() => expect(toastTexts()).toEqual(['Mall GMV error occurs. Please try again later.']));
    await waitForReport();
    // The daily trend answered; the outlet breakdown failed, with a retry.
    expect(bodyRows(tableIn('gmv-table')).length).toBeGreaterThan(0);
    expect(bodyRows(tableIn('gmv-table'))).not.toEqual([['No Data']]);
    expect(screen.getByTestId('gmv-breakdown').textContent).toContain('GMV by Outlet could not be loaded.');
    expect(within(screen.getByTestId('gmv-breakdown')).getByTestId('panel-retry')).toBeDefined();
    expect(toastTexts()).toHaveLength(1);
  });

  it('exports the monthly view with the three breakdowns, zipped', async () => {
    installNetwork(mallGmvAnswers);
    const downloads = captureDownloads();
    renderMallGmv();
    await waitForReport();
    fireEvent.click(screen.getByTestId('view-monthly'));
    const download = await exportDownload(downloads, () => fireEvent.click(screen.getByTestId('export-csv')));
    expect(download.fileName).toBe(`mall_gmv_${FILE_RANGE}.zip`);
    const files = await unzip(download.blob);
    expect(files).toEqual({
      [`categories_${FILE_RANGE}.csv`]: [
        'Name,GMV,Transactions,Average Transaction Value,Currency',
        'F&B,3000,1200,2.5,SGD',
        'Fashion,345.6,44,7.85,SGD',
      ],
      [`levels_${FILE_RANGE}.csv`]: [
        'Name,GMV,Transactions,Average Transaction Value,Currency',
        'L1,3345.6,1244,2.69,SGD',
      ],
      [`monthly_${FILE_RANGE}.csv`]: [
        'Month,GMV,Transactions,Currency',
        '2024-02,100,1,SGD',
        '2024-03,3345.6,1244,SGD',
      ],
      [`outlets_${FILE_RANGE}.csv`]: [
        'Name,GMV,Transactions,Average Transaction Value,Currency',
        'Kopi Corner,2000,100,20,SGD',
        'Noodle Bar,1345.6,1144,1.18,SGD',
      ],
    });
  });
});

/* ================================================================ payment methods */

const OVERALL_PAYMENTS = [
  { payment_method: 'VISA', sum: 750 },
  { payment_method: 'GRAB_PAY', sum: 250 },
];

function paymentAnswers(call: RecordedCall) {
  if (call.path !== '/api/mall_report/payment_method/overall') return undefined;
  if (call.query.get('limit') === '10') return ok({ data: OVERALL_PAYMENTS });
  // The top methods of one day: VISA every day, GRAB_PAY on the first day only.
  const day = call.query.get('start_time');
  return ok({
    data:
      day === RANGE.start
        ? [
            { payment_method: 'VISA', sum: 100 },
            { payment_method: 'GRAB_PAY', sum: 50.5 },
          ]
        : [{ payment_method: 'VISA', sum: 10 }],
  });
}

const DAYS = ['2024-03-09', '2024-03-10', '2024-03-11', '2024-03-12', '2024-03-13', '2024-03-14', '2024-03-15'];
const renderPaymentMethods = () =>
  renderReportPage(MallPaymentMethodsPage, { title: 'Mall Payment Methods', header: 'mall' });

describe('MallPaymentMethodsPage', { timeout: 30_000 }, () => {
  it('asks for the overall top 10 and the top 5 of each day (a week or less), then of each week (Monday to Sunday)', async () => {
    const network = installNetwork(paymentAnswers);
    renderPaymentMethods();
    await waitForReport();
    const path = '/api/mall_report/payment_method/overall';
    expect(describeCalls(network.reportCalls())).toEqual(
      sortedCalls([
        { path, params: { ...BASE, limit: '10' } },
        ...DAYS.map((day) => ({ path, params: { ...BASE, start_time: day, end_time: day, limit: '5' } })),
      ]),
    );

    network.calls.length = 0;
    chooseLast30Days();
    await waitFor(() => expect(network.reportCalls()).toHaveLength(6));
    await waitForReport();
    const weeks = [
      ['2024-02-15', '2024-02-18'],
      ['2024-02-19', '2024-02-25'],
      ['2024-02-26', '2024-03-03'],
      ['2024-03-04', '2024-03-10'],
      ['2024-03-11', '2024-03-15'],
    ];
    expect(describeCalls(network.reportCalls())).toEqual(
      sortedCalls([
        { path, params: { ...BASE, start_time: '2024-02-15', limit: '10' } },
        ...weeks.map(([start = '', end = '']) => ({
          path,
          params: { ...BASE, start_time: start, end_time: end, limit: '5' },
        })),
      ]),
    );
    expect(chartIn('payment-over-time-chart').xAxis[0]?.categories).toEqual(
      weeks.map(([start, end]) => `${start} – ${end}`),
    );
  });

  it('draws the overall split with sums and shares beside it, and the top methods of each day stacked', async () => {
    installNetwork(paymentAnswers);
    renderPaymentMethods();
    await waitForReport();

    const pie = chartIn('payment-overall-chart');
    expect(pie.series[0]?.points.map((point) => [point.name, point.y])).toEqual([
      ['VISA', 750],
      ['GRAB_PAY', 250],
    ]);
    expect(headerCells(tableIn('payment-overall-table'))).toEqual(['Payment Method', 'Sum', 'Share']);
    expect(bodyRows(tableIn('payment-overall-table'))).toEqual([
      ['VISA', '$750.00', '75.0%'],
      ['GRAB_PAY', '$250.00', '25.0%'],
    ]);

    const overTime = chartIn('payment-over-time-chart');
    expect(overTime.xAxis[0]?.categories).toEqual(DAYS);
    expect(overTime.series.map((series) => series.name)).toEqual(['VISA', 'GRAB_PAY']);
    expect(seriesValues(overTime, 0)).toEqual([100, 10, 10, 10, 10, 10, 10]);
    expect(seriesValues(overTime, 1)).toEqual([50.5, 0, 0, 0, 0, 0, 0]);
    expect(headerCells(tableIn('payment-over-time-table'))).toEqual(['Period', 'VISA', 'GRAB_PAY']);
    const overTimeRows = bodyRows(tableIn('payment-over-time-table'));
    expect(overTimeRows).toHaveLength(7);
    expect(overTimeRows[0]).toEqual([DAYS[0], '$100.00', '$50.50']);
    expect(overTimeRows[6]).toEqual([DAYS[6], '$10.00', '$0.00']);
  });

  it("says 'No Data' when no payment was made", async () => {
    installNetwork(() => ok({ data: [] }));
    renderPaymentMethods();
    await waitForReport();
    expect(bodyRows(tableIn('payment-overall-table'))).toEqual([['No Data']]);
    expect(chartText('payment-overall-chart')).toContain('No Data');
    expect(chartText('payment-over-time-chart')).toContain('No Data');
    expect(bodyRows(tableIn('payment-over-time-table'))).toEqual([['No Data']]);
  });

  it("shows 'Payment methods error occurs. Please try again later.' once, even when several calls fail", async () => {
    const network = installNetwork(() => serverError());
    renderPaymentMethods();
    await waitFor(() => expect(toastTexts()).toEqual(['Payment methods error occurs. Please try again later.']));
    await waitForReport();
    expect(network.reportCalls().length).toBe(8);
    expect(toastTexts()).toHaveLength(1);
    for (const block of ['payment-overall', 'payment-over-time']) {
      expect(within(screen.getByTestId(block)).getByTestId('panel-retry')).toBeDefined();
    }
    expect(screen.getByTestId('mall-payment-methods-page')).toBeDefined();
  });

  it('exports the split and the methods over time, zipped, with title-cased headers', async () => {
    installNetwork(paymentAnswers);
    const downloads = captureDownloads();
    renderPaymentMethods();
    await waitForReport();
    const download = await exportDownload(downloads, () => fireEvent.click(screen.getByTestId('export-csv')));
    expect(download.fileName).toBe(`mall_payment_methods_${FILE_RANGE}.zip`);
    const files = await unzip(download.blob);
    expect(files).toEqual({
      [`payment_methods_${FILE_RANGE}.csv`]: [
        'Payment Method,Sum,Share Percent,Currency',
        'VISA,750,75,SGD',
        'GRAB_PAY,250,25,SGD',
      ],
      [`payment_methods_over_time_${FILE_RANGE}.csv`]: [
        'Period,Visa,Grab Pay,Currency',
        '2024-03-09,100,50.5,SGD',
        ...DAYS.slice(1).map((day) => `${day},10,0,SGD`),
      ],
    });
  });
});

/* ================================================================ one file */

describe('exportCsvFiles', () => {
  it('downloads a single file as CSV (title-cased headers, not zipped)', async () => {
    const downloads = captureDownloads();
    await exportCsvFiles('mall_home', FILE_RANGE, [
      {
        name: 'daily',
        keys: ['date', 'total_amount', 'payment_method'],
        rows: [{ date: '2024-03-09', total_amount: 12.5, payment_method: 'VISA, MASTER' }],
      },
    ]);
    expect(downloads).toHaveLength(1);
    const [download] = downloads;
    expect(download?.fileName).toBe(`daily_${FILE_RANGE}.csv`);
    if (!download) throw new Error('nothing was downloaded');
    expect(download.blob.type).toBe('text/csv;charset=utf-8');
    expect(await blobText(download.blob)).toBe(
      'Date,Total Amount,Payment Method\r\n2024-03-09,12.5,"VISA, MASTER"\r\n',
    );
    // The object URL is let go of afterwards.
    expect(URL.revokeObjectURL).not.toHaveBeenCalledWith(download?.url);
    await waitFor(() => expect(URL.revokeObjectURL).toHaveBeenCalledWith(download?.url), { timeout: 2_000 });
  });
});
