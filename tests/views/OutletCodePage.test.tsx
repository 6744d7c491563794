import { Classes } from '@blueprintjs/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OutletCodeRow } from '../../src/api/outletCodes';
import { clearSession, setPermissionsList } from '../../src/api/session';
import { OutletCodePage } from '../../src/views/pages/shopper-connect/OutletCodePage';
import { CLIENTS, MALLS, OUTLETS } from './layoutHarness';
import { renderInApp, userInfo } from './renderApp';

/*
 * Shopper Connect's Outlet Code page inside the app, with the real filter header and page machines and the app's one
 * api client; the network is a fetch handler on globalThis. Client 3's malls Central (1) and East (2): Kopi Corner
 * K-12 in Central, Shoe Lane without a code in East.
 */

type Answer = { status: number; body: unknown };
const PATH = '/api/mall_report/outletCode';
const REFUSAL =
  'data[0].outlet_code: "K-12" is already the code of Kopi Corner in Central; a code is unique within its mall.';

let codes: Record<number, string | null>;
let answerSave: (body: { data: { outlet_id: number; outlet_code: string | null }[] }) => Answer;
let calls: { url: URL; method: string; body: unknown }[];

function rowsNow(): OutletCodeRow[] {
  return [
    { outlet_id: 12, outlet_name: 'Kopi Corner', mall_id: 1, mall_name: 'Central', outlet_code: codes[12] ?? null },
    { outlet_id: 13, outlet_name: 'Shoe Lane', mall_id: 2, mall_name: 'East', outlet_code: codes[13] ?? null },
  ];
}

