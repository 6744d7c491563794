import { Classes } from '@blueprintjs/core';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OutboxMail } from '../../src/api/admin';
import { clearSession, setPermissionsList } from '../../src/api/session';
import { OUTBOX_ERROR } from '../../src/machines/outboxMachine';
import { OutboxPage } from '../../src/views/pages/admin/OutboxPage';
import { deferred } from '../support/deferred';
import { CLIENTS, MALLS, OUTLETS } from './layoutHarness';
import { currentPath, fakeServer, renderApp, renderInApp, userInfo } from './renderApp';

/*
 * The super admin's Outbox page: the mails the server kept instead of sending them (GET /api/admin/outbox),
 * with the real outbox machine and the app's one api client; the network is a fetch handler on globalThis.
 * Then the whole app: the page is reached at /admin/outbox, from the sidebar's 'Outbox' item, by the super
 * admin only; the navigation guard sends anyone else to /404.
 */

const CODE_MAIL: OutboxMail = {
  id: 8,
  recipient: 'mfa@demo.mall',
  subject: 'Your Mall Analytics sign-in code: 123456',
  text: 'Your one-time sign-in code is 123456.\nIt expires in 10 minutes.',
  created_at: '2026-11-21T09:30:00.000Z',
};
const RESET_MAIL: OutboxMail = {
  id: 7,
  recipient: 'operator@demo.mall',
  subject: 'Reset your Mall Analytics password',
  text: 'Open https://mall.example/reset-password?validationKey=abc to choose a new password.',
  created_at: '2026-11-20T08:00:00.000Z',
};

type Answer = { status: number; body: unknown };

interface Network {
  outbox: () => Answer | Promise<Answer>;
  calls: URL[];
}

let network: Network;

function installNetwork(): void {
  network = { outbox: () => ({ status: 200, body: { data: [CODE_MAIL, RESET_MAIL] } }), calls: [] };
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    network.calls.push(url);
    const clientId = Number(url.searchParams.get('client_id'));
    let answer: Answer;
    if (url.pathname === '/api/admin/outbox') answer = await network.outbox();
    else if (url.pathname === '/clients') answer = { status: 200, body: CLIENTS };
    else if (url.pathname === '/malls') answer = { status: 200, body: MALLS[clientId] ?? [] };
    else if (url.pathname === '/outlets') answer = { status: 200, body: OUTLETS[clientId] ?? [] };
    else answer = { status: 404, body: { statusCode: 404, error: 'Not Found', message: `${url.pathname} not found` } };
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
}

const outboxCalls = () => network.calls.filter((url) => url.pathname === '/api/admin/outbox');

/** Cell texts of the outbox table's body rows. */
function rows(): string[][] {
  return [...document.querySelectorAll('[data-testid="outbox-page"] tbody tr')].map((row) =>
    [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? ''),
  );
}

beforeEach(() => installNetwork());

