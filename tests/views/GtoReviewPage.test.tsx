import { Classes } from '@blueprintjs/core';
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GtoSummaryRow } from '../../src/api/gto';
import { clearSession, setPermissionsList } from '../../src/api/session';
import { filterHeaderMachine } from '../../src/machines/filterHeaderMachine';
import { GuardedRouter } from '../../src/views/layout/GuardedRouter';
import { GtoReviewPage } from '../../src/views/pages/gto/GtoReviewPage';
import { type Deferred, deferred } from '../support/deferred';
import { currentPath, renderInApp, userInfo } from './renderApp';

/*
 * The GTO review page (§2, §7, §8, §9) with the real filter header, review machine and paged list behind it and the
 * app's one api client: the network is a fetch handler on globalThis answering what each test gives it. Client 3,
 * today 25 November 2026; the month picker chooses October. The page sits in the app's router, so that its links
 * are requests to the navigation guard.
 */

configure({ asyncUtilTimeout: 5_000 });

const TODAY = '2026-11-25';
const CLIENT_ID = 3;

type Answer = { status: number; body: unknown };

const KOPI: GtoSummaryRow = {
  outlet_id: 12,
  outlet_name: 'Kopi Corner',
  mall_id: 1,
  mall_name: 'Central',
  month: '2026-10',
  gto_amount: 1080,
  status: 'submitted',
  submitted_at: '2026-11-03T10:15:00.000Z',
  currency: 'SGD',
  captured_sales: 1000,
  variance_amount: 80,
  variance_percent: 8,
  flagged: true,
  due_on: '2026-11-07',
  late: false,
  last_reminded_on: null,
};
const BATIK: GtoSummaryRow = {
  outlet_id: 14,
  outlet_name: 'Batik House',
  mall_id: 2,
  mall_name: 'Plaza Jakarta',
  month: '2026-10',
  gto_amount: null,
  status: 'notSubmitted',
  submitted_at: null,
  currency: 'IDR',
  captured_sales: 5_500_000,
  variance_amount: null,
  variance_percent: null,
  flagged: false,
  due_on: '2026-11-07',
  late: true,
  last_reminded_on: '2026-11-25',
};

let calls: URL[];
let summary: (url: URL) => Answer | Promise<Answer>;
let settings: (request: Request, url: URL) => Answer | Promise<Answer>;
let savedRules: unknown[];

const page = (data: GtoSummaryRow[], total = data.length, threshold = 7.5): Answer => ({
  status: 200,
  body: { data, total, threshold_percent: threshold },
});

