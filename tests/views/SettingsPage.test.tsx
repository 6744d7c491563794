import { act, cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Outlet } from '../../src/api/lookup';
import { clearSession, setPermissionsList } from '../../src/api/session';
import { filterHeaderMachine } from '../../src/machines/filterHeaderMachine';
import { SettingsPage } from '../../src/views/pages/settings/SettingsPage';
import { renderInApp, userInfo } from './renderApp';

/*
 * The Settings page (§2, §4, §5, §7, §8) inside the app with the real filter header and Settings machines: only
 * the network is fake, a fetch handler installed on globalThis (the app's client looks fetch up at call time). The
 * fake server keeps what is saved, so the tests read both the requests and what the page shows after them.
 */

configure({ asyncUtilTimeout: 5_000 });

const TODAY = '2024-03-15';
const CLIENT_ID = 3;
const KOPI: Outlet = { id: 12, name: 'Kopi Corner', type: 1, currency: 'SGD', mall_id: 1, outlet_code: null };
const SHOES: Outlet = { id: 13, name: 'Shoe Lane', type: 2, currency: 'SGD', mall_id: 1, outlet_code: null };
const PERMISSIONS = [
  '/outlets::Read',
  '/outlets/*::Read',
  '/outlets/*::Create',
  '/outlets/*::Update',
  '/outlets/*::Delete',
  '/malls::Read',
];

interface Call {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: unknown;
}

interface Server {
  email: { email_subscribe: boolean; summary_email_subscribe: boolean };
  fees: { payment_method: string; processing_fees: number; isNewMethod: boolean }[];
  targets: { outlet_id: number; name: string; target: number | null }[];
  categories: { id: number; name: string }[];
  subcategories: { id: number; name: string; category_id: number | null }[];
  meals: { id: number; name: string; start_time: string; end_time: string }[];
  /** Status of the next save of a path (then 200 again). */
  failNext: Record<string, number>;
}

let server: Server;
let calls: Call[];

function defaultServer(): Server {
  return {
    email: { email_subscribe: false, summary_email_subscribe: true },
    fees: [
      { payment_method: 'VISA', processing_fees: 2.5, isNewMethod: false },
      { payment_method: 'GRAB', processing_fees: 0, isNewMethod: true },
    ],
    targets: [
      { outlet_id: 12, name: 'Kopi Corner', target: 1000 },
      { outlet_id: 13, name: 'Shoe Lane', target: null },
    ],
    categories: [{ id: 7, name: 'Drinks' }],
    subcategories: [{ id: 70, name: 'Coffee', category_id: null }],
    meals: [
      { id: 1, name: 'Breakfast', start_time: '07:00', end_time: '10:00' },
      { id: 2, name: 'Lunch', start_time: '11:00', end_time: '14:00' },
    ],
    failNext: {},
  };
}

const ok = (body: unknown) => ({ status: 200, body });
const meal = (row: Server['meals'][number]) => ({
  id: row.id,
  outlet_id: KOPI.id,
  client_id: CLIENT_ID,
  meal_timing: { name: row.name, start_time: row.start_time, end_time: row.end_time },
});

