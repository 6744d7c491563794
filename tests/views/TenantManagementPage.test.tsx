import { Classes } from '@blueprintjs/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Outlet } from '../../src/api/lookup';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { TenantUser } from '../../src/api/tenantManagement';
import { TenantManagementPage } from '../../src/views/pages/tenant-connect/TenantManagementPage';
import { CLIENTS, MALLS } from './layoutHarness';
import { renderInApp, userInfo } from './renderApp';

/*
 * Tenant Connect's Tenant Management page inside the app, with the real filter header and page machines and the
 * app's one api client; the network is a fetch handler on globalThis answering what each test gives it. Client 3
 * has the outlets Kopi Corner (12) and Noodle Bar (13).
 */

const OUTLETS: Outlet[] = [
  { id: 12, name: 'Kopi Corner', type: 1, currency: 'SGD', mall_id: 1, outlet_code: null },
  { id: 13, name: 'Noodle Bar', type: 1, currency: 'SGD', mall_id: 1, outlet_code: null },
];

const ANN: TenantUser = {
  id: 21,
  name: 'Ann Active',
  email: 'ann@tenant.test',
  status: 'active',
  outlets: [
    { id: 12, name: 'Kopi Corner' },
    { id: 13, name: 'Noodle Bar' },
  ],
  invited_at: '2026-11-02T01:00:00.000Z',
  last_sign_in_at: '2026-11-20T03:00:00.000Z',
};
const IVY: TenantUser = {
  id: 22,
  name: 'Ivy Invited',
  email: 'ivy@tenant.test',
  status: 'invited',
  outlets: [{ id: 13, name: 'Noodle Bar' }],
  invited_at: '2026-11-21T01:00:00.000Z',
  last_sign_in_at: null,
};

type Answer = { status: number; body: unknown };
interface Call {
  readonly method: string;
  readonly url: URL;
  readonly body: unknown;
}

let answerList: (url: URL) => Answer;
let answerChange: (call: Call) => Answer;
let calls: Call[];

beforeEach(() => {
  calls = [];
  answerList = () => ({ status: 200, body: { data: [ANN, IVY], total: 2 } });
  answerChange = () => ({ status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'x' } });
  setPermissionsList(['*::*']);
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    const text = await request.text();
    const call = { method: request.method, url, body: text === '' ? undefined : JSON.parse(text) };
    calls.push(call);
    const clientId = Number(url.searchParams.get('client_id'));
    let answer: Answer;
    if (url.pathname === '/api/tenantManagement/users' && request.method === 'GET') answer = answerList(url);
    else if (url.pathname.startsWith('/api/tenantManagement/')) answer = answerChange(call);
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
  renderInApp(<TenantManagementPage title="Tenant Management" />, {
    // §6: besides the tenant-only account, only the super admin has the page among their routes.
    user: userInfo({ roles: ['super admin'], clients: [3], client_id: 3, permissionsList: ['*::*'] }),
    path: '/tenant-connect/tenant-management',
    today: '2026-11-25',
  });
}

const listQueries = () =>
  calls
    .filter((call) => call.url.pathname === '/api/tenantManagement/users' && call.method === 'GET')
    .map((call) => Object.fromEntries(call.url.searchParams));
const bodyRows = () =>
  screen
    .getAllByTestId('tenant-row')
    .map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? ''));
const toasts = () => [...document.querySelectorAll(`.${Classes.TOAST}`)].map((toast) => toast.textContent);

async function shown(): Promise<void> {
  await waitFor(() => expect(screen.getAllByTestId('tenant-row')).toHaveLength(2));
}