/** The page as the app shows it to the super admin. */
function renderOutbox(): void {
  renderInApp(<OutboxPage title="Outbox" />, {
    user: userInfo({ roles: ['super admin'], username: 'root', permissionsList: ['*::*'] }),
    path: '/admin/outbox',
  });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

describe('the outbox page', () => {
  beforeEach(() => setPermissionsList(['*::*']));

  it('lists the latest 50 mails kept in the outbox, newest first as the server sends them', async () => {
    renderOutbox();
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(outboxCalls().map((url) => url.search)).toEqual(['?rowsPerPage=50']);
    expect(screen.getByRole('heading', { name: 'Outbox' })).toBeDefined();
    expect(
      [...document.querySelectorAll('[data-testid="outbox-page"] thead th')].map((cell) => cell.textContent),
    ).toEqual(['Sent', 'To', 'Subject']);
    expect(rows()).toEqual([
      [new Date(CODE_MAIL.created_at).toLocaleString(), 'mfa@demo.mall', 'Your Mall Analytics sign-in code: 123456'],
      [new Date(RESET_MAIL.created_at).toLocaleString(), 'operator@demo.mall', 'Reset your Mall Analytics password'],
    ]);
  });

  it("opens a mail's full text under its row, and closes it again", async () => {
    renderOutbox();
    const [first] = await screen.findAllByTestId('outbox-row');
    if (!first) throw new Error('no outbox row');
    expect(screen.queryByText(/one-time sign-in code is 123456/)).toBeNull();
    fireEvent.click(first);
    const text = screen.getByText(/one-time sign-in code is 123456/);
    expect(text.tagName).toBe('PRE');
    expect(text.textContent).toBe(CODE_MAIL.text);
    fireEvent.click(first);
    expect(screen.queryByText(/one-time sign-in code is 123456/)).toBeNull();
  });

  it('shows a spinner while the first answer is pending, then the mails', async () => {
    const pending = deferred<Answer>();
    network.outbox = () => pending.promise;
    renderOutbox();
    await waitFor(() => expect(outboxCalls()).toHaveLength(1));
    const page = screen.getByTestId('outbox-page');
    // The page's own spinner (not the Refresh button's).
    expect(page.querySelector(`:scope > .${Classes.SPINNER}`)).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Refresh' }).classList.contains(Classes.LOADING)).toBe(true);
    expect(screen.queryByText('No mail yet')).toBeNull();
    await act(async () => pending.resolve({ status: 200, body: { data: [RESET_MAIL] } }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(page.querySelector(`.${Classes.SPINNER}`)).toBeNull();
    expect(screen.getByRole('button', { name: 'Refresh' }).classList.contains(Classes.LOADING)).toBe(false);
  });

  it("says 'No mail yet' when the outbox is empty (mail went out through SMTP)", async () => {
    network.outbox = () => ({ status: 200, body: { data: [] } });
    renderOutbox();
    expect(await screen.findByText('No mail yet')).toBeDefined();
    expect(screen.queryAllByTestId('outbox-row')).toHaveLength(0);
  });

  it('fetches again on Refresh and shows what came in since', async () => {
    network.outbox = () => ({ status: 200, body: { data: [RESET_MAIL] } });
    renderOutbox();
    await waitFor(() => expect(rows()).toHaveLength(1));
    network.outbox = () => ({ status: 200, body: { data: [CODE_MAIL, RESET_MAIL] } });
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(outboxCalls()).toHaveLength(2);
    expect(rows()[0]?.[1]).toBe('mfa@demo.mall');
  });

  it('says so when the outbox cannot be read, and recovers on Refresh', async () => {
    network.outbox = () => ({
      status: 500,
      body: { statusCode: 500, error: 'Internal Server Error', message: 'boom' },
    });
    renderOutbox();
    expect(await screen.findByText(OUTBOX_ERROR)).toBeDefined();
    expect(OUTBOX_ERROR).toBe('Outbox fetching error occurs. Please try again later.');
    expect(screen.getByText('No mail yet')).toBeDefined();
    network.outbox = () => ({ status: 200, body: { data: [CODE_MAIL] } });
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.queryByText(OUTBOX_ERROR)).toBeNull();
  });
});

describe('the outbox in the app', () => {
  /** Sign-in, routes and lookups of the whole app take longer than a second on a busy machine. */
  const SIGN_IN = { timeout: 5_000 };
  const superAdmin = userInfo({ roles: ['super admin'], clients: [3, 4], client_id: 3, permissionsList: ['*::*'] });
  const operator = userInfo({
    clients: [3],
    client_id: 3,
    roles: ['mall operator'],
    // Even a route permission naming the admin page does not open it.
    permissions: [
      { name: 'shopper-connect', subPermissions: ['mall-home'] },
      { name: 'receipts', subPermissions: [] },
      { name: 'admin', subPermissions: ['outbox'] },
    ],
    permissionsList: ['/clients::Read', '/malls::Read', '/outlets::Read', '/api/admin/outbox::Read'],
  });

  it('opens /admin/outbox for the super admin, with its Outbox item in the sidebar', async () => {
    const location = renderApp(
      '/admin/outbox',
      fakeServer({ credential: () => Promise.resolve({ user: superAdmin, csrfToken: 'c' }) }),
    );
    await waitFor(() => expect(rows()).toHaveLength(2), SIGN_IN);
    expect(currentPath(location)).toBe('/admin/outbox');
    const link = within(screen.getByTestId('nav')).getByTestId('nav-link-/admin/outbox');
    expect(link.textContent).toContain('Outbox');
    // The current page's item is marked active.
    expect(link.classList.contains(Classes.ACTIVE)).toBe(true);
  });

  it('reaches the outbox from the sidebar', async () => {
    const location = renderApp(
      '/receipts',
      fakeServer({ credential: () => Promise.resolve({ user: superAdmin, csrfToken: 'c' }) }),
    );
    const link = await screen.findByTestId('nav-link-/admin/outbox', {}, SIGN_IN);
    expect(outboxCalls()).toHaveLength(0);
    fireEvent.click(link);
    await waitFor(() => expect(rows()).toHaveLength(2), SIGN_IN);
    expect(currentPath(location)).toBe('/admin/outbox');
  });

  it('refuses anyone else: /404, no Outbox item, no outbox call', async () => {
    const location = renderApp(
      '/admin/outbox',
      fakeServer({ credential: () => Promise.resolve({ user: operator, csrfToken: 'c' }) }),
    );
    await waitFor(() => expect(currentPath(location)).toBe('/404'), SIGN_IN);
    expect(await screen.findByTestId('not-found')).toBeDefined();
    expect(outboxCalls()).toHaveLength(0);

    act(() => location.navigate('/receipts'));
    await screen.findByTestId('nav-link-/receipts', {}, SIGN_IN);
    expect(screen.queryByTestId('nav-link-/admin/outbox')).toBeNull();
    expect(screen.queryByText('Outbox')).toBeNull();
  });
});
