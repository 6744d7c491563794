import { Classes } from '@blueprintjs/core';
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { TenantReceipt } from '../../src/api/tenant';
import { currencyFormat, formatMoney } from '../../src/domain/format';
import { TenantReceiptDataPage } from '../../src/views/pages/tenants/TenantReceiptDataPage';
import { deferred } from '../support/deferred';
import { CLIENTS, MALLS, OUTLETS } from './layoutHarness';
import { renderInApp, userInfo } from './renderApp';

/*
 * The tenant's Receipt Data page inside the app, with the real filter header and page machines and the app's one
 * api client; the network is a fetch handler on globalThis answering what each test gives it. The user's client
 * (4) has one outlet, the Bakery (20, IDR), which the header chooses by itself (single outlet mode).
 */

configure({ asyncUtilTimeout: 5_000 });

const ROWS: TenantReceipt[] = [
  {
    id: 7,
    receipt_id: 'B-1001',
    has_image: true,
    payment_method: ['VISA', 'CASH'],
    receipt_status: 'Closed',
    total_amount: 1234.5,
    datetime: '2026-11-24 12:30:00',
  },
  {
    id: 8,
    receipt_id: '1732450000',
    has_image: true,
    payment_method: ['CASH'],
    receipt_status: 'Void',
    total_amount: -3,
    datetime: '2026-11-23 09:00:05',
  },
];
const IDR = currencyFormat('IDR');

type Answer = { status: number; body: unknown };
let answerList: (url: URL) => Answer | Promise<Answer>;
let answerImage: (url: URL) => Answer;
let calls: URL[];

beforeEach(() => {
  calls = [];
  answerList = () => ({ status: 200, body: { data: ROWS, summary: [{ total: 25 }] } });
  answerImage = () => ({ status: 200, body: { imageBuf: 'iVBORw0KGgo=' } });
  setPermissionsList(['*::*']);
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    calls.push(url);
    const clientId = Number(url.searchParams.get('client_id'));
    let answer: Answer;
    if (url.pathname === '/api/tenant/receiptData') answer = await answerList(url);
    else if (url.pathname === '/api/tenant/receiptImage') answer = answerImage(url);
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
  vi.restoreAllMocks();
  clearSession();
});

function renderPage(): void {
  renderInApp(<TenantReceiptDataPage title="Receipt Data" />, {
    user: userInfo({ roles: ['super admin'], clients: [4], client_id: 4, permissionsList: ['*::*'] }),
    path: '/tenants/tenant-receipt-data',
    today: '2026-11-25',
  });
}

const listQueries = () =>
  calls.filter((url) => url.pathname === '/api/tenant/receiptData').map((url) => Object.fromEntries(url.searchParams));
const bodyRows = () =>
  screen.getAllByTestId('trd-row').map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent));
const toasts = () => [...document.querySelectorAll(`.${Classes.TOAST}`)].map((toast) => toast.textContent);

async function loaded(queries: number): Promise<void> {
  await waitFor(() => expect(listQueries()).toHaveLength(queries));
  await waitFor(() => expect(screen.getAllByTestId('trd-row')).toHaveLength(2));
}

