import { Classes } from '@blueprintjs/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CalendarEntry, MallEvent } from '../../src/api/calendar';
import { clearSession, setPermissionsList } from '../../src/api/session';
import { Chart } from '../../src/views/charts/Chart';
import { CalendarPage } from '../../src/views/pages/shopper-connect/CalendarPage';
import { EventsPage } from '../../src/views/pages/shopper-connect/EventsPage';
import { renderInApp, userInfo } from './renderApp';

/*
 * The Calendar and Events pages inside the app with the real filter header and page machines; the network is a
 * fetch handler answering what each test gives it. Client 3 has Central (1, Singapore) and Bukit (2, Malaysia); the
 * header's days are 2026-11-19..2026-11-25. And the time charts' annotations: bands and lines with their text as
 * text, and the key under the chart.
 */

const MALLS = [
  { id: 1, name: 'Central', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
  { id: 2, name: 'Bukit', currency: 'MYR', time_zone: 'Asia/Kuala_Lumpur', country: 'MY' },
];
const OUTLETS = [{ id: 12, name: 'Kopi Corner', type: 1, currency: 'SGD', mall_id: 1, outlet_code: null }];
const CNY: CalendarEntry = {
  id: 5,
  country: 'MY',
  start_date: '2026-02-17',
  end_date: '2026-02-18',
  name: 'Chinese New Year',
  kind: 'festival',
  festival: 'chinese_new_year',
};
const FAIR: MallEvent = {
  id: 21,
  mall_id: 1,
  title: '<b>Food</b> fair',
  start_date: '2026-11-20',
  end_date: '2026-11-21',
  kind: 'event',
  created_by: 'Olivia',
};

interface Call {
  method: string;
  url: URL;
  body: unknown;
}
let calls: Call[];

beforeEach(() => {
  calls = [];
  setPermissionsList(['*::*']);
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    const text = request.method === 'POST' || request.method === 'PUT' ? await request.clone().text() : '';
    const call = { method: request.method, url, body: text ? JSON.parse(text) : undefined };
    let body: unknown = { statusCode: 404, error: 'Not Found', message: 'not found' };
    let status = 200;
    if (url.pathname === '/outlets') body = OUTLETS;
    else if (url.pathname === '/malls') body = MALLS;
    else if (url.pathname === '/api/calendar') {
      calls.push(call);
      body = request.method === 'GET' ? { entries: [CNY] } : { ...CNY, id: 6, name: 'Staff day' };
    } else if (url.pathname === '/api/mall_events') {
      calls.push(call);
      body = request.method === 'GET' ? { events: [FAIR], holidays: [] } : { id: 21 };
    } else status = 404;
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

const user = () => userInfo({ roles: ['super admin'], clients: [3], client_id: 3, permissionsList: ['*::*'] });
const toasts = () => [...document.querySelectorAll(`.${Classes.TOAST}`)].map((toast) => toast.textContent);

describe('the calendar page', () => {
  it('lists a country of the client’s malls in the year, and adds a holiday with the spec’s toast', async () => {
    renderInApp(<CalendarPage title="Calendar" />, {
      user: user(),
      path: '/shopper-connect/calendar',
      today: '2026-11-25',
    });
    await waitFor(() => expect(screen.getByText('Chinese New Year')).toBeDefined());
    const read = calls.find((call) => call.method === 'GET');
    expect(Object.fromEntries(read?.url.searchParams ?? [])).toEqual({ client_id: '3', country: 'MY', year: '2026' });
    expect(screen.getByText('17 Feb 2026')).toBeDefined();
    fireEvent.click(screen.getByTestId('holiday-add'));
    const form = await screen.findByTestId('holiday-form');
    fireEvent.change(within(form).getByTestId('holiday-name'), { target: { value: 'Staff day' } });
    fireEvent.change(within(form).getByTestId('holiday-start'), { target: { value: '2026-03-02' } });
    fireEvent.click(screen.getByTestId('holiday-submit'));
    await waitFor(() => expect(toasts()).toContain('Holiday has been added successfully.'));
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      client_id: 3,
      country: 'MY',
      name: 'Staff day',
      start_date: '2026-03-02',
      end_date: '2026-03-02',
    });
  });
});

describe('the events page', () => {
  it('lists the header malls’ events, their title as text, and deletes one after the question', async () => {
    renderInApp(<EventsPage title="Events" />, { user: user(), path: '/shopper-connect/events', today: '2026-11-25' });
    await waitFor(() => expect(screen.getByText('<b>Food</b> fair')).toBeDefined());
    expect(document.querySelector('b')).toBeNull();
    fireEvent.click(screen.getByTestId('event-delete-21'));
    expect((await screen.findByTestId('event-delete-question')).textContent).toBe('Delete <b>Food</b> fair?');
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toasts()).toContain('<b>Food</b> fair has been deleted successfully.'));
    expect(calls.find((call) => call.method === 'DELETE')?.url.searchParams.get('id')).toBe('21');
  });
});

describe('a time chart’s annotations', () => {
  it('draws a band for a range and a line for a day, labels as text, and a key of the kinds drawn', async () => {
    const days = ['2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22'];
    renderInApp(
      <Chart
        testId="annotated"
        options={{ xAxis: { categories: days }, series: [{ type: 'column', data: [1, 2, 3, 4] }] }}
        annotations={{
          days,
          items: [
            { start: '2026-11-20', end: '2026-11-21', label: '<i>Sale</i>', kind: 'mall_event' },
            { start: '2026-11-22', end: '2026-11-22', label: 'Deepavali', kind: 'public_holiday' },
            { start: '2026-12-25', end: '2026-12-25', label: 'Christmas Day', kind: 'festival' },
          ],
        }}
      />,
      { user: user(), path: '/shopper-connect/mall-home', today: '2026-11-25' },
    );
    const chart = await screen.findByTestId('annotated');
    await waitFor(() => expect(chart.querySelector('.app-chart-annotation-mall_event')).not.toBeNull());
    expect(chart.querySelector('.app-chart-annotation-public_holiday')).not.toBeNull();
    const svg = chart.querySelector('svg');
    expect(svg?.querySelectorAll('a, i, [style*="italic"]')).toHaveLength(0);
    const key = screen.getByTestId('chart-annotation-key');
    expect([...key.querySelectorAll('li')].map((item) => item.textContent)).toEqual([
      'Public holiday: Deepavali',
      'Mall event: <i>Sale</i>',
    ]);
  });
});
