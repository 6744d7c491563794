import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { PageProps } from '../../src/views/pages/pageProps';
import { MallGmvPage } from '../../src/views/pages/shopper-connect/MallGmvPage';
import { MallOutletPage } from '../../src/views/pages/shopper-connect/MallOutletPage';
import {
  bodyRows,
  captureDownloads,
  describeCalls,
  exportDownload,
  FILE_RANGE,
  headerCells,
  installNetwork,
  ok,
  RANGE,
  type RecordedCall,
  renderReportPage,
  serverError,
  sortedCalls,
  tableIn,
  tearDownReportPage,
  toastTexts,
  unzip,
  waitForReport,
} from './mallReportHarness';

/*
 * The mall outlet page inside the app at /shopper-connect/mall-outlet/12 (Kopi Corner of Central, mall 1, in SGD):
 * its calls, its KPIs with the §9 growth rate, the daily chart and its table, the peers table (sortable by every
 * column, the outlet marked, the others linked), a failed panel, an id the user does not see (nothing asked, a
 * message), the CSV export, and the links from the Mall GMV outlets table. Today is 15 March 2024, the header's range
 * 9–15 March: the growth compares 9–14 March (today left out) with the server's previous period, 2–7 March.
 */

afterEach(tearDownReportPage);

const OUTLET = { client_id: '3', outlet_id: '12' };
const COMPLETE = { start: RANGE.start, end: '2024-03-14' };

const measures = (gmv: number, transactions: number, average: number) => ({
  gmv,
  transactions,
  average_transaction_value: average,
});

const WHOLE = {
  outlet: { id: 12, name: 'Kopi Corner' },
  current: measures(1000, 40, 25),
  previous: measures(700, 35, 20),
  previous_start_time: '2024-03-02',
  previous_end_time: '2024-03-08',
};
const COMPLETE_DAYS = {
  outlet: { id: 12, name: 'Kopi Corner' },
  current: measures(900, 36, 25),
  previous: measures(800, 40, 20),
  previous_start_time: '2024-03-02',
  previous_end_time: '2024-03-07',
};
const DAILY = [
  { date: '2024-03-09', gmv: 300.5, transactions: 12 },
  { date: '2024-03-10', gmv: 0, transactions: 0 },
  { date: '2024-03-11', gmv: 699.5, transactions: 28 },
];
const PEER = { category: 'F&B', mall_id: 1, mall_name: 'Central', category_outlets: 12 };
const PEERS = [
  { ...PEER, outlet_id: 30, outlet_name: 'Laksa Place', level: 'L2', rank: 1, ...measures(3000, 60, 50) },
  { ...PEER, outlet_id: 13, outlet_name: 'Tea Time', level: 'L1', rank: 2, ...measures(1500, 100, 15) },
  { ...PEER, outlet_id: 12, outlet_name: 'Kopi Corner', level: 'L1', rank: 11, ...measures(1000, 40, 25) },
];
const LEVELS = [
  { level: 'L2', ...measures(6000, 100, 60) },
  { level: 'L1', ...measures(4000, 160, 25) },
];

function outletAnswers(overrides: Partial<Record<string, () => { status: number; body: unknown }>> = {}) {
  return (call: RecordedCall) => {
    const override = overrides[call.path];
    if (override) return override();
    switch (call.path) {
      case '/api/mall_report/outlet/overallComparison':
        return ok(call.query.get('end_time') === RANGE.end ? WHOLE : COMPLETE_DAYS);
      case '/api/mall_report/outlet/daily':
        return ok({ data: DAILY });
      case '/api/mall_report/category/outlet':
        return ok({ data: PEERS });
      case '/api/mall_report/level':
        return ok({ data: LEVELS });
      default:
        return undefined;
    }
  };
}

/** The address the page is rendered at (set by renderOutletPage). */
let pageLocation = memoryLocation({ path: '/shopper-connect/mall-outlet/12' });

/** The page as the app's router shows it: a route of the pattern, its id from the address. */
function PageAtPath(props: PageProps) {
  return (
    <Router hook={pageLocation.hook}>
      <Route path="/shopper-connect/mall-outlet/:id">
        <MallOutletPage {...props} />
      </Route>
    </Router>
  );
}

/** The page at /shopper-connect/mall-outlet/{id}. */
function renderOutletPage(id: string) {
  pageLocation = memoryLocation({ path: `/shopper-connect/mall-outlet/${id}` });
  return renderReportPage(PageAtPath, { title: 'Mall Outlet', header: 'none', page: { outletMode: 'disabled' } });
}

