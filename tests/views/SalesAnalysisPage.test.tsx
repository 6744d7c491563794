import { Classes } from '@blueprintjs/core';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, setPermissionsList } from '../../src/api/session';
import { filterHeaderMachine } from '../../src/machines/filterHeaderMachine';
import { SalesAnalysisPage } from '../../src/views/pages/tenant-connect/SalesAnalysisPage';
import { type HeaderActor, HeaderProbe } from './headerProbe';
import { blobText, captureDownloads, exportDownload } from './mallReportHarness';
import { renderInApp, userInfo } from './renderApp';

/*
 * The sales analysis inside the app with the real filter header and page machines and the app's one api client; the
 * network is a fetch handler on globalThis answering what each test gives it. Client 4's one outlet (Bakery, in IDR:
 * no minor units) is auto-selected; the header's days are 2026-11-19..2026-11-25, today the 25th: the KPIs' growth
 * compares the complete days, 19–24 Nov.
 */

const BAKERY = { id: 20, name: 'Bakery', type: 2, currency: 'IDR', mall_id: 5, outlet_code: null };
const DAYS = ['2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25'];
const DAY_REVENUE = [150000, 0, 200000, 300000, 250000, 400000, 200000];
const DAY_TRANSACTIONS = [3, 0, 4, 6, 5, 8, 4];
const DAY_UNITS = [5, 0, 6, 9, 7, 12, 6];
const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

const CURRENT = { revenue: 1500000, transactions: 30, unit_sales: 45, average_transaction_value: 50000 };
/** 19–24 Nov: the header's days but today. */
const COMPLETE = { revenue: 1300000, transactions: 26, unit_sales: 39, average_transaction_value: 50000 };
const PREVIOUS = { revenue: 1200000, transactions: 30, unit_sales: 50, average_transaction_value: 40000 };
const ZEROS = { revenue: 0, transactions: 0, unit_sales: 0, average_transaction_value: 0 };
const MEALS = [
  { meal_timing_id: 1, name: 'Breakfast', start_time: '07:00', end_time: '10:30', revenue: 450000, transactions: 9 },
  { meal_timing_id: 2, name: 'Lunch', start_time: '11:00', end_time: '14:30', revenue: 600000, transactions: 12 },
];
const SKUS = [
  { sku_id: 7, barcode: '899100', item_name: 'Croissant', quantity: 40, unit_price: 15000, amount: 600000 },
  { sku_id: 8, barcode: null, item_name: 'Almond Danish', quantity: 25, unit_price: 22000, amount: 550000 },
  { sku_id: 9, barcode: '899300', item_name: 'Baguette', quantity: 12, unit_price: 25000, amount: 300000 },
];

type Answer = { status: number; body: unknown };
type Answers = Record<string, (url: URL) => Answer>;

const ok = (body: unknown): Answer => ({ status: 200, body });

function series(values: readonly number[]) {
  return (url: URL) => {
    const timeRange = url.searchParams.get('timeRange');
    if (timeRange === 'monthly') return ok({ data: [{ key: '2026-11', value: sum(values) }], total: sum(values) });
    const key = (day: string) => (timeRange === 'hourly' ? `${day} 12:00` : day);
    return ok({ data: DAYS.map((day, index) => ({ key: key(day), value: values[index] ?? 0 })), total: sum(values) });
  };
}