function answer(call: Call): { status: number; body: unknown } {
  const key = `${call.method} ${call.path}`;
  const failure = server.failNext[key];
  if (failure !== undefined) {
    delete server.failNext[key];
    return { status: failure, body: { statusCode: failure, error: 'Error', message: 'The server refused it.' } };
  }
  const body = call.body as Record<string, unknown>;
  switch (key) {
    case 'GET /malls':
      return ok([{ id: 1, name: 'Central', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' }]);
    case 'GET /outlets':
      return ok([KOPI, SHOES]);
    case 'GET /outlets/emailSubscribe':
      return ok({ list: [{ client_id: CLIENT_ID, ...server.email }] });
    case 'POST /outlets/emailSubscribe':
      server.email = {
        email_subscribe: call.query.get('void_email') === 'true',
        summary_email_subscribe: call.query.get('summary_email') === 'true',
      };
      return ok({ client_id: CLIENT_ID, ...server.email });
    case 'GET /outlets/processingFees':
      return ok({ data: server.fees });
    case 'POST /outlets/processingFees':
    case 'PUT /outlets/processingFees': {
      for (const entry of body.formData as { payment_method: string; processing_fees: string }[]) {
        server.fees = server.fees.map((fee) =>
          fee.payment_method === entry.payment_method
            ? { ...fee, processing_fees: Number(entry.processing_fees), isNewMethod: false }
            : fee,
        );
      }
      return ok({ success: true });
    }
    case 'GET /outlets/salesTargets':
      return ok({ data: server.targets });
    case 'POST /outlets/salesTargets':
      for (const entry of body.outlet_target as { outlet_id: number; target: number }[]) {
        server.targets = server.targets.map((row) =>
          row.outlet_id === entry.outlet_id ? { ...row, target: entry.target } : row,
        );
      }
      return ok({ success: true });
    case 'GET /outlets/categories':
      return ok({ data: server.categories, total: server.categories.length });
    case 'GET /outlets/subcategories':
      return ok({ data: server.subcategories, total: server.subcategories.length });
    case 'POST /outlets/categories': {
      const created = { id: 100 + calls.length, name: String(body.name) };
      if (body.isCategory) server.categories = [...server.categories, created];
      else server.subcategories = [...server.subcategories, { ...created, category_id: null }];
      return ok(created);
    }
    case 'DELETE /outlets/categories':
      server.categories = server.categories.filter((row) => row.id !== body.category_id);
      return ok({ success: true });
    case 'GET /outlets/subcategories/name_option':
      return ok({
        data: server.subcategories
          .filter((row) => row.name.toLowerCase().includes((call.query.get('searchedText') ?? '').toLowerCase()))
          .map(({ id, name }) => ({ id, name })),
        assignedIds: server.subcategories
          .filter((row) => String(row.category_id) === call.query.get('category_id'))
          .map((row) => row.id),
      });
    case 'PUT /outlets/subcategories':
      server.subcategories = server.subcategories.map((row) =>
        (body.subcategory_ids as number[]).includes(row.id) ? { ...row, category_id: body.category_id as number } : row,
      );
      return ok({ success: true, updated: (body.subcategory_ids as number[]).length });
    case 'GET /outlets/mealTimings':
      return ok({ data: server.meals.map(meal) });
    case 'POST /outlets/mealTimings': {
      const created = { id: 9, name: 'Meal 3', start_time: '15:00', end_time: '16:00' };
      server.meals = [...server.meals, created];
      return ok(meal(created));
    }
    case 'PUT /outlets/mealTimings':
      for (const entry of body.meal_timing as Server['meals']) {
        server.meals = server.meals.map((row) => (row.id === entry.id ? entry : row));
      }
      return ok({ data: server.meals.map(meal) });
    case 'DELETE /outlets/mealTimings':
      server.meals = server.meals.filter((row) => String(row.id) !== call.query.get('id'));
      return ok({ success: true });
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
    const { status, body } = answer(call);
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
}

const callsTo = (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path);

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
    today: TODAY,
    header: filterHeaderMachine.provide({ actions: { writeUrl: () => undefined, writeCookies: () => undefined } }),
    pageFilters: () => ({ outletMode: 'single', period: 'none' }),
  });
}

/** Renders the page and waits until every editor has loaded. */
async function renderLoaded(): Promise<void> {
  renderPage();
  await waitFor(() => expect(screen.getAllByTestId('fee-row')).toHaveLength(2));
  await waitFor(() => expect(screen.getAllByTestId('target-row')).toHaveLength(2));
  await waitFor(() => expect(screen.getAllByTestId('meal-row')).toHaveLength(2));
  await waitFor(() => expect(screen.getAllByTestId('categories-row')).toHaveLength(1));
  await waitFor(() => expect(inputOf(screen.getByTestId('email-summary')).checked).toBe(true));
}

const inputOf = (element: HTMLElement) => {
  const input = element.tagName === 'INPUT' ? element : element.querySelector('input');
  if (!(input instanceof HTMLInputElement)) throw new Error('no input');
  return input;
};

beforeEach(() => {
  calls = [];
  server = defaultServer();
  installNetwork();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  clearSession();
});

describe('the Settings page', () => {
  it('has one h1 and loads every editor for the client and its first outlet', async () => {
    await renderLoaded();
    expect(screen.getAllByRole('heading', { level: 1 }).map((heading) => heading.textContent)).toEqual(['Settings']);
    expect(Object.fromEntries(callsTo('GET', '/outlets/processingFees')[0]?.query ?? [])).toEqual({
      client_id: '3',
      id: '12',
      startTime: '2024-02-15',
      endTime: '2024-03-15',
    });
    expect(Object.fromEntries(callsTo('GET', '/outlets/salesTargets')[0]?.query ?? [])).toEqual({
      client_id: '3',
      date: '2024-03-01',
    });
    expect(Object.fromEntries(callsTo('GET', '/outlets/mealTimings')[0]?.query ?? [])).toEqual({
      outlet_id: '12',
      client_id: '3',
    });
    expect(screen.getByTestId('targets-month')).toHaveProperty('value', '2024-03');
    expect(screen.queryByText('This page is not available yet.')).toBeNull();
  });

  it('saves the e-mail subscriptions with the editor toasts', async () => {
    await renderLoaded();
    const save = screen.getByTestId('email-save');
    expect(save).toHaveProperty('disabled', true);
    fireEvent.click(inputOf(screen.getByTestId('email-void')));
    expect(save).toHaveProperty('disabled', false);
    fireEvent.click(save);
    expect(await screen.findByText('Save Successfully.')).toBeTruthy();
    const post = callsTo('POST', '/outlets/emailSubscribe')[0];
    expect(Object.fromEntries(post?.query ?? [])).toEqual({
      client_id: '3',
      void_email: 'true',
      summary_email: 'true',
    });
    server.failNext['POST /outlets/emailSubscribe'] = 500;
    fireEvent.click(inputOf(screen.getByTestId('email-summary')));
    fireEvent.click(save);
    expect(await screen.findByText('Save Failed.')).toBeTruthy();
  });

  it('edits a fee row: an invalid fee cannot be saved; an existing method is PUT, a new one POSTed', async () => {
    await renderLoaded();
    const visa = screen.getAllByTestId('fee-row')[0] as HTMLElement;
    fireEvent.click(within(visa).getByTestId('fee-edit'));
    const input = inputOf(await within(visa).findByTestId('fee-input'));
    fireEvent.change(input, { target: { value: '101' } });
    expect(within(visa).getByText('Enter a fee from 0 to 100 with at most 2 decimals.')).toBeTruthy();
    expect(within(visa).getByTestId('fee-save')).toHaveProperty('disabled', true);
    fireEvent.change(input, { target: { value: '3.5' } });
    fireEvent.click(within(visa).getByTestId('fee-save'));
    expect(await screen.findByText('Save Successfully.')).toBeTruthy();
    expect(callsTo('PUT', '/outlets/processingFees')[0]?.body).toEqual({
      client_id: 3,
      id: '12',
      formData: [{ payment_method: 'VISA', processing_fees: '3.50' }],
    });
    await waitFor(() => expect(within(visa).getByTestId('fee-value').textContent).toBe('3.50'));

    const grab = screen.getAllByTestId('fee-row')[1] as HTMLElement;
    fireEvent.click(within(grab).getByTestId('fee-edit'));
    fireEvent.change(inputOf(await within(grab).findByTestId('fee-input')), { target: { value: '1.25' } });
    fireEvent.keyDown(inputOf(within(grab).getByTestId('fee-input')), { key: 'Enter' });
    await waitFor(() => expect(callsTo('POST', '/outlets/processingFees')).toHaveLength(1));
    expect(callsTo('POST', '/outlets/processingFees')[0]?.body).toMatchObject({
      formData: [{ payment_method: 'GRAB', processing_fees: '1.25' }],
    });
  });

  it('saves sales targets stripped of $ and commas, with their own toasts', async () => {
    await renderLoaded();
    const shoes = screen.getAllByTestId('target-row')[1] as HTMLElement;
    fireEvent.change(inputOf(within(shoes).getByTestId('target-input')), { target: { value: '$1,234.5' } });
    fireEvent.click(screen.getByTestId('targets-save'));
    expect(await screen.findByText('Updated Sales Targets successfully.')).toBeTruthy();
    expect(callsTo('POST', '/outlets/salesTargets')[0]?.body).toEqual({
      client_id: 3,
      date: '2024-03-01',
      outlet_target: [
        { outlet_id: 12, target: 1000 },
        { outlet_id: 13, target: 1234.5 },
      ],
    });
    server.failNext['POST /outlets/salesTargets'] = 500;
    fireEvent.change(inputOf(within(shoes).getByTestId('target-input')), { target: { value: '99' } });
    fireEvent.click(screen.getByTestId('targets-save'));
    expect(await screen.findByText('Updated Sales Targets failed.')).toBeTruthy();

    // The unsaved target holds the month until it is saved or cancelled.
    expect(screen.getByTestId('targets-month').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('targets-month-held').textContent).toBe(
      'Save or cancel the changed targets to choose another month.',
    );
    fireEvent.click(within(screen.getByTestId('settings-targets')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByTestId('targets-month').hasAttribute('disabled')).toBe(false));
    fireEvent.change(screen.getByTestId('targets-month'), { target: { value: '2024-02' } });
    await waitFor(() => expect(callsTo('GET', '/outlets/salesTargets').at(-1)?.query.get('date')).toBe('2024-02-01'));
  });

  it('adds a category (an empty name sends nothing), assigns a subcategory, deletes the category', async () => {
    await renderLoaded();
    fireEvent.click(screen.getByTestId('categories-add'));
    fireEvent.click(await screen.findByTestId('create-submit'));
    await waitFor(() => expect(screen.queryByTestId('create-name')).toBeNull());
    expect(callsTo('POST', '/outlets/categories')).toHaveLength(0);

    fireEvent.click(screen.getByTestId('categories-add'));
    fireEvent.change(await screen.findByTestId('create-name'), { target: { value: 'Tea' } });
    fireEvent.click(screen.getByTestId('create-submit'));
    expect(await screen.findByText('Tea has been added successfully.')).toBeTruthy();
    expect(callsTo('POST', '/outlets/categories')[0]?.body).toEqual({
      client_id: 3,
      id: '12',
      name: 'Tea',
      isCategory: true,
    });
    await waitFor(() => expect(screen.getAllByTestId('categories-row')).toHaveLength(2));

    const drinks = screen.getAllByTestId('categories-row')[0] as HTMLElement;
    fireEvent.click(within(drinks).getByTestId('categories-assign'));
    const dialog = await screen.findByTestId('assign-dialog');
    await waitFor(() => expect(within(dialog).getAllByTestId('assign-option')).toHaveLength(1));
    fireEvent.click(within(dialog).getByTestId('assign-submit'));
    expect(await screen.findByText('No subcategory selected.')).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId('assign-search'), { target: { value: 'FEE' } });
    fireEvent.submit(within(dialog).getByTestId('assign-search'));
    await waitFor(() => expect(dialog.querySelector('mark')?.textContent).toBe('fee'));
    fireEvent.click(inputOf(within(dialog).getByTestId('assign-option')));
    fireEvent.click(within(dialog).getByTestId('assign-submit'));
    expect(await screen.findByText('Assign subcategory successfully.')).toBeTruthy();
    expect(callsTo('PUT', '/outlets/subcategories')[0]?.body).toEqual({
      client_id: 3,
      category_id: 7,
      subcategory_ids: [70],
    });

    fireEvent.click(within(screen.getAllByTestId('categories-row')[0] as HTMLElement).getByTestId('categories-delete'));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Drinks has been deleted successfully.')).toBeTruthy();
  });

  it('validates meal timings in the browser, shows a 400 text, adds and deletes', async () => {
    await renderLoaded();
    const lunch = screen.getAllByTestId('meal-row')[1] as HTMLElement;
    fireEvent.change(inputOf(within(lunch).getByTestId('meal-start')), { target: { value: '09:00' } });
    expect(within(lunch).getByText('Meal timings must not overlap.')).toBeTruthy();
    expect(screen.getByTestId('meals-save')).toHaveProperty('disabled', true);
    fireEvent.change(inputOf(within(lunch).getByTestId('meal-start')), { target: { value: '10:30' } });
    server.failNext['PUT /outlets/mealTimings'] = 400;
    fireEvent.click(screen.getByTestId('meals-save'));
    expect(await screen.findByText('The server refused it.')).toBeTruthy();
    fireEvent.click(screen.getByTestId('meals-save'));
    expect(await screen.findByText('Save Successfully.')).toBeTruthy();
    expect(callsTo('PUT', '/outlets/mealTimings').at(-1)?.body).toEqual({
      meal_timing: [{ id: 2, name: 'Lunch', start_time: '10:30', end_time: '14:00' }],
      outlet_id: 12,
      client_id: 3,
    });

    fireEvent.click(screen.getByTestId('meal-add'));
    await waitFor(() => expect(screen.getAllByTestId('meal-row')).toHaveLength(3));
    await act(async () => {
      fireEvent.click(within(screen.getAllByTestId('meal-row')[0] as HTMLElement).getByTestId('meal-delete'));
    });
    await waitFor(() => expect(screen.getAllByTestId('meal-row')).toHaveLength(2));
    expect(callsTo('DELETE', '/outlets/mealTimings')[0]?.query.get('id')).toBe('1');
  });
});
