import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { listOperations, permissionFor } from '../../server/openapi.js';
import { renderReceiptPng } from '../../server/receipts/image.js';
import { createSignedToken } from '../../server/receipts/signedLink.js';
import { ingestReceipts, type ReceiptInput } from '../../server/repositories/ingestion.js';
import { pdfText } from '../support/pdfText.js';
import { grantOperatorPermissions, PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, signInAgents, type TestDatabase } from './helpers.js';

/*
 * A hand-built dataset on the fixture world. Cafe Uno (outlet 1, type 1) is in Central Mall (Asia/Singapore,
 * UTC+8); kiosk tres (outlet 3) in Harbour Mall (America/New_York, UTC-5 until 8 March 2026). The window is
 * 1–2 March 2026, local time. Every figure below is worked out by hand from these receipts.
 *
 *        receipt id   local time            total   disc  method  payments              flags
 *   R1   C-1001       2026-03-01 09:15:00    25.50     0  VISA    VISA 25.50            closed
 *   R2   C-1002       2026-03-01 12:30:00   100.00    10  MASTER  visa 60, MASTER 40    opened+closed, dine-out 13:45
 *   R3   C-1003       2026-03-01 20:00:00    40.00     0  CASH    CASH 40               opened, void
 *   R4   1772409600   2026-03-02 08:00:00     0.00     0  ''      (none)                closed, FOC 'Birthday'
 *   R5   C-1005       2026-03-02 23:59:59    12.34     0  NONE    NONE 12.34            opened (not closed), redeemed
 *   R6   C-1006       2026-03-02 18:00:00    55.00     5  CASH    cash 30, '' 25        closed, code 99
 *   R7   C-0999       2026-02-28 23:59:59   999.00     0  VISA    VISA 999              outside (a second early)
 *   R8   C-1008       2026-03-03 00:00:00   888.00     0  VISA    VISA 888              outside (the next day)
 * Boutique Duo (outlet 2, type 2): B-2001 2026-03-01 10:00 70.00 VISA. Kiosk (New York): K-3001 at 23:30 on
 * 1 March and K-3002 at 22:00 on 2 March, local. Apex Shop (client 2): A-4001.
 */
const SGT = (local: string) => new Date(`${local.replace(' ', 'T')}+08:00`);
const NYT = (local: string) => new Date(`${local.replace(' ', 'T')}-05:00`);
const LEGACY_TEXT = '\uFFFDCafe Uno\nTOTAL\t55.00\n\tThank you\uFFFD';

function receipt(
  outletId: number,
  receiptId: string,
  datetime: Date,
  total: number,
  method: string,
  payments: [string, number][],
  extra: Partial<ReceiptInput> = {},
): ReceiptInput {
  return {
    outletId,
    receiptId,
    datetime,
    dineOutTime: null,
    totalAmount: total,
    discount: 0,
    voucherAmount: 0,
    refundAmount: 0,
    paymentMethod: method,
    isMember: false,
    nameReason: null,
    tableNo: null,
    takeAway: false,
    deliveryInfo: null,
    openedBill: false,
    void: false,
    closedBill: true,
    focBill: false,
    focReason: null,
    redeemBill: false,
    receiptCode: null,
    rawReceipt: `Receipt: ${receiptId}\nTOTAL ${total.toFixed(2)}`,
    payments: payments.map(([m, amount]) => ({ method: m, amount })),
    items: [],
    ...extra,
  };
}

