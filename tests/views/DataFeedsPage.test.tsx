import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setPermissionsList } from '../../src/api/session';
import { filterHeaderMachine } from '../../src/machines/filterHeaderMachine';
import { DataFeedsPage } from '../../src/views/pages/shopper-connect/DataFeedsPage';
import { NO_OUTLETS, REPORT } from '../support/dataFeeds';
import { bodyRows, tableIn, tearDownReportPage, toastTexts } from './mallReportHarness';
import { renderInApp, userInfo } from './renderApp';

/*
 * The Data Feeds page (issue 34) inside the app, with the real filter header, page machine and the app's one api
 * client; the network is a fetch handler on globalThis answering what each test gives it. Client 1's malls Orchard
 * Point (Singapore) and Harbourfront (Singapore), both chosen; the answer is read at 12:30 in Singapore.
 */

type Answer = { status: number; body: unknown };

const MALLS = [
  { id: 1, name: 'Orchard Point', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
  { id: 2, name: 'Harbourfront', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
];
const SERVER_ERROR: Answer = {
  status: 500,
  body: { statusCode: 500, error: 'Internal Server Error', message: 'boom' },
};

let answer: () => Promise<Answer> | Answer;
let asked: URL[];
/** The alert rules as the server keeps them, and each PUT's body. */
let rules: { silence_minutes: number; unusual_threshold: number; unusual_min_baseline: number };
let saved: unknown[];

beforeEach(() => {
  asked = [];
  saved = [];
  rules = { silence_minutes: 60, unusual_threshold: 3.5, unusual_min_baseline: 5 };
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    let given: Answer = { status: 404, body: { statusCode: 404, error: 'Not Found', message: 'not found' } };
    if (url.pathname === '/malls') given = { status: 200, body: MALLS };
    else if (url.pathname === '/outlets') given = { status: 200, body: [] };
    else if (url.pathname === '/api/dataFeeds/settings' && request.method === 'GET')
      given = { status: 200, body: rules };
    else if (url.pathname === '/api/dataFeeds/settings' && request.method === 'PUT') {
      const body = await request.json();
      saved.push(body);
      const { client_id: _client, ...next } = body;
      rules = next;
      given = { status: 200, body: rules };
    } else if (url.pathname === '/api/dataFeeds') {
      asked.push(url);
      given = await answer();
    }
    return new Response(JSON.stringify(given.body), {
      status: given.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
});

afterEach(tearDownReportPage);

const header = filterHeaderMachine.provide({ actions: { writeUrl: () => undefined, writeCookies: () => undefined } });

function render(permissionsList: readonly string[] = ['*::*']): void {
  setPermissionsList(permissionsList);
  renderInApp(<DataFeedsPage title="Data Feeds" header="mall" />, {
    user: userInfo({
      client_id: 1,
      clients: [1],
      permissions: [{ name: 'shopper-connect', subPermissions: ['data-feeds'] }],
      permissionsList: [...permissionsList],
    }),
    path: '/shopper-connect/data-feeds',
    today: '2026-03-11',
    header,
  });
}

const table = () => tableIn('data-feeds-page');
const outletNames = () => bodyRows(table()).map((row) => row[0]);

describe('the Data Feeds page', () => {
  it('shows a skeleton while loading, then every outlet, silent ones first, times in the mall’s zone', async () => {
    let release: (given: Answer) => void = () => undefined;
    answer = () => new Promise<Answer>((resolve) => (release = resolve));
    render();
    await waitFor(() => expect(screen.getAllByTestId('data-feeds-skeleton-row').length).toBeGreaterThan(0));
    expect(asked.map((url) => url.searchParams.toString())).toEqual(['client_id=1&mall_ids=1&mall_ids=2']);
    release({ status: 200, body: REPORT });
    await waitFor(() => expect(outletNames()).toEqual(['Bakery Lane', 'Kopi Corner', 'Atlas Books']));
    expect(bodyRows(table())[0]).toEqual([
      'Bakery Lane',
      'Orchard Point',
      'Silent',
      '2026-03-11 11:10:00',
      '2026-03-11 12:21:00',
      '9',
      '44',
      '2026-03-11 11:10:00',
    ]);
    expect(screen.getByTestId('data-feeds-note').textContent).toBe(
      '1 outlet silent; an outlet is silent after 60 minutes without a receipt in an hour it usually trades.',
    );
  });

  it('filters by state and sorts by a column', async () => {
    answer = () => ({ status: 200, body: REPORT });
    render();
    await waitFor(() => expect(outletNames()).toHaveLength(3));
    fireEvent.change(screen.getByTestId('data-feeds-filter'), { target: { value: 'not_trading' } });
    await waitFor(() => expect(outletNames()).toEqual(['Atlas Books']));
    fireEvent.change(screen.getByTestId('data-feeds-filter'), { target: { value: 'idle' } });
    await waitFor(() => expect(screen.getByText('No outlet in this state.')).toBeTruthy());
    fireEvent.change(screen.getByTestId('data-feeds-filter'), { target: { value: 'all' } });
    fireEvent.click(screen.getByTestId('data-feeds-sort-receipts_today'));
    await waitFor(() => expect(outletNames()).toEqual(['Kopi Corner', 'Bakery Lane', 'Atlas Books']));
    fireEvent.click(screen.getByTestId('data-feeds-sort-receipts_today'));
    await waitFor(() => expect(outletNames()).toEqual(['Atlas Books', 'Bakery Lane', 'Kopi Corner']));
  });

  it('says No Data only for malls without an outlet', async () => {
    answer = () => ({ status: 200, body: NO_OUTLETS });
    render();
    await waitFor(() => expect(screen.getByText('No Data')).toBeTruthy());
    expect(toastTexts()).toEqual([]);
  });

  it('fails with the toast and a retry, and loads again', async () => {
    answer = () => SERVER_ERROR;
    render();
    await waitFor(() => expect(toastTexts()).toContain('Data feeds error occurs. Please try again later.'));
    expect(screen.getByText('The data feeds could not be read.')).toBeTruthy();
    answer = () => ({ status: 200, body: REPORT });
    fireEvent.click(screen.getByTestId('data-feeds-retry'));
    await waitFor(() => expect(outletNames()).toHaveLength(3));
    fireEvent.click(screen.getByTestId('data-feeds-refresh'));
    await waitFor(() => expect(asked).toHaveLength(3));
  });

  it('sets the client’s alert rules in a dialog, refusing a wrong value, and reads the feeds again', async () => {
    answer = () => ({ status: 200, body: REPORT });
    render();
    await waitFor(() => expect(outletNames()).toHaveLength(3));
    fireEvent.click(screen.getByTestId('feed-rules-open'));
    const minutes = (await screen.findByTestId('feed-rules-minutes')) as HTMLInputElement;
    await waitFor(() => expect(minutes.value).toBe('60'));
    fireEvent.change(minutes, { target: { value: '5' } });
    expect(screen.getByText('Enter whole minutes from 15 to 1440.')).toBeTruthy();
    expect(screen.getByTestId('feed-rules-save').hasAttribute('disabled')).toBe(true);
    fireEvent.change(minutes, { target: { value: '30' } });
    fireEvent.change(screen.getByTestId('feed-rules-threshold'), { target: { value: '2.5' } });
    fireEvent.change(screen.getByTestId('feed-rules-baseline'), { target: { value: '4' } });
    fireEvent.click(screen.getByTestId('feed-rules-save'));
    await waitFor(() => expect(screen.queryByTestId('feed-rules-dialog')).toBeNull());
    expect(saved).toEqual([{ client_id: 1, silence_minutes: 30, unusual_threshold: 2.5, unusual_min_baseline: 4 }]);
    await waitFor(() => expect(asked).toHaveLength(2));
  });

  it('offers no rules to a user who may not set them', async () => {
    answer = () => ({ status: 200, body: REPORT });
    render(['/api/dataFeeds::Read', '/malls::Read', '/outlets::Read', '/clients::Read']);
    await waitFor(() => expect(outletNames()).toHaveLength(3));
    expect(screen.queryByTestId('feed-rules-open')).toBeNull();
  });
});