const DEFAULT_ANSWERS: Answers = {
  '/outlets/overallComparison': (url) => {
    const complete =
      url.searchParams.get('startTime') === '2026-11-19' && url.searchParams.get('endTime') === '2026-11-24';
    const lastYear = url.searchParams.get('comparedStartTime')?.startsWith('2025-');
    return ok({ current: complete ? COMPLETE : CURRENT, compared: lastYear ? ZEROS : PREVIOUS });
  },
  '/outlets/totalRevenuePoints': series(DAY_REVENUE),
  '/outlets/totalTransactionPoints': series(DAY_TRANSACTIONS),
  '/outlets/totalUnitSalePoints': series(DAY_UNITS),
  '/outlets/mealTimingReport': () => ok({ data: MEALS }),
  '/outlets/itemSalesBreakdown': (url) =>
    ok({
      data:
        url.searchParams.get('timeRange') === 'weekly'
          ? [{ key: '2026-11-23', sku_id: 7, item_name: 'Croissant', quantity: 30, amount: 450000 }]
          : [
              { key: '2026-11-24', sku_id: 7, item_name: 'Croissant', quantity: 10, amount: 150000 },
              { key: '2026-11-24', sku_id: 8, item_name: 'Almond Danish', quantity: 5, amount: 110000 },
              { key: '2026-11-25', sku_id: 8, item_name: 'Almond Danish', quantity: 2, amount: 44000 },
            ],
    }),
  '/outlets/topSKU': (url) => {
    const skuId = url.searchParams.get('sku_id');
    const byAmount = url.searchParams.get('sortMethod') === 'amount';
    const ranked = [...SKUS].sort((a, b) => (byAmount ? b.amount - a.amount : b.quantity - a.quantity));
    if (url.searchParams.get('orderByMethod') === 'asc') ranked.reverse();
    const rows = skuId === null ? ranked : ranked.filter((row) => String(row.sku_id) === skuId);
    const page = Number(url.searchParams.get('page') ?? 1);
    const size = Number(url.searchParams.get('rowsPerPage') ?? 10);
    return ok({
      data: rows.slice((page - 1) * size, page * size),
      total: { rows_total: skuId === null ? 23 : rows.length, max_quantity: 40, max_revenue: 600000 },
    });
  },
  '/outlets/sku': (url) => {
    const text = (url.searchParams.get('searchText') ?? '').toLowerCase();
    return ok(
      SKUS.filter((row) => row.item_name.toLowerCase().includes(text)).map((row) => ({
        id: row.sku_id,
        barcode: row.barcode,
        item_name: row.item_name,
      })),
    );
  },
};

let answers: Answers;
let asked: URL[];
/** Held calls: the path's answers wait until released. */
let holds: Map<string, Promise<void>>;

beforeEach(() => {
  asked = [];
  answers = { ...DEFAULT_ANSWERS };
  holds = new Map();
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    let answer: Answer;
    if (url.pathname === '/outlets') answer = ok([BAKERY]);
    else if (url.pathname === '/malls')
      answer = ok([{ id: 5, name: 'Kemang', currency: 'IDR', time_zone: 'Asia/Jakarta', country: 'ID' }]);
    else {
      asked.push(url);
      await holds.get(url.pathname);
      answer = answers[url.pathname]?.(url) ?? {
        status: 404,
        body: { statusCode: 404, error: 'Not Found', message: 'not found' },
      };
    }
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  clearSession();
});

let header: HeaderActor | undefined;

/** The app's filter header without its URL and cookie writes (a committed range stays the page's, as in the browser). */
const HEADER_WITHOUT_URL = filterHeaderMachine.provide({
  actions: { writeUrl: () => undefined, writeCookies: () => undefined },
});

function renderPage(): void {
  setPermissionsList(['*::*']);
  header = undefined;
  renderInApp(
    <>
      <HeaderProbe
        onActor={(actor) => {
          header = actor;
        }}
      />
      <SalesAnalysisPage title="Sales Analysis" />
    </>,
    {
      user: userInfo({
        client_id: 4,
        clients: [4],
        // The tenant-only account (§6): Tenant Connect's pages but its three shared ones, and no Settings.
        flags: { tenantOnly: true, hideTopBar: false, receiptsHidden: false },
        permissionsList: ['*::*'],
      }),
      path: '/tenant-connect/sales-analysis',
      today: '2026-11-25',
      header: HEADER_WITHOUT_URL,
    },
  );
}

/** Commits other days in the header, as its date-range picker does. */
function chooseDays(range: { start: string; end: string }): void {
  if (!header) throw new Error('the filter header is not mounted');
  const actor = header;
  act(() => actor.send({ type: 'dateRange.change', range }));
}