const CAFE = WORLD.outlets.cafe;
const CLIENT1: ReceiptInput[] = [
  receipt(CAFE, 'C-1001', SGT('2026-03-01 09:15:00'), 25.5, 'VISA', [['VISA', 25.5]]),
  receipt(
    CAFE,
    'C-1002',
    SGT('2026-03-01 12:30:00'),
    100,
    'MASTER',
    [
      ['visa', 60],
      ['MASTER', 40],
    ],
    {
      discount: 10,
      openedBill: true,
      nameReason: 'Staff',
      tableNo: 'T3',
      dineOutTime: SGT('2026-03-01 13:45:00'),
    },
  ),
  receipt(CAFE, 'C-1003', SGT('2026-03-01 20:00:00'), 40, 'CASH', [['CASH', 40]], {
    openedBill: true,
    void: true,
    closedBill: false,
  }),
  receipt(CAFE, '1772409600', SGT('2026-03-02 08:00:00'), 0, '', [], { focBill: true, focReason: 'Birthday' }),
  receipt(CAFE, 'C-1005', SGT('2026-03-02 23:59:59'), 12.34, 'NONE', [['NONE', 12.34]], {
    openedBill: true,
    closedBill: false,
    redeemBill: true,
  }),
  receipt(
    CAFE,
    'C-1006',
    SGT('2026-03-02 18:00:00'),
    55,
    'CASH',
    [
      ['cash', 30],
      ['', 25],
    ],
    {
      discount: 5,
      receiptCode: 99,
      rawReceipt: LEGACY_TEXT,
      takeAway: true,
    },
  ),
  receipt(CAFE, 'C-0999', SGT('2026-02-28 23:59:59'), 999, 'VISA', [['VISA', 999]]),
  receipt(CAFE, 'C-1008', SGT('2026-03-03 00:00:00'), 888, 'VISA', [['VISA', 888]]),
  receipt(WORLD.outlets.boutique, 'B-2001', SGT('2026-03-01 10:00:00'), 70, 'VISA', [['VISA', 70]]),
  receipt(WORLD.outlets.kiosk, 'K-3001', NYT('2026-03-01 23:30:00'), 11, 'VISA', [['VISA', 11]]),
  receipt(WORLD.outlets.kiosk, 'K-3002', NYT('2026-03-02 22:00:00'), 22, 'VISA', [['VISA', 22]]),
];
const CLIENT2: ReceiptInput[] = [
  receipt(WORLD.outlets.apexShop, 'A-4001', new Date('2026-03-01T03:00:00Z'), 5, 'VISA', [['VISA', 5]]),
];

const SECRET = 'test-download-secret';
let db: TestDatabase;
let app: FastifyInstance;
let agents: Record<'operator' | 'tenant' | 'partner' | 'otherClient', Agent>;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  const receiptPermissions = listOperations()
    .filter((operation) => operation.receipts)
    .map(permissionFor);
  await grantOperatorPermissions(db.pool, receiptPermissions);
  await db.pool.query(`INSERT INTO processing_fees (client_id, outlet_id, payment_method, processing_fees) VALUES
    (1, 1, 'VISA', 2.5), (1, 1, 'MASTER', 1.0)`);
  await inTransaction(db.pool, (client) => ingestReceipts(client, 1, CLIENT1));
  await inTransaction(db.pool, (client) => ingestReceipts(client, 2, CLIENT2));
  app = await createTestApp(db.pool, { env: { DOWNLOAD_SECRET: SECRET } });
  agents = await signInAgents(
    app,
    {
      operator: WORLD.users.operator1,
      tenant: WORLD.users.tenant,
      partner: WORLD.users.partner,
      otherClient: WORLD.users.operator2,
    },
    PASSWORD,
  );
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const WINDOW = { client_id: '1', id: String(CAFE), startTime: '2026-03-01', endTime: '2026-03-02' };
function url(path: string, params: Record<string, string | string[]>) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    for (const v of ([] as string[]).concat(value)) query.append(key, v);
  return `${path}?${query}`;
}
async function list(params: Record<string, string | string[]> = {}, agent: Agent = agents.operator) {
  const response = await agent.get(url('/outlets/transaction', { ...WINDOW, ...params }));
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    data: Record<string, unknown>[];
    summary: { total: number; sum: number; discount: number }[];
  };
}
const ids = (body: { data: Record<string, unknown>[] }) => body.data.map((row) => row.receipt_id);

