import { Classes } from '@blueprintjs/core';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OutboxMail } from '../../src/api/admin';
import { clearSession, setPermissionsList } from '../../src/api/session';
import { formatDateTime } from '../../src/domain/format';
import { OUTBOX_ERROR } from '../../src/machines/outboxMachine';
import { OutboxPage } from '../../src/views/pages/admin/OutboxPage';
import { type Deferred, deferred } from '../support/deferred';
import { CLIENTS, MALLS, OUTLETS } from './layoutHarness';
import { currentPath, fakeServer, renderApp, renderInApp, userInfo } from './renderApp';

/*
 * The super admin's Outbox page: the mails the server kept instead of sending them (GET /api/admin/outbox), a
 * page at a time, sorted and searched on the server, with the real outbox machine and the app's one api client;
 * the network is a fetch handler on globalThis that answers what each test gives it.
 * Then the whole app: the page is reached at /admin/outbox, from the sidebar's 'Outbox' item, by the super
 * admin only; the navigation guard sends anyone else to /404.
 */

const CODE_MAIL: OutboxMail = {
  id: 8,
  recipient: 'mfa@demo.mall',
  subject: 'Your Mall Analytics sign-in code: 123456',
  text: 'Your one-time sign-in code is 123456.\nIt expires in 10 minutes.',
  created_at: '2026-11-21T09:30:00.000Z',
  attachments: [],
};
const RESET_MAIL: OutboxMail = {
  id: 7,
  recipient: 'operator@demo.mall',
  subject: 'Reset your Mall Analytics password',
  text: 'Open https://mall.example/reset-password?validationKey=abc to choose a new password.',
  created_at: '2026-11-20T08:00:00.000Z',
  attachments: [],
};

type Answer = { status: number; body: unknown };

interface Network {
  outbox: (url: URL) => Answer | Promise<Answer>;
  calls: URL[];
}

let network: Network;

const page = (data: OutboxMail[], total = data.length): Answer => ({ status: 200, body: { data, total } });
const SERVER_ERROR: Answer = {
  status: 500,
  body: { statusCode: 500, error: 'Internal Server Error', message: 'boom' },
};