describe('the mall outlet page', () => {
  it('asks for the outlet of its path and its mall only, and shows its KPIs with their growth', async () => {
    const network = installNetwork(outletAnswers());
    renderOutletPage('12');
    await waitForReport();
    const whole = { start_time: RANGE.start, end_time: RANGE.end };
    expect(describeCalls(network.reportCalls())).toEqual(
      sortedCalls([
        { path: '/api/mall_report/outlet/overallComparison', params: { ...OUTLET, ...whole, compare: 'previous' } },
        {
          path: '/api/mall_report/outlet/overallComparison',
          params: { ...OUTLET, start_time: COMPLETE.start, end_time: COMPLETE.end, compare: 'previous' },
        },
        { path: '/api/mall_report/outlet/daily', params: { ...OUTLET, ...whole } },
        {
          path: '/api/mall_report/category/outlet',
          params: { ...OUTLET, mall_ids: ['1'], ...whole, limit: '10' },
        },
        {
          path: '/api/mall_report/level',
          params: { client_id: '3', mall_ids: ['1'], ...whole, start_hour: '0', end_hour: '23' },
        },
      ]),
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Mall Outlet');
    expect(screen.getByTestId('mall-outlet-name').textContent).toBe('Kopi Corner · Central');
    // The whole range's figures; the growth of 9–14 March against 2–7 March (§9, 2 decimals).
    expect(screen.getByTestId('kpi-gmv-value').textContent).toBe('$1,000.00');
    expect(screen.getByTestId('kpi-gmv-growth').textContent).toBe('▲ 12.50% vs 2–7 Mar (today left out)');
    expect(screen.getByTestId('kpi-transactions-value').textContent).toBe('40');
    expect(screen.getByTestId('kpi-transactions-growth').textContent).toBe('▼ -10.00% vs 2–7 Mar (today left out)');
    expect(screen.getByTestId('kpi-atv-growth').textContent).toBe('▲ 25.00% vs 2–7 Mar (today left out)');
    // Its place: 11th of 12 in F&B; on L1, whose GMV is 4,000.00, a quarter of it.
    expect(screen.getByTestId('kpi-rank-value').textContent).toBe('11 of 12');
    expect(screen.getByTestId('kpi-rank-growth').textContent).toBe('By GMV among the 12 F&B outlets of Central');
    expect(screen.getByTestId('kpi-level-value').textContent).toBe('L1');
    expect(screen.getByTestId('kpi-level-growth').textContent).toBe('25.0% of the level’s GMV of $4,000.00');
  });

  it('says 0.00% when the previous period sold nothing', async () => {
    installNetwork(
      outletAnswers({
        '/api/mall_report/outlet/overallComparison': () =>
          ok({ ...COMPLETE_DAYS, previous: measures(0, 0, 0), previous_end_time: '2024-03-07' }),
      }),
    );
    renderOutletPage('12');
    await waitForReport();
    expect(screen.getByTestId('kpi-gmv-growth').textContent).toBe('0.00% vs 2–7 Mar (today left out)');
  });

  it('draws the daily chart named by its block, described by its table', async () => {
    installNetwork(outletAnswers());
    renderOutletPage('12');
    await waitForReport();
    const block = screen.getByTestId('outlet-daily');
    await waitFor(() =>
      expect(block.querySelector('svg')?.getAttribute('aria-label')).toBe('Daily GMV and Transactions'),
    );
    const tableId = block.querySelector('svg')?.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(tableId)?.querySelector('table')).not.toBeNull();
    expect(bodyRows(tableIn('outlet-daily'))).toEqual([
      ['2024-03-09', '$300.50', '12'],
      ['2024-03-10', '$0.00', '0'],
      ['2024-03-11', '$699.50', '28'],
    ]);
  });

  it('lists its peers by rank, itself marked and the others linked, sortable by every column', async () => {
    installNetwork(outletAnswers());
    renderOutletPage('12');
    await waitForReport();
    const table = tableIn('outlet-peers-table');
    expect(headerCells(table)).toEqual(['Rank', 'Outlet', 'Level', 'GMV', 'Transactions', 'Avg. Transaction Value']);
    expect(bodyRows(table)).toEqual([
      ['1', 'Laksa Place', 'L2', '$3,000.00', '60', '$50.00'],
      ['2', 'Tea Time', 'L1', '$1,500.00', '100', '$15.00'],
      ['11', 'Kopi Corner (this outlet)', 'L1', '$1,000.00', '40', '$25.00'],
    ]);
    expect(within(table).getByTestId('peer-current').textContent).toBe('Kopi Corner (this outlet)');
    expect(within(table).getByTestId('outlet-link-13').getAttribute('href')).toBe(
      `/shopper-connect/mall-outlet/13?client=3&malls=1,2&from=${RANGE.start}&to=${RANGE.end}`,
    );
    const firstColumn = (index: number) => bodyRows(table).map((row) => row[index]);
    const sortBy = (name: string) =>
      fireEvent.click(within(table).getByRole('button', { name: new RegExp(`^${name}`) }));
    sortBy('Transactions');
    expect(firstColumn(4)).toEqual(['100', '60', '40']);
    sortBy('Avg. Transaction Value');
    expect(firstColumn(5)).toEqual(['$50.00', '$25.00', '$15.00']);
    sortBy('Outlet');
    expect(firstColumn(1)).toEqual(['Kopi Corner (this outlet)', 'Laksa Place', 'Tea Time']);
    sortBy('Level');
    expect(firstColumn(2)).toEqual(['L1', 'L1', 'L2']);
    sortBy('GMV');
    expect(firstColumn(3)).toEqual(['$3,000.00', '$1,500.00', '$1,000.00']);
    sortBy('Rank');
    expect(firstColumn(0)).toEqual(['11', '2', '1']);
    sortBy('Rank');
    expect(firstColumn(0)).toEqual(['1', '2', '11']);
  });

  it('fails one panel alone, with the toast and a retry', async () => {
    let dailyAnswers = 0;
    installNetwork(
      outletAnswers({
        '/api/mall_report/outlet/daily': () => {
          dailyAnswers += 1;
          return dailyAnswers === 1 ? serverError() : ok({ data: DAILY });
        },
      }),
    );
    renderOutletPage('12');
    await waitForReport();
    const block = screen.getByTestId('outlet-daily');
    expect(within(block).getByText('Daily GMV and Transactions could not be loaded.')).toBeTruthy();
    await waitFor(() => expect(toastTexts()).toContain('Mall outlet error occurs. Please try again later.'));
    expect(screen.getByTestId('kpi-gmv-value').textContent).toBe('$1,000.00');
    await act(async () => {
      fireEvent.click(within(block).getByTestId('panel-retry'));
    });
    await waitFor(() => expect(bodyRows(tableIn('outlet-daily'))).toHaveLength(3));
  });

  it('asks nothing about an outlet the user does not see, and says so', async () => {
    const network = installNetwork(outletAnswers());
    renderOutletPage('99');
    await waitFor(() => expect(screen.getByTestId('mall-outlet-unknown')).toBeTruthy());
    expect(screen.getByTestId('mall-outlet-unknown').textContent).toContain(
      'Outlet 99 is not one of the outlets you can see in this client.',
    );
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(network.reportCalls()).toEqual([]);
  });

  it('says an id that is not an id is not one', async () => {
    const network = installNetwork(outletAnswers());
    renderOutletPage('abc');
    await waitFor(() =>
      expect(screen.getByTestId('mall-outlet-unknown').textContent).toContain('“abc” is not an outlet id.'),
    );
    expect(network.reportCalls()).toEqual([]);
  });

  it('exports its KPIs, days and peers', async () => {
    installNetwork(outletAnswers());
    const downloads = captureDownloads();
    renderOutletPage('12');
    await waitForReport();
    const download = await exportDownload(downloads, () => fireEvent.click(screen.getByTestId('export-csv')));
    expect(download.fileName).toBe(`mall_outlet_12_${FILE_RANGE}.zip`);
    expect(await unzip(download.blob)).toEqual({
      [`daily_${FILE_RANGE}.csv`]: [
        'Date,GMV,Transactions,Currency',
        '2024-03-09,300.5,12,SGD',
        '2024-03-10,0,0,SGD',
        '2024-03-11,699.5,28,SGD',
      ],
      [`kpis_${FILE_RANGE}.csv`]: [
        'Measure,Current,Compared Period,Compared,Previous Period,Previous,Currency',
        'GMV,1000,2024-03-09 to 2024-03-14,900,2024-03-02 to 2024-03-07,800,SGD',
        'Transactions,40,2024-03-09 to 2024-03-14,36,2024-03-02 to 2024-03-07,40,SGD',
        'Average Transaction Value,25,2024-03-09 to 2024-03-14,25,2024-03-02 to 2024-03-07,20,SGD',
      ],
      [`peers_${FILE_RANGE}.csv`]: [
        'Rank,Outlet,Level,GMV,Transactions,Average Transaction Value,This Outlet,Currency',
        '1,Laksa Place,L2,3000,60,50,,SGD',
        '2,Tea Time,L1,1500,100,15,,SGD',
        '11,Kopi Corner,L1,1000,40,25,Yes,SGD',
      ],
    });
  });
});

describe('the links to it', () => {
  it('makes each outlet of the Mall GMV outlets table a link to its page, keeping the filters', async () => {
    installNetwork((call) => {
      if (call.path === '/api/mall_report/outlet') {
        return ok({
          data: [{ key: '12', name: 'Kopi Corner', gmv: 1000, transactions: 40, average_transaction_value: 25 }],
        });
      }
      if (call.path === '/api/mall_report/daily' || call.path === '/api/mall_report/monthly') return ok({ data: [] });
      return ok({ data: [] });
    });
    renderReportPage(MallGmvPage, { title: 'Mall GMV', header: 'mall' });
    await waitForReport();
    const link = within(screen.getByTestId('gmv-breakdown')).getByTestId('outlet-link-12');
    expect(link.textContent).toBe('Kopi Corner');
    expect(link.getAttribute('href')).toBe(
      `/shopper-connect/mall-outlet/12?client=3&malls=1,2&from=${RANGE.start}&to=${RANGE.end}`,
    );
  });
});