describe('the tenant management page', () => {
  it('lists the client’s tenant users: name, e-mail, outlets, status, invited, last sign-in and actions', async () => {
    renderPage();
    await shown();
    expect(screen.getByRole('heading', { name: 'Tenant Management' })).toBeDefined();
    expect(listQueries()).toEqual([
      { client_id: '3', page: '1', rowsPerPage: '20', sortColumn: 'name', orderByMethod: 'asc' },
    ]);
    expect(bodyRows()).toEqual([
      [
        'Ann Active',
        'ann@tenant.test',
        'Kopi Corner, Noodle Bar',
        'Active',
        expect.stringMatching(/^2026-11-0[12] \d\d:00:00$/),
        expect.stringMatching(/^2026-11-(19|20) \d\d:00:00$/),
        'Deactivate',
      ],
      [
        'Ivy Invited',
        'ivy@tenant.test',
        'Noodle Bar',
        'Invited',
        expect.stringMatching(/^2026-11-(20|21) \d\d:00:00$/),
        'Never',
        'Resend invitationDeactivate',
      ],
    ]);
    expect(screen.getByTestId('tenant-total').textContent).toBe('2 users');
  });

  it('sorts by a column, filters by status and searches on the server', async () => {
    renderPage();
    await shown();
    fireEvent.click(screen.getByTestId('tenant-sort-last_sign_in_at'));
    await waitFor(() => expect(listQueries()).toHaveLength(2));
    expect(listQueries()[1]).toMatchObject({ sortColumn: 'last_sign_in_at', orderByMethod: 'desc' });
    await shown();
    fireEvent.change(screen.getByTestId('tenant-status-filter'), { target: { value: 'invited' } });
    await waitFor(() => expect(listQueries()).toHaveLength(3));
    expect(listQueries()[2]).toMatchObject({ status: 'invited', page: '1' });
    await shown();
    fireEvent.change(screen.getByTestId('tenant-search'), { target: { value: 'ivy' } });
    fireEvent.click(screen.getByTestId('tenant-search-button'));
    await waitFor(() => expect(listQueries()).toHaveLength(4));
    expect(listQueries()[3]).toMatchObject({ status: 'invited', search: 'ivy' });
  });

  it('invites a user to outlets of the client, and shows the server’s reason for a refusal', async () => {
    renderPage();
    await shown();
    answerChange = () => ({
      status: 400,
      body: { statusCode: 400, error: 'Bad Request', message: 'email: an account with this e-mail already exists.' },
    });
    fireEvent.click(screen.getByTestId('tenant-invite-open'));
    const submit = await screen.findByTestId('tenant-invite-submit');
    expect(submit.hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByTestId('tenant-invite-email'), { target: { value: 'nora@tenant.test' } });
    fireEvent.change(screen.getByTestId('tenant-invite-name'), { target: { value: 'Nora New' } });
    fireEvent.click(screen.getByLabelText('Noodle Bar (13)'));
    fireEvent.click(screen.getByLabelText('Kopi Corner (12)'));
    expect(submit.hasAttribute('disabled')).toBe(false);
    fireEvent.click(submit);
    await waitFor(() => expect(toasts()).toContain('email: an account with this e-mail already exists.'));
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
      { client_id: 3, email: 'nora@tenant.test', name: 'Nora New', outlet_ids: '12,13' },
    ]);
    // The dialog stays open with the draft.
    expect((screen.getByTestId('tenant-invite-email') as HTMLInputElement).value).toBe('nora@tenant.test');

    answerChange = () => ({ status: 200, body: { ...IVY, id: 30, name: 'Nora New', email: 'nora@tenant.test' } });
    fireEvent.click(screen.getByTestId('tenant-invite-submit'));
    await waitFor(() => expect(toasts()).toContain('Invitation sent to nora@tenant.test.'));
    await waitFor(() => expect(screen.queryByTestId('tenant-invite-form')).toBeNull());
    await waitFor(() => expect(listQueries()).toHaveLength(2));
  });

  it('deactivates a user after a confirmation', async () => {
    renderPage();
    await shown();
    answerChange = () => ({ status: 200, body: { ...ANN, status: 'deactivated' } });
    const ann = screen.getAllByTestId('tenant-row')[0] as HTMLElement;
    fireEvent.click(within(ann).getByRole('button', { name: 'Deactivate: Ann Active' }));
    expect((await screen.findByTestId('tenant-action-question')).textContent).toBe(
      'Deactivate Ann Active? They are signed out at once and cannot sign in until reactivated.',
    );
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(toasts()).toContain('Ann Active has been deactivated.'));
    expect(calls.filter((call) => call.method === 'PUT').map((call) => [call.url.pathname, call.body])).toEqual([
      ['/api/tenantManagement/users/status', { client_id: 3, user_id: 21, active: false }],
    ]);
    await waitFor(() => expect(listQueries()).toHaveLength(2));
  });

  it("says 'No Data' for an empty answer, and fails with a retry and the toast", async () => {
    answerList = () => ({ status: 200, body: { data: [], total: 0 } });
    renderPage();
    await waitFor(() => expect(screen.getByText('No Data')).toBeDefined());
    cleanup();
    answerList = () => ({ status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'x' } });
    renderPage();
    const retry = await screen.findByTestId('tenant-retry');
    await waitFor(() => expect(toasts()).toContain('Tenant users fetching error occurs. Please try again later.'));
    answerList = () => ({ status: 200, body: { data: [ANN, IVY], total: 2 } });
    fireEvent.click(retry);
    await shown();
    expect(screen.queryByTestId('tenant-retry')).toBeNull();
  });
});
