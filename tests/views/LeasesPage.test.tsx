import { Classes } from '@blueprintjs/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Lease } from '../../src/api/leases';
import type { Outlet } from '../../src/api/lookup';
import { clearSession, setPermissionsList } from '../../src/api/session';
import { LEASE_MESSAGES, TURNOVER_MODEL_RULES } from '../../src/domain/leases';
import { LeasesPage } from '../../src/views/pages/tenant-connect/LeasesPage';
import { CLIENTS, MALLS } from './layoutHarness';
import { renderInApp, userInfo } from './renderApp';

/*
 * Tenant Connect's Leases page inside the app, with the real filter header (the mall header with its Malls choice)
 * and page machines and the app's one api client; the network is a fetch handler on globalThis answering what each
 * test gives it. Client 3's malls Central (1) and East (2): Kopi Corner (12) in Central, a shop of a 60-character
 * name (13) in East.
 */

const LONG_NAME = 'Shoe Lane Premium Footwear and Leather Goods Flagship Store X';
const OUTLETS: Outlet[] = [
  { id: 12, name: 'Kopi Corner', type: 1, currency: 'SGD', mall_id: 1, outlet_code: 'K-12' },
  { id: 13, name: LONG_NAME, type: 1, currency: 'SGD', mall_id: 2, outlet_code: null },
];

const KOPI: Lease = {
  id: 41,
  outlet_id: 12,
  outlet_name: 'Kopi Corner',
  outlet_code: 'K-12',
  mall_id: 1,
  mall_name: 'Central',
  currency: 'SGD',
  gst_percent: 9,
  start_date: '2026-01-01',
  end_date: '2028-12-31',
  gla_sqm: 120.5,
  base_rent: 10_000,
  service_charge: 1_500,
  turnover_rent: {
    model: 'higher_of',
    tiers: [
      { from: 0, rate_percent: 8 },
      { from: 200_000, rate_percent: 10 },
    ],
  },
  notice_date: null,
  renewal_date: null,
  status: 'current',
};
const OLD: Lease = {
  ...KOPI,
  id: 40,
  outlet_id: 13,
  outlet_name: LONG_NAME,
  outlet_code: '',
  mall_id: 2,
  mall_name: 'East',
  start_date: '2023-01-01',
  end_date: '2025-12-31',
  notice_date: '2025-06-30',
  turnover_rent: { model: 'base_plus_overage', tiers: [{ from: 50_000, rate_percent: 7 }] },
  status: 'ended',
};

type Answer = { status: number; body: unknown };
interface Call {
  readonly method: string;
  readonly url: URL;
  readonly body: unknown;
}

let answerList: () => Answer;
let answerChange: (call: Call) => Answer;
let calls: Call[];

beforeEach(() => {
  calls = [];
  answerList = () => ({ status: 200, body: { data: [KOPI, OLD], total: 2 } });
  answerChange = () => ({ status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'x' } });
  setPermissionsList(['*::*']);
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    const text = await request.text();
    const call = { method: request.method, url, body: text === '' ? undefined : JSON.parse(text) };
    calls.push(call);
    const clientId = Number(url.searchParams.get('client_id'));
    let answer: Answer;
    if (url.pathname === '/api/leases' && request.method === 'GET') answer = answerList();
    else if (url.pathname === '/api/leases') answer = answerChange(call);
    else if (url.pathname === '/clients') answer = { status: 200, body: CLIENTS };
    else if (url.pathname === '/malls') answer = { status: 200, body: MALLS[clientId] ?? [] };
    else if (url.pathname === '/outlets') answer = { status: 200, body: clientId === 3 ? OUTLETS : [] };
    else answer = { status: 404, body: { statusCode: 404, error: 'Not Found', message: 'not found' } };
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
  renderInApp(<LeasesPage title="Leases" header="mall" />, {
    user: userInfo({ roles: ['super admin'], clients: [3], client_id: 3, permissionsList: ['*::*'] }),
    path: '/tenant-connect/leases',
    today: '2026-11-25',
  });
}

const listQueries = () =>
  calls
    .filter((call) => call.url.pathname === '/api/leases' && call.method === 'GET')
    .map((call) => ({
      ...Object.fromEntries(call.url.searchParams),
      mall_ids: call.url.searchParams.getAll('mall_ids'),
    }));
const changes = () =>
  calls.filter((call) => call.url.pathname === '/api/leases' && call.method !== 'GET').map((call) => call.body);
const bodyRows = () =>
  screen
    .getAllByTestId('lease-row')
    .map((row) => [...row.querySelectorAll('td, th')].map((cell) => cell.textContent ?? ''));
const toasts = () => [...document.querySelectorAll(`.${Classes.TOAST}`)].map((toast) => toast.textContent);
const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
const type = (testId: string, value: string) => fireEvent.change(input(testId), { target: { value } });

async function shown(): Promise<void> {
  await waitFor(() => expect(screen.getAllByTestId('lease-row')).toHaveLength(2));
}