const section = (testId: string) => screen.getByTestId(testId);
const rowsOf = (table: HTMLElement) =>
  [...table.querySelectorAll('tbody tr')].map((row) =>
    [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? ''),
  );
const callsTo = (path: string) => asked.filter((url) => url.pathname === path);
const toastTexts = () => [...document.querySelectorAll(`.${Classes.TOAST}`)].map((toast) => toast.textContent);

async function waitForPage(): Promise<void> {
  await waitFor(() => expect(rowsOf(screen.getByTestId('sa-skus-table'))).toHaveLength(3));
  await waitFor(() => expect(screen.queryAllByTestId('panel-loading')).toHaveLength(0));
}

describe('the sales analysis page', () => {
  const kpi = (measure: string) => [
    screen.getByTestId(`sa-kpi-${measure}-value`).textContent,
    screen.getByTestId(`sa-kpi-${measure}-growth`).textContent,
  ];
  /** The two figures a KPI's growth compares and their days (issue 31). */
  const compared = (measure: string) => screen.queryByTestId(`sa-kpi-${measure}-compared`)?.textContent;
  const comparedCalls = () =>
    callsTo('/outlets/overallComparison')
      .map((url) =>
        ['startTime', 'endTime', 'comparedStartTime', 'comparedEndTime', 'compare']
          .map((key) => url.searchParams.get(key))
          .filter((value) => value !== null)
          .join(' '),
      )
      .sort();

  it('shows the KPIs in the outlet’s currency, their growth over the complete days and the compared dates; the comparison switches', async () => {
    const downloads = captureDownloads();
    renderPage();
    await waitForPage();
    expect(screen.getByRole('heading', { name: 'Sales Analysis', level: 1 })).toBeDefined();
    // Every call is of the outlet and the header's whole days; the KPIs' growth asks its complete days apart.
    for (const url of asked.filter((call) => call.pathname.startsWith('/outlets/'))) {
      expect(Object.fromEntries(url.searchParams)).toMatchObject({
        client_id: '4',
        id: '20',
        startTime: '2026-11-19',
        timeType: 'date',
      });
    }
    // Last year: the same weekdays, 364 days back (Thu 19 Nov 2026 with Thu 20 Nov 2025); festival-aligned: the
    // server chooses last year's days by the outlet's calendar.
    expect(comparedCalls()).toEqual([
      '2026-11-19 2026-11-24 2025-11-20 2025-11-25',
      '2026-11-19 2026-11-24 2025-11-20 2025-11-25 festival_aligned',
      '2026-11-19 2026-11-24 2026-11-13 2026-11-18',
      '2026-11-19 2026-11-25 2025-11-20 2025-11-26',
      '2026-11-19 2026-11-25 2025-11-20 2025-11-26 festival_aligned',
      '2026-11-19 2026-11-25 2026-11-12 2026-11-18',
    ]);
    for (const url of asked.filter((call) => call.pathname.startsWith('/outlets/'))) {
      if (url.pathname !== '/outlets/overallComparison') expect(url.searchParams.get('endTime')).toBe('2026-11-25');
    }
    // The whole days' figures (today so far); the growth of 19–24 Nov against the 6 days before them, with the two
    // figures it compares and their days (the headline holds today, the growth does not).
    expect(kpi('revenue')).toEqual(['Rp1,500,000', '▲ 8.33% vs 13–18 Nov (today left out)']);
    expect(compared('revenue')).toBe('Rp1,300,000, 19–24 Nov vs Rp1,200,000, 13–18 Nov');
    expect(kpi('transactions')).toEqual(['30', '▼ -13.33% vs 13–18 Nov (today left out)']);
    expect(compared('transactions')).toBe('26, 19–24 Nov vs 30, 13–18 Nov');
    expect(kpi('units')).toEqual(['45', '▼ -22.00% vs 13–18 Nov (today left out)']);
    expect(compared('units')).toBe('39, 19–24 Nov vs 50, 13–18 Nov');
    expect(kpi('averageTransactionValue')).toEqual(['Rp50,000', '▲ 25.00% vs 13–18 Nov (today left out)']);
    expect(compared('averageTransactionValue')).toBe('Rp50,000, 19–24 Nov vs Rp40,000, 13–18 Nov');
    expect(screen.getByTestId('sa-compared-dates').textContent).toBe(
      'Compared with 13 Nov 2026 – 18 Nov 2026 (the previous 6 days)',
    );
    expect(screen.getByTestId('sa-today-note').textContent).toBe(' · The days include today: its figures are so far.');
    // The shared label of the other pages (comparisonLabel): growth over complete days.
    expect(screen.getByTestId('sa-growth-days').textContent).toBe(' Growth vs 13–18 Nov (today left out).');

    const download = await exportDownload(downloads, () =>
      fireEvent.click(within(section('sa-kpis')).getByTestId('export-csv')),
    );
    expect(download.fileName).toBe('kpis_2026-11-19_2026-11-25.csv');
    expect((await blobText(download.blob)).split('\r\n').slice(0, 2)).toEqual([
      'Measure,Current,Compared,Growth,Period,Compared With,Compared Period,Growth Period,Growth Period Value,Note,Currency',
      'Revenue,1500000,1200000,+8.33%,2026-11-19 to 2026-11-25,Previous period,2026-11-13 to 2026-11-18,' +
        '2026-11-19 to 2026-11-24,1300000,,IDR',
    ]);

    const count = asked.length;
    expect(screen.getByRole('option', { name: 'Same weekdays last year' })).toBeDefined();
    fireEvent.change(screen.getByLabelText('Compare with'), { target: { value: 'lastYear' } });
    await waitFor(() =>
      expect(screen.getByTestId('sa-compared-dates').textContent).toBe(
        'Compared with 20 Nov 2025 – 25 Nov 2025 (the same weekdays last year)',
      ),
    );
    // Last year's days hold no sale: §9's 0.00%, with nothing to compare and no data.
    expect(kpi('revenue')).toEqual([
      'Rp1,500,000',
      '0.00% vs 20–25 Nov 2025, same weekdays last year (today left out) · nothing to compare',
    ]);
    expect(compared('revenue')).toBe('Rp1,300,000, 19–24 Nov vs no data, 20–25 Nov 2025');
    expect(screen.getByTestId('sa-growth-days').textContent).toBe(
      ' Growth vs 20–25 Nov 2025, same weekdays last year (today left out).',
    );
    // Both comparisons were asked at once: switching asks nothing.
    expect(asked).toHaveLength(count);
    const lastYear = await exportDownload(downloads, () =>
      fireEvent.click(within(section('sa-kpis')).getByTestId('export-csv')),
    );
    expect((await blobText(lastYear.blob)).split('\r\n')[1]).toBe(
      'Revenue,1500000,0,0.00%,2026-11-19 to 2026-11-25,Same weekdays last year,2025-11-20 to 2025-11-25,' +
        '2026-11-19 to 2026-11-24,1300000,nothing to compare,IDR',
    );
  });

  it('says No Data on the cards for days without a sale, rather than zeros (issue 31)', async () => {
    answers['/outlets/overallComparison'] = () => ok({ current: ZEROS, compared: ZEROS });
    renderPage();
    await waitForPage();
    await waitFor(() => expect(kpi('revenue')[0]).toBe('No Data'));
    expect(kpi('units')).toEqual(['No Data', '0.00% vs 13–18 Nov (today left out) · nothing to compare']);
    expect(compared('units')).toBe('0, 19–24 Nov vs no data, 13–18 Nov');
  });

  it('compares with last year, its festivals met, as the server chose the days', async () => {
    answers['/outlets/overallComparison'] = (url) => {
      const complete =
        url.searchParams.get('startTime') === '2026-11-19' && url.searchParams.get('endTime') === '2026-11-24';
      if (url.searchParams.get('compare') !== 'festival_aligned') {
        return ok({ current: complete ? COMPLETE : CURRENT, compared: PREVIOUS });
      }
      return ok({
        current: complete ? COMPLETE : CURRENT,
        compared: PREVIOUS,
        compared_start_time: '2025-11-09',
        compared_end_time: '2025-11-14',
        comparison: {
          compare: 'festival_aligned',
          aligned: [
            {
              festival: 'deepavali',
              name: 'Deepavali',
              start_time: '2026-11-08',
              end_time: '2026-11-08',
              compared_start_time: '2025-10-20',
              compared_end_time: '2025-10-20',
            },
          ],
          like_for_like: null,
          has_data: true,
        },
      });
    };
    renderPage();
    await waitForPage();
    fireEvent.change(screen.getByLabelText('Compare with'), { target: { value: 'festival' } });
    await waitFor(() =>
      expect(screen.getByTestId('sa-compared-dates').textContent).toBe(
        'Compared with 9 Nov 2025 – 14 Nov 2025 (last year, its festivals met)',
      ),
    );
    expect(kpi('revenue')[1]).toBe('▲ 8.33% vs 9–14 Nov 2025, Deepavali 8 Nov met with 20 Oct 2025 (today left out)');
    expect(compared('revenue')).toBe('Rp1,300,000, 19–24 Nov vs Rp1,200,000, 9–14 Nov 2025');
  });

  it('compares days that ended before today whole, and says today alone has no growth yet', async () => {
    renderPage();
    await waitForPage();
    asked = [];
    chooseDays({ start: '2026-11-17', end: '2026-11-23' });
    await waitFor(() => expect(comparedCalls()).toHaveLength(3));
    expect(comparedCalls()).toEqual([
      '2026-11-17 2026-11-23 2025-11-18 2025-11-24',
      '2026-11-17 2026-11-23 2025-11-18 2025-11-24 festival_aligned',
      '2026-11-17 2026-11-23 2026-11-10 2026-11-16',
    ]);
    await waitFor(() => expect(screen.queryAllByTestId('panel-loading')).toHaveLength(0));
    await waitFor(() => expect(kpi('revenue')).toEqual(['Rp1,500,000', '▲ 25.00% vs 10–16 Nov']));
    expect(compared('revenue')).toBe('Rp1,500,000, 17–23 Nov vs Rp1,200,000, 10–16 Nov');
    expect(screen.getByTestId('sa-compared-dates').textContent).toBe(
      'Compared with 10 Nov 2026 – 16 Nov 2026 (the previous 7 days)',
    );
    expect(screen.queryByTestId('sa-today-note')).toBeNull();
    expect(screen.queryByTestId('sa-growth-days')).toBeNull();

    asked = [];
    chooseDays({ start: '2026-11-25', end: '2026-11-25' });
    await waitFor(() => expect(comparedCalls()).toHaveLength(3));
    // Today alone: its figures so far, and no growth (no complete day).
    expect(comparedCalls()).toEqual([
      '2026-11-25 2026-11-25 2025-11-26 2025-11-26',
      '2026-11-25 2026-11-25 2025-11-26 2025-11-26 festival_aligned',
      '2026-11-25 2026-11-25 2026-11-24 2026-11-24',
    ]);
    await waitFor(() => expect(screen.queryAllByTestId('panel-loading')).toHaveLength(0));
    await waitFor(() => expect(kpi('revenue')).toEqual(['Rp1,500,000', 'No complete day to compare yet.']));
    expect(kpi('units')).toEqual(['45', 'No complete day to compare yet.']);
    expect(screen.getByTestId('sa-compared-dates').textContent).toBe('No complete day to compare yet.');
    expect(screen.getByTestId('sa-today-note').textContent).toBe(' · The days include today: its figures are so far.');
    expect(screen.queryByTestId('sa-growth-days')).toBeNull();
  });

  it('draws revenue, transactions and units over time with their table, today so far, and switches measure and time range', async () => {
    renderPage();
    await waitForPage();
    const trend = section('sa-trend');
    expect(trend.querySelector('h5')?.textContent).toBe('Daily Sales');
    expect(within(trend).getByRole('region', { name: 'Daily Sales: table' })).toBeDefined();
    expect(rowsOf(screen.getByTestId('sa-trend-table'))).toEqual([
      ['19/11', 'Rp150,000', '3', '5'],
      ['20/11', 'Rp0', '0', '0'],
      ['21/11', 'Rp200,000', '4', '6'],
      ['22/11', 'Rp300,000', '6', '9'],
      ['23/11', 'Rp250,000', '5', '7'],
      ['24/11', 'Rp400,000', '8', '12'],
      ['25/11 (so far)', 'Rp200,000', '4', '6'],
    ]);
    expect(screen.getByTestId('sa-trend-total-revenue').textContent).toBe('Rp1,500,000');
    // The KPI's revenue is the series' total.
    expect(screen.getByTestId('sa-kpi-revenue-value').textContent).toBe(
      screen.getByTestId('sa-trend-total-revenue').textContent,
    );

    const count = asked.length;
    expect(screen.getByTestId('sa-measure-revenue').getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByTestId('sa-measure-units'));
    await waitFor(() => expect(screen.getByTestId('sa-measure-units').getAttribute('aria-pressed')).toBe('true'));
    expect(asked).toHaveLength(count);

    const select = screen.getByLabelText('Show') as HTMLSelectElement;
    expect([...select.options].map((option) => [option.value, option.disabled])).toEqual([
      ['hourly', false],
      ['daily', false],
      ['weekly', false],
      ['monthly', false],
    ]);
    fireEvent.change(select, { target: { value: 'hourly' } });
    await waitFor(() => expect(trend.querySelector('h5')?.textContent).toBe('Hourly Sales'));
    await waitFor(() => expect(rowsOf(screen.getByTestId('sa-trend-table'))).toHaveLength(7 * 24));
    expect(
      asked
        .slice(count)
        .map((url) => `${url.pathname} ${url.searchParams.get('timeRange')}`)
        .sort(),
    ).toEqual([
      '/outlets/totalRevenuePoints hourly',
      '/outlets/totalTransactionPoints hourly',
      '/outlets/totalUnitSalePoints hourly',
    ]);
    expect(rowsOf(screen.getByTestId('sa-trend-table')).at(-1)?.[0]).toBe('25/11 23:00 (today)');
  });

  it('ranks the top SKUs, sorts every column, narrows to an SKU searched and exports the ranking', async () => {
    const downloads = captureDownloads();
    renderPage();
    await waitForPage();
    const table = screen.getByTestId('sa-skus-table');
    expect(rowsOf(table)).toEqual([
      ['1', 'Croissant', '899100', '40', 'Rp15,000', 'Rp600,000'],
      ['2', 'Almond Danish', '—', '25', 'Rp22,000', 'Rp550,000'],
      ['3', 'Baguette', '899300', '12', 'Rp25,000', 'Rp300,000'],
    ]);
    expect(screen.getByTestId('sa-skus-total').textContent).toBe('23 SKUs');
    expect(screen.getByTestId('sa-skus-ranking').textContent).toBe('Ranked by quantity sold, highest first');
    const header = (name: string) => within(table).getByRole('columnheader', { name: new RegExp(`^${name}`) });
    expect(header('Quantity').getAttribute('aria-sort')).toBe('descending');

    // Item: the page's rows by name, nothing asked.
    const count = callsTo('/outlets/topSKU').length;
    fireEvent.click(screen.getByTestId('sa-skus-sort-item_name'));
    await waitFor(() => expect(rowsOf(table).map((row) => row[1])).toEqual(['Almond Danish', 'Baguette', 'Croissant']));
    expect(header('Item').getAttribute('aria-sort')).toBe('ascending');
    expect(header('Quantity').getAttribute('aria-sort')).toBe('none');
    expect(callsTo('/outlets/topSKU')).toHaveLength(count);
    expect(screen.getByTestId('sa-skus-ranking').textContent).toBe(
      'Ranked by quantity sold, highest first · this page by item',
    );

    // Amount: the server's ranking, highest first.
    fireEvent.click(screen.getByTestId('sa-skus-sort-amount'));
    await waitFor(() => expect(callsTo('/outlets/topSKU')).toHaveLength(count + 1));
    expect(callsTo('/outlets/topSKU').at(-1)?.searchParams.get('sortMethod')).toBe('amount');
    await waitFor(() => expect(header('Amount').getAttribute('aria-sort')).toBe('descending'));
    expect(rowsOf(table).map((row) => row[1])).toEqual(['Croissant', 'Almond Danish', 'Baguette']);

    // The search: pick an SKU, the table shows it alone; clear shows all again.
    fireEvent.click(screen.getByTestId('sa-sku-search'));
    const input = await screen.findByLabelText('Search SKUs by name or barcode');
    await waitFor(() => expect(screen.getByTestId('sa-sku-option-7')).toBeDefined());
    fireEvent.change(input, { target: { value: 'bag' } });
    // Asked once the user pauses: the SKUs of the text alone.
    await waitFor(() => expect(callsTo('/outlets/sku').at(-1)?.searchParams.get('searchText')).toBe('bag'), {
      timeout: 2000,
    });
    await waitFor(() => expect(screen.queryByTestId('sa-sku-option-7')).toBeNull());
    fireEvent.click(screen.getByTestId('sa-sku-option-9'));
    await waitFor(() => expect(rowsOf(screen.getByTestId('sa-skus-table'))).toHaveLength(1));
    expect(callsTo('/outlets/topSKU').at(-1)?.searchParams.get('sku_id')).toBe('9');
    expect(screen.getByTestId('sa-sku-search').textContent).toContain('Baguette · 899300');
    fireEvent.click(screen.getByTestId('sa-sku-clear'));
    await waitFor(() => expect(rowsOf(screen.getByTestId('sa-skus-table'))).toHaveLength(3));
    expect(callsTo('/outlets/topSKU').at(-1)?.searchParams.has('sku_id')).toBe(false);

    // The export: every SKU of the ranking, in pages of 100, with the currency.
    const exportButton = screen.getByTestId('sa-skus-export');
    await waitFor(() => expect(exportButton.hasAttribute('disabled')).toBe(false));
    const download = await exportDownload(downloads, () => fireEvent.click(exportButton));
    expect(download.fileName).toBe('top_skus_2026-11-19_2026-11-25.csv');
    expect((await blobText(download.blob)).split('\r\n').slice(0, 2)).toEqual([
      'Rank,SKU ID,Barcode,Item Name,Quantity,Unit Price,Amount,Currency',
      '1,7,899100,Croissant,40,15000,600000,IDR',
    ]);
    expect(callsTo('/outlets/topSKU').at(-1)?.searchParams.get('rowsPerPage')).toBe('100');
  });

  it('shows the meal timings with their share of the outlet’s revenue, and the best-selling items per period', async () => {
    const downloads = captureDownloads();
    renderPage();
    await waitForPage();
    expect(rowsOf(screen.getByTestId('sa-meals-table'))).toEqual([
      ['Breakfast', '07:00–10:30', 'Rp450,000', '9', '30.0%'],
      ['Lunch', '11:00–14:30', 'Rp600,000', '12', '40.0%'],
    ]);
    expect(within(section('sa-meals')).getByRole('region', { name: 'Sales by Meal Timing: table' })).toBeDefined();

    const items = section('sa-items');
    expect(rowsOf(screen.getByTestId('sa-items-table'))).toEqual([
      ['24/11', '1', 'Croissant', '10', 'Rp150,000'],
      ['24/11', '2', 'Almond Danish', '5', 'Rp110,000'],
      ['25/11 (so far)', '1', 'Almond Danish', '2', 'Rp44,000'],
    ]);
    const download = await exportDownload(downloads, () => fireEvent.click(within(items).getByTestId('export-csv')));
    expect(download.fileName).toBe('item_sales_daily_2026-11-19_2026-11-25.csv');
    expect((await blobText(download.blob)).split('\r\n').slice(0, 2)).toEqual([
      'Bucket,Rank,SKU ID,Item Name,Quantity,Amount,Currency',
      '2026-11-24,1,7,Croissant,10,150000,IDR',
    ]);

    fireEvent.change(within(items).getByLabelText('Per'), { target: { value: 'weekly' } });
    await waitFor(() => expect(rowsOf(screen.getByTestId('sa-items-table'))).toHaveLength(1));
    expect(rowsOf(screen.getByTestId('sa-items-table'))).toEqual([
      ['23–25 Nov (so far)', '1', 'Croissant', '30', 'Rp450,000'],
    ]);
    expect(callsTo('/outlets/itemSalesBreakdown').at(-1)?.searchParams.get('timeRange')).toBe('weekly');
  });

  it('says when no meal timing is set up (not No Data), and No Data for a range without sales', async () => {
    answers['/outlets/mealTimingReport'] = () => ok({ data: [] });
    answers['/outlets/itemSalesBreakdown'] = () => ok({ data: [] });
    renderPage();
    await waitForPage();
    const meals = section('sa-meals');
    expect(within(meals).getByText('No meal timings are set up for this outlet.')).toBeDefined();
    // The tenant has no Settings page: no link to it.
    expect(within(meals).getByTestId('sa-meals-none').textContent).toBe(
      'They are set up in Settings (Meal Timings); ask your mall administrator to add them.',
    );
    expect(within(meals).queryByText('No Data')).toBeNull();
    expect(rowsOf(screen.getByTestId('sa-items-table'))).toEqual([['No Data']]);
  });

  it('fails a section alone with a retry and the toast; a 409 shows the server’s message', async () => {
    answers['/outlets/totalTransactionPoints'] = () => ({
      status: 500,
      body: { statusCode: 500, error: 'Internal Server Error', message: 'boom' },
    });
    answers['/outlets/mealTimingReport'] = () => ({
      status: 409,
      body: { statusCode: 409, error: 'Conflict', message: 'The selected outlets use more than one currency.' },
    });
    renderPage();
    await waitForPage();
    const trend = section('sa-trend');
    const retry = within(trend).getByTestId('panel-retry');
    expect(within(trend).getByText('Daily Sales could not be loaded.')).toBeDefined();
    expect(within(section('sa-meals')).getByText('The selected outlets use more than one currency.')).toBeDefined();
    await waitFor(() => expect(toastTexts()).toContain('Sales analysis error occurs. Please try again later.'));
    // The other sections keep their figures.
    expect(screen.getByTestId('sa-kpi-revenue-value').textContent).toBe('Rp1,500,000');
    expect(rowsOf(screen.getByTestId('sa-items-table'))).toHaveLength(3);

    answers['/outlets/totalTransactionPoints'] = DEFAULT_ANSWERS['/outlets/totalTransactionPoints'] as (
      url: URL,
    ) => Answer;
    fireEvent.click(retry);
    await waitFor(() => expect(rowsOf(screen.getByTestId('sa-trend-table'))).toHaveLength(7));
  });

  it('shows skeletons, not zeros, while the sections load', async () => {
    let release: () => void = () => undefined;
    holds.set(
      '/outlets/overallComparison',
      new Promise<void>((resolve) => {
        release = resolve;
      }),
    );
    renderPage();
    await waitFor(() => expect(screen.getByRole('status', { name: 'Revenue: loading' })).toBeDefined());
    expect(screen.queryByTestId('sa-kpi-revenue-value')).toBeNull();
    await act(async () => release());
    await waitFor(() => expect(screen.getByTestId('sa-kpi-revenue-value').textContent).toBe('Rp1,500,000'));
  });
});
