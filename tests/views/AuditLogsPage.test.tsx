import { Classes } from '@blueprintjs/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuditLogEntry } from '../../src/api/audit';
import { clearSession, setPermissionsList } from '../../src/api/session';
import { AuditLogsPage } from '../../src/views/pages/tenant-connect/AuditLogsPage';
import { CLIENTS, MALLS, OUTLETS } from './layoutHarness';
import { renderInApp, userInfo } from './renderApp';

/*
 * Tenant Connect's Audit Logs page inside the app, with the real filter header and page machines and the app's one
 * api client; the network is a fetch handler on globalThis answering what each test gives it.
 */

const ENTRIES: AuditLogEntry[] = [
  {
    id: 9,
    created_at: '2026-11-24T02:00:00.000Z',
    user_email: 'tenant@demo.mall',
    action: 'update',
    entity: 'gto_submission',
    entity_id: '12:2026-10',
    detail: { before: { total: 160.1, remarks: 'Excludes GST' }, after: { total: 150, remarks: null } },
  },
  {
    id: 8,
    created_at: '2026-11-23T01:00:00.000Z',
    user_email: null,
    action: 'login',
    entity: 'session',
    entity_id: null,
    detail: { ip: '10.0.0.1' },
  },
];

type Answer = { status: number; body: unknown };
let answerAudit: (url: URL) => Answer;
let calls: URL[];

beforeEach(() => {
  calls = [];
  answerAudit = () => ({ status: 200, body: { data: ENTRIES, total: 2 } });
  setPermissionsList(['*::*']);
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    calls.push(url);
    const clientId = Number(url.searchParams.get('client_id'));
    let answer: Answer;
    if (url.pathname === '/api/auditLogs') answer = answerAudit(url);
    else if (url.pathname === '/clients') answer = { status: 200, body: CLIENTS };
    else if (url.pathname === '/malls') answer = { status: 200, body: MALLS[clientId] ?? [] };
    else if (url.pathname === '/outlets') answer = { status: 200, body: OUTLETS[clientId] ?? [] };
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
  renderInApp(<AuditLogsPage title="Audit Logs" />, {
    user: userInfo({ roles: ['super admin'], clients: [3], client_id: 3, permissionsList: ['*::*'] }),
    path: '/tenant-connect/audit-logs',
    today: '2026-11-25',
  });
}

const auditQueries = () =>
  calls.filter((url) => url.pathname === '/api/auditLogs').map((url) => Object.fromEntries(url.searchParams));
const bodyRows = () =>
  screen.getAllByTestId('audit-row').map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent));

describe('the audit logs page', () => {
  it('lists the client’s changes over the header’s days: when, who, what, before → after', async () => {
    renderPage();
    await waitFor(() => expect(screen.getAllByTestId('audit-row')).toHaveLength(2));
    expect(screen.getByRole('heading', { name: 'Audit Logs' })).toBeDefined();
    expect(auditQueries()).toEqual([
      {
        client_id: '3',
        from: '2026-11-19',
        to: '2026-11-25',
        page: '1',
        rowsPerPage: '20',
        sortColumn: 'created_at',
        orderByMethod: 'desc',
      },
    ]);
    expect(bodyRows()).toEqual([
      [
        expect.stringMatching(/^2026-11-2[34] \d\d:00:00$/),
        'tenant@demo.mall',
        'Updated',
        'GTO submission 12:2026-10',
        'Total: $160.10 → $150.00; Remarks: Excludes GST → —',
      ],
      [expect.stringMatching(/^2026-11-2[23] \d\d:00:00$/), 'System', 'Signed in', 'Sign-in', 'IP address: 10.0.0.1'],
    ]);
    expect(screen.getByTestId('audit-total').textContent).toBe('2 changes');
  });

  it('sorts by a column, filters by kind of row and searches on the server', async () => {
    renderPage();
    await waitFor(() => expect(screen.getAllByTestId('audit-row')).toHaveLength(2));
    fireEvent.click(screen.getByTestId('audit-sort-user_email'));
    await waitFor(() => expect(auditQueries()).toHaveLength(2));
    expect(auditQueries()[1]).toMatchObject({ sortColumn: 'user_email', orderByMethod: 'desc' });
    await waitFor(() => expect(screen.getAllByTestId('audit-row')).toHaveLength(2));
    fireEvent.change(screen.getByTestId('audit-entity'), { target: { value: 'gto_submission' } });
    await waitFor(() => expect(auditQueries()).toHaveLength(3));
    expect(auditQueries()[2]).toMatchObject({ entity: 'gto_submission', page: '1' });
    await waitFor(() => expect(screen.getAllByTestId('audit-row')).toHaveLength(2));
    fireEvent.change(screen.getByTestId('audit-search'), { target: { value: 'tenant@' } });
    fireEvent.click(screen.getByTestId('audit-search-button'));
    await waitFor(() => expect(auditQueries()).toHaveLength(4));
    expect(auditQueries()[3]).toMatchObject({ entity: 'gto_submission', search: 'tenant@' });
  });

  it("says 'No Data' for an empty answer, and fails with a retry and the toast", async () => {
    answerAudit = () => ({ status: 200, body: { data: [], total: 0 } });
    renderPage();
    await waitFor(() => expect(screen.getByText('No Data')).toBeDefined());
    cleanup();
    answerAudit = () => ({ status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'x' } });
    renderPage();
    const retry = await screen.findByTestId('audit-retry');
    await waitFor(() =>
      expect([...document.querySelectorAll(`.${Classes.TOAST}`)].map((toast) => toast.textContent)).toContain(
        'Audit logs fetching error occurs. Please try again later.',
      ),
    );
    answerAudit = () => ({ status: 200, body: { data: ENTRIES, total: 2 } });
    fireEvent.click(retry);
    await waitFor(() => expect(screen.getAllByTestId('audit-row')).toHaveLength(2));
    expect(within(screen.getByTestId('audit-logs-page')).queryByTestId('audit-retry')).toBeNull();
  });
});