describe('the tenant receipt data page', () => {
  it('lists the outlet’s receipts over the header’s days: id, date and time, amount in its currency, status', async () => {
    const first = deferred<Answer>();
    answerList = () => first.promise;
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Receipt Data' })).toBeDefined();
    // Skeleton rows until the answer comes.
    await waitFor(() => expect(listQueries()).toHaveLength(1));
    expect(screen.getAllByTestId('trd-skeleton-row').length).toBeGreaterThan(0);
    expect(screen.getByTestId('trd-table').getAttribute('aria-busy')).toBe('true');
    first.resolve({ status: 200, body: { data: ROWS, summary: [{ total: 25 }] } });
    await loaded(1);
    expect(screen.queryByTestId('trd-skeleton-row')).toBeNull();
    expect(listQueries()).toEqual([
      {
        client_id: '4',
        id: '20',
        startTime: '2026-11-19',
        endTime: '2026-11-25',
        page: '1',
        rowsPerPage: '10',
        sortColumn: 'datetime',
        orderByMethod: 'desc',
      },
    ]);
    expect(bodyRows()).toEqual([
      ['B-1001', '2026-11-24 12:30:00', formatMoney(1234.5, IDR), 'Closed'],
      ['no receipt id', '2026-11-23 09:00:05', formatMoney(-3, IDR), 'Void'],
    ]);
    expect(formatMoney(1234.5, IDR)).toMatch(/^Rp/);
    expect(screen.getByTestId('trd-total').textContent).toBe('25 receipts');
    expect(screen.getByTestId('page-indicator').textContent).toBe('Page 1 of 3');
    expect(screen.getByRole('columnheader', { name: /Date and Time/ }).getAttribute('aria-sort')).toBe('descending');
  });

  it('writes every date and time as §9 does (YYYY-MM-DD HH:mm:ss, the mall’s clock), whatever form the server sent', async () => {
    const [first, second] = ROWS;
    if (!first || !second) throw new Error('two rows');
    answerList = () => ({
      status: 200,
      body: {
        data: [
          { ...first, datetime: '2026-11-24T12:30' },
          { ...second, datetime: '2026-11-23T09:00:05.250' },
        ],
        summary: [{ total: 2 }],
      },
    });
    renderPage();
    await loaded(1);
    expect(bodyRows().map((row) => row[1])).toEqual(['2026-11-24 12:30:00', '2026-11-23 09:00:05']);
  });

  it('sorts every column on the server, pages and changes the rows per page', async () => {
    renderPage();
    await loaded(1);
    fireEvent.click(screen.getByTestId('trd-sort-total_amount'));
    await loaded(2);
    expect(listQueries()[1]).toMatchObject({ sortColumn: 'total_amount', orderByMethod: 'desc', page: '1' });
    expect(screen.getByRole('columnheader', { name: /Amount/ }).getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(screen.getByTestId('trd-sort-total_amount'));
    await loaded(3);
    expect(listQueries()[2]).toMatchObject({ sortColumn: 'total_amount', orderByMethod: 'asc' });
    for (const [index, column] of ['receipt_id', 'receipt_status', 'datetime'].entries()) {
      fireEvent.click(screen.getByTestId(`trd-sort-${column}`));
      await loaded(4 + index);
      expect(listQueries()[3 + index]).toMatchObject({ sortColumn: column, orderByMethod: 'desc' });
    }
    fireEvent.click(screen.getByTestId('page-next'));
    await loaded(7);
    expect(listQueries()[6]).toMatchObject({ page: '2', rowsPerPage: '10' });
    fireEvent.change(screen.getByTestId('rows-per-page'), { target: { value: '50' } });
    await loaded(8);
    expect(listQueries()[7]).toMatchObject({ page: '1', rowsPerPage: '50' });
    expect([...screen.getByTestId('rows-per-page').querySelectorAll('option')].map((option) => option.value)).toEqual([
      '10',
      '20',
      '50',
    ]);
  });

  it('opens a receipt’s image from its id, and says so when it cannot be read', async () => {
    renderPage();
    await loaded(1);
    fireEvent.click(screen.getByTestId('trd-receipt-link-B-1001'));
    const image = await screen.findByTestId('receipt-image');
    expect(image.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');
    const imageCall = calls.find((url) => url.pathname === '/api/tenant/receiptImage');
    expect(Object.fromEntries(imageCall?.searchParams ?? [])).toEqual({
      client_id: '4',
      id: '20',
      aimbox_id: 'B-1001',
    });
    // The dialog's close button in its title and the one in its footer.
    const closeButtons = screen.getAllByRole('button', { name: 'Close' });
    expect(closeButtons).toHaveLength(2);
    fireEvent.click(closeButtons[1] as HTMLElement);
    await waitFor(() => expect(screen.queryByTestId('receipt-image')).toBeNull());

    answerImage = () => ({ status: 404, body: { statusCode: 404, error: 'Not Found', message: 'No such receipt.' } });
    // The bare-timestamp id reads 'no receipt id' and still opens its receipt.
    fireEvent.click(screen.getByTestId('trd-receipt-link-1732450000'));
    await waitFor(() => expect(toasts()).toContain('Receipt image fetching error occurs. Please try again later.'));
    expect(
      calls
        .filter((url) => url.pathname === '/api/tenant/receiptImage')
        .at(-1)
        ?.searchParams.get('aimbox_id'),
    ).toBe('1732450000');
    await waitFor(() => expect(screen.queryByTestId('receipt-image-dialog')).toBeNull());
  });

  it('exports the rows shown as CSV', async () => {
    const saved: { name: string; blob: Blob }[] = [];
    let lastBlob: Blob | undefined;
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        lastBlob = blob;
        return 'blob:receipt-data';
      },
      revokeObjectURL: () => undefined,
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      if (lastBlob) saved.push({ name: this.download, blob: lastBlob });
    });
    const first = deferred<Answer>();
    answerList = () => first.promise;
    renderPage();
    await waitFor(() => expect(listQueries()).toHaveLength(1));
    // Nothing to export while the rows load.
    expect((await screen.findByTestId('trd-export-csv')).hasAttribute('disabled')).toBe(true);
    first.resolve({ status: 200, body: { data: ROWS, summary: [{ total: 25 }] } });
    await loaded(1);
    await waitFor(() => expect(screen.getByTestId('trd-export-csv').hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByTestId('trd-export-csv'));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toBe('receipt_data_20_2026-11-19_2026-11-25_page_1.csv');
    expect(await saved[0]?.blob.text()).toBe(
      'Receipt ID,Datetime,Total Amount,Receipt Status,Currency\r\n' +
        'B-1001,2026-11-24 12:30:00,1234.5,Closed,IDR\r\n' +
        'no receipt id,2026-11-23 09:00:05,-3,Void,IDR\r\n',
    );
  });

  it("says 'No Data' for an empty answer, and fails with a retry and the toast", async () => {
    answerList = () => ({ status: 200, body: { data: [], summary: [{ total: 0 }] } });
    renderPage();
    await waitFor(() => expect(screen.getByText('No Data')).toBeDefined());
    expect(screen.getByTestId('trd-export-csv').hasAttribute('disabled')).toBe(true);
    cleanup();
    answerList = () => ({ status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'x' } });
    renderPage();
    const retry = await screen.findByTestId('trd-retry');
    expect(screen.queryByText('No Data')).toBeNull();
    await waitFor(() => expect(toasts()).toContain('Receipt data fetching error occurs. Please try again later.'));
    answerList = () => ({ status: 200, body: { data: ROWS, summary: [{ total: 25 }] } });
    fireEvent.click(retry);
    await waitFor(() => expect(screen.getAllByTestId('trd-row')).toHaveLength(2));
    expect(within(screen.getByTestId('tenant-receipt-data-page')).queryByTestId('trd-retry')).toBeNull();
  });

  it('asks to choose an outlet when the client has none, and calls nothing', async () => {
    renderInApp(<TenantReceiptDataPage title="Receipt Data" />, {
      user: userInfo({ roles: ['super admin'], clients: [5], client_id: 5, permissionsList: ['*::*'] }),
      path: '/tenants/tenant-receipt-data',
      today: '2026-11-25',
    });
    expect((await screen.findByTestId('trd-choose-outlet')).textContent).toBe('Choose an Outlet to see its receipts.');
    expect(screen.queryByTestId('trd-export-csv')).toBeNull();
    expect(listQueries()).toEqual([]);
  });
});
