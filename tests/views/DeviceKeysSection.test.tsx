import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeviceKey } from '../../src/api/deviceKeys';
import type { Outlet } from '../../src/api/lookup';
import { clearSession, setPermissionsList } from '../../src/api/session';
import { filterHeaderMachine } from '../../src/machines/filterHeaderMachine';
import { SettingsPage } from '../../src/views/pages/settings/SettingsPage';
import { renderInApp, userInfo } from './renderApp';

/*
 * Settings' Point-of-sale devices inside the app with the real filter header, Settings and device key machines:
 * only the network (a fetch handler on globalThis) and the clipboard are fake. The header's outlet is Kopi Corner
 * of Central Mall, so the section lists Central Mall's keys and offers its outlets, Kopi Corner and Shoe Lane.
 */

configure({ asyncUtilTimeout: 5_000 });

const CLIENT_ID = 3;
const outlet = (id: number, name: string, mallId: number): Outlet => ({
  id,
  name,
  type: 1,
  currency: 'SGD',
  mall_id: mallId,
  outlet_code: null,
});
const OUTLETS = [outlet(12, 'Kopi Corner', 1), outlet(13, 'Shoe Lane', 1), outlet(14, 'Dock Deli', 2)];
const PERMISSIONS = [
  '/outlets::Read',
  '/outlets/*::Read',
  '/malls::Read',
  '/api/deviceKeys::Read',
  '/api/deviceKeys::Create',
  '/api/deviceKeys::Delete',
];
const KEY = `pos_${'Z9'.repeat(21)}x`;

const keyRow = (id: number, name: string, outletId: number, revoked: boolean): DeviceKey => ({
  id,
  name,
  outlet_id: outletId,
  outlet_name: OUTLETS.find((candidate) => candidate.id === outletId)?.name ?? '',
  key_prefix: `pos_abcd${id}`,
  created_at: '2024-03-01T02:00:00.000Z',
  created_by: 'olivia@mall.test',
  last_used_at: id === 1 ? '2024-03-10T04:30:00.000Z' : null,
  revoked_at: revoked ? '2024-03-05T02:00:00.000Z' : null,
  revoked_by: revoked ? 'olivia@mall.test' : null,
});

interface Call {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: unknown;
}

let keys: DeviceKey[];
let calls: Call[];
/** The status the next call to the list answers (then 200 again). */
let failListOnce: number | undefined;
/** While set, the list's answers wait for it. */
let holdList: Promise<void> | undefined;
let writeText: ReturnType<typeof vi.fn<(text: string) => Promise<void>>>;

const ok = (body: unknown) => ({ status: 200, body });

