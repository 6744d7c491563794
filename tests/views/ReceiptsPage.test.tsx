import { Classes } from '@blueprintjs/core';
import { act, cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import Highcharts from 'highcharts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Actor } from 'xstate';
import type { Outlet } from '../../src/api/lookup';
import type { BreakdownSeries, PaymentSummary, ReceiptRow, ReceiptSummary } from '../../src/api/receipts';
import { clearSession, setPermissionsList } from '../../src/api/session';
import { filterHeaderMachine } from '../../src/machines/filterHeaderMachine';
import { ReceiptsPage } from '../../src/views/pages/receipts/ReceiptsPage';
import { deferred } from '../support/deferred';
import { HeaderProbe } from './headerProbe';
import { renderInApp, userInfo } from './renderApp';

/*
 * The outlet Receipts page (§2, §3, §4, §7, §9) with the real filter header and receipts machines behind it and
 * the app's one api client: only the network is fake, a fetch handler installed on globalThis (the client looks
 * fetch up at call time). Every request is recorded, so the tests read the query the page sent.
 */

// The header's lookups, the page's calls and the table's batched cells take longer than a second on a busy machine.
configure({ asyncUtilTimeout: 5_000 });

const TODAY = '2024-03-15';
const CLIENT_ID = 3;
const KOPI: Outlet = { id: 12, name: 'Kopi Corner', type: 1, currency: 'SGD', mall_id: 1, outlet_code: null };
const SHOES: Outlet = { id: 13, name: 'Shoe Lane', type: 2, currency: 'SGD', mall_id: 1, outlet_code: null };
const PERMISSIONS = ['/outlets::Read', '/outlets/*::Read', '/malls::Read', '/api/tenant/receiptImage::Read'];

function receipt(overrides: Partial<ReceiptRow> & Pick<ReceiptRow, 'receipt_id'>): ReceiptRow {
  return {
    id: 1,
    outlet_id: KOPI.id,
    has_image: true,
    datetime: '2024-03-14 12:00:05',
    time: '12:00:05',
    dine_out_time: null,
    receipt_status: 'Closed',
    payment_method: 'VISA',
    total_amount: 10,
    discount: 0,
    name_reason: null,
    table: null,
    take_away: null,
    delivery_info: null,
    opened_bill: false,
    void: false,
    closed_bill: true,
    foc_bill: false,
    redeem_bill: false,
    ...overrides,
  };
}

/** One row per tag case of §4, a bare-timestamp id, a dine-out time and a negative amount. */
const ROWS: ReceiptRow[] = [
  receipt({
    id: 1,
    receipt_id: 'R-OPEN',
    receipt_status: 'Opened',
    opened_bill: true,
    closed_bill: false,
    total_amount: 1234.5,
    discount: 0,
    dine_out_time: '13:10:00',
    name_reason: 'Birthday',
    table: 'T4',
    take_away: true,
    delivery_info: 'Grab',
  }),
  receipt({
    id: 2,
    receipt_id: 'R-VOID',
    receipt_status: 'Void',
    opened_bill: true,
    void: true,
    closed_bill: false,
    total_amount: -20,
  }),
  receipt({ id: 3, receipt_id: 'R-CLOSED', opened_bill: true, closed_bill: true, discount: 5.25, take_away: false }),
  receipt({ id: 4, receipt_id: '1710400000', foc_bill: true, redeem_bill: true, total_amount: 0 }),
];
const SUMMARY: ReceiptSummary = { total: 25, void_count: 2, sum: 12345.678, discount: 5.25 };
const PAYMENTS: PaymentSummary[] = [
  { payment_method: 'VISA', sum: 1000, processing_fees: 2.5, net_amount: 975 },
  { payment_method: 'CASH', sum: 234.5, processing_fees: 0, net_amount: 234.5 },
];
const BREAKDOWN: BreakdownSeries[] = [
  {
    payment_method: 'VISA',
    sum: 1000,
    data: [
      { key: '2024/03/14', value: 600 },
      { key: '2024/03/15', value: 400 },
    ],
  },
];

/* ---------------------------------------------------------------- the fake network */

interface Call {
  readonly path: string;
  readonly query: URLSearchParams;
}

interface Answers {
  outlets: Outlet[];
  typeOptions: string[];
  focReasons: string[];
  paymentMethods: string[];
  transactions: (
    call: Call,
  ) => Promise<{ data: ReceiptRow[]; summary: ReceiptSummary[] }> | { data: ReceiptRow[]; summary: ReceiptSummary[] };
  payments: PaymentSummary[];
  breakdown: BreakdownSeries[];
  image: () => Promise<{ imageBuf: string }> | { imageBuf: string };
  /** The PDF download's answer (a streamed body of its own). */
  pdf: (call: Call) => Response;
}

let answers: Answers;
let calls: Call[];

function defaultAnswers(): Answers {
  return {
    outlets: [KOPI, SHOES],
    typeOptions: ['opened_bill', 'void', 'foc_bill', 'discount', 'redeem'],
    focReasons: ['Birthday', 'Staff meal'],
    paymentMethods: ['CASH', 'VISA'],
    transactions: () => ({ data: ROWS, summary: [SUMMARY] }),
    payments: PAYMENTS,
    breakdown: BREAKDOWN,
    image: () => ({ imageBuf: 'iVBORw0KGgo=' }),
    pdf: () => new Response('%PDF-1.3', { headers: { 'Content-Type': 'application/pdf', 'X-Receipt-Count': '25' } }),
  };
}

async function answer(call: Call): Promise<{ status: number; body: unknown }> {
  switch (call.path) {
    case '/malls':
      return {
        status: 200,
        body: [{ id: 1, name: 'Central', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' }],
      };
    case '/outlets':
      return { status: 200, body: answers.outlets };
    case '/outlets/transaction/receiptTypeOptions':
      return { status: 200, body: { typeOptions: answers.typeOptions } };
    case '/outlets/transaction/focReason':
      return { status: 200, body: { options: answers.focReasons } };
    case '/outlets/paymentMethodNameOption':
      return { status: 200, body: { options: answers.paymentMethods } };
    case '/outlets/transaction':
      return { status: 200, body: await answers.transactions(call) };
    case '/outlets/getPaymentAndSum':
      return { status: 200, body: { data: answers.payments } };
    case '/outlets/paymentMethodBreakdown':
      return { status: 200, body: { data: answers.breakdown } };
    case '/api/tenant/receiptImage':
      return { status: 200, body: await answers.image() };
    default:
      return { status: 404, body: { statusCode: 404, error: 'Not Found', message: `${call.path} not found` } };
  }
}

function installNetwork(): void {
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    const call = { path: url.pathname, query: url.searchParams };
    calls.push(call);
    if (call.path === '/outlets/transaction/generatepdf') return answers.pdf(call);
    const { status, body } = await answer(call);
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
}

function callsTo(path: string): Call[] {
  return calls.filter((call) => call.path === path);
}

function lastTransactionQuery(): URLSearchParams {
  const last = callsTo('/outlets/transaction').at(-1);
  if (!last) throw new Error('no /outlets/transaction call');
  return last.query;
}

/* ---------------------------------------------------------------- rendering */

function renderPage(): { header: () => Actor<typeof filterHeaderMachine> } {
  setPermissionsList(PERMISSIONS);
  let headerActor: Actor<typeof filterHeaderMachine> | undefined;
  const headerLogic = filterHeaderMachine.provide({
    actions: { writeUrl: () => undefined, writeCookies: () => undefined },
  });
  renderInApp(
    <>
      <HeaderProbe onActor={(actor) => (headerActor = actor)} />
      <ReceiptsPage title="Receipts" />
    </>,
    {
      user: userInfo({
        client_id: CLIENT_ID,
        clients: [CLIENT_ID],
        permissions: [{ name: 'receipts', subPermissions: [] }],
        permissionsList: PERMISSIONS,
      }),
      path: '/receipts',
      today: TODAY,
      header: headerLogic,
      pageFilters: () => ({ outletMode: 'single' }),
    },
  );
  return {
    header: () => {
      if (!headerActor) throw new Error('the filter header is not mounted');
      return headerActor;
    },
  };
}

/* ---------------------------------------------------------------- reading what is shown */

/** The receipts table (DataTable: one <table>, a row per receipt, each cell marked with its column key). */
function mainQuadrant(): HTMLElement {
  const table = screen.getByTestId('receipts-table').querySelector<HTMLElement>('table');
  if (!table) throw new Error('the receipts table has no table');
  return table;
}

/** The header names of the receipts table, in order. */
function columnNames(): string[] {
  return [...mainQuadrant().querySelectorAll('thead th')].map(
    (cell) => cell.querySelector('.sort-button')?.firstChild?.textContent?.trim() ?? cell.textContent ?? '',
  );
}

/** A sortable header's button. */
function sortHeader(column: string): HTMLElement {
  return within(mainQuadrant()).getByTestId(`sort-${column}`);
}

/** The sort state of a sortable column (its header's aria-sort). */
function sortOf(column: string): string | null | undefined {
  return sortHeader(column).closest('th')?.getAttribute('aria-sort');
}

/** The text of one cell of the receipts table (row index, column key). */
function cellText(rowIndex: number, column: string): string | undefined {
  const cell = mainQuadrant().querySelectorAll('tbody tr')[rowIndex]?.querySelector(`[data-col="${column}"]`);
  return cell?.textContent ?? undefined;
}

/** Waits until every cell of the rows is drawn. */
async function waitForCells(rows: number, columns: number): Promise<void> {
  await waitFor(() => expect(mainQuadrant().querySelectorAll('[data-col]')).toHaveLength(rows * columns));
}

/** The status tags of a receipt: label and whether it is plain (minimal) or dark. */
function tagsOf(receiptId: string): { label: string; style: 'plain' | 'dark' | 'solid' }[] {
  const tags = within(mainQuadrant()).getByTestId(`receipt-tags-${receiptId}`).querySelectorAll(`.${Classes.TAG}`);
  return [...tags].map((tag) => ({
    label: tag.textContent ?? '',
    style: tag.classList.contains(Classes.MINIMAL) ? 'plain' : tag.classList.contains(Classes.DARK) ? 'dark' : 'solid',
  }));
}

/** Cell texts of a table's body rows. */
function bodyRows(table: HTMLElement, section = 'tbody'): string[][] {
  return [...table.querySelectorAll(`${section} tr`)].map((row) =>
    [...row.querySelectorAll('td, th')].map((cell) => cell.textContent ?? ''),
  );
}

/** The Highcharts chart drawn inside the element with this test id. */
function chartIn(testId: string): Highcharts.Chart {
  const container = screen.getByTestId(testId);
  const chart = Highcharts.charts.find(
    (candidate) => candidate !== undefined && container.contains(candidate.container),
  );
  if (!chart) throw new Error(`no chart drawn in ${testId}`);
  return chart;
}

/** Renders the page and waits for its first list (rows drawn). */
async function renderLoaded(columns = 12) {
  const harness = renderPage();
  await waitFor(() => expect(callsTo('/outlets/transaction')).toHaveLength(1));
  await waitForCells(ROWS.length, columns);
  await waitFor(() => expect(screen.getByTestId('receipts-table').getAttribute('aria-busy')).toBe('false'));
  return harness;
}

/** How many list calls were made so far; `waitForListCall(n)` waits for the n-th one and its answer. */
async function waitForListCall(count: number): Promise<URLSearchParams> {
  await waitFor(() => expect(callsTo('/outlets/transaction')).toHaveLength(count));
  await waitFor(() => expect(screen.getByTestId('receipts-table').getAttribute('aria-busy')).toBe('false'));
  return lastTransactionQuery();
}

/** Moves to page 2 and waits for it (so that a later filter change shows the reset to page 1). */
async function goToPage2(): Promise<void> {
  const before = callsTo('/outlets/transaction').length;
  fireEvent.click(screen.getByTestId('page-next'));
  const query = await waitForListCall(before + 1);
  expect(query.get('page')).toBe('2');
  expect(screen.getByTestId('page-indicator').textContent).toBe('Page 2 of 3');
}

/*
 * jsdom lays nothing out and its postMessage events carry no `source`: Blueprint's Table2 would draw the cells
 * of a zero-sized viewport only, and its idle-time batches (requestAnimationFrame, then a window message from
 * the window itself) would stop after the first batch. The table gets a viewport, and window messages their
 * source, as in a browser.
 */
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(2400);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(1200);
  vi.spyOn(window, 'postMessage').mockImplementation((message: unknown) => {
    setTimeout(() => window.dispatchEvent(new MessageEvent('message', { data: message, source: window })), 0);
  });
  calls = [];
  answers = defaultAnswers();
  installNetwork();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  clearSession();
});

/* ---------------------------------------------------------------- the tests */

describe('the receipts table', () => {
  it('asks for the first page of the outlet chosen in the header, newest first, 10 rows', async () => {
    renderPage();
    expect((await screen.findByTestId('receipts-choose-outlet')).textContent).toBe(
      'Choose an Outlet to see its receipts.',
    );
    const query = await waitForListCall(1);
    expect(Object.fromEntries(query)).toEqual({
      client_id: '3',
      id: '12',
      startTime: '2024-03-09',
      endTime: '2024-03-15',
      timeType: 'date',
      outletType: '1',
      sortColumn: 'datetime',
      orderByMethod: 'desc',
      page: '1',
      rowsPerPage: '10',
    });
    expect(screen.queryByTestId('receipts-choose-outlet')).toBeNull();
    for (const path of [
      '/outlets/transaction/receiptTypeOptions',
      '/outlets/transaction/focReason',
      '/outlets/paymentMethodNameOption',
    ]) {
      expect(Object.fromEntries(callsTo(path)[0]?.query ?? [])).toEqual({ client_id: '3', id: '12' });
    }
    for (const path of ['/outlets/getPaymentAndSum', '/outlets/paymentMethodBreakdown']) {
      expect(Object.fromEntries(callsTo(path)[0]?.query ?? [])).toEqual({
        client_id: '3',
        id: '12',
        startTime: '2024-03-09',
        endTime: '2024-03-15',
      });
    }
  });

  it('draws a row per receipt of the answer, money as $ with 2 decimals', async () => {
    await renderLoaded();
    const row = (index: number) =>
      ['date', 'time', 'receipt_id', 'payment_method', 'receipt_status', 'total_amount', 'discount'].map((key) =>
        cellText(index, key),
      );
    expect(row(0)).toEqual(['2024-03-14', '12:00:05 - 13:10:00', 'R-OPEN', 'VISA', 'Opened', '$1,234.50', '$0.00']);
    expect(row(1)).toEqual(['2024-03-14', '12:00:05', 'R-VOID', 'VISA', 'Void', '-$20.00', '$0.00']);
    expect(row(2)).toEqual(['2024-03-14', '12:00:05', 'R-CLOSED', 'VISA', 'Closed', '$10.00', '$5.25']);
    expect(row(3)).toEqual(['2024-03-14', '12:00:05', 'no receipt id', 'VISA', 'Closed', '$0.00', '$0.00']);
    expect(screen.queryByTestId('receipts-empty')).toBeNull();
  });

  it("shows a bare-timestamp receipt id as 'no receipt id' and a real one as it is", async () => {
    await renderLoaded();
    expect(within(mainQuadrant()).getByTestId('receipt-link-1710400000').textContent).toBe('no receipt id');
    expect(within(mainQuadrant()).getByTestId('receipt-link-R-OPEN').textContent).toBe('R-OPEN');
  });

  it('links a receipt id to its image only when the receipt has one', async () => {
    const withoutImages = [
      receipt({ id: 5, receipt_id: '20240314120005', has_image: false }),
      receipt({ id: 6, receipt_id: '2024-03-14T12:00:05', has_image: false }),
      receipt({ id: 7, receipt_id: 'R-NO-IMAGE', has_image: false }),
    ];
    answers.transactions = () => ({ data: [...ROWS, ...withoutImages], summary: [SUMMARY] });
    renderPage();
    await waitForCells(ROWS.length + withoutImages.length, 12);
    const table = within(mainQuadrant());
    // A bare timestamp with an image: 'no receipt id', a link to the image.
    expect(table.getByTestId('receipt-link-1710400000').tagName).toBe('BUTTON');
    // Without an image: the text alone, no link.
    for (const id of ['20240314120005', '2024-03-14T12:00:05']) {
      expect(table.queryByTestId(`receipt-link-${id}`)).toBeNull();
      expect(table.getByTestId(`receipt-id-${id}`).textContent).toBe('no receipt id');
    }
    expect(table.queryByTestId('receipt-link-R-NO-IMAGE')).toBeNull();
    expect(table.getByTestId('receipt-id-R-NO-IMAGE').textContent).toBe('R-NO-IMAGE');
    expect(table.getAllByRole('button', { name: 'no receipt id' })).toHaveLength(1);
  });

  it('appends the dine-out time to the time as a range', async () => {
    await renderLoaded();
    expect(cellText(0, 'time')).toBe('12:00:05 - 13:10:00');
    expect(cellText(1, 'time')).toBe('12:00:05');
  });

  it('tags each receipt (§4): Opened dark when still open, plain when also void or closed', async () => {
    await renderLoaded();
    expect(tagsOf('R-OPEN')).toEqual([{ label: 'Opened', style: 'dark' }]);
    expect(tagsOf('R-VOID')).toEqual([
      { label: 'Opened', style: 'plain' },
      { label: 'Void', style: 'solid' },
    ]);
    expect(tagsOf('R-CLOSED')).toEqual([
      { label: 'Opened', style: 'plain' },
      { label: 'Closed', style: 'solid' },
      { label: 'Discount', style: 'solid' },
    ]);
    expect(tagsOf('1710400000')).toEqual([
      { label: 'Closed', style: 'solid' },
      { label: 'FOC', style: 'solid' },
      { label: 'Redeemed', style: 'solid' },
    ]);
  });

  it('shows the extra columns of an outlet of type 1 (§9)', async () => {
    await renderLoaded();
    expect(columnNames()).toEqual([
      'Date',
      'Time',
      'Receipt ID',
      'Payment Method',
      'Receipt Status',
      'Total Amount',
      'Discount',
      'Name / Reason',
      'Table',
      'Take Away',
      'Delivery Info',
      'Status Tags',
    ]);
    // One column named Status: the list's status is 'Receipt Status', the tags of §4 'Status Tags'.
    expect(columnNames().filter((name) => /status/i.test(name))).toEqual(['Receipt Status', 'Status Tags']);
    expect(['name_reason', 'table', 'take_away', 'delivery_info'].map((key) => cellText(0, key))).toEqual([
      'Birthday',
      'T4',
      'Yes',
      'Grab',
    ]);
    expect(cellText(2, 'take_away')).toBe('No');
    expect(lastTransactionQuery().get('outletType')).toBe('1');
  });

  it('hides them for an outlet of type 2, and shows them again when a type 1 outlet is chosen', async () => {
    answers.outlets = [SHOES, KOPI];
    const harness = renderPage();
    const query = await waitForListCall(1);
    expect(query.get('id')).toBe('13');
    expect(query.get('outletType')).toBe('2');
    await waitForCells(ROWS.length, 6);
    expect(columnNames()).toEqual(['Date', 'Time', 'Receipt ID', 'Payment Method', 'Receipt Status', 'Total Amount']);
    expect(within(mainQuadrant()).queryByTestId('receipt-tags-R-OPEN')).toBeNull();

    act(() => harness.header().send({ type: 'outlet.change', outlet: KOPI.id }));
    const next = await waitForListCall(2);
    expect(next.get('id')).toBe('12');
    expect(next.get('outletType')).toBe('1');
    await waitForCells(ROWS.length, 12);
    expect(columnNames()).toContain('Status Tags');
    expect(tagsOf('R-OPEN')).toEqual([{ label: 'Opened', style: 'dark' }]);
  });

  it('sums up every matching receipt below the table, void ones counted apart, and says so', async () => {
    await renderLoaded();
    expect(screen.getByTestId('summary-total').textContent).toBe('25');
    expect(screen.getByTestId('summary-void').textContent).toBe(' (2 void)');
    expect(screen.getByTestId('summary-sum').textContent).toBe('$12,345.68');
    expect(screen.getByTestId('summary-discount').textContent).toBe('$5.25');
    expect(screen.getByTestId('receipts-totals-rule').textContent).toBe('Totals leave out void receipts.');
    expect(screen.getByTestId('payment-totals-rule').textContent).toBe('Totals leave out void receipts.');
    expect(screen.getByTestId('page-indicator').textContent).toBe('Page 1 of 3');
  });

  it("writes money with the outlet's currency symbol: RM for an outlet in ringgit", async () => {
    answers.outlets = [{ ...KOPI, currency: 'MYR' }, SHOES];
    await renderLoaded();
    expect(cellText(0, 'total_amount')).toBe('RM1,234.50');
    expect(cellText(1, 'total_amount')).toBe('-RM20.00');
    expect(screen.getByTestId('summary-sum').textContent).toBe('RM12,345.68');
    expect(screen.getByTestId('summary-discount').textContent).toBe('RM5.25');
  });

  it('says so when no receipt matches, with totals of 0', async () => {
    answers.transactions = () => ({ data: [], summary: [{ total: 0, void_count: 0, sum: 0, discount: 0 }] });
    renderPage();
    await waitForListCall(1);
    expect(screen.getByTestId('receipts-empty').textContent).toBe('No receipts match the filters.');
    expect(screen.getByTestId('summary-total').textContent).toBe('0');
    expect(screen.queryByTestId('summary-void')).toBeNull();
    expect(screen.getByTestId('summary-sum').textContent).toBe('$0.00');
    expect(screen.getByTestId('page-indicator').textContent).toBe('Page 1 of 1');
    expect(screen.getByTestId('page-next').hasAttribute('disabled')).toBe(true);
  });
});

describe('sorting and paging', () => {
  it('sorts by a column on the server: a new column descending first, the same column again ascending', async () => {
    await renderLoaded();
    expect(sortOf('datetime')).toBe('descending');

    fireEvent.click(sortHeader('total_amount'));
    let query = await waitForListCall(2);
    expect([query.get('sortColumn'), query.get('orderByMethod'), query.get('page')]).toEqual([
      'total_amount',
      'desc',
      '1',
    ]);
    expect(sortOf('total_amount')).toBe('descending');
    expect(sortOf('datetime')).toBe('none');

    fireEvent.click(sortHeader('total_amount'));
    query = await waitForListCall(3);
    expect([query.get('sortColumn'), query.get('orderByMethod')]).toEqual(['total_amount', 'asc']);
    expect(sortOf('total_amount')).toBe('ascending');

    fireEvent.click(sortHeader('receipt_id'));
    query = await waitForListCall(4);
    expect([query.get('sortColumn'), query.get('orderByMethod')]).toEqual(['receipt_id', 'desc']);
  });

  it('draws the rows of the new answer after sorting', async () => {
    await renderLoaded();
    answers.transactions = (call) => ({
      data:
        call.query.get('sortColumn') === 'total_amount'
          ? [...ROWS].sort((a, b) => b.total_amount - a.total_amount)
          : ROWS,
      summary: [SUMMARY],
    });
    fireEvent.click(sortHeader('total_amount'));
    await waitForListCall(2);
    await waitFor(() => expect(cellText(0, 'total_amount')).toBe('$1,234.50'));
    await waitFor(() => expect(cellText(3, 'total_amount')).toBe('-$20.00'));
  });

  it('pages forward and back, and not past the last page', async () => {
    await renderLoaded();
    expect(screen.getByTestId('page-prev').hasAttribute('disabled')).toBe(true);
    await goToPage2();
    fireEvent.click(screen.getByTestId('page-next'));
    let query = await waitForListCall(3);
    expect(query.get('page')).toBe('3');
    expect(screen.getByTestId('page-next').hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByTestId('page-prev'));
    query = await waitForListCall(4);
    expect(query.get('page')).toBe('2');
    // Sorting goes back to page 1.
    fireEvent.click(sortHeader('payment_method'));
    query = await waitForListCall(5);
    expect([query.get('sortColumn'), query.get('page')]).toEqual(['payment_method', '1']);
  });

  it('changes the page size, back on page 1', async () => {
    await renderLoaded();
    await goToPage2();
    fireEvent.change(screen.getByTestId('rows-per-page'), { target: { value: '20' } });
    const query = await waitForListCall(3);
    expect([query.get('rowsPerPage'), query.get('page')]).toEqual(['20', '1']);
    expect(screen.getByTestId('page-indicator').textContent).toBe('Page 1 of 2');
  });
});

describe('the filters', () => {
  it('offers only the receipt types the server reports', async () => {
    answers.typeOptions = ['void', 'redeem'];
    renderPage();
    await waitForListCall(1);
    const select = screen.getByTestId('receipt-type-select') as HTMLSelectElement;
    await waitFor(() =>
      expect([...select.options].map((option) => option.text)).toEqual(['Receipt type', 'All', 'Void', 'Redeemed']),
    );
    expect([...select.options].map((option) => option.value)).toEqual([
      '',
      'allReceipts',
      'voidReceipts',
      'redeemReceipts',
    ]);
  });

  it('a receipt type goes back to page 1', async () => {
    await renderLoaded();
    await goToPage2();
    fireEvent.change(screen.getByTestId('receipt-type-select'), { target: { value: 'voidReceipts' } });
    const query = await waitForListCall(3);
    expect([query.get('receiptType'), query.get('page')]).toEqual(['voidReceipts', '1']);
    expect(query.get('sortColumn')).toBe('datetime');
  });

  it('a FOC reason goes back to page 1', async () => {
    await renderLoaded();
    await goToPage2();
    const select = screen.getByTestId('foc-reason-select') as HTMLSelectElement;
    expect([...select.options].map((option) => option.text)).toEqual(['FOC reason', 'Birthday', 'Staff meal']);
    fireEvent.change(select, { target: { value: 'Staff meal' } });
    const query = await waitForListCall(3);
    expect([query.get('focReason'), query.get('page')]).toEqual(['Staff meal', '1']);
  });

  it("the payment methods (§4): 'all' ticks every method and sends none, unticking one drops 'all', unticking 'all' clears", async () => {
    await renderLoaded();
    await goToPage2();
    const button = screen.getByTestId('payment-method-button');
    expect(button.textContent).toBe('Payment method');
    fireEvent.click(button);
    const menu = await screen.findByTestId('payment-method-menu');
    const box = (method: string) => within(menu).getByTestId(`payment-method-${method}`) as HTMLInputElement;
    expect(
      within(menu)
        .getAllByRole('checkbox')
        .map((input) => input.closest('label')?.textContent),
    ).toEqual(['All', 'CASH', 'VISA']);

    // Choosing 'all' selects every method; the list asks for every method (no paymentMethod), on page 1.
    fireEvent.click(box('all'));
    let query = await waitForListCall(3);
    expect([box('all').checked, box('CASH').checked, box('VISA').checked]).toEqual([true, true, true]);
    expect(query.getAll('paymentMethod')).toEqual([]);
    expect(query.get('page')).toBe('1');
    expect(button.textContent).toBe('All payment methods');

    // Unticking one while all was selected drops 'all': only the rest is asked for.
    fireEvent.click(box('VISA'));
    query = await waitForListCall(4);
    expect([box('all').checked, box('CASH').checked, box('VISA').checked]).toEqual([false, true, false]);
    expect(query.getAll('paymentMethod')).toEqual(['CASH']);
    expect(button.textContent).toBe('CASH');

    // Ticking it again asks for both (and does not tick 'all' by itself).
    fireEvent.click(box('VISA'));
    query = await waitForListCall(5);
    expect(query.getAll('paymentMethod')).toEqual(['CASH', 'VISA']);
    expect(box('all').checked).toBe(false);

    // Choosing 'all' then unticking it clears every method.
    fireEvent.click(box('all'));
    await waitForListCall(6);
    fireEvent.click(box('all'));
    query = await waitForListCall(7);
    expect([box('all').checked, box('CASH').checked, box('VISA').checked]).toEqual([false, false, false]);
    expect(query.getAll('paymentMethod')).toEqual([]);
    expect(button.textContent).toBe('Payment method');
  });

  it('a payment method change from page 2 goes back to page 1', async () => {
    await renderLoaded();
    await goToPage2();
    fireEvent.click(screen.getByTestId('payment-method-button'));
    const menu = await screen.findByTestId('payment-method-menu');
    fireEvent.click(within(menu).getByTestId('payment-method-VISA'));
    const query = await waitForListCall(3);
    expect(query.getAll('paymentMethod')).toEqual(['VISA']);
    expect(query.get('page')).toBe('1');
  });

  it('the payment summary and breakdown follow the payment methods of the list, and the page says how sums count', async () => {
    await renderLoaded();
    expect(callsTo('/outlets/getPaymentAndSum').at(-1)?.query.getAll('paymentMethod')).toEqual([]);
    fireEvent.click(screen.getByTestId('payment-method-button'));
    const menu = await screen.findByTestId('payment-method-menu');
    fireEvent.click(within(menu).getByTestId('payment-method-VISA'));
    await waitFor(() => expect(callsTo('/outlets/getPaymentAndSum')).toHaveLength(2));
    for (const path of ['/outlets/getPaymentAndSum', '/outlets/paymentMethodBreakdown']) {
      await waitFor(() => expect(callsTo(path).at(-1)?.query.getAll('paymentMethod')).toEqual(['VISA']));
    }
    const rule = 'Totals leave out void receipts. Sums count only what was paid with the chosen payment methods.';
    expect(screen.getByTestId('receipts-totals-rule').textContent).toBe(rule);
    expect(screen.getByTestId('payment-totals-rule').textContent).toBe(rule);
  });

  it('the receipt id search goes back to page 1', async () => {
    await renderLoaded();
    await goToPage2();
    fireEvent.change(screen.getByTestId('receipt-id-search'), { target: { value: '  R-CLO ' } });
    expect(callsTo('/outlets/transaction')).toHaveLength(2);
    fireEvent.click(screen.getByTestId('receipt-id-search-button'));
    const query = await waitForListCall(3);
    expect([query.get('receiptId'), query.get('page')]).toEqual(['R-CLO', '1']);
  });
});

describe('the payments', () => {
  it('lists the payment summary with the processing fee and the net amount, and their totals', async () => {
    await renderLoaded();
    const table = screen.getByTestId('payment-summary');
    expect(bodyRows(table, 'thead')).toEqual([['Payment Method', 'Sum', 'Processing Fees', 'Net Amount']]);
    expect(bodyRows(table)).toEqual([
      ['VISA', '$1,000.00', '2.50%', '$975.00'],
      ['CASH', '$234.50', '0.00%', '$234.50'],
    ]);
    expect(bodyRows(table, 'tfoot')).toEqual([['Total', '$1,234.50', '', '$1,209.50']]);
  });

  it("says 'No Data' in the summary when there were no payments", async () => {
    answers.payments = [];
    answers.breakdown = [];
    await renderLoaded();
    expect(bodyRows(screen.getByTestId('payment-summary'))).toEqual([['No Data']]);
  });

  it('draws the breakdown per method by day, labelled DD/MM', async () => {
    await renderLoaded();
    const chart = chartIn('payment-breakdown-chart');
    expect(chart.xAxis[0]?.categories).toEqual(['14/03', '15/03']);
    expect(chart.series.map((series) => series.name)).toEqual(['VISA']);
    expect(chart.series[0]?.points.map((point) => point.y)).toEqual([600, 400]);
    expect(screen.getByTestId('payment-breakdown-chart').textContent).not.toContain('No Data');
  });

  it("says 'No Data' in the breakdown chart when it is empty", async () => {
    answers.breakdown = [];
    await renderLoaded();
    await waitFor(() => expect(screen.getByTestId('payment-breakdown-chart').textContent).toContain('No Data'));
    expect(chartIn('payment-breakdown-chart').series).toHaveLength(0);
  });

  it("says 'No Data' in the breakdown chart when every day is 0", async () => {
    answers.breakdown = [{ payment_method: 'VISA', sum: 0, data: [{ key: '2024/03/14', value: 0 }] }];
    await renderLoaded();
    await waitFor(() => expect(screen.getByTestId('payment-breakdown-chart').textContent).toContain('No Data'));
  });
});

describe('the receipt image', () => {
  it("opens the receipt's image in a dialog (fetched by its id as aimbox_id) and closes it", async () => {
    await renderLoaded();
    const image = deferred<{ imageBuf: string }>();
    answers.image = () => image.promise;
    fireEvent.click(within(mainQuadrant()).getByTestId('receipt-link-R-CLOSED'));

    const dialog = await screen.findByTestId('receipt-image-dialog');
    expect(within(dialog).getByLabelText('Loading receipt image')).toBeDefined();
    expect(screen.getByText('Receipt R-CLOSED')).toBeDefined();
    await waitFor(() => expect(callsTo('/api/tenant/receiptImage')).toHaveLength(1));
    expect(Object.fromEntries(callsTo('/api/tenant/receiptImage')[0]?.query ?? [])).toEqual({
      client_id: '3',
      id: '12',
      aimbox_id: 'R-CLOSED',
    });

    await act(async () => image.resolve({ imageBuf: 'iVBORw0KGgo=' }));
    const img = await screen.findByTestId('receipt-image');
    expect(img.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(img.getAttribute('alt')).toBe('Receipt R-CLOSED');
    expect(within(screen.getByTestId('receipt-image-dialog')).queryByLabelText('Loading receipt image')).toBeNull();

    const footer = document.querySelector<HTMLElement>(`.${Classes.DIALOG_FOOTER}`);
    if (!footer) throw new Error('the dialog has no footer');
    fireEvent.click(within(footer).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('receipt-image')).toBeNull());
    expect(screen.queryByText('Receipt R-CLOSED')).toBeNull();

    // Opened again, it asks again.
    answers.image = () => ({ imageBuf: 'AAAA' });
    fireEvent.click(within(mainQuadrant()).getByTestId('receipt-link-R-OPEN'));
    expect((await screen.findByTestId('receipt-image')).getAttribute('src')).toBe('data:image/png;base64,AAAA');
    expect(callsTo('/api/tenant/receiptImage').map((call) => call.query.get('aimbox_id'))).toEqual([
      'R-CLOSED',
      'R-OPEN',
    ]);
  });

  it('asks for a bare-timestamp receipt by its real id', async () => {
    await renderLoaded();
    fireEvent.click(within(mainQuadrant()).getByTestId('receipt-link-1710400000'));
    await screen.findByTestId('receipt-image');
    expect(callsTo('/api/tenant/receiptImage')[0]?.query.get('aimbox_id')).toBe('1710400000');
    expect(screen.getByTestId('receipt-image').getAttribute('alt')).toBe('Receipt no receipt id');
  });
});

describe('while loading', () => {
  it('shows the table busy with skeleton cells, disables paging and the header filters, until the answer', async () => {
    const harness = await renderLoaded();
    const pending = deferred<{ data: ReceiptRow[]; summary: ReceiptSummary[] }>();
    answers.transactions = () => pending.promise;
    fireEvent.click(sortHeader('total_amount'));
    await waitFor(() => expect(callsTo('/outlets/transaction')).toHaveLength(2));

    const table = screen.getByTestId('receipts-table');
    expect(table.getAttribute('aria-busy')).toBe('true');
    await waitFor(() => expect(table.querySelectorAll(`td .${Classes.SKELETON}`).length).toBeGreaterThan(0));
    expect(screen.getByTestId('page-next').hasAttribute('disabled')).toBe(true);
    expect(screen.queryByTestId('receipts-empty')).toBeNull();
    // §4: while a fetch is pending the header's filters are disabled.
    expect(harness.header().getSnapshot().hasTag('disabled')).toBe(true);

    await act(async () =>
      pending.resolve({ data: ROWS.slice(0, 1), summary: [{ total: 1, void_count: 0, sum: 1234.5, discount: 0 }] }),
    );
    await waitFor(() => expect(table.getAttribute('aria-busy')).toBe('false'));
    await waitForCells(1, 12);
    expect(table.querySelectorAll(`td .${Classes.SKELETON}`)).toHaveLength(0);
    expect(cellText(0, 'receipt_id')).toBe('R-OPEN');
    expect(screen.getByTestId('summary-total').textContent).toBe('1');
    expect(harness.header().getSnapshot().hasTag('disabled')).toBe(false);
  });

  it('shows the skeleton on the first load too', async () => {
    const pending = deferred<{ data: ReceiptRow[]; summary: ReceiptSummary[] }>();
    answers.transactions = () => pending.promise;
    renderPage();
    await waitFor(() => expect(callsTo('/outlets/transaction')).toHaveLength(1));
    expect(screen.getByTestId('receipts-table').getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByTestId('receipts-empty')).toBeNull();
    await act(async () => pending.resolve({ data: ROWS, summary: [SUMMARY] }));
    await waitForCells(ROWS.length, 12);
  });
});

describe('the PDF', () => {
  /** A PDF answer that streams: its chunks are sent by the test; no Content-Length, as the server streams. */
  function streamedPdf(count: number) {
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c;
      },
    });
    answers.pdf = () =>
      new Response(body, { headers: { 'Content-Type': 'application/pdf', 'X-Receipt-Count': String(count) } });
    return {
      send: (bytes: number) => controller?.enqueue(new Uint8Array(bytes)),
      end: () => controller?.close(),
    };
  }

  /** The files the page saved (the hidden link's download name). */
  function savedFiles(): string[] {
    const saved: string[] = [];
    Object.assign(URL, { createObjectURL: () => 'blob:receipts', revokeObjectURL: () => undefined });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    return saved;
  }

  it('states the cap beside the button, and when the filters select more, that only the first 10,000 go in', async () => {
    await renderLoaded();
    expect(screen.getByTestId('pdf-cap').textContent).toBe(
      'The PDF holds every receipt the filters select, up to 10,000.',
    );
    expect(screen.queryByTestId('pdf-over-cap')).toBeNull();

    answers.transactions = () => ({ data: ROWS, summary: [{ ...SUMMARY, total: 12_345 }] });
    fireEvent.click(screen.getByTestId('page-next'));
    await waitForListCall(2);
    expect((await screen.findByTestId('pdf-over-cap')).textContent).toBe(
      'Only the first 10,000 of 12,345 receipts go into the PDF.',
    );
  });

  it('asks for every receipt of the filters without paging, shows an animated bar with what has arrived, and saves the file', async () => {
    const saved = savedFiles();
    await renderLoaded();
    await goToPage2();
    const stream = streamedPdf(2_345);
    fireEvent.click(screen.getByTestId('generate-pdf'));
    await waitFor(() => expect(callsTo('/outlets/transaction/generatepdf')).toHaveLength(1));
    expect(Object.fromEntries(callsTo('/outlets/transaction/generatepdf')[0]?.query ?? [])).toEqual({
      client_id: '3',
      id: '12',
      startTime: '2024-03-09',
      endTime: '2024-03-15',
      timeType: 'date',
      outletType: '1',
      sortColumn: 'datetime',
      orderByMethod: 'desc',
    });
    await waitFor(() =>
      expect(screen.getByTestId('pdf-progress-text').textContent).toBe('Generating the PDF of 2,345 receipts…'),
    );
    act(() => stream.send(1_200_000));
    await waitFor(() =>
      expect(screen.getByTestId('pdf-progress-text').textContent).toBe(
        'Generating the PDF of 2,345 receipts… 1.2 MB received',
      ),
    );
    // Indeterminate: no value, animated stripes.
    const bar = screen.getByTestId('pdf-progress').querySelector<HTMLElement>(`.${Classes.PROGRESS_BAR}`);
    expect(bar?.getAttribute('aria-valuenow')).toBeNull();
    expect(bar?.classList.contains(Classes.PROGRESS_NO_STRIPES)).toBe(false);
    expect(screen.getByTestId('generate-pdf').hasAttribute('disabled')).toBe(true);

    act(() => stream.end());
    await waitFor(() => expect(screen.queryByTestId('pdf-progress')).toBeNull());
    expect(saved).toEqual(['receipts_2024-03-09_2024-03-15.pdf']);
    expect(screen.getByTestId('generate-pdf').hasAttribute('disabled')).toBe(false);
  });

  it('shows a determinate bar when the answer says its size', async () => {
    savedFiles();
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c;
      },
    });
    answers.pdf = () =>
      new Response(body, {
        headers: { 'Content-Type': 'application/pdf', 'Content-Length': '2000000', 'X-Receipt-Count': '25' },
      });
    await renderLoaded();
    fireEvent.click(screen.getByTestId('generate-pdf'));
    act(() => controller?.enqueue(new Uint8Array(500_000)));
    await waitFor(() =>
      expect(screen.getByTestId('pdf-progress-text').textContent).toBe(
        'Generating the PDF of 25 receipts… 500 KB of 2.0 MB (25%)',
      ),
    );
    const bar = screen.getByTestId('pdf-progress').querySelector<HTMLElement>(`.${Classes.PROGRESS_BAR}`);
    expect(bar?.getAttribute('aria-valuenow')).toBe('25');
    act(() => {
      controller?.enqueue(new Uint8Array(1_500_000));
      controller?.close();
    });
    await waitFor(() => expect(screen.queryByTestId('pdf-progress')).toBeNull());
  });
});