function installNetwork(): void {
  calls = [];
  summary = () => page([KOPI, BATIK]);
  savedRules = [];
  settings = async (request) => {
    if (request.method === 'PUT') {
      const body = await request.json();
      savedRules.push(body);
      return { status: 200, body: { variance_threshold: 10, due_day: 5, reminders: false } };
    }
    return { status: 200, body: { variance_threshold: 7.5, due_day: 7, reminders: true } };
  };
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    calls.push(url);
    let answer: Answer;
    if (url.pathname === '/malls') {
      answer = {
        status: 200,
        body: [{ id: 1, name: 'Central', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' }],
      };
    } else if (url.pathname === '/outlets') answer = { status: 200, body: [] };
    else if (url.pathname === '/api/gtoReport/summary') answer = await summary(url);
    else if (url.pathname === '/api/gtoReport/settings') answer = await settings(request, url);
    else if (url.pathname === '/api/gtoReport/mallNameOption') {
      // 21 malls: a page of 20, then one.
      const all = Array.from({ length: 21 }, (_, index) => ({ id: 100 + index, name: `Mall ${index + 1}` }));
      const pageNo = Number(url.searchParams.get('page') ?? '1');
      answer = { status: 200, body: { data: all.slice((pageNo - 1) * 20, pageNo * 20) } };
    } else if (url.pathname === '/api/gtoReport/outletNameOption') {
      answer = { status: 200, body: { data: [{ id: 12, name: 'Kopi Corner' }] } };
    } else
      answer = { status: 404, body: { statusCode: 404, error: 'Not Found', message: `${url.pathname} not found` } };
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
}

const summaryCalls = () => calls.filter((url) => url.pathname === '/api/gtoReport/summary');
const lastQuery = () => Object.fromEntries(summaryCalls().at(-1)?.searchParams ?? []);
const toastTexts = () => [...document.querySelectorAll(`.${Classes.TOAST}`)].map((toast) => toast.textContent ?? '');
const table = () => screen.getByTestId('gto-review-table');

/** Cell texts of the table's body rows. */
function rows(): string[][] {
  return [...table().querySelectorAll('tbody tr')].map((row) =>
    [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? ''),
  );
}

function headers(): [string, string | null][] {
  return [...table().querySelectorAll('thead th')].map((cell) => [
    (cell.textContent ?? '').trim(),
    cell.getAttribute('aria-sort'),
  ]);
}

async function waitForAnswer(count: number): Promise<void> {
  await waitFor(() => expect(summaryCalls()).toHaveLength(count));
  await waitFor(() => expect(screen.getByTestId('gto-count').textContent).not.toBe(''));
}

function renderPage() {
  setPermissionsList(['*::*']);
  return renderInApp(
    <GuardedRouter>
      <GtoReviewPage title="GTO Review" />
    </GuardedRouter>,
    {
      user: userInfo({
        client_id: CLIENT_ID,
        clients: [CLIENT_ID],
        permissions: [
          { name: 'tenant-connect', subPermissions: ['gto-review'] },
          { name: 'receipts', subPermissions: [] },
        ],
        permissionsList: ['*::*'],
      }),
      path: '/tenant-connect/gto-review',
      today: TODAY,
      header: filterHeaderMachine.provide({ actions: { writeUrl: () => undefined, writeCookies: () => undefined } }),
      pageFilters: () => ({ period: 'month', outletMode: 'disabled' }),
    },
  );
}

/** The page on October 2026 with its first answer shown. */
async function renderOctober() {
  const location = renderPage();
  await waitForAnswer(1);
  fireEvent.change(screen.getByTestId('month-picker'), { target: { value: '2026-10' } });
  await waitForAnswer(2);
  await waitFor(() => expect(rows()).toHaveLength(2));
  return location;
}

beforeEach(() => installNetwork());

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

describe('the GTO review page', () => {
  it('shows skeleton rows while the summary loads, never zeros', async () => {
    const pending: Deferred<Answer> = deferred();
    summary = () => pending.promise;
    renderPage();
    await waitFor(() => expect(summaryCalls()).toHaveLength(1));
    expect(screen.getAllByTestId('gto-skeleton-row').length).toBeGreaterThan(0);
    expect(table().getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByText('No Data')).toBeNull();
    expect(screen.getByTestId('gto-count').textContent).toBe('');
    // Not ready while the list loads: the server's browser waits before it prints the page for a subscription.
    const ready = () => document.querySelector('[data-report-ready]')?.getAttribute('data-report-ready');
    expect(ready()).toBe('false');
    pending.resolve(page([KOPI]));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(ready()).toBe('true');
    expect(screen.getByTestId('report-subscribe')).toBeDefined();
  });

  it('says it is ready once an empty or failed list has settled too', async () => {
    summary = () => ({ status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'boom' } });
    renderPage();
    await screen.findByTestId('gto-review-failure');
    expect(document.querySelector('[data-report-ready]')?.getAttribute('data-report-ready')).toBe('true');
  });

  it("asks 10 rows of the month sorted by outlet, and shows each row in its outlet's currency", async () => {
    await renderOctober();
    expect(lastQuery()).toEqual({
      client_id: String(CLIENT_ID),
      date: '2026-10-01',
      filterOption: 'all',
      sortColumn: 'outlet_name',
      orderByMethod: 'asc',
      page: '1',
      rowsPerPage: '10',
    });
    expect(screen.getByRole('heading', { level: 1, name: 'GTO Review' })).toBeDefined();
    expect(headers()).toEqual([
      ['Outlet', 'ascending'],
      ['Mall', 'none'],
      ['Declared GTO', 'none'],
      ['Captured sales', 'none'],
      ['Variance', 'none'],
      ['Status', 'none'],
      ['Submitted at', 'none'],
      ['Last reminder', 'none'],
    ]);
    const [kopi, batik] = rows();
    expect(kopi?.slice(0, 4)).toEqual(['Kopi Corner', 'Central', '$1,080.00', '$1,000.00']);
    expect(kopi?.[4]).toContain('+$80.00 (+8.00%)');
    expect(kopi?.[5]).toBe('SubmittedFlagged');
    expect(kopi?.[6]).toMatch(/^2026-11-\d\d \d\d:15:00$/);
    expect(batik).toEqual([
      'Batik House',
      'Plaza Jakarta',
      '',
      'Rp5,500,000',
      '—',
      'Not submittedLate: Not submitted by the due day, 7 Nov 2026',
      '',
      '25 Nov 2026',
    ]);
    expect(screen.getByTestId('gto-due-rule').textContent).toBe(
      ' Due on 7 November 2026; months submitted later, or not by then, are tagged Late.',
    );
    expect(within(table()).getByTestId('gto-flagged').textContent).toBe('Flagged');
    expect(screen.getByTestId('gto-threshold-rule').textContent).toBe(
      ' Flagged: declared GTO differs from the sales captured from receipts by more than 7.5%.',
    );
    expect(screen.getByTestId('gto-count').textContent).toBe('2 outlets');
    expect(screen.getByTestId('page-indicator').textContent).toBe('Page 1 of 1');
  });

  it("links a row's variance to the outlet's receipts of the month, and follows it", async () => {
    const location = await renderOctober();
    const link = screen.getByTestId('gto-variance-link-12');
    expect(link.getAttribute('href')).toBe('/receipts?client=3&outlet=12&from=2026-10-01&to=2026-10-31');
    expect(link.textContent).toContain('Declared GTO 8.00% above the captured sales: receipts of Kopi Corner');
    expect(screen.queryByTestId('gto-variance-link-14')).toBeNull();
    fireEvent.click(link);
    await waitFor(() =>
      expect(currentPath(location)).toBe('/receipts?client=3&outlet=12&from=2026-10-01&to=2026-10-31'),
    );
  });

  it('sorts by any column on the server, a new column descending first', async () => {
    await renderOctober();
    fireEvent.click(screen.getByTestId('gto-sort-variance_percent'));
    await waitForAnswer(3);
    expect(lastQuery()).toMatchObject({ sortColumn: 'variance_percent', orderByMethod: 'desc', page: '1' });
    await waitFor(() =>
      expect(headers().find(([name]) => name.startsWith('Variance'))).toEqual(['Variance', 'descending']),
    );
    fireEvent.click(screen.getByTestId('gto-sort-variance_percent'));
    await waitForAnswer(4);
    expect(lastQuery()).toMatchObject({ sortColumn: 'variance_percent', orderByMethod: 'asc' });
    for (const column of ['mall_name', 'gto_amount', 'captured_sales', 'status', 'submitted_at']) {
      const before = summaryCalls().length;
      await waitFor(() => expect(screen.getByTestId(`gto-sort-${column}`)).toBeDefined());
      fireEvent.click(screen.getByTestId(`gto-sort-${column}`));
      await waitForAnswer(before + 1);
      expect(lastQuery().sortColumn).toBe(column);
    }
  });

  it('filters by status from page 1, and pages 10 rows at a time', async () => {
    summary = (url) => page(url.searchParams.get('page') === '2' ? [BATIK] : [KOPI], 12);
    renderPage();
    await waitForAnswer(1);
    expect(screen.getByTestId('page-indicator').textContent).toBe('Page 1 of 2');
    fireEvent.click(screen.getByTestId('page-next'));
    await waitForAnswer(2);
    expect(lastQuery().page).toBe('2');
    fireEvent.click(screen.getByTestId('gto-filter-flagged'));
    await waitForAnswer(3);
    expect(lastQuery()).toMatchObject({ filterOption: 'flagged', page: '1' });
    expect(screen.getByTestId('gto-filter-flagged').getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('gto-filter-all').getAttribute('aria-pressed')).toBe('false');
    fireEvent.change(screen.getByTestId('rows-per-page'), { target: { value: '20' } });
    await waitForAnswer(4);
    expect(lastQuery()).toMatchObject({ rowsPerPage: '20', page: '1', filterOption: 'flagged' });
  });

  it("says 'No Data' for an empty answer", async () => {
    summary = () => page([], 0);
    renderPage();
    await screen.findByTestId('gto-review-empty');
    expect(screen.getByText('No Data')).toBeDefined();
    expect(screen.getByTestId('gto-count').textContent).toBe('0 outlets');
    expect((screen.getByTestId('gto-export-csv') as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows a failed summary as an empty result with a count of 0, the toast and a retry', async () => {
    let failing = true;
    summary = () =>
      failing
        ? { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'boom' } }
        : page([KOPI]);
    renderPage();
    await screen.findByTestId('gto-review-failure');
    expect(screen.getByTestId('gto-count').textContent).toBe('0 outlets');
    expect(screen.queryByText('No Data')).toBeNull();
    await waitFor(() => expect(toastTexts()).toContain('GTO summary fetching error occurs. Please try again later.'));
    expect((screen.getByTestId('gto-export-csv') as HTMLButtonElement).disabled).toBe(true);
    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
  });

  it('edits the review rules in a dialog, and reads the rows again under the saved rules', async () => {
    await renderOctober();
    fireEvent.click(screen.getByTestId('gto-rules-open'));
    const dialog = await screen.findByRole('dialog', { name: 'GTO review rules' });
    const threshold = within(dialog).getByLabelText('Variance threshold (%)') as HTMLInputElement;
    await waitFor(() => expect(threshold.value).toBe('7.5'));
    const save = within(dialog).getByTestId('gto-rules-save');
    expect(save.hasAttribute('disabled')).toBe(true);
    fireEvent.change(threshold, { target: { value: '10.555' } });
    expect(within(dialog).getByText('Enter a percentage from 0 to 100 with at most 2 decimals.')).toBeDefined();
    expect(save.hasAttribute('disabled')).toBe(true);
    fireEvent.change(threshold, { target: { value: '10' } });
    fireEvent.change(within(dialog).getByLabelText('Due on day of the following month'), { target: { value: '5' } });
    fireEvent.click(within(dialog).getByTestId('gto-rules-reminders'));
    expect(save.hasAttribute('disabled')).toBe(false);
    fireEvent.click(save);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(savedRules).toEqual([{ client_id: CLIENT_ID, variance_threshold: 10, due_day: 5, reminders: false }]);
    await waitForAnswer(3);
    await waitFor(() => expect(toastTexts()).toContain('Save Successfully.'));
  });

  it('narrows the review to a mall and an outlet chosen from name options read 20 a page', async () => {
    await renderOctober();
    fireEvent.click(screen.getByTestId('gto-mall-filter'));
    await waitFor(() => expect(screen.getByTestId('gto-mall-filter-option-119')).toBeDefined());
    const optionCalls = () => calls.filter((url) => url.pathname === '/api/gtoReport/mallNameOption');
    expect(Object.fromEntries(optionCalls()[0]?.searchParams ?? [])).toEqual({
      client_id: String(CLIENT_ID),
      page: '1',
    });
    fireEvent.click(screen.getByTestId('gto-mall-filter-more'));
    await waitFor(() => expect(screen.getByTestId('gto-mall-filter-option-120')).toBeDefined());
    expect(optionCalls()[1]?.searchParams.get('page')).toBe('2');
    // The last page had 1: no more.
    expect(screen.queryByTestId('gto-mall-filter-more')).toBeNull();
    fireEvent.click(screen.getByTestId('gto-mall-filter-option-120'));
    await waitForAnswer(3);
    expect(summaryCalls().at(-1)?.searchParams.getAll('mall_ids')).toEqual(['120']);
    expect(screen.getByTestId('gto-mall-filter').textContent).toBe('Mall 21');

    fireEvent.click(screen.getByTestId('gto-outlet-filter'));
    await waitFor(() => expect(screen.getByTestId('gto-outlet-filter-option-12')).toBeDefined());
    const outletCall = calls.filter((url) => url.pathname === '/api/gtoReport/outletNameOption').at(-1);
    expect(outletCall?.searchParams.getAll('mall_ids')).toEqual(['120']);
    fireEvent.click(screen.getByTestId('gto-outlet-filter-option-12'));
    await waitForAnswer(4);
    expect(lastQuery()).toMatchObject({ mall_ids: '120', outlet_id: '12', page: '1' });
  });
});
