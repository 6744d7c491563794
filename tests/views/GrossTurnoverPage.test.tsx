import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GtoOutletMonth } from '../../src/api/gto';
import { clearSession, setPermissionsList } from '../../src/api/session';
import { filterHeaderMachine } from '../../src/machines/filterHeaderMachine';
import { GrossTurnoverPage } from '../../src/views/pages/gto/GrossTurnoverPage';
import { renderInApp, userInfo } from './renderApp';

/*
 * The tenant's Gross Turnover page inside the app with the real filter header and page machines and the app's one
 * api client; the network is a fetch handler on globalThis answering what each test gives it. Client 3's one outlet
 * (SGD) is auto-selected; the header's month is November 2026.
 */

const KOPI = { id: 12, name: 'Kopi Corner', type: 1, currency: 'SGD', mall_id: 1, outlet_code: null };
const MONTHS: GtoOutletMonth[] = [
  { month: '2026-10', declared: 250, captured: 200, difference: 50, difference_percent: 25, submitted_at: null },
  { month: '2026-11', declared: null, captured: 80.5, difference: null, difference_percent: null, submitted_at: null },
];

type Answer = { status: number; body: unknown };
let answerMonths: () => Answer;
let asked: URL[];

beforeEach(() => {
  asked = [];
  answerMonths = () => ({ status: 200, body: { currency: 'SGD', data: MONTHS } });
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    let answer: Answer;
    if (url.pathname === '/outlets') answer = { status: 200, body: [KOPI] };
    else if (url.pathname === '/malls') {
      answer = {
        status: 200,
        body: [{ id: 1, name: 'Central', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' }],
      };
    } else if (url.pathname === '/api/gtoReport/outletMonths') {
      asked.push(url);
      answer = answerMonths();
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
  renderInApp(<GrossTurnoverPage title="Gross Turnover" />, {
    user: userInfo({
      client_id: 3,
      clients: [3],
      permissions: [{ name: 'tenants', subPermissions: ['gross-turnover'] }],
      permissionsList: ['*::*'],
    }),
    path: '/tenants/gross-turnover',
    today: '2026-11-25',
    header: filterHeaderMachine.provide({ actions: { writeUrl: () => undefined, writeCookies: () => undefined } }),
    pageFilters: () => ({ period: 'month', outletMode: 'single' }),
  });
}

/** `fetch` that waits for `before` first (a call held in flight). */
function wrapFetch(fetcher: typeof fetch, before: () => Promise<void>): typeof fetch {
  return async (input, init) => {
    const request = input as Request;
    if (new URL(request.url).pathname === '/api/gtoReport/outletMonths') {
      const answer = fetcher(input, init);
      await before();
      return answer;
    }
    return fetcher(input, init);
  };
}

const rows = () =>
  [...document.querySelectorAll('[data-testid="gross-turnover"] tbody tr')].map((row) =>
    [...row.querySelectorAll('td')].map((cell) => cell.textContent),
  );

describe('the gross turnover page', () => {
  it('shows the declared GTO beside the captured sales for the year to the month', async () => {
    renderPage();
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(asked.map((url) => Object.fromEntries(url.searchParams))).toEqual([
      { client_id: '3', outlet_id: '12', from: '2025-12', to: '2026-11' },
    ]);
    expect(rows()).toEqual([
      ['October 2026', '$250.00', '$200.00', '$50.00', '+25.00%'],
      ['November 2026', 'Not submitted', '$80.50', '—', '—'],
    ]);
    expect(screen.getByRole('heading', { name: 'Gross Turnover', level: 1 })).toBeDefined();
    // The page says it has loaded (the server's browser prints it for a subscription then) and offers Subscribe.
    expect(document.querySelector('[data-report-ready]')?.getAttribute('data-report-ready')).toBe('true');
    expect(screen.getByTestId('report-subscribe')).toBeDefined();
  });

  it('says it is not ready while its months load', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const answered = answerMonths;
    vi.stubGlobal(
      'fetch',
      wrapFetch(globalThis.fetch, async () => held),
    );
    renderPage();
    await waitFor(() => expect(asked).toHaveLength(1));
    expect(document.querySelector('[data-report-ready]')?.getAttribute('data-report-ready')).toBe('false');
    release();
    answerMonths = answered;
    await waitFor(() =>
      expect(document.querySelector('[data-report-ready]')?.getAttribute('data-report-ready')).toBe('true'),
    );
  });

  it("says 'No Data' when nothing was declared nor captured, and fails with a retry", async () => {
    answerMonths = () => ({
      status: 200,
      body: {
        currency: 'SGD',
        data: [
          {
            month: '2026-11',
            declared: null,
            captured: 0,
            difference: null,
            difference_percent: null,
            submitted_at: null,
          },
        ],
      },
    });
    renderPage();
    await waitFor(() => expect(rows()).toEqual([['No Data']]));
    cleanup();
    answerMonths = () => ({ status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'x' } });
    renderPage();
    const retry = await screen.findByTestId('panel-retry');
    answerMonths = () => ({ status: 200, body: { currency: 'SGD', data: MONTHS } });
    fireEvent.click(retry);
    await waitFor(() => expect(rows()).toHaveLength(2));
  });
});
