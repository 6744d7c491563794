import { Classes } from '@blueprintjs/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NonTradingDay } from '../../src/api/nonTradingDays';
import { clearSession, setPermissionsList } from '../../src/api/session';
import { NonTradingDaysPage } from '../../src/views/pages/tenant-connect/NonTradingDaysPage';
import { SalesReviewNonTradingDayPage } from '../../src/views/pages/tenant-connect/SalesReviewNonTradingDayPage';
import { renderInApp, userInfo } from './renderApp';

/*
 * The two non-trading-day pages inside the app with the real filter header and page machines and the app's one
 * api client; the network is a fetch handler on globalThis answering what each test gives it. Client 3 has Kopi
 * Corner (12) and Tea House (13); the header's days are 2026-11-19..2026-11-25.
 */

const KOPI = { id: 12, name: 'Kopi Corner', type: 1, currency: 'SGD', mall_id: 1, outlet_code: null };
const TEA = { id: 13, name: 'Tea House', type: 1, currency: 'SGD', mall_id: 1, outlet_code: null };

function dayRow(day: string, declaredBy: 'tenant' | 'mall', outlet = KOPI): NonTradingDay {
  return {
    outlet_id: outlet.id,
    outlet_name: outlet.name,
    day,
    reason: declaredBy === 'tenant' ? 'Private event' : 'Mall maintenance',
    declared_by: declaredBy,
    user_email: declaredBy === 'tenant' ? 'tenant-only@demo.mall' : null,
    declared_at: '2026-11-10T02:00:00.000Z',
  };
}
const ROWS = [dayRow('2026-11-21', 'tenant'), dayRow('2026-11-20', 'mall', TEA)];

interface Call {
  method: string;
  url: URL;
  body: unknown;
}
type Answer = { status: number; body: unknown };
let calls: Call[];
let answerList: () => Answer;
let answerWrite: (call: Call) => Answer;

