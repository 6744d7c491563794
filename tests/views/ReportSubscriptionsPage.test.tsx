import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setPermissionsList } from '../../src/api/session';
import { filterHeaderMachine } from '../../src/machines/filterHeaderMachine';
import { ReportSubscriptionsPage } from '../../src/views/pages/shopper-connect/ReportSubscriptionsPage';
import {
  NO_BROWSER_MESSAGE,
  RECIPIENTS,
  RENDERING_OFF,
  RENDERING_ON,
  SUBSCRIPTION,
  SUBSCRIPTION_PERMISSIONS,
} from '../support/reportSubscriptions';
import { bodyRows, tableIn, tearDownReportPage, toastTexts } from './mallReportHarness';
import { renderInApp, userInfo } from './renderApp';

/*
 * The Report Subscriptions page (issue 34) inside the app, with the real filter header and page machine and the
 * app's one api client; the network is a fetch handler answering what each test gives it. Client 1 has one weekly
 * Mall Home subscription whose last delivery failed.
 */

type Answer = { status: number; body: unknown };

const MALLS = [{ id: 2, name: 'Harbourfront', currency: 'MYR', time_zone: 'Asia/Kuala_Lumpur', country: 'MY' }];

let list: () => Promise<Answer> | Answer;
let sent: { method: string; path: string; body: unknown }[];