function installNetwork(): void {
  network = { outbox: () => page([CODE_MAIL, RESET_MAIL]), calls: [] };
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    network.calls.push(url);
    const clientId = Number(url.searchParams.get('client_id'));
    let answer: Answer;
    if (url.pathname === '/api/admin/outbox') answer = await network.outbox(url);
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
/** The query of each outbox call, as an object. */
const outboxQueries = () => outboxCalls().map((url) => Object.fromEntries(url.searchParams));
const FIRST_QUERY = { page: '1', rowsPerPage: '20', sortColumn: 'created_at', order: 'desc' };

/** Cell texts of the outbox table's body rows. */
function rows(): string[][] {
  return [...document.querySelectorAll('[data-testid="outbox-page"] tbody tr')].map((row) =>
    [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? ''),
  );
}

/** The recipients of the rows shown. */
const recipients = () => screen.queryAllByTestId('outbox-row').map((row) => row.children[1]?.textContent);

/** Each column header's text and aria-sort. */
function headers(): [string, string | null][] {
  return [...document.querySelectorAll('[data-testid="outbox-page"] thead th')].map((cell) => [
    (cell.textContent ?? '').trim(),
    cell.getAttribute('aria-sort'),
  ]);
}

const toastTexts = () => [...document.querySelectorAll(`.${Classes.TOAST}`)].map((toast) => toast.textContent ?? '');
const skeletonCells = () => document.querySelectorAll(`[data-testid="outbox-page"] tbody .${Classes.SKELETON}`);
const refresh = () => screen.getByRole('button', { name: 'Refresh' });

/** 45 mails: mail-1 (the newest) .. mail-45. */
const MAILS: OutboxMail[] = Array.from({ length: 45 }, (_, index) => ({
  id: 100 - index,
  recipient: `user${index + 1}@demo.mall`,
  subject: `Mail ${index + 1}`,
  text: `Text ${index + 1}`,
  created_at: new Date(Date.UTC(2026, 10, 21, 9, 0) - index * 60_000).toISOString(),
  attachments: [],
}));

/** The page of MAILS the query asks (the order and the search are the server's business: not applied here). */
function pageOfMails(url: URL): Answer {
  const number = Number(url.searchParams.get('page'));
  const size = Number(url.searchParams.get('rowsPerPage'));
  return page(MAILS.slice((number - 1) * size, number * size), MAILS.length);
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

  it('asks the first page of 20 mails, newest first, and lists them as the server sends them', async () => {
    renderOutbox();
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(outboxQueries()).toEqual([FIRST_QUERY]);
    expect(screen.getByRole('heading', { name: 'Outbox' })).toBeDefined();
    expect(headers()).toEqual([
      ['Sent', 'descending'],
      ['To', 'none'],
      ['Subject', 'none'],
    ]);
    expect(rows()).toEqual([
      [formatDateTime(CODE_MAIL.created_at), 'mfa@demo.mall', 'Your Mall Analytics sign-in code: 123456'],
      [formatDateTime(RESET_MAIL.created_at), 'operator@demo.mall', 'Reset your Mall Analytics password'],
    ]);
    expect(screen.getByTestId('page-indicator').textContent).toBe('Page 1 of 1');
    expect(screen.getByTestId('outbox-total').textContent).toBe('2 mails');
    expect(toastTexts()).toEqual([]);
  });

  it("opens a mail's full text under its row, by click or by Enter and Space, and closes it again", async () => {
    renderOutbox();
    const [first] = await screen.findAllByTestId('outbox-row');
    if (!first) throw new Error('no outbox row');
    expect(first.getAttribute('tabindex')).toBe('0');
    expect(first.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText(/one-time sign-in code is 123456/)).toBeNull();
    fireEvent.click(first);
    const text = screen.getByText(/one-time sign-in code is 123456/);
    expect(text.tagName).toBe('PRE');
    expect(text.textContent).toBe(CODE_MAIL.text);
    expect(first.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(first);
    expect(screen.queryByText(/one-time sign-in code is 123456/)).toBeNull();

    fireEvent.keyDown(first, { key: 'Enter' });
    expect(screen.getByText(/one-time sign-in code is 123456/)).toBeDefined();
    fireEvent.keyDown(first, { key: ' ' });
    expect(screen.queryByText(/one-time sign-in code is 123456/)).toBeNull();
    fireEvent.keyDown(first, { key: 'a' });
    expect(screen.queryByText(/one-time sign-in code is 123456/)).toBeNull();
  });

  it("links a mail's files under its text, each downloaded through the attachment call", async () => {
    const report: OutboxMail = {
      ...CODE_MAIL,
      id: 12,
      subject: 'Weekly Mall Home: Mall Home',
      text: 'Weekly Mall Home: Mall Home, as of its last whole day.',
      attachments: [
        { position: 1, filename: 'mall-home_2026-03-01_2026-03-07.pdf', media_type: 'application/pdf', size: 184_000 },
        {
          position: 2,
          filename: 'mall-home_2026-03-01_2026-03-07.xlsx',
          media_type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          size: 9_400,
        },
      ],
    };
    network.outbox = () => page([report]);
    renderOutbox();
    await waitFor(() => expect(screen.getAllByTestId('outbox-row')[0]?.textContent).toContain('Weekly Mall Home'));
    expect(screen.queryByTestId('outbox-attachments')).toBeNull();
    fireEvent.click(screen.getAllByTestId('outbox-row')[0] as HTMLElement);
    const links = screen.getAllByTestId('outbox-attachment') as HTMLAnchorElement[];
    expect(links.map((link) => [link.textContent, link.getAttribute('href'), link.getAttribute('download')])).toEqual([
      [
        'mall-home_2026-03-01_2026-03-07.pdf',
        '/api/admin/outbox/attachment?id=12&position=1',
        'mall-home_2026-03-01_2026-03-07.pdf',
      ],
      [
        'mall-home_2026-03-01_2026-03-07.xlsx',
        '/api/admin/outbox/attachment?id=12&position=2',
        'mall-home_2026-03-01_2026-03-07.xlsx',
      ],
    ]);
    expect(screen.getByTestId('outbox-attachments').textContent).toContain('(184 KB)');
  });

  it('shows skeleton rows while a page loads, never an empty outbox, then the mails', async () => {
    const pending = deferred<Answer>();
    network.outbox = () => pending.promise;
    renderOutbox();
    await waitFor(() => expect(outboxCalls()).toHaveLength(1));
    await waitFor(() => expect(skeletonCells().length).toBeGreaterThan(0));
    expect(screen.getAllByTestId('outbox-skeleton-row')).toHaveLength(5);
    expect(screen.queryAllByTestId('outbox-row')).toHaveLength(0);
    expect(refresh().classList.contains(Classes.LOADING)).toBe(true);
    expect(screen.queryByText('No mail yet')).toBeNull();
    await act(async () => pending.resolve(page([RESET_MAIL])));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(skeletonCells()).toHaveLength(0);
    expect(refresh().classList.contains(Classes.LOADING)).toBe(false);
  });

  it("says 'No mail yet' when the outbox is empty (mail went out through SMTP)", async () => {
    network.outbox = () => page([]);
    renderOutbox();
    expect(await screen.findByText('No mail yet')).toBeDefined();
    expect(screen.queryAllByTestId('outbox-row')).toHaveLength(0);
    expect(skeletonCells()).toHaveLength(0);
  });

  it('pages through the mails: previous and next within the pages, and the rows per page', async () => {
    const pending: Deferred<Answer>[] = [];
    network.outbox = (url) => {
      const answer = deferred<Answer>();
      answer.resolve(pageOfMails(url));
      pending.push(answer);
      return answer.promise;
    };
    renderOutbox();
    await waitFor(() => expect(recipients()).toHaveLength(20));
    expect(recipients()[0]).toBe('user1@demo.mall');
    expect(screen.getByTestId('page-indicator').textContent).toBe('Page 1 of 3');
    expect(screen.getByTestId('outbox-total').textContent).toBe('45 mails');
    expect(screen.getByTestId('page-prev').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('page-next').hasAttribute('disabled')).toBe(false);

    const next = deferred<Answer>();
    network.outbox = () => next.promise;
    fireEvent.click(screen.getByTestId('page-next'));
    await waitFor(() => expect(outboxQueries().at(-1)).toEqual({ ...FIRST_QUERY, page: '2' }));
    // While page 2 loads: skeletons in place of the 20 rows, the pager still.
    await waitFor(() => expect(screen.getAllByTestId('outbox-skeleton-row')).toHaveLength(20));
    expect(screen.getByTestId('page-next').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('page-prev').hasAttribute('disabled')).toBe(true);
    await act(async () => next.resolve(pageOfMails(outboxCalls().at(-1) ?? new URL('http://x'))));
    await waitFor(() => expect(recipients()[0]).toBe('user21@demo.mall'));
    expect(screen.getByTestId('page-indicator').textContent).toBe('Page 2 of 3');
    expect(screen.getByTestId('page-prev').hasAttribute('disabled')).toBe(false);

    network.outbox = pageOfMails;
    fireEvent.click(screen.getByTestId('page-next'));
    await waitFor(() => expect(screen.getByTestId('page-indicator').textContent).toBe('Page 3 of 3'));
    expect(recipients()).toHaveLength(5);
    expect(screen.getByTestId('page-next').hasAttribute('disabled')).toBe(true);

    fireEvent.change(screen.getByTestId('rows-per-page'), { target: { value: '50' } });
    await waitFor(() => expect(recipients()).toHaveLength(45));
    await waitFor(() => expect(outboxQueries().at(-1)).toEqual({ ...FIRST_QUERY, rowsPerPage: '50' }));
    expect(screen.getByTestId('page-indicator').textContent).toBe('Page 1 of 1');
    expect([...screen.getByTestId('rows-per-page').querySelectorAll('option')].map((o) => o.value)).toEqual([
      '10',
      '20',
      '50',
    ]);
  });

  it('sorts by a column header: descending first, then ascending, back to page 1', async () => {
    network.outbox = pageOfMails;
    renderOutbox();
    await waitFor(() => expect(recipients()).toHaveLength(20));
    fireEvent.click(screen.getByTestId('page-next'));
    await waitFor(() => expect(screen.getByTestId('page-indicator').textContent).toBe('Page 2 of 3'));

    fireEvent.click(screen.getByRole('button', { name: 'To' }));
    await waitFor(() =>
      expect(outboxQueries().at(-1)).toEqual({ ...FIRST_QUERY, sortColumn: 'recipient', order: 'desc' }),
    );
    await waitFor(() => expect(screen.getByTestId('page-indicator').textContent).toBe('Page 1 of 3'));
    expect(headers()).toEqual([
      ['Sent', 'none'],
      ['To', 'descending'],
      ['Subject', 'none'],
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'To' }));
    await waitFor(() =>
      expect(outboxQueries().at(-1)).toEqual({ ...FIRST_QUERY, sortColumn: 'recipient', order: 'asc' }),
    );
    await waitFor(() => expect(headers()[1]).toEqual(['To', 'ascending']));

    fireEvent.click(screen.getByRole('button', { name: 'Subject' }));
    await waitFor(() =>
      expect(outboxQueries().at(-1)).toEqual({ ...FIRST_QUERY, sortColumn: 'subject', order: 'desc' }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sent' }));
    await waitFor(() =>
      expect(outboxQueries().at(-1)).toEqual({ ...FIRST_QUERY, sortColumn: 'created_at', order: 'desc' }),
    );
  });

  it('searches the recipient or subject as typed (trimmed), from page 1, and says when nothing matches', async () => {
    network.outbox = pageOfMails;
    renderOutbox();
    await waitFor(() => expect(recipients()).toHaveLength(20));
    fireEvent.click(screen.getByTestId('page-next'));
    await waitFor(() => expect(screen.getByTestId('page-indicator').textContent).toBe('Page 2 of 3'));

    network.outbox = () => page([RESET_MAIL]);
    const input = screen.getByRole('textbox', { name: 'Search recipient or subject' });
    expect(input.getAttribute('maxlength')).toBe('200');
    fireEvent.change(input, { target: { value: '  Reset ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(outboxQueries().at(-1)).toEqual({ ...FIRST_QUERY, search: 'Reset' }));
    await waitFor(() => expect(recipients()).toEqual(['operator@demo.mall']));
    expect(screen.getByTestId('page-indicator').textContent).toBe('Page 1 of 1');

    network.outbox = () => page([]);
    fireEvent.change(input, { target: { value: '100%_off' } });
    fireEvent.submit(input);
    await waitFor(() => expect(outboxQueries().at(-1)).toEqual({ ...FIRST_QUERY, search: '100%_off' }));
    expect(await screen.findByText('No mail matches the search')).toBeDefined();
    expect(screen.queryByText('No mail yet')).toBeNull();

    network.outbox = () => page([CODE_MAIL, RESET_MAIL]);
    fireEvent.change(input, { target: { value: '' } });
    fireEvent.submit(input);
    await waitFor(() => expect(outboxQueries().at(-1)).toEqual(FIRST_QUERY));
    await waitFor(() => expect(rows()).toHaveLength(2));
  });

  it('fetches the same page again on Refresh and shows what came in since', async () => {
    network.outbox = pageOfMails;
    renderOutbox();
    await waitFor(() => expect(recipients()).toHaveLength(20));
    fireEvent.click(screen.getByTestId('page-next'));
    await waitFor(() => expect(screen.getByTestId('page-indicator').textContent).toBe('Page 2 of 3'));
    const before = outboxCalls().length;
    network.outbox = (url) => page([CODE_MAIL], Number(url.searchParams.get('page')) * 20 + 1);
    fireEvent.click(refresh());
    await waitFor(() => expect(outboxCalls()).toHaveLength(before + 1));
    await waitFor(() => expect(outboxQueries().at(-1)).toEqual({ ...FIRST_QUERY, page: '2' }));
    await waitFor(() => expect(recipients()).toEqual(['mfa@demo.mall']));
    expect(screen.getByTestId('page-indicator').textContent).toBe('Page 2 of 3');
  });

  it('toasts the failure, and recovers on Refresh (a retry)', async () => {
    network.outbox = () => SERVER_ERROR;
    renderOutbox();
    await waitFor(() => expect(toastTexts()).toEqual([OUTBOX_ERROR]));
    expect(OUTBOX_ERROR).toBe('Outbox fetching error occurs. Please try again later.');
    expect(screen.getByText('The outbox could not be read')).toBeDefined();
    expect(screen.queryByText('No mail yet')).toBeNull();
    expect(skeletonCells()).toHaveLength(0);

    network.outbox = () => page([CODE_MAIL]);
    fireEvent.click(refresh());
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(outboxQueries()).toEqual([FIRST_QUERY, FIRST_QUERY]);
    expect(screen.queryByText('The outbox could not be read')).toBeNull();
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
    expect(currentPath(location)?.split('?')[0]).toBe('/admin/outbox');
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