beforeEach(() => {
  calls = [];
  answerList = () => ({ status: 200, body: { data: ROWS, total: ROWS.length } });
  answerWrite = (call) => ({
    status: 200,
    body: call.method === 'DELETE' ? { success: true } : { ...dayRow('2026-12-01', 'mall'), reason: 'Renovation' },
  });
  setPermissionsList(['*::*']);
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    const text = request.method === 'POST' ? await request.clone().text() : '';
    const call = { method: request.method, url, body: text ? JSON.parse(text) : undefined };
    let answer: Answer;
    if (url.pathname === '/outlets') answer = { status: 200, body: [KOPI, TEA] };
    else if (url.pathname === '/malls') {
      answer = {
        status: 200,
        body: [{ id: 1, name: 'Central', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' }],
      };
    } else if (url.pathname === '/api/nonTradingDays' || url.pathname === '/api/salesReview/nonTradingDays') {
      calls.push(call);
      answer = request.method === 'GET' ? answerList() : answerWrite(call);
    } else answer = { status: 404, body: { statusCode: 404, error: 'Not Found', message: 'not found' } };
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

const toasts = () => [...document.querySelectorAll(`.${Classes.TOAST}`)].map((toast) => toast.textContent);
const bodyRows = () =>
  screen.getAllByTestId('ntd-row').map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent));
const reads = () => calls.filter((call) => call.method === 'GET');

describe('the mall’s non-trading days', () => {
  function renderPage(): void {
    renderInApp(<NonTradingDaysPage title="Non-trading Days" />, {
      user: userInfo({ roles: ['super admin'], clients: [3], client_id: 3, permissionsList: ['*::*'] }),
      path: '/tenant-connect/non-trading-days',
      today: '2026-11-25',
    });
  }

  it('lists every outlet’s days over the header’s range, sorts on the server, and shows the days ahead', async () => {
    renderPage();
    await waitFor(() => expect(screen.getAllByTestId('ntd-row')).toHaveLength(2));
    expect(screen.getByRole('heading', { name: 'Non-trading Days', level: 1 })).toBeDefined();
    expect(reads().map((call) => call.url.pathname)).toEqual(['/api/nonTradingDays']);
    expect(Object.fromEntries(reads()[0]?.url.searchParams ?? [])).toMatchObject({
      client_id: '3',
      from: '2026-11-19',
      to: '2026-11-25',
      sortColumn: 'day',
      orderByMethod: 'desc',
    });
    expect(bodyRows().map((cells) => cells.slice(0, 5))).toEqual([
      ['21 Nov 2026', 'Kopi Corner', 'Private event', 'Tenant', 'tenant-only@demo.mall'],
      ['20 Nov 2026', 'Tea House', 'Mall maintenance', 'Mall', '—'],
    ]);
    expect(screen.getByTestId('ntd-total').textContent).toBe('2 days');
    fireEvent.click(screen.getByTestId('ntd-sort-outlet_name'));
    await waitFor(() => expect(reads()).toHaveLength(2));
    expect(Object.fromEntries(reads()[1]?.url.searchParams ?? [])).toMatchObject({
      sortColumn: 'outlet_name',
      orderByMethod: 'desc',
    });
    await waitFor(() => expect(screen.getAllByTestId('ntd-row')).toHaveLength(2));
    fireEvent.click(screen.getByTestId('ntd-period-upcoming'));
    await waitFor(() => expect(reads()).toHaveLength(3));
    expect(Object.fromEntries(reads()[2]?.url.searchParams ?? [])).toMatchObject({
      from: '2026-11-26',
      to: '2027-11-26',
    });
  });

  it('declares a day for the outlet chosen, then lists again; a refusal shows the server’s text', async () => {
    renderPage();
    await waitFor(() => expect(screen.getAllByTestId('ntd-row')).toHaveLength(2));
    const declare = screen.getByTestId('ntd-declare');
    expect(declare.hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByLabelText('Outlet'), { target: { value: String(TEA.id) } });
    fireEvent.change(screen.getByLabelText('Day'), { target: { value: '2026-12-01' } });
    expect(screen.getByTestId('ntd-problem').textContent).toBe('Give a reason.');
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'Renovation' } });
    await waitFor(() => expect(declare.hasAttribute('disabled')).toBe(false));
    fireEvent.click(declare);
    await waitFor(() => expect(toasts()).toContain('Non-trading day 1 Dec 2026 declared.'));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      client_id: 3,
      outlet_id: TEA.id,
      day: '2026-12-01',
      reason: 'Renovation',
    });
    await waitFor(() => expect(reads()).toHaveLength(2));
    expect((screen.getByLabelText('Reason') as HTMLInputElement).value).toBe('');

    const message = 'day: 1 Dec 2026 is declared already as a non-trading day of this outlet.';
    answerWrite = () => ({ status: 400, body: { statusCode: 400, error: 'Bad Request', message } });
    fireEvent.change(screen.getByLabelText('Day'), { target: { value: '2026-12-01' } });
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'Renovation' } });
    await waitFor(() => expect(declare.hasAttribute('disabled')).toBe(false));
    fireEvent.click(declare);
    await waitFor(() => expect(toasts()).toContain(message));
    // The form keeps what was typed.
    expect((screen.getByLabelText('Reason') as HTMLInputElement).value).toBe('Renovation');
  });

  it('removes any day after asking', async () => {
    renderPage();
    await waitFor(() => expect(screen.getAllByTestId('ntd-row')).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: 'Remove 20 Nov 2026 of Tea House' }));
    const question = await screen.findByTestId('ntd-removal-question');
    expect(question.textContent).toBe('Remove the non-trading day 20 Nov 2026 of Tea House (Mall maintenance)?');
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(toasts()).toContain('Non-trading day 20 Nov 2026 removed.'));
    const removal = calls.find((call) => call.method === 'DELETE');
    expect(Object.fromEntries(removal?.url.searchParams ?? [])).toEqual({
      client_id: '3',
      outlet_id: String(TEA.id),
      day: '2026-11-20',
    });
    await waitFor(() => expect(reads()).toHaveLength(2));
  });

  it("says 'No Data' for no day, and fails with a retry and the toast", async () => {
    answerList = () => ({ status: 200, body: { data: [], total: 0 } });
    renderPage();
    await waitFor(() => expect(screen.getByText('No Data')).toBeDefined());
    cleanup();
    answerList = () => ({ status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'x' } });
    renderPage();
    const retry = await screen.findByTestId('ntd-retry');
    await waitFor(() => expect(toasts()).toContain('Non-trading days fetching error occurs. Please try again later.'));
    answerList = () => ({ status: 200, body: { data: ROWS, total: 2 } });
    fireEvent.click(retry);
    await waitFor(() => expect(screen.getAllByTestId('ntd-row')).toHaveLength(2));
  });
});