describe('GET /outlets/transaction', () => {
  it('lists the window in the mall time zone, newest first, 10 rows a page, with the summary of every match', async () => {
    const body = await list();
    expect(ids(body)).toEqual(['C-1005', 'C-1006', '1772409600', 'C-1003', 'C-1002', 'C-1001']);
    // Void C-1003 (40) is counted in total and void_count, left out of the sums: 25.50 + 100 + 0 + 12.34 + 55 =
    // 192.84; discounts 10 + 5.
    expect(body.summary).toEqual([{ total: 6, void_count: 1, sum: 192.84, discount: 15 }]);
  });

  it('returns the row fields in local time, with the extra columns of an outlet of type 1', async () => {
    const row = (await list({ receiptId: 'C-1002' })).data[0];
    expect(row).toMatchObject({
      datetime: '2026-03-01 12:30:00',
      time: '12:30:00',
      dine_out_time: '13:45:00',
      receipt_id: 'C-1002',
      receipt_status: 'Closed',
      payment_method: 'MASTER',
      total_amount: 100,
      discount: 10,
      name_reason: 'Staff',
      table: 'T3',
      take_away: false,
      delivery_info: null,
      opened_bill: true,
      void: false,
      closed_bill: true,
      foc_bill: false,
      redeem_bill: false,
    });
    const typeTwo = (await list({ receiptId: 'C-1002', outletType: '2' })).data[0];
    expect(typeTwo).not.toHaveProperty('table');
    expect(typeTwo).not.toHaveProperty('name_reason');
    const boutique = await list({ id: String(WORLD.outlets.boutique) });
    expect(ids(boutique)).toEqual(['B-2001']);
    expect(boutique.data[0]).not.toHaveProperty('take_away');
  });

  it('pages', async () => {
    const page2 = await list({ rowsPerPage: '4', page: '2' });
    expect(ids(page2)).toEqual(['C-1002', 'C-1001']);
    expect(page2.summary[0]?.total).toBe(6);
    expect(ids(await list({ rowsPerPage: '4', page: '3' }))).toEqual([]);
  });

  // Expected ascending orders (ties by insertion order); descending is the exact reverse.
  const ASC: Record<string, string[]> = {
    datetime: ['C-1001', 'C-1002', 'C-1003', '1772409600', 'C-1006', 'C-1005'],
    total_amount: ['1772409600', 'C-1005', 'C-1001', 'C-1003', 'C-1006', 'C-1002'],
    receipt_id: ['1772409600', 'C-1001', 'C-1002', 'C-1003', 'C-1005', 'C-1006'],
    payment_method: ['C-1003', 'C-1006', 'C-1002', '1772409600', 'C-1005', 'C-1001'],
    receipt_status: ['C-1001', 'C-1002', '1772409600', 'C-1006', 'C-1005', 'C-1003'],
    opened_bill: ['C-1001', '1772409600', 'C-1006', 'C-1002', 'C-1003', 'C-1005'],
    void: ['C-1001', 'C-1002', '1772409600', 'C-1005', 'C-1006', 'C-1003'],
    closed_bill: ['C-1003', 'C-1005', 'C-1001', 'C-1002', '1772409600', 'C-1006'],
    foc_bill: ['C-1001', 'C-1002', 'C-1003', 'C-1005', 'C-1006', '1772409600'],
    redeem_bill: ['C-1001', 'C-1002', 'C-1003', '1772409600', 'C-1006', 'C-1005'],
    discount: ['C-1001', 'C-1003', '1772409600', 'C-1005', 'C-1006', 'C-1002'],
  };
  it.each(Object.entries(ASC))('sorts by %s both ways', async (column, expected) => {
    expect(ids(await list({ sortColumn: column, orderByMethod: 'asc' }))).toEqual(expected);
    expect(ids(await list({ sortColumn: column, orderByMethod: 'desc' }))).toEqual([...expected].reverse());
    // Page by page (the back half is read from the other end) gives the same order.
    const pages: unknown[] = [];
    for (let page = 1; page <= 7; page++) {
      pages.push(
        ...ids(await list({ sortColumn: column, orderByMethod: 'asc', rowsPerPage: '1', page: String(page) })),
      );
    }
    expect(pages).toEqual(expected);
    const byFour = [
      ...ids(await list({ sortColumn: column, orderByMethod: 'desc', rowsPerPage: '4' })),
      ...ids(await list({ sortColumn: column, orderByMethod: 'desc', rowsPerPage: '4', page: '2' })),
    ];
    expect(byFour).toEqual([...expected].reverse());
  });

  it.each([
    [{ startTime: '2026-02-30' }, /startTime/],
    [{ endTime: '2026-13-01' }, /endTime/],
    [{ startTime: '2026-03-02', endTime: '2026-03-01' }, /startTime must not be after endTime/],
    [{ timeType: 'datetime' }, /timeType is datetime/],
    [{ timeType: 'datetime', startTime: '2026-03-01 24:00:00', endTime: '2026-03-02 00:00:00' }, /startTime/],
  ])('refuses the window %j with a 400 naming the field', async (window, message) => {
    const response = await agents.operator.get(url('/outlets/transaction', { ...WINDOW, ...window }));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
  });

  it('refuses outlet ids that are not whole numbers from 1 with a 400 naming the field', async () => {
    const response = await agents.operator.get(url('/outlets/transaction', { ...WINDOW, id: `0,${CAFE}` }));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/\bid\b/);
  });

  it('refuses a sort column outside the whitelist with a 400 naming the field', async () => {
    const response = await agents.operator.get(
      url('/outlets/transaction', { ...WINDOW, sortColumn: 'raw_receipt; DROP TABLE receipts' }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/sortColumn/);
  });

  it.each([
    ['openReceipts', ['C-1005', 'C-1003', 'C-1002'], { total: 3, void_count: 1, sum: 112.34, discount: 10 }],
    ['voidReceipts', ['C-1003'], { total: 1, void_count: 1, sum: 0, discount: 0 }],
    ['focReceipts', ['1772409600'], { total: 1, void_count: 0, sum: 0, discount: 0 }],
    ['discountReceipts', ['C-1006', 'C-1002'], { total: 2, void_count: 0, sum: 155, discount: 15 }],
    ['redeemReceipts', ['C-1005'], { total: 1, void_count: 0, sum: 12.34, discount: 0 }],
    [
      'allReceipts',
      ['C-1005', 'C-1006', '1772409600', 'C-1003', 'C-1002', 'C-1001'],
      { total: 6, void_count: 1, sum: 192.84, discount: 15 },
    ],
  ])('filters receipt type %s', async (receiptType, expected, summary) => {
    const body = await list({ receiptType });
    expect(ids(body)).toEqual(expected);
    expect(body.summary).toEqual([summary]);
  });

  it('filters by FOC reason, payment methods (of any tender, normalised, all) and receipt id (case-insensitive, literal)', async () => {
    expect(ids(await list({ focReason: 'Birthday' }))).toEqual(['1772409600']);
    expect(ids(await list({ focReason: 'Other' }))).toEqual([]);
    // C-1002 paid 'visa' 60 (stored VISA) and MASTER 40: VISA finds it beside C-1001's 'VISA', however it is asked.
    expect(ids(await list({ paymentMethod: 'VISA' }))).toEqual(['C-1002', 'C-1001']);
    expect(ids(await list({ paymentMethod: ' visa ' }))).toEqual(['C-1002', 'C-1001']);
    expect(ids(await list({ paymentMethod: 'cash' }))).toEqual(['C-1006', 'C-1003']);
    // NONE, an empty tender and a receipt without tenders whose own method is empty.
    expect(ids(await list({ paymentMethod: 'OTHERS' }))).toEqual(['C-1005', 'C-1006', '1772409600']);
    expect(ids(await list({ paymentMethod: ['VISA', 'MASTER'] }))).toEqual(['C-1002', 'C-1001']);
    expect((await list({ paymentMethod: ['all', 'VISA'] })).summary[0]?.total).toBe(6);
    expect(ids(await list({ receiptId: 'c-100' }))).toEqual(['C-1005', 'C-1006', 'C-1003', 'C-1002', 'C-1001']);
    expect(ids(await list({ receiptId: '%' }))).toEqual([]);
  });

  it('takes a datetime window, both ends inclusive', async () => {
    const body = await list({ timeType: 'datetime', startTime: '2026-03-01 12:30:00', endTime: '2026-03-02 08:00:00' });
    expect(ids(body)).toEqual(['1772409600', 'C-1003', 'C-1002']);
  });

  it('says whether each receipt has an image (printed text) to open', async () => {
    const boutique = WORLD.outlets.boutique;
    await inTransaction(db.pool, (client) =>
      ingestReceipts(client, 1, [
        receipt(boutique, '20260401093000', SGT('2026-04-01 09:30:00'), 5, 'CASH', [['CASH', 5]], { rawReceipt: '' }),
      ]),
    );
    const april = await list({ id: String(boutique), startTime: '2026-04-01', endTime: '2026-04-01' });
    expect(april.data.map((row) => [row.receipt_id, row.has_image])).toEqual([['20260401093000', false]]);
    expect((await list()).data.every((row) => row.has_image === true)).toBe(true);
  });

  it("uses each outlet's own mall time zone", async () => {
    const body = await list({ id: String(WORLD.outlets.kiosk), startTime: '2026-03-02', endTime: '2026-03-02' });
    expect(ids(body)).toEqual(['K-3002']);
    expect(body.data[0]?.datetime).toBe('2026-03-02 22:00:00');
  });
});