describe('text from devices (issue 29)', () => {
  const LINK = '<a href=//x.invalid/p>PAYLINK</a>';
  const ITALIC = '<i>PAY</i>';

  it('shows payment methods in the breakdown legend as text: no link, no italics', async () => {
    answers.breakdown = [LINK, ITALIC].map((payment_method) => ({
      payment_method,
      sum: 10,
      data: [{ key: '2024/03/14', value: 10 }],
    }));
    await renderLoaded();
    const svg = () => screen.getByTestId('payment-breakdown-chart').querySelector('svg.highcharts-root');
    await waitFor(() => expect(svg()?.querySelectorAll('.highcharts-legend-item')).toHaveLength(2));
    expect(svg()?.querySelectorAll('a, i, [style*="italic"]')).toHaveLength(0);
    expect(
      [...(svg()?.querySelectorAll('.highcharts-legend-item text') ?? [])].map((text) => text.textContent),
    ).toEqual([LINK, ITALIC]);
  });

  it('exports the CSV with a UTF-8 BOM, formulas a device sent as text and amounts as numbers', async () => {
    // The saved file's blob (the page clicks a hidden link to its object URL).
    const blobs: Blob[] = [];
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        blobs.push(blob);
        return 'blob:receipts';
      },
      revokeObjectURL: () => undefined,
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    answers.transactions = () => ({
      data: [
        receipt({
          receipt_id: '@SUM(A1)',
          payment_method: '=HYPERLINK("http://x.invalid","r1")',
          total_amount: -12.5,
          name_reason: '=1+1',
          table: '+1',
          delivery_info: '-1+2',
        }),
        ...ROWS.slice(1),
      ],
      summary: [{ ...SUMMARY, total: ROWS.length }],
    });
    await renderLoaded();
    fireEvent.click(screen.getByTestId('export-csv'));
    await waitFor(() => expect(blobs).toHaveLength(1));
    const bytes = new Uint8Array(await (blobs[0] as Blob).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes).split('\r\n')[1]).toBe(
      `2024-03-14 12:00:05,"'@SUM(A1)",Closed,"'=HYPERLINK(""http://x.invalid"",""r1"")",-12.5,0,"'=1+1","'+1",,"'-1+2",Closed`,
    );
  });
});