async function answer(call: Call): Promise<{ status: number; body: unknown }> {
  const key = `${call.method} ${call.path}`;
  switch (key) {
    case 'GET /malls':
      return ok([
        { id: 1, name: 'Central Mall', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
        { id: 2, name: 'Harbour Mall', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
      ]);
    case 'GET /outlets':
      return ok(OUTLETS);
    case 'GET /outlets/emailSubscribe':
      return ok({ list: [{ client_id: CLIENT_ID, email_subscribe: false, summary_email_subscribe: false }] });
    case 'GET /outlets/processingFees':
    case 'GET /outlets/salesTargets':
    case 'GET /outlets/mealTimings':
      return ok({ data: [] });
    case 'GET /outlets/categories':
    case 'GET /outlets/subcategories':
      return ok({ data: [], total: 0 });
    case 'GET /api/deviceKeys': {
      await holdList;
      if (failListOnce !== undefined) {
        const status = failListOnce;
        failListOnce = undefined;
        return { status, body: { statusCode: status, error: 'Error', message: 'boom' } };
      }
      const inMall = keys.filter((row) => OUTLETS.find((o) => o.id === row.outlet_id)?.mall_id === 1);
      return ok({ data: inMall, total: inMall.length });
    }
    case 'POST /api/deviceKeys': {
      const body = call.body as { outlet_id: number; name: string };
      const created = { ...keyRow(3, body.name, body.outlet_id, false), key_prefix: KEY.slice(0, 12) };
      keys = [created, ...keys];
      return ok({ key: KEY, device_key: created });
    }
    case 'DELETE /api/deviceKeys': {
      const id = Number(call.query.get('id'));
      keys = keys.map((row) =>
        row.id === id ? { ...row, revoked_at: '2024-03-15T02:00:00.000Z', revoked_by: 'olivia@mall.test' } : row,
      );
      return ok(keys.find((row) => row.id === id));
    }
    default:
      return { status: 404, body: { statusCode: 404, error: 'Not Found', message: `${key} not found` } };
  }
}

function installNetwork(): void {
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    const text = await request.text();
    const call = {
      method: request.method,
      path: url.pathname,
      query: url.searchParams,
      body: text === '' ? undefined : JSON.parse(text),
    };
    calls.push(call);
    const { status, body } = await answer(call);
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
}

const callsTo = (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path);
const section = () => screen.getByTestId('settings-devices');
const rows = () => within(section()).queryAllByTestId('device-key-row');

function renderPage(): void {
  setPermissionsList(PERMISSIONS);
  renderInApp(<SettingsPage title="Settings" />, {
    user: userInfo({
      client_id: CLIENT_ID,
      clients: [CLIENT_ID],
      permissions: [{ name: 'settings', subPermissions: [] }],
      permissionsList: PERMISSIONS,
    }),
    path: '/settings',
    today: '2024-03-15',
    header: filterHeaderMachine.provide({ actions: { writeUrl: () => undefined, writeCookies: () => undefined } }),
    pageFilters: () => ({ outletMode: 'single', period: 'none' }),
  });
}

async function renderLoaded(): Promise<void> {
  renderPage();
  await waitFor(() => expect(rows()).toHaveLength(2));
}

beforeEach(() => {
  calls = [];
  keys = [keyRow(1, 'Till 1', 12, false), keyRow(2, 'Old till', 13, true), keyRow(9, 'Dock till', 14, false)];
  failListOnce = undefined;
  holdList = undefined;
  installNetwork();
  writeText = vi.fn(async (_text: string) => undefined);
  Object.defineProperty(window.navigator, 'clipboard', { value: { writeText }, configurable: true });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  clearSession();
});

describe('Point-of-sale devices', () => {
  it('shows skeleton rows, then the keys of the header outlet’s mall, revocable while active', async () => {
    let release: (() => void) | undefined;
    holdList = new Promise<void>((resolve) => {
      release = resolve;
    });
    renderPage();
    await waitFor(() => expect(within(section()).getAllByTestId('device-keys-skeleton').length).toBeGreaterThan(0));
    release?.();
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(within(section()).queryAllByTestId('device-keys-skeleton')).toHaveLength(0);
    expect(within(section()).getByRole('heading', { level: 2, name: 'Point-of-sale devices' })).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 1 }).map((heading) => heading.textContent)).toEqual(['Settings']);
    expect(screen.getByTestId('device-keys-mall').textContent).toContain('Central Mall');
    expect(Object.fromEntries(callsTo('GET', '/api/deviceKeys')[0]?.query ?? [])).toEqual({
      client_id: '3',
      mall_id: '1',
      sortColumn: 'created_at',
      orderByMethod: 'desc',
      page: '1',
      rowsPerPage: '10',
    });
    const [active, revoked] = rows() as [HTMLElement, HTMLElement];
    expect(active.dataset.status).toBe('active');
    expect(within(active).getByText('pos_abcd1…')).toBeTruthy();
    expect(within(active).getByRole('button', { name: 'Revoke Till 1 (pos_abcd1…)' })).toBeTruthy();
    expect(revoked.dataset.status).toBe('revoked');
    expect(within(revoked).getByTestId('device-key-status').textContent).toBe('Revoked');
    expect(within(revoked).queryByTestId('device-key-revoke')).toBeNull();
    expect(within(revoked).getByText('Never')).toBeTruthy();
  });

  it('sorts by every column, searches and pages on the server', async () => {
    await renderLoaded();
    const headers = [
      ['Name', 'name'],
      ['Outlet', 'outlet_name'],
      ['Key', 'key_prefix'],
      ['Created', 'created_at'],
      ['Created by', 'created_by'],
      ['Last used', 'last_used_at'],
      ['Revoked', 'revoked_at'],
      ['Revoked by', 'revoked_by'],
    ] as const;
    for (const [name, column] of headers) {
      const before = callsTo('GET', '/api/deviceKeys').length;
      fireEvent.click(within(section()).getByTestId(`device-keys-sort-${column}`));
      await waitFor(() => expect(callsTo('GET', '/api/deviceKeys').length).toBe(before + 1));
      expect(callsTo('GET', '/api/deviceKeys').at(-1)?.query.get('sortColumn')).toBe(column);
      await waitFor(() => expect(rows()).toHaveLength(2));
      const header = within(section()).getByTestId(`device-keys-sort-${column}`).closest('th');
      expect(header?.textContent?.trim()).toBe(name);
      expect(header?.getAttribute('aria-sort')).not.toBe('none');
    }
    fireEvent.change(screen.getByTestId('device-keys-search'), { target: { value: ' till ' } });
    fireEvent.click(screen.getByTestId('device-keys-search-button'));
    await waitFor(() => expect(callsTo('GET', '/api/deviceKeys').at(-1)?.query.get('search')).toBe('till'));
    fireEvent.change(within(section()).getByRole('combobox', { name: 'Rows per page' }), { target: { value: '20' } });
    await waitFor(() => expect(callsTo('GET', '/api/deviceKeys').at(-1)?.query.get('rowsPerPage')).toBe('20'));
  });

  it('says No Data for a mall without keys', async () => {
    keys = [];
    renderPage();
    expect(await within(await screen.findByTestId('settings-devices')).findByText('No Data')).toBeTruthy();
  });

  it('fails only this section when the list cannot be read, with a retry', async () => {
    failListOnce = 500;
    renderPage();
    expect(await screen.findByText('Device keys fetching error occurs. Please try again later.')).toBeTruthy();
    expect(within(section()).getByText('The device keys could not be read.')).toBeTruthy();
    // The other sections have loaded.
    expect(await screen.findByTestId('settings-meals')).toBeTruthy();
    expect(screen.getByTestId('meal-add')).toHaveProperty('disabled', false);
    fireEvent.click(screen.getByTestId('device-keys-retry'));
    await waitFor(() => expect(rows()).toHaveLength(2));
  });

  it('creates a key for an outlet of the mall and shows it once, with Copy and the example call', async () => {
    await renderLoaded();
    fireEvent.click(screen.getByRole('button', { name: 'Create device key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a device key' });
    const select = within(dialog).getByLabelText('Outlet') as HTMLSelectElement;
    expect([...select.options].map((option) => [option.text, option.disabled])).toEqual([
      ['Choose an Outlet', true],
      ['All Outlets', true],
      ['Kopi Corner (12)', false],
      ['Shoe Lane (13)', false],
    ]);
    expect(select.value).toBe('12');
    const submit = within(dialog).getByRole('button', { name: 'Create key' });
    expect(submit).toHaveProperty('disabled', true);
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: '   ' } });
    expect(within(dialog).getByText('Enter a name for the device.')).toBeTruthy();
    fireEvent.change(select, { target: { value: '13' } });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: ' Front counter ' } });
    expect(submit).toHaveProperty('disabled', false);
    fireEvent.click(submit);

    const shown = await screen.findByRole('dialog', { name: 'Device key created' });
    expect(callsTo('POST', '/api/deviceKeys')[0]?.body).toEqual({ client_id: 3, outlet_id: 13, name: 'Front counter' });
    expect(within(shown).getByText('Copy this key now: it will not be shown again.')).toBeTruthy();
    const value = within(shown).getByLabelText('Device key') as HTMLInputElement;
    expect(value.value).toBe(KEY);
    expect(value.readOnly).toBe(true);
    const example = (within(shown).getByTestId('device-key-example') as HTMLTextAreaElement).value;
    expect(example).toContain(`-H 'Authorization: Bearer ${KEY}'`);
    expect(example).toContain(`curl -X POST '${window.location.origin}/api/ingest/receipts'`);
    fireEvent.click(within(shown).getByRole('button', { name: 'Copy the key' }));
    await waitFor(() => expect(within(shown).getByText('The key has been copied.')).toBeTruthy());
    expect(writeText).toHaveBeenCalledWith(KEY);
    fireEvent.click(within(shown).getByRole('button', { name: 'Copy the example' }));
    await waitFor(() => expect(within(shown).getByText('The example has been copied.')).toBeTruthy());
    expect(writeText).toHaveBeenLastCalledWith(example);

    // The list has the new key by its prefix; once the dialog is closed the key is nowhere on the page.
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Device key created' })).toBeNull());
    expect(document.body.innerHTML).not.toContain(KEY);
    expect(within(rows()[0] as HTMLElement).getByText(`${KEY.slice(0, 12)}…`)).toBeTruthy();
  });

  it('shows the server’s refusal in the dialog and keeps the draft', async () => {
    await renderLoaded();
    vi.stubGlobal('fetch', async (request: Request) => {
      const url = new URL(request.url);
      if (request.method === 'POST' && url.pathname === '/api/deviceKeys') {
        return new Response(
          JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'body/name must not be blank' }),
          { status: 400, headers: { 'Content-Type': 'application/json' } },
        );
      }
      return new Response('{}', { status: 404 });
    });
    fireEvent.click(screen.getByTestId('device-key-create'));
    const dialog = await screen.findByRole('dialog', { name: 'Create a device key' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Till 9' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('body/name must not be blank');
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('Till 9');
  });

  it('revokes a key after a confirmation and shows it revoked', async () => {
    await renderLoaded();
    fireEvent.click(within(rows()[0] as HTMLElement).getByRole('button', { name: /^Revoke Till 1/ }));
    expect((await screen.findByTestId('device-key-revoke-question')).textContent).toBe(
      'Revoke the device key "Till 1" of Kopi Corner (pos_abcd1…)? The device that uses it can no longer send ' +
        'receipts. This cannot be undone.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('The device key "Till 1" has been revoked.')).toBeTruthy();
    expect(Object.fromEntries(callsTo('DELETE', '/api/deviceKeys')[0]?.query ?? [])).toEqual({
      client_id: '3',
      id: '1',
    });
    await waitFor(() => expect((rows()[0] as HTMLElement).dataset.status).toBe('revoked'));
  });
});