describe('option lists', () => {
  it('reports only the receipt types that occur at the outlet', async () => {
    const cafe = await agents.operator.get(
      url('/outlets/transaction/receiptTypeOptions', { client_id: '1', id: String(CAFE) }),
    );
    expect(cafe.json()).toEqual({ typeOptions: ['opened_bill', 'void', 'foc_bill', 'discount', 'redeem'] });
    const boutique = await agents.operator.get(
      url('/outlets/transaction/receiptTypeOptions', { client_id: '1', id: '2' }),
    );
    expect(boutique.json()).toEqual({ typeOptions: [] });
  });

  it('lists FOC reasons and payment method names (upper-cased, empty and NONE as OTHERS)', async () => {
    const reasons = await agents.operator.get(
      url('/outlets/transaction/focReason', { client_id: '1', id: String(CAFE) }),
    );
    expect(reasons.json()).toEqual({ options: ['Birthday'] });
    const methods = await agents.operator.get(
      url('/outlets/paymentMethodNameOption', { client_id: '1', id: String(CAFE) }),
    );
    expect(methods.json()).toEqual({ options: ['CASH', 'MASTER', 'OTHERS', 'VISA'] });
  });
});

describe('payment summary and breakdown', () => {
  it('sums the rollup per method with fees and net amount, OTHERS folded, sorted by sum', async () => {
    const response = await agents.operator.get(url('/outlets/getPaymentAndSum', WINDOW));
    expect(response.statusCode).toBe(200);
    // Not void: VISA 25.50 + visa 60 = 85.50 (fee 2.5%: 85.50 - 2.1375 = 83.36); MASTER 40 (fee 1%: 39.60);
    // OTHERS: NONE 12.34 + '' 25 = 37.34; cash 30 (void CASH 40 left out; no fee).
    expect(response.json()).toEqual({
      data: [
        { payment_method: 'VISA', sum: 85.5, processing_fees: 2.5, net_amount: 83.36 },
        { payment_method: 'MASTER', sum: 40, processing_fees: 1, net_amount: 39.6 },
        { payment_method: 'OTHERS', sum: 37.34, processing_fees: 0, net_amount: 37.34 },
        { payment_method: 'CASH', sum: 30, processing_fees: 0, net_amount: 30 },
      ],
    });
  });

  it('keeps only the methods of the paymentMethod filter, compared normalised', async () => {
    const response = await agents.operator.get(
      url('/outlets/getPaymentAndSum', { ...WINDOW, paymentMethod: ['visa', 'none'] }),
    );
    expect(response.json()).toEqual({
      data: [
        { payment_method: 'VISA', sum: 85.5, processing_fees: 2.5, net_amount: 83.36 },
        { payment_method: 'OTHERS', sum: 37.34, processing_fees: 0, net_amount: 37.34 },
      ],
    });
    const breakdown = await agents.operator.get(
      url('/outlets/paymentMethodBreakdown', { ...WINDOW, paymentMethod: 'Cash' }),
    );
    expect(breakdown.json()).toEqual({
      data: [
        {
          payment_method: 'CASH',
          sum: 30,
          data: [
            { key: '2026/03/01', value: 0 },
            { key: '2026/03/02', value: 30 },
          ],
        },
      ],
    });
  });

  it('adds no OTHERS row when there is nothing to fold', async () => {
    const response = await agents.operator.get(url('/outlets/getPaymentAndSum', { ...WINDOW, id: '2' }));
    expect(response.json()).toEqual({
      data: [{ payment_method: 'VISA', sum: 70, processing_fees: 0, net_amount: 70 }],
    });
  });

  it('gives a daily series per method keyed YYYY/MM/DD', async () => {
    const response = await agents.operator.get(url('/outlets/paymentMethodBreakdown', WINDOW));
    expect(response.json()).toEqual({
      data: [
        {
          payment_method: 'VISA',
          sum: 85.5,
          data: [
            { key: '2026/03/01', value: 85.5 },
            { key: '2026/03/02', value: 0 },
          ],
        },
        {
          payment_method: 'MASTER',
          sum: 40,
          data: [
            { key: '2026/03/01', value: 40 },
            { key: '2026/03/02', value: 0 },
          ],
        },
        {
          payment_method: 'OTHERS',
          sum: 37.34,
          data: [
            { key: '2026/03/01', value: 0 },
            { key: '2026/03/02', value: 37.34 },
          ],
        },
        {
          payment_method: 'CASH',
          sum: 30,
          data: [
            { key: '2026/03/01', value: 0 },
            { key: '2026/03/02', value: 30 },
          ],
        },
      ],
    });
  });
});