beforeEach(() => {
  sent = [];
  list = () => ({ status: 200, body: { data: [SUBSCRIPTION], rendering: RENDERING_ON } });
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    const text = request.method === 'GET' || request.method === 'DELETE' ? '' : await request.clone().text();
    let given: Answer = { status: 404, body: { statusCode: 404, error: 'Not Found', message: 'not found' } };
    if (url.pathname === '/malls') given = { status: 200, body: MALLS };
    else if (url.pathname === '/outlets') given = { status: 200, body: [] };
    else if (url.pathname.startsWith('/api/reportSubscriptions')) {
      sent.push({
        method: request.method,
        path: `${url.pathname}${url.search}`,
        body: text ? JSON.parse(text) : undefined,
      });
      if (url.pathname === '/api/reportSubscriptions/recipients') given = { status: 200, body: { data: RECIPIENTS } };
      else if (url.pathname === '/api/reportSubscriptions/send') given = { status: 200, body: { period_key: 'now:x' } };
      else if (request.method === 'GET') given = await list();
      else given = { status: 200, body: SUBSCRIPTION };
    }
    return new Response(JSON.stringify(given.body), {
      status: given.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
});

afterEach(tearDownReportPage);

const header = filterHeaderMachine.provide({ actions: { writeUrl: () => undefined, writeCookies: () => undefined } });

function render(): void {
  const permissions = ['/malls::Read', '/outlets::Read', '/clients::Read', ...SUBSCRIPTION_PERMISSIONS];
  setPermissionsList(permissions);
  renderInApp(<ReportSubscriptionsPage title="Report Subscriptions" header="none" />, {
    user: userInfo({
      client_id: 1,
      clients: [1],
      permissions: [{ name: 'shopper-connect', subPermissions: ['report-subscriptions'] }],
      permissionsList: permissions,
    }),
    path: '/shopper-connect/report-subscriptions',
    today: '2026-03-11',
    header,
    pageFilters: () => ({ period: 'none', outletMode: 'disabled' }),
  });
}

const table = () => tableIn('report-subscriptions-page');
const lists = () => sent.filter((call) => call.method === 'GET' && call.path.startsWith('/api/reportSubscriptions?'));

describe('the Report Subscriptions page', () => {
  it('lists the subscriptions with their schedule, formats, recipients and last delivery', async () => {
    let release: (given: Answer) => void = () => undefined;
    list = () => new Promise((resolve) => (release = resolve));
    render();
    await waitFor(() => expect(screen.getAllByTestId('subscriptions-skeleton-row').length).toBeGreaterThan(0));
    release({ status: 200, body: { data: [SUBSCRIPTION], rendering: RENDERING_ON } });
    await waitFor(() => expect(screen.getAllByTestId('subscription-row')).toHaveLength(1));
    expect(lists()[0]?.path).toBe('/api/reportSubscriptions?client_id=1');
    expect(bodyRows(table())[0]?.slice(0, 5)).toEqual([
      'Weekly Mall Home',
      'Mall Home',
      'Weekly on Monday at 08:00 (Asia/Kuala_Lumpur)',
      'PDF, Workbook',
      'operator@demo.mall',
    ]);
    const last = screen.getByTestId('subscription-last-delivery');
    expect(last.getAttribute('data-state')).toBe('failed');
    expect(last.textContent).toContain('render: took too long');
  });

  it('fails its table with a retry when the list cannot be read', async () => {
    list = () => ({ status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'boom' } });
    render();
    const retry = await screen.findByTestId('subscriptions-retry');
    await waitFor(() =>
      expect(toastTexts()).toContain('Report subscriptions fetching error occurs. Please try again later.'),
    );
    list = () => ({ status: 200, body: { data: [SUBSCRIPTION], rendering: RENDERING_ON } });
    fireEvent.click(retry);
    await waitFor(() => expect(screen.getAllByTestId('subscription-row')).toHaveLength(1));
  });

  it('sends one now, and deletes one after asking', async () => {
    render();
    const row = await screen.findByTestId('subscription-row');
    fireEvent.click(within(row).getByTestId('subscription-send'));
    await waitFor(() => expect(toastTexts().some((text) => text.startsWith('Sending now'))).toBe(true));
    expect(sent.find((call) => call.method === 'POST')).toMatchObject({
      path: '/api/reportSubscriptions/send',
      body: { client_id: 1, id: 7 },
    });
    fireEvent.click(within(row).getByTestId('subscription-delete'));
    expect((await screen.findByTestId('subscription-delete-question')).textContent).toContain('Weekly Mall Home');
    fireEvent.click(screen.getByText('Delete'));
    await waitFor(() => expect(toastTexts()).toContain('Subscription deleted.'));
    expect(sent.find((call) => call.method === 'DELETE')?.path).toBe('/api/reportSubscriptions?client_id=1&id=7');
    await waitFor(() => expect(lists()).toHaveLength(2));
  });

  it('opens the dialog on the subscription to change it', async () => {
    render();
    const row = await screen.findByTestId('subscription-row');
    fireEvent.click(within(row).getByTestId('subscription-edit'));
    const form = await screen.findByTestId('subscription-form');
    await waitFor(() => expect(within(form).getAllByTestId('subscription-recipient')).toHaveLength(2));
    expect((within(form).getByTestId('subscription-name') as HTMLInputElement).value).toBe('Weekly Mall Home');
    expect((within(form).getByTestId('subscription-weekday') as HTMLSelectElement).value).toBe('1');
    fireEvent.change(within(form).getByTestId('subscription-hour'), { target: { value: '6' } });
    fireEvent.click(within(form).getByTestId('subscription-save'));
    await waitFor(() => expect(sent.find((call) => call.method === 'PUT')).toBeDefined());
    expect(sent.find((call) => call.method === 'PUT')).toMatchObject({
      path: '/api/reportSubscriptions?id=7',
      body: { hour: 6, frequency: 'weekly', weekday: 1 },
    });
    // The page's list, the dialog's reading of whether PDFs can be rendered, then the list again after the save.
    await waitFor(() => expect(lists()).toHaveLength(3));
  });

  it('says so when the server has no browser, and offers neither change nor send', async () => {
    list = () => ({ status: 200, body: { data: [SUBSCRIPTION], rendering: RENDERING_OFF } });
    render();
    const row = await screen.findByTestId('subscription-row');
    expect(screen.getByTestId('subscriptions-unavailable').textContent).toContain(NO_BROWSER_MESSAGE);
    expect(within(row).getByTestId('subscription-edit').hasAttribute('disabled')).toBe(true);
    expect(within(row).getByTestId('subscription-send').hasAttribute('disabled')).toBe(true);
  });
});