beforeEach(() => {
  calls = [];
  codes = { 12: 'K-12', 13: null };
  answerSave = (body) => {
    for (const item of body.data) codes[item.outlet_id] = item.outlet_code;
    return { status: 200, body: { success: true, updated: body.data.length } };
  };
  setPermissionsList(['*::*']);
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    const text = await request.text();
    const body = text === '' ? undefined : JSON.parse(text);
    calls.push({ url, method: request.method, body });
    const clientId = Number(url.searchParams.get('client_id'));
    let answer: Answer;
    if (url.pathname === PATH && request.method === 'GET')
      answer = { status: 200, body: { data: rowsNow(), total: 2 } };
    else if (url.pathname === PATH && request.method === 'PUT') answer = answerSave(body);
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
  renderInApp(<OutletCodePage title="Outlet Code" />, {
    user: userInfo({ roles: ['super admin'], clients: [3], client_id: 3, permissionsList: ['*::*'] }),
    path: '/shopper-connect/outlet-code',
    today: '2026-11-25',
  });
}

const lists = () =>
  calls
    .filter((call) => call.url.pathname === PATH && call.method === 'GET')
    .map((call) => ({
      ...Object.fromEntries(call.url.searchParams),
      mall_ids: call.url.searchParams.getAll('mall_ids'),
    }));
const saves = () =>
  calls.filter((call) => call.url.pathname === PATH && call.method === 'PUT').map((call) => call.body);
const bodyRows = () =>
  screen
    .getAllByTestId('outlet-code-row')
    .map((row) => [
      ...[...row.querySelectorAll('td')].slice(0, 2).map((cell) => cell.textContent),
      row.querySelector('input')?.value,
    ]);
const codeInput = (outlet: string) => screen.getByRole('textbox', { name: `Code of ${outlet}` }) as HTMLInputElement;
const toasts = () => [...document.querySelectorAll(`.${Classes.TOAST}`)].map((toast) => toast.textContent);

async function loaded(): Promise<void> {
  await waitFor(() => expect(screen.getAllByTestId('outlet-code-row')).toHaveLength(2));
  await waitFor(() => expect(codeInput('Shoe Lane').disabled).toBe(false));
}

describe('the outlet code page', () => {
  it('lists the outlets of the selected malls with their codes, under its own title and Malls select', async () => {
    renderPage();
    await loaded();
    expect(screen.getByRole('heading', { level: 1, name: 'Outlet Code' })).toBeDefined();
    expect(within(screen.getByTestId('outlet-code-header')).getByTestId('malls-select')).toBeDefined();
    expect(lists()).toEqual([
      {
        client_id: '3',
        mall_ids: ['1', '2'],
        sortColumn: 'mall_name',
        orderByMethod: 'asc',
        page: '1',
        rowsPerPage: '20',
      },
    ]);
    expect(bodyRows()).toEqual([
      ['Central', 'Kopi Corner', 'K-12'],
      ['East', 'Shoe Lane', ''],
    ]);
    expect(screen.getByTestId('outlet-code-total').textContent).toBe('2 outlets');
    expect(screen.getByTestId('outlet-code-save').hasAttribute('disabled')).toBe(true);
  });

  it('sorts by every column and searches on the server', async () => {
    renderPage();
    await loaded();
    const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(`^${name}`) });
    expect(header('Mall').getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(screen.getByTestId('outlet-code-sort-outlet_code'));
    await waitFor(() => expect(lists()).toHaveLength(2));
    expect(lists()[1]).toMatchObject({ sortColumn: 'outlet_code', orderByMethod: 'desc', page: '1' });
    await loaded();
    expect(header('Code').getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(screen.getByTestId('outlet-code-sort-outlet_name'));
    await waitFor(() => expect(lists()).toHaveLength(3));
    expect(lists()[2]).toMatchObject({ sortColumn: 'outlet_name', orderByMethod: 'desc' });
    await loaded();
    fireEvent.change(screen.getByTestId('outlet-code-search'), { target: { value: 'kopi' } });
    fireEvent.click(screen.getByTestId('outlet-code-search-button'));
    await waitFor(() => expect(lists()).toHaveLength(4));
    expect(lists()[3]).toMatchObject({ searchText: 'kopi', sortColumn: 'outlet_name' });
  });

  it('saves a code edited in place (Enter submits), holding the search and sort meanwhile', async () => {
    renderPage();
    await loaded();
    fireEvent.change(codeInput('Shoe Lane'), { target: { value: ' S-13 ' } });
    expect(codeInput('Shoe Lane').value).toBe(' S-13 ');
    await waitFor(() => expect(screen.getByTestId('outlet-code-held')).toBeDefined());
    expect((screen.getByTestId('outlet-code-search') as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByTestId('outlet-code-sort-outlet_code')).toBeNull();
    expect(screen.getByTestId('outlet-code-save').hasAttribute('disabled')).toBe(false);
    fireEvent.submit(codeInput('Shoe Lane').closest('form') as HTMLFormElement);
    await waitFor(() => expect(toasts()).toContain('Save Successfully.'));
    expect(saves()).toEqual([{ client_id: 3, data: [{ outlet_id: 13, outlet_code: 'S-13' }] }]);
    expect(codeInput('Shoe Lane').value).toBe('S-13');
    expect(screen.queryByTestId('outlet-code-held')).toBeNull();
    expect(screen.getByTestId('outlet-code-save').hasAttribute('disabled')).toBe(true);
  });

  it('shows the server’s refusal at the field and keeps the draft; Cancel puts the saved code back', async () => {
    answerSave = () => ({ status: 400, body: { statusCode: 400, error: 'Bad Request', message: REFUSAL } });
    renderPage();
    await loaded();
    fireEvent.change(codeInput('Shoe Lane'), { target: { value: 'K-12' } });
    await waitFor(() => expect(screen.getByTestId('outlet-code-save').hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByTestId('outlet-code-save'));
    await waitFor(() => expect(toasts()).toContain('Save Failed.'));
    const error = await screen.findByTestId('outlet-code-error');
    expect(error.textContent).toBe(
      '"K-12" is already the code of Kopi Corner in Central; a code is unique within its mall.',
    );
    expect(codeInput('Shoe Lane').getAttribute('aria-invalid')).toBe('true');
    expect(codeInput('Shoe Lane').getAttribute('aria-describedby')).toBe(error.id);
    expect(codeInput('Shoe Lane').value).toBe('K-12');
    expect(codeInput('Kopi Corner').getAttribute('aria-invalid')).toBe('false');
    // A new code typed: the refusal was of the old one.
    fireEvent.change(codeInput('Shoe Lane'), { target: { value: 'K-13' } });
    await waitFor(() => expect(screen.queryByTestId('outlet-code-error')).toBeNull());
    fireEvent.click(screen.getByTestId('outlet-code-cancel'));
    await waitFor(() => expect(codeInput('Shoe Lane').value).toBe(''));
    expect(screen.queryByTestId('outlet-code-held')).toBeNull();
    expect(codes).toEqual({ 12: 'K-12', 13: null });
  });
});