/*
 * The receipts list's summary and the payment summary count the same money: totals leave out void receipts
 * (C-1003, CASH 40, is in the window) and both take the payment-method filter.
 */
describe('the list summary and the payment summary agree', () => {
  const FILTERS: [string, Record<string, string | string[]>, number][] = [
    ['no filter', {}, 192.84],
    ['all', { paymentMethod: ['all', 'CASH'] }, 192.84],
    // VISA 25.50 + visa 60 of C-1002 (whose total is 100: the rest was MASTER).
    ['VISA', { paymentMethod: 'VISA' }, 85.5],
    ['visa, as typed', { paymentMethod: 'visa' }, 85.5],
    // cash 30; the void CASH 40 is left out of both.
    ['CASH, with a void receipt', { paymentMethod: 'CASH' }, 30],
    ['OTHERS', { paymentMethod: 'OTHERS' }, 37.34],
    ['VISA and MASTER', { paymentMethod: ['VISA', 'MASTER'] }, 125.5],
    [
      'several outlets',
      { id: `${CAFE},${WORLD.outlets.boutique},${WORLD.outlets.kiosk}`, paymentMethod: 'VISA' },
      188.5,
    ],
  ];
  it.each(FILTERS)('%s', async (_, filters, expected) => {
    const summary = (await list(filters)).summary[0];
    const payments = await agents.operator.get(url('/outlets/getPaymentAndSum', { ...WINDOW, ...filters }));
    const breakdown = await agents.operator.get(url('/outlets/paymentMethodBreakdown', { ...WINDOW, ...filters }));
    const total = (rows: { sum: number }[]) => Math.round(rows.reduce((sum, row) => sum + row.sum, 0) * 100) / 100;
    expect(summary?.sum).toBe(expected);
    expect(total(payments.json().data)).toBe(expected);
    expect(total(breakdown.json().data)).toBe(expected);
  });

  it('counts void receipts apart: in the rows and void_count, not in the sums', async () => {
    const cash = (await list({ paymentMethod: 'CASH' })).summary[0];
    expect(cash).toEqual({ total: 2, void_count: 1, sum: 30, discount: 5 });
  });
});

