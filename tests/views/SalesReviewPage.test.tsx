import { Classes } from '@blueprintjs/core';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SalesReview } from '../../src/api/nonTradingDays';
import { clearSession, setPermissionsList } from '../../src/api/session';
import { SalesReviewPage } from '../../src/views/pages/tenant-connect/SalesReviewPage';
import { renderInApp, userInfo } from './renderApp';

/*
 * The sales review inside the app with the real filter header and page machines and the app's one api client; the
 * network is a fetch handler on globalThis answering what each test gives it. Client 4's one outlet (Bakery, in
 * IDR: no minor units) is auto-selected; the header's days are 2026-11-19..2026-11-25, today the 25th.
 */

const BAKERY = { id: 20, name: 'Bakery', type: 2, currency: 'IDR', mall_id: 5, outlet_code: null };
const REVIEW: SalesReview = {
  currency: 'IDR',
  today: '2026-11-25',
  data: [
    { date: '2026-11-19', gmv: 150000, transactions: 3, non_trading: null },
    { date: '2026-11-20', gmv: 0, transactions: 0, non_trading: { reason: 'Renovation', declared_by: 'mall' } },
    { date: '2026-11-21', gmv: 0, transactions: 0, non_trading: { reason: 'Private event', declared_by: 'tenant' } },
    { date: '2026-11-22', gmv: 98500, transactions: 2, non_trading: null },
    { date: '2026-11-23', gmv: 120000, transactions: 4, non_trading: null },
    { date: '2026-11-24', gmv: 1234567, transactions: 11, non_trading: null },
    { date: '2026-11-25', gmv: 10000, transactions: 1, non_trading: null },
  ],
};

type Answer = { status: number; body: unknown };
let answerReview: () => Answer;
let asked: URL[];

beforeEach(() => {
  asked = [];
  answerReview = () => ({ status: 200, body: REVIEW });
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    let answer: Answer;
    if (url.pathname === '/outlets') answer = { status: 200, body: [BAKERY] };
    else if (url.pathname === '/malls') {
      answer = {
        status: 200,
        body: [{ id: 5, name: 'Kemang', currency: 'IDR', time_zone: 'Asia/Jakarta', country: 'ID' }],
      };
    } else if (url.pathname === '/api/salesReview/daily') {
      asked.push(url);
      answer = answerReview();
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

function renderPage(): void {
  setPermissionsList(['*::*']);
  renderInApp(<SalesReviewPage title="Sales Review" />, {
    user: userInfo({
      client_id: 4,
      clients: [4],
      // The tenant-only account (§6): it lands on the sales review.
      flags: { tenantOnly: true, hideTopBar: false, receiptsHidden: false },
      permissionsList: ['*::*'],
    }),
    path: '/tenant-connect/sales-review',
    today: '2026-11-25',
  });
}

const rows = () =>
  [...document.querySelectorAll('[data-testid="sales-review-table"] tbody tr')].map((row) =>
    [...row.querySelectorAll('td')].map((cell) => cell.textContent),
  );

describe('the sales review page', () => {
  it('shows the outlet’s days in its currency, the non-trading days marked with their reason, today so far', async () => {
    renderPage();
    await waitFor(() => expect(rows()).toHaveLength(7));
    expect(asked.map((url) => Object.fromEntries(url.searchParams))).toEqual([
      { client_id: '4', outlet_id: '20', start_time: '2026-11-19', end_time: '2026-11-25' },
    ]);
    expect(rows()).toEqual([
      ['2026-11-19', 'Rp150,000', '3', ''],
      ['2026-11-20', 'Rp0', '0', 'Not tradingRenovation (Mall)'],
      ['2026-11-21', 'Rp0', '0', 'Not tradingPrivate event (Tenant)'],
      ['2026-11-22', 'Rp98,500', '2', ''],
      ['2026-11-23', 'Rp120,000', '4', ''],
      ['2026-11-24', 'Rp1,234,567', '11', ''],
      ['2026-11-25', 'Rp10,000', '1', 'Today, so far'],
    ]);
    expect(screen.getByRole('heading', { name: 'Sales Review', level: 1 })).toBeDefined();
    // The chart is named by its block's title and described by the table.
    const block = screen.getByTestId('sales-review');
    expect(block.querySelector('h5')?.textContent).toBe('Daily GMV and Transactions');
    expect(screen.getByRole('region', { name: 'Daily GMV and Transactions: table' })).toBeDefined();
    expect(screen.getByTestId('sales-review-non-trading-link').getAttribute('href')).toMatch(
      /^\/tenant-connect\/sales-review\/non-trading-day/,
    );
    await waitFor(() => expect(screen.getByTestId('export-csv').hasAttribute('disabled')).toBe(false));
  });

  it("says 'No Data' for days with no sales and no non-trading day, and fails with a retry and the toast", async () => {
    answerReview = () => ({
      status: 200,
      body: { ...REVIEW, data: REVIEW.data.map((day) => ({ ...day, gmv: 0, transactions: 0, non_trading: null })) },
    });
    renderPage();
    await waitFor(() => expect(rows()).toEqual([['No Data']]));
    expect(asked).toHaveLength(1);
    cleanup();
    answerReview = () => ({ status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'x' } });
    renderPage();
    const retry = await screen.findByTestId('panel-retry');
    await waitFor(() =>
      expect([...document.querySelectorAll(`.${Classes.TOAST}`)].map((toast) => toast.textContent)).toContain(
        'Sales review error occurs. Please try again later.',
      ),
    );
    answerReview = () => ({ status: 200, body: REVIEW });
    fireEvent.click(retry);
    await waitFor(() => expect(rows()).toHaveLength(7));
  });

  it('shows skeletons, not zeros, while the days load', async () => {
    let release: () => void = () => undefined;
    answerReview = () => ({ status: 200, body: REVIEW });
    const pending = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fetchStub = globalThis.fetch;
    vi.stubGlobal('fetch', async (request: Request) => {
      if (new URL(request.url).pathname === '/api/salesReview/daily') await pending;
      return fetchStub(request);
    });
    renderPage();
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Daily GMV and Transactions: loading' })).toBeDefined(),
    );
    expect(rows()).toEqual([]);
    release();
    await waitFor(() => expect(rows()).toHaveLength(7));
  });
});