describe('the tenant’s non-trading-day view', () => {
  function renderPage(): void {
    renderInApp(<SalesReviewNonTradingDayPage title="Non-trading Day" />, {
      user: userInfo({
        clients: [3],
        client_id: 3,
        permissionsList: ['*::*'],
        flags: { tenantOnly: true, hideTopBar: false, receiptsHidden: false },
      }),
      path: '/tenant-connect/sales-review/non-trading-day',
      today: '2026-11-25',
    });
  }

  it('lists its outlet’s days, withdraws its own, and shows the mall’s for the mall to remove', async () => {
    answerList = () => ({
      status: 200,
      body: { data: [dayRow('2026-11-21', 'tenant'), dayRow('2026-11-20', 'mall')], total: 2 },
    });
    renderPage();
    await waitFor(() => expect(screen.getAllByTestId('ntd-row')).toHaveLength(2));
    expect(reads()[0]?.url.pathname).toBe('/api/salesReview/nonTradingDays');
    expect(reads()[0]?.url.searchParams.get('outlet_id')).toBe(String(KOPI.id));
    // No outlet to choose: the view is of the top bar's outlet.
    expect(screen.queryByLabelText('Outlet')).toBeNull();
    const [own, malls] = screen.getAllByTestId('ntd-row');
    expect(within(own as HTMLElement).getByRole('button', { name: 'Withdraw 21 Nov 2026' })).toBeDefined();
    expect(within(malls as HTMLElement).queryByRole('button')).toBeNull();
    expect((malls as HTMLElement).textContent).toContain('Declared by the mall');
    expect(screen.getByTestId('ntd-sales-review-link').getAttribute('href')).toMatch(/^\/tenant-connect\/sales-review/);

    fireEvent.click(within(own as HTMLElement).getByRole('button', { name: 'Withdraw 21 Nov 2026' }));
    await screen.findByTestId('ntd-removal-question');
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(toasts()).toContain('Non-trading day 21 Nov 2026 withdrawn.'));
    expect(calls.find((call) => call.method === 'DELETE')?.url.pathname).toBe('/api/salesReview/nonTradingDays');
  });

  it('declares a day of its outlet', async () => {
    answerWrite = () => ({ status: 200, body: dayRow('2026-11-24', 'tenant') });
    renderPage();
    await waitFor(() => expect(screen.getAllByTestId('ntd-row')).toHaveLength(2));
    fireEvent.change(screen.getByLabelText('Day'), { target: { value: '2026-11-24' } });
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'Private event' } });
    const declare = screen.getByTestId('ntd-declare');
    await waitFor(() => expect(declare.hasAttribute('disabled')).toBe(false));
    fireEvent.click(declare);
    await waitFor(() => expect(toasts()).toContain('Non-trading day 24 Nov 2026 declared.'));
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.url.pathname).toBe('/api/salesReview/nonTradingDays');
    expect(post?.body).toEqual({ client_id: 3, outlet_id: KOPI.id, day: '2026-11-24', reason: 'Private event' });
  });
});