describe('receipt image and PDF', () => {
  it('renders the receipt as a PNG from its text, cleaned for codes 99 and 100', async () => {
    const response = await agents.operator.get(
      url('/api/tenant/receiptImage', { client_id: '1', id: String(CAFE), aimbox_id: 'C-1006' }),
    );
    expect(response.statusCode).toBe(200);
    const png = Buffer.from((response.json() as { imageBuf: string }).imageBuf, 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.equals(renderReceiptPng('Cafe Uno\nTOTAL  55.00\n  Thank you'))).toBe(true);
    const missing = await agents.operator.get(
      url('/api/tenant/receiptImage', { client_id: '1', id: String(CAFE), aimbox_id: 'B-2001' }),
    );
    expect(missing.statusCode).toBe(404);
  });

  it('generates a PDF of the filtered receipts with their ids in it', async () => {
    const response = await agents.operator.get(
      url('/outlets/transaction/generatepdf', { ...WINDOW, receiptType: 'discountReceipts' }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(response.rawPayload);
    expect(text).toContain('Receipt C-1002');
    expect(text).toContain('Receipt C-1006');
    expect(text).not.toContain('C-1001');
    // the code-99 text is cleaned: tabs as two spaces, no replacement characters
    expect(text).toContain('TOTAL  55.00');
  });

  it("heads a bare-timestamp receipt 'no receipt id' in the PDF", async () => {
    const response = await agents.operator.get(
      url('/outlets/transaction/generatepdf', { ...WINDOW, receiptType: 'focReceipts' }),
    );
    const text = await pdfText(response.rawPayload);
    expect(text).toContain('Receipt no receipt id');
    expect(text).not.toContain('Receipt 1772409600');
  });

  it('serves the PDF through a signed link without a session, refusing forged and expired tokens', async () => {
    const minted = await agents.operator.get(url('/outlets/transaction/pdfLink', { ...WINDOW, receiptId: 'C-1001' }));
    expect(minted.statusCode).toBe(200);
    const link = (minted.json() as { url: string; expires_at: string }).url;
    expect(link).toMatch(/^\/download\/receipts\/pdf\?token=/);
    const anonymous = new Agent(app);
    const download = await anonymous.get(link);
    expect(download.statusCode).toBe(200);
    expect(await pdfText(download.rawPayload)).toContain('Receipt C-1001');

    const token = new URL(link, 'http://x').searchParams.get('token') ?? '';
    const [body, signature] = token.split('.') as [string, string];
    const forgedBody = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), f: { clientId: 2, outletIds: [4] } }),
    ).toString('base64url');
    const forged = await anonymous.get(`/download/receipts/pdf?token=${forgedBody}.${signature}`);
    expect(forged.statusCode).toBe(403);
    expect(forged.json().message).toBe('This download link is invalid.');
    const wrongSecret = createSignedToken(
      'another-secret',
      { f: { clientId: 1, outletIds: [1] } },
      new Date(Date.now() + 60_000),
    );
    expect((await anonymous.get(`/download/receipts/pdf?token=${wrongSecret}`)).statusCode).toBe(403);
    const expired = createSignedToken(
      SECRET,
      { f: { clientId: 1, outletIds: [1], startTime: '2026-03-01', endTime: '2026-03-02' } },
      new Date(Date.now() - 1000),
    );
    const expiredResponse = await anonymous.get(`/download/receipts/pdf?token=${expired}`);
    expect(expiredResponse.statusCode).toBe(403);
    expect(expiredResponse.json().message).toBe('This download link has expired.');
  });
});

