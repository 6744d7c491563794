import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession } from '../../src/api/session';
import type { CrossSpendingAnswer, CrossSpendingPairAnswer } from '../../src/domain/crossSpending';
import {
  blobText,
  bodyRows,
  captureDownloads,
  chartIn,
  exportDownload,
  headerCells,
  seriesValues,
  tableIn,
  toastTexts,
  xAxisLabels,
} from './mallReportHarness';
import { currentPath, type FakeServer, fakeServer, renderApp, userInfo } from './renderApp';

/*
 * Cross Spending and its details inside the whole app (the navigation guard, the layout, the real filter header and
 * page machines, the app's one api client), signed in as a super admin of client 3; the network is a fetch handler
 * on globalThis answering what each test gives it. Central (mall 1) has Kopi Corner (12), Tea Time (13) and Shoe Box
 * (30); East (mall 2) has East Deli (40). Today is 15 March 2024; the address's days are 9–15 March, Kopi Corner the
 * header's outlet.
 */

const TODAY = '2024-03-15';
const RANGE = { start: '2024-03-09', end: TODAY };
const FILTERS = `client=3&malls=1,2&outlet=12&from=${RANGE.start}&to=${RANGE.end}`;
const PAGE = `/shopper-connect/cross-spending?${FILTERS}`;
const details = (other: string) => `/shopper-connect/cross-spending/details?other=${other}&${FILTERS}`;