const FIRST_QUERY = {
  client_id: '3',
  mall_ids: ['1', '2'],
  sortColumn: 'outlet_name',
  orderByMethod: 'asc',
  page: '1',
  rowsPerPage: '20',
};

describe('the leases page', () => {
  it('lists the leases of the selected malls under the mall header, with the actions each allows', async () => {
    renderPage();
    await shown();
    expect(screen.getByRole('heading', { level: 1, name: 'Leases' })).toBeDefined();
    expect(within(screen.getByTestId('mall-header')).getByTestId('malls-select')).toBeDefined();
    expect(listQueries()).toEqual([FIRST_QUERY]);
    expect(bodyRows()).toEqual([
      [
        // The name, and the code under it.
        'Kopi CornerK-12',
        'Central',
        '120.5',
        '$10,000.00',
        '$1,500.00',
        'Higher of base or turnover',
        '1 Jan 2026',
        '31 Dec 2028',
        '—',
        'Current',
        'EditEnd lease',
      ],
      [
        LONG_NAME,
        'East',
        '120.5',
        '$10,000.00',
        '$1,500.00',
        'Base plus overage',
        '1 Jan 2023',
        '31 Dec 2025',
        '30 Jun 2025',
        'Ended',
        'Edit',
      ],
    ]);
    // A long name is cut on screen with its whole text as its title.
    const long = screen.getAllByTestId('lease-row')[1] as HTMLElement;
    expect(within(long).getByTitle(LONG_NAME)).toBeDefined();
    expect(screen.getByTestId('leases-total').textContent).toBe('2 leases');
  });

  it('sorts by a column, filters by status and expiry and searches by outlet on the server', async () => {
    renderPage();
    await shown();
    fireEvent.click(screen.getByTestId('leases-sort-end_date'));
    await waitFor(() => expect(listQueries()).toHaveLength(2));
    expect(listQueries()[1]).toEqual({ ...FIRST_QUERY, sortColumn: 'end_date', orderByMethod: 'desc' });
    await shown();
    fireEvent.change(screen.getByTestId('leases-status-filter'), { target: { value: 'current' } });
    await waitFor(() => expect(listQueries()).toHaveLength(3));
    expect(listQueries()[2]).toMatchObject({ status: 'current', sortColumn: 'end_date', page: '1' });
    await shown();
    fireEvent.change(screen.getByTestId('leases-expiring-filter'), { target: { value: '6' } });
    await waitFor(() => expect(listQueries()).toHaveLength(4));
    expect(listQueries()[3]).toMatchObject({ status: 'current', expiring_within_months: '6' });
    await shown();
    type('leases-search', 'kopi');
    fireEvent.click(screen.getByTestId('leases-search-button'));
    await waitFor(() => expect(listQueries()).toHaveLength(5));
    expect(listQueries()[4]).toMatchObject({ search: 'kopi', expiring_within_months: '6' });
  });

  it('adds a lease: a rule broken is said at its field, the server’s refusal too, then the toast', async () => {
    renderPage();
    await shown();
    fireEvent.click(screen.getByTestId('lease-add'));
    const submit = await screen.findByTestId('lease-submit');
    expect(submit.hasAttribute('disabled')).toBe(true);
    // The outlets of the selected malls.
    expect([...(screen.getByTestId('lease-outlet') as HTMLSelectElement).options].map((option) => option.text)).toEqual(
      ['Choose an outlet', 'Kopi Corner (12) · Central', `${LONG_NAME} (13) · East`],
    );
    fireEvent.change(screen.getByTestId('lease-outlet'), { target: { value: '13' } });
    type('lease-start', '2027-01-01');
    type('lease-end', '2026-12-31');
    expect(screen.getByTestId('lease-end-problem').textContent).toBe(LEASE_MESSAGES.endBeforeStart);
    // A field left blank says nothing yet; its label says it is required.
    expect(screen.queryByTestId('lease-gla-problem')).toBeNull();
    type('lease-end', '2029-12-31');
    expect(screen.queryByTestId('lease-end-problem')).toBeNull();
    type('lease-gla', '0');
    expect(screen.getByTestId('lease-gla-problem').textContent).toBe(
      'Enter an area above 0 m² with at most 2 decimals.',
    );
    type('lease-gla', '85');
    type('lease-base-rent', '6,500');
    type('lease-service-charge', '900');
    expect(screen.getByTestId('lease-model-rule').textContent).toBe(TURNOVER_MODEL_RULES.higher_of);
    fireEvent.change(screen.getByTestId('lease-model'), { target: { value: 'base_plus_overage' } });
    expect(screen.getByTestId('lease-model-rule').textContent).toBe(TURNOVER_MODEL_RULES.base_plus_overage);
    type('lease-tier-from-0', '50000');
    type('lease-tier-rate-0', '7');
    fireEvent.click(screen.getByTestId('lease-add-tier'));
    expect(screen.getAllByTestId('lease-tier')).toHaveLength(2);
    type('lease-tier-from-1', '40000');
    expect(screen.getByTestId('lease-tier-from-1-problem').textContent).toBe(LEASE_MESSAGES.tiersNotAscending);
    type('lease-tier-from-1', '100000');
    type('lease-tier-rate-1', '9');
    expect(submit.hasAttribute('disabled')).toBe(false);

    answerChange = () => ({
      status: 400,
      body: { statusCode: 400, error: 'Bad Request', message: `start_date: ${LEASE_MESSAGES.overlapping}` },
    });
    fireEvent.click(submit);
    await waitFor(() => expect(screen.getByTestId('lease-start-problem').textContent).toBe(LEASE_MESSAGES.overlapping));
    expect(changes()).toEqual([
      {
        client_id: 3,
        outlet_id: 13,
        start_date: '2027-01-01',
        end_date: '2029-12-31',
        gla_sqm: 85,
        base_rent: 6_500,
        service_charge: 900,
        turnover_rent: {
          model: 'base_plus_overage',
          tiers: [
            { from: 50_000, rate_percent: 7 },
            { from: 100_000, rate_percent: 9 },
          ],
        },
        notice_date: null,
        renewal_date: null,
      },
    ]);

    answerChange = () => ({ status: 200, body: { ...OLD, id: 60, status: 'upcoming' } });
    type('lease-start', '2027-02-01');
    expect(screen.queryByTestId('lease-start-problem')).toBeNull();
    fireEvent.click(screen.getByTestId('lease-submit'));
    await waitFor(() => expect(toasts()).toContain(`Lease of ${LONG_NAME} has been added successfully.`));
    await waitFor(() => expect(screen.queryByTestId('lease-form')).toBeNull());
    await waitFor(() => expect(listQueries()).toHaveLength(2));
  });

  it('changes a lease; its outlet stays', async () => {
    renderPage();
    await shown();
    answerChange = () => ({ status: 200, body: { ...KOPI, base_rent: 11_000 } });
    fireEvent.click(screen.getByRole('button', { name: 'Edit the lease of Kopi Corner' }));
    expect(await screen.findByRole('heading', { name: 'Edit lease' })).toBeDefined();
    expect(input('lease-outlet').readOnly).toBe(true);
    expect(input('lease-outlet').value).toBe('Kopi Corner · K-12 · Central');
    expect(input('lease-base-rent').value).toBe('10000.00');
    expect(screen.getAllByTestId('lease-tier')).toHaveLength(2);
    type('lease-base-rent', '11000');
    fireEvent.click(screen.getByTestId('lease-submit'));
    await waitFor(() => expect(toasts()).toContain('Save Successfully.'));
    expect(changes()).toEqual([
      {
        client_id: 3,
        id: 41,
        outlet_id: 12,
        start_date: '2026-01-01',
        end_date: '2028-12-31',
        gla_sqm: 120.5,
        base_rent: 11_000,
        service_charge: 1_500,
        turnover_rent: KOPI.turnover_rent,
        notice_date: null,
        renewal_date: null,
      },
    ]);
    expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(1);
    await waitFor(() => expect(listQueries()).toHaveLength(2));
  });

  it('ends a lease on a last day of its term', async () => {
    renderPage();
    await shown();
    answerChange = () => ({ status: 200, body: { ...KOPI, end_date: '2026-11-30' } });
    fireEvent.click(screen.getByRole('button', { name: 'End the lease of Kopi Corner' }));
    expect((await screen.findByTestId('lease-end-question')).textContent).toBe(
      'End the lease of Kopi Corner (1 Jan 2026 – 31 Dec 2028)? Choose its last day.',
    );
    expect(input('lease-end-day').value).toBe('2026-11-25');
    type('lease-end-day', '2029-01-01');
    expect(screen.getByTestId('lease-end-day-problem').textContent).toBe(
      'The last day must be on or before the lease’s end date, 31 Dec 2028.',
    );
    expect(screen.getByTestId('lease-end-submit').hasAttribute('disabled')).toBe(true);
    type('lease-end-day', '2026-11-30');
    fireEvent.click(screen.getByTestId('lease-end-submit'));
    await waitFor(() => expect(toasts()).toContain("Kopi Corner's lease ends on 30 Nov 2026."));
    expect(changes()).toEqual([
      expect.objectContaining({
        client_id: 3,
        id: 41,
        outlet_id: 12,
        start_date: '2026-01-01',
        end_date: '2026-11-30',
      }),
    ]);
    await waitFor(() => expect(screen.queryByTestId('lease-end-form')).toBeNull());
    await waitFor(() => expect(listQueries()).toHaveLength(2));
  });

  it("says 'No Data' for an empty answer, and fails with a retry and the toast", async () => {
    answerList = () => ({ status: 200, body: { data: [], total: 0 } });
    renderPage();
    await waitFor(() => expect(screen.getByText('No Data')).toBeDefined());
    cleanup();
    answerList = () => ({ status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'x' } });
    renderPage();
    const retry = await screen.findByTestId('leases-retry');
    await waitFor(() => expect(toasts()).toContain('Leases fetching error occurs. Please try again later.'));
    answerList = () => ({ status: 200, body: { data: [KOPI, OLD], total: 2 } });
    fireEvent.click(retry);
    await shown();
  });
});