describe('tenant receipt data', () => {
  it('pages the receipts with every tender and the count', async () => {
    const response = await agents.operator.get(
      url('/api/tenant/receiptData', {
        ...WINDOW,
        sortColumn: 'total_amount',
        orderByMethod: 'desc',
        rowsPerPage: '2',
      }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: [
        {
          id: expect.any(Number),
          receipt_id: 'C-1002',
          payment_method: ['VISA', 'MASTER'],
          receipt_status: 'Closed',
          total_amount: 100,
          datetime: '2026-03-01 12:30:00',
          has_image: true,
        },
        {
          id: expect.any(Number),
          receipt_id: 'C-1006',
          payment_method: ['CASH', 'OTHERS'],
          receipt_status: 'Closed',
          total_amount: 55,
          datetime: '2026-03-02 18:00:00',
          has_image: true,
        },
      ],
      summary: [{ total: 6 }],
    });
  });
});

describe('scope', () => {
  const receiptCalls = [
    '/outlets/transaction',
    '/outlets/transaction/generatepdf',
    '/outlets/transaction/pdfLink',
    '/outlets/getPaymentAndSum',
    '/outlets/paymentMethodBreakdown',
    '/outlets/paymentMethodNameOption',
    '/outlets/transaction/focReason',
    '/outlets/transaction/receiptTypeOptions',
    '/api/tenant/receiptData',
  ];
  it.each(receiptCalls)('%s: a tenant sees only its outlet', async (path) => {
    expect((await agents.tenant.get(url(path, WINDOW))).statusCode).toBe(403);
    expect((await agents.tenant.get(url(path, { ...WINDOW, id: '2' }))).statusCode).toBe(200);
    expect((await agents.tenant.get(url(path, { ...WINDOW, id: '1,2' }))).statusCode).toBe(403);
  });
  it.each(receiptCalls)('%s: the partner domain gets 403', async (path) => {
    const response = await agents.partner.get(url(path, WINDOW));
    expect(response.statusCode).toBe(403);
  });
  it.each(receiptCalls)("%s: another client's outlet is 403", async (path) => {
    expect((await agents.otherClient.get(url(path, WINDOW))).statusCode).toBe(403);
    expect((await agents.otherClient.get(url(path, { ...WINDOW, client_id: '2' }))).statusCode).toBe(403);
    expect((await agents.otherClient.get(url(path, { ...WINDOW, client_id: '2', id: '4' }))).statusCode).toBe(200);
  });
  it('the tenant list holds only its outlet', async () => {
    expect(ids(await list({ id: '2' }, agents.tenant))).toEqual(['B-2001']);
  });
  it("the image of another client's receipt is refused", async () => {
    const response = await agents.otherClient.get(
      url('/api/tenant/receiptImage', { client_id: '1', id: String(CAFE), aimbox_id: 'C-1001' }),
    );
    expect(response.statusCode).toBe(403);
  });
});