const CLIENTS = [{ id: 3, name: 'Harbourfront Malls', reporting_currency: 'SGD' }];
const MALLS = [
  { id: 1, name: 'Central', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
  { id: 2, name: 'East', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
];
const outlet = (id: number, name: string, mallId: number) => ({
  id,
  name,
  type: 1,
  currency: 'SGD',
  mall_id: mallId,
  outlet_code: null,
});
const OUTLETS = [
  outlet(12, 'Kopi Corner', 1),
  outlet(13, 'Tea Time', 1),
  outlet(30, 'Shoe Box', 1),
  outlet(40, 'East Deli', 2),
];

const ref = (id: number, name: string, category: string | null) => ({
  outlet_id: id,
  outlet_name: name,
  mall_id: 1,
  mall_name: 'Central',
  category,
  currency: 'SGD',
});

const REPORT: CrossSpendingAnswer = {
  outlet: ref(12, 'Kopi Corner', 'F&B'),
  shoppers: 12,
  spend: 1234.5,
  outlets: [
    {
      outlet_id: 13,
      outlet_name: 'Tea Time',
      category: 'F&B',
      shared_shoppers: 5,
      share_percent: 41.7,
      spend: 88.1,
      visits: 7,
    },
    {
      outlet_id: 30,
      outlet_name: 'Shoe Box',
      category: null,
      shared_shoppers: 3,
      share_percent: 25,
      spend: 410,
      visits: 3,
    },
  ],
  categories: [
    { category: 'F&B', shared_shoppers: 5, share_percent: 41.7, spend: 88.1, visits: 7 },
    { category: null, shared_shoppers: 3, share_percent: 25, spend: 410, visits: 3 },
  ],
};

const DAYS = ['2024-03-09', '2024-03-10', '2024-03-11', '2024-03-12', '2024-03-13', '2024-03-14', TODAY];
const PAIR: CrossSpendingPairAnswer = {
  outlet: ref(12, 'Kopi Corner', 'F&B'),
  other_outlet: ref(13, 'Tea Time', 'F&B'),
  shoppers: 12,
  shared_shoppers: 5,
  daily: DAYS.map((date, index) => ({
    date,
    shoppers: index % 3 === 0 ? 2 : 0,
    visits: index % 3 === 0 ? 3 : 0,
    spend: index === 0 ? 30.1 : index === 3 ? 40 : index === 6 ? 18 : 0,
  })),
};

type Answer = { status: number; body: unknown };
const ok = (body: unknown): Answer => ({ status: 200, body });
const notFound = (message: string): Answer => ({ status: 404, body: { statusCode: 404, error: 'Not Found', message } });

let answerReport: (url: URL) => Answer | Promise<Answer>;
let answerPair: (url: URL) => Answer | Promise<Answer>;
let asked: URL[];

beforeEach(() => {
  asked = [];
  answerReport = () => ok(REPORT);
  answerPair = () => ok(PAIR);
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    let answer: Answer;
    if (url.pathname === '/clients') answer = ok(CLIENTS);
    else if (url.pathname === '/malls') answer = ok(MALLS);
    else if (url.pathname === '/outlets') answer = ok(OUTLETS);
    else if (url.pathname === '/api/mall_report/crossSpending') {
      asked.push(url);
      answer = await answerReport(url);
    } else if (url.pathname === '/api/mall_report/crossSpending/details') {
      asked.push(url);
      answer = await answerPair(url);
    } else answer = notFound(`${url.pathname} not found`);
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  clearSession();
});

/** Sign-in, routes, lookups and a lazy page of the whole app take longer than a second on a busy machine. */
const SLOW = { timeout: 8_000 };

const admin = userInfo({ roles: ['super admin'], clients: [3], client_id: 3, permissionsList: ['*::*'] });
let server: FakeServer;

function open(path: string) {
  server = fakeServer({ credential: () => Promise.resolve({ user: admin, csrfToken: 'c' }) });
  return renderApp(path, server, {}, TODAY);
}

const queries = (path: string) =>
  asked.filter((url) => url.pathname === path).map((url) => Object.fromEntries(url.searchParams));
const PERIOD = { client_id: '3', outlet_id: '12', start_time: RANGE.start, end_time: RANGE.end };

async function pageShown(): Promise<void> {
  await waitFor(
    () => expect(screen.getByTestId('cross-spending-outlets-table').querySelectorAll('tbody tr')).toHaveLength(2),
    SLOW,
  );
}

describe('the cross spending page', () => {
  it('says how many members bought at the outlet and what they spent, and where else they spent', async () => {
    open(PAGE);
    await pageShown();
    expect(queries('/api/mall_report/crossSpending')).toEqual([PERIOD]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Cross Spending');
    expect(screen.getAllByRole('main')).toHaveLength(1);
    // No mall header on this page (§2): the title and the date range.
    expect(screen.queryByTestId('mall-header')).toBeNull();
    expect(screen.getByTestId('cross-spending-headline').textContent).toBe(
      '12 members bought at Kopi Corner from 9 Mar 2024 to 15 Mar 2024; they spent $1,234.50 there.',
    );
    const table = tableIn('cross-spending-outlets-table');
    expect(headerCells(table)).toEqual([
      'Outlet',
      'Category',
      'Shared Shoppers',
      'Share of Shoppers',
      'Spend',
      'Visits',
    ]);
    expect(bodyRows(table)).toEqual([
      ['Tea Time', 'F&B', '5', '41.7%', '$88.10', '7'],
      ['Shoe Box', 'Uncategorised', '3', '25.0%', '$410.00', '3'],
    ]);
    expect(bodyRows(tableIn('cross-spending-categories-table'))).toEqual([
      ['F&B', '5', '41.7%', '$88.10', '7'],
      ['Uncategorised', '3', '25.0%', '$410.00', '3'],
    ]);
    // Each outlet opens the pair's details, keeping the header's filters.
    expect(within(table).getByTestId('cross-spending-link-13').getAttribute('href')).toBe(details('13'));
    // Loaded, the page says so to the server's browser that prints it for a subscription.
    expect(document.querySelector('[data-report-ready]')?.getAttribute('data-report-ready')).toBe('true');
  });

  it('draws the outlets by shared shoppers as bars named by their block and described by its table', async () => {
    open(PAGE);
    await pageShown();
    // The chart's svg (the block's first is the export button's icon).
    const svg = () => screen.getByTestId('cross-spending-outlets-chart').querySelector('svg.highcharts-root');
    await waitFor(() => expect(svg()?.getAttribute('aria-label')).toBe('Other outlets by shared shoppers'));
    const tableId = svg()?.getAttribute('aria-describedby') ?? '';
    expect(
      document.getElementById(tableId)?.querySelector('[data-testid="cross-spending-outlets-table"]'),
    ).not.toBeNull();
    const chart = chartIn('cross-spending-outlets-chart');
    expect(chart.xAxis[0]?.categories).toEqual(['Tea Time', 'Shoe Box']);
    expect(seriesValues(chart)).toEqual([5, 3]);
    // Given to Highcharts escaped (text, never markup: issue 29), drawn as they are.
    expect(chartIn('cross-spending-categories-chart').xAxis[0]?.categories).toEqual(['F&amp;B', 'Uncategorised']);
    expect(xAxisLabels('cross-spending-categories-chart')).toEqual(['F&B', 'Uncategorised']);
  });

  it('sorts the outlets by every column', async () => {
    open(PAGE);
    await pageShown();
    const table = tableIn('cross-spending-outlets-table');
    const names = () => bodyRows(table).map((row) => row[0]);
    const sortBy = (name: string) =>
      fireEvent.click(within(table).getByRole('button', { name: new RegExp(`^${name}`) }));
    sortBy('Spend');
    expect(names()).toEqual(['Shoe Box', 'Tea Time']);
    expect(
      within(table)
        .getByRole('columnheader', { name: /^Spend/ })
        .getAttribute('aria-sort'),
    ).toBe('descending');
    sortBy('Spend');
    expect(names()).toEqual(['Tea Time', 'Shoe Box']);
    sortBy('Outlet');
    expect(names()).toEqual(['Shoe Box', 'Tea Time']);
    sortBy('Category');
    expect(names()).toEqual(['Tea Time', 'Shoe Box']);
    sortBy('Shared Shoppers');
    expect(names()).toEqual(['Tea Time', 'Shoe Box']);
    sortBy('Share of Shoppers');
    expect(names()).toEqual(['Tea Time', 'Shoe Box']);
    sortBy('Visits');
    expect(names()).toEqual(['Tea Time', 'Shoe Box']);
    sortBy('Visits');
    expect(names()).toEqual(['Shoe Box', 'Tea Time']);
  });

  it('exports each table as a CSV file in the mall’s currency', async () => {
    const downloads = captureDownloads();
    open(PAGE);
    await pageShown();
    await waitFor(() => expect(screen.getByTestId('export-outlets-csv').hasAttribute('disabled')).toBe(false));
    const outlets = await exportDownload(downloads, () => fireEvent.click(screen.getByTestId('export-outlets-csv')));
    expect(outlets.fileName).toBe('cross_spending_12_outlets_2024-03-09_2024-03-15.csv');
    expect((await blobText(outlets.blob)).split('\r\n')).toEqual([
      'Outlet ID,Outlet Name,Category,Shared Shoppers,Share Percent,Spend,Visits,Currency',
      '13,Tea Time,F&B,5,41.7,88.1,7,SGD',
      '30,Shoe Box,Uncategorised,3,25,410,3,SGD',
      '',
    ]);
    const categories = await exportDownload(downloads, () =>
      fireEvent.click(screen.getByTestId('export-categories-csv')),
    );
    expect(categories.fileName).toBe('cross_spending_12_categories_2024-03-09_2024-03-15.csv');
    expect((await blobText(categories.blob)).split('\r\n')[1]).toBe('F&B,5,41.7,88.1,7,SGD');
  });

  it('writes money in the answer’s currency with its own minor units', async () => {
    answerReport = () =>
      ok({
        ...REPORT,
        outlet: { ...REPORT.outlet, currency: 'IDR' },
        spend: 1234567.4,
        outlets: REPORT.outlets.map((row) => ({ ...row, spend: row.spend * 1000 })),
      });
    open(PAGE);
    await pageShown();
    expect(screen.getByTestId('cross-spending-headline').textContent).toContain('they spent Rp1,234,567 there.');
    expect(bodyRows(tableIn('cross-spending-outlets-table')).map((row) => row[4])).toEqual(['Rp88,100', 'Rp410,000']);
  });

  it("says 'No Data' when no member bought at the outlet, and fails with the toast and a retry", async () => {
    answerReport = () => ok({ ...REPORT, shoppers: 0, spend: 0, outlets: [], categories: [] });
    open(PAGE);
    await waitFor(
      () =>
        expect(screen.getByTestId('cross-spending-headline').textContent).toBe(
          'No member bought at Kopi Corner from 9 Mar 2024 to 15 Mar 2024.',
        ),
      SLOW,
    );
    expect(bodyRows(tableIn('cross-spending-outlets-table'))).toEqual([['No Data']]);
    expect(bodyRows(tableIn('cross-spending-categories-table'))).toEqual([['No Data']]);
    cleanup();

    answerReport = () => ({ status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'x' } });
    open(PAGE);
    const retry = await screen.findByTestId('panel-retry', {}, SLOW);
    await waitFor(() => expect(toastTexts()).toContain('Cross spending error occurs. Please try again later.'));
    // Said once, in the card of the headline.
    expect(screen.getAllByTestId('panel-retry')).toHaveLength(1);
    expect(screen.getByText('Cross spending could not be loaded.')).toBeDefined();
    answerReport = () => ok(REPORT);
    fireEvent.click(retry);
    await pageShown();
  });

  it('shows skeletons, not zeros, while the report loads', async () => {
    let release: () => void = () => undefined;
    const pending = new Promise<void>((resolve) => {
      release = resolve;
    });
    answerReport = async () => {
      await pending;
      return ok(REPORT);
    };
    open(PAGE);
    await waitFor(
      () => expect(screen.getByRole('status', { name: 'Other outlets by shared shoppers: loading' })).toBeDefined(),
      SLOW,
    );
    expect(screen.getByRole('status', { name: 'Cross spending: loading' })).toBeDefined();
    expect(screen.queryByTestId('cross-spending-outlets-table')).toBeNull();
    act(() => release());
    await pageShown();
  });
});

describe('the details of a pair', () => {
  const pairTable = () => tableIn('cross-spending-daily-table');

  it('opens from an outlet row and shows both outlets, the shoppers and their days at the other outlet', async () => {
    const location = open(PAGE);
    await pageShown();
    fireEvent.click(screen.getByTestId('cross-spending-link-13'));
    await waitFor(() => expect(bodyRows(pairTable())).toHaveLength(7), SLOW);
    expect(currentPath(location)).toBe(details('13'));
    expect(queries('/api/mall_report/crossSpending/details')).toEqual([{ ...PERIOD, other_outlet_id: '13' }]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Cross Spending Details');
    expect(screen.getByTestId('cross-spending-pair').textContent).toBe('Kopi Corner and Tea Time · Central');
    expect(screen.getByTestId('kpi-shoppers-value').textContent).toBe('12');
    expect(screen.getByTestId('kpi-shared-value').textContent).toBe('5');
    expect(screen.getByTestId('kpi-shared-growth').textContent).toBe('41.7% of the members');
    // The days' spend adds up to the outlet row's: 30.10 + 40 + 18.
    expect(screen.getByTestId('kpi-spend-value').textContent).toBe('$88.10');
    expect(screen.getByTestId('kpi-spend-growth').textContent).toBe('in 9 visits');
    expect(screen.getByTestId('cross-spending-pair-headline').textContent).toBe(
      '5 of the 12 members who bought at Kopi Corner from 9 Mar 2024 to 15 Mar 2024 also bought at Tea Time (41.7%).',
    );
    expect(headerCells(pairTable())).toEqual(['Date', 'Shoppers', 'Visits', 'Spend', 'Note']);
    expect(bodyRows(pairTable())).toEqual([
      ['2024-03-09', '2', '3', '$30.10', ''],
      ['2024-03-10', '0', '0', '$0.00', ''],
      ['2024-03-11', '0', '0', '$0.00', ''],
      ['2024-03-12', '2', '3', '$40.00', ''],
      ['2024-03-13', '0', '0', '$0.00', ''],
      ['2024-03-14', '0', '0', '$0.00', ''],
      ['2024-03-15', '2', '3', '$18.00', 'Today, so far'],
    ]);
    // Today's day labelled partial in the chart, named by its block.
    const chart = chartIn('cross-spending-daily-chart');
    expect(chart.xAxis[0]?.categories.at(-1)).toBe('15/03 (so far)');
    expect(chart.series.map((series) => series.name)).toEqual(['Spend', 'Visits', 'Shoppers']);
    expect(screen.getByTestId('cross-spending-daily').querySelector('svg')?.getAttribute('aria-label')).toBe(
      'Shared shoppers at Tea Time by day',
    );
    // Back to the page, keeping the filters.
    expect(screen.getByTestId('cross-spending-back').getAttribute('href')).toBe(PAGE);
  });

  it('exports the days as a CSV file', async () => {
    const downloads = captureDownloads();
    open(details('13'));
    await waitFor(() => expect(screen.getByTestId('export-csv').hasAttribute('disabled')).toBe(false), SLOW);
    const file = await exportDownload(downloads, () => fireEvent.click(screen.getByTestId('export-csv')));
    expect(file.fileName).toBe('cross_spending_12_13_daily_2024-03-09_2024-03-15.csv');
    const lines = (await blobText(file.blob)).split('\r\n');
    expect(lines[0]).toBe('Date,Shoppers,Visits,Spend,Note,Currency');
    expect(lines[7]).toBe('2024-03-15,2,3,18,"Today, so far",SGD');
  });

  it("says 'No Data' when none of the shoppers bought at the other outlet, keeping their number", async () => {
    answerPair = () =>
      ok({
        ...PAIR,
        shared_shoppers: 0,
        daily: PAIR.daily.map((day) => ({ ...day, shoppers: 0, visits: 0, spend: 0 })),
      });
    open(details('13'));
    await waitFor(() => expect(bodyRows(pairTable())).toEqual([['No Data']]), SLOW);
    expect(screen.getByTestId('kpi-shoppers-value').textContent).toBe('12');
    expect(screen.getByTestId('kpi-shared-value').textContent).toBe('0');
    expect(screen.getByTestId('cross-spending-pair-headline').textContent).toBe(
      'None of the 12 members who bought at Kopi Corner from 9 Mar 2024 to 15 Mar 2024 also bought at Tea Time.',
    );
  });

  it('asks nothing for an outlet the user does not see, nor for one of another mall, and says why', async () => {
    open(details('99'));
    await waitFor(
      () =>
        expect(screen.getByTestId('cross-spending-details-unavailable').textContent).toContain(
          'Outlet 99 is not one of the outlets you can see in this client.',
        ),
      SLOW,
    );
    cleanup();
    open(details('40'));
    await waitFor(
      () =>
        expect(screen.getByTestId('cross-spending-details-unavailable').textContent).toContain(
          'East Deli is not in the mall of Kopi Corner: cross spending compares the outlets of one mall.',
        ),
      SLOW,
    );
    cleanup();
    open('/shopper-connect/cross-spending/details');
    await waitFor(
      () =>
        expect(screen.getByTestId('cross-spending-details-unavailable').textContent).toContain(
          'No outlet to compare with: choose one of the outlets listed on Cross Spending.',
        ),
      SLOW,
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Cross Spending Details');
    expect(screen.getByTestId('export-csv').hasAttribute('disabled')).toBe(true);
    expect(asked).toEqual([]);
  });

  it('shows the server’s refusal of the pair in the page, and the user stays signed in', async () => {
    answerPair = () => notFound('other_outlet_id: no such outlet in the same mall.');
    const location = open(details('13'));
    await waitFor(
      () =>
        expect(screen.getByTestId('cross-spending-details-unavailable').textContent).toContain(
          'There are no figures for Kopi Corner and Tea Time',
        ),
      SLOW,
    );
    expect(queries('/api/mall_report/crossSpending/details')).toHaveLength(1);
    expect(server.calls.logout).toBe(0);
    expect(currentPath(location)).toBe(details('13'));
    expect(screen.getByTestId('app-layout')).toBeDefined();
    expect(toastTexts()).toEqual([]);
  });

  it('fails its panel with the toast and a retry', async () => {
    answerPair = () => ({ status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'x' } });
    open(details('13'));
    const retry = await screen.findByTestId('panel-retry', {}, SLOW);
    await waitFor(() => expect(toastTexts()).toContain('Cross spending details error occurs. Please try again later.'));
    expect(screen.getAllByTestId('panel-retry')).toHaveLength(1);
    answerPair = () => ok(PAIR);
    fireEvent.click(retry);
    await waitFor(() => expect(bodyRows(pairTable())).toHaveLength(7));
  });
});
