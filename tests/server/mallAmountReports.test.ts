import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { ingestReceipts } from '../../server/repositories/ingestion.js';
import { PASSWORD, receiptInput as receipt, seedWorld, WORLD } from './fixtures.js';
import { type Agent, createTestApp, createTestDatabase, signInAgents, type TestDatabase } from './helpers.js';

/*
 * GET /api/mall_report/refund and /api/mall_report/voucher on a hand-built week, Monday 9 to Sunday 15 March 2026,
 * against the week before. Central Mall (Asia/Singapore, SGD): Cafe Uno and Boutique Duo; Harbour Mall
 * (America/New_York, USD, converted to Zenith's SGD at 1.35 in March 2026; February has no rate). Local times:
 *
 *   cafe      Mon 09 10:00  100.00  refund 20.00  voucher 10.00
 *             Tue 10 11:00   50.00                voucher 25.00
 *             Tue 10 12:00   80.00  refund 80.00  voucher 80.00   VOID: counts nowhere
 *             Mon 02 10:00   40.00  refund  5.00                  (the week before)
 *   boutique  Wed 11 11:00  200.00  refund 50.00
 *   kiosk     Mon 09 10:00  USD 60.00  refund 6.00  voucher 12.00 (= SGD 81.00, 8.10, 16.20)
 *             Wed 25 Feb 10:00  USD 30.00                       (a February sale without a rate)
 *   apex shop (other client) Mon 09: refund 999.00
 *
 * Central's week: refunds 70.00 in 2 receipts of GMV 350.00 in 3; the week before 5.00 in 1 of 40.00 in 1.
 * Vouchers 35.00 in 2 (all Cafe Uno), none the week before.
 */

let db: TestDatabase;
let app: FastifyInstance;
let agents: Record<'operator' | 'tenant' | 'otherClient', Agent>;
const { cafe, boutique, kiosk, apexShop } = WORLD.outlets;
const { central, harbour } = WORLD.malls;
const WEEK = { start_time: '2026-03-09', end_time: '2026-03-15' };

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await db.pool.query(
    `INSERT INTO exchange_rates (client_id, month, currency, rate) VALUES (1, '2026-03-01', 'USD', 1.35)`,
  );
  await db.pool.query(
    `INSERT INTO role_api_permissions (role_id, permission) VALUES
       (2, '/api/mall_report/refund::Read'), (2, '/api/mall_report/voucher::Read')`,
  );
  await inTransaction(db.pool, async (client) => {
    await ingestReceipts(client, 1, [
      receipt(cafe, '2026-03-09T02:00:00Z', 100, [['VISA', 100]], { refundAmount: 20, voucherAmount: 10 }),
      receipt(cafe, '2026-03-10T03:00:00Z', 50, [['VOUCHER', 50]], { voucherAmount: 25 }),
      receipt(cafe, '2026-03-10T04:00:00Z', 80, [['VISA', 80]], { refundAmount: 80, voucherAmount: 80, void: true }),
      receipt(cafe, '2026-03-02T02:00:00Z', 40, [['CASH', 40]], { refundAmount: 5 }),
      receipt(boutique, '2026-03-11T03:00:00Z', 200, [['MASTER', 200]], { refundAmount: 50 }),
      receipt(kiosk, '2026-03-09T14:00:00Z', 60, [['VISA', 60]], { refundAmount: 6, voucherAmount: 12 }),
      receipt(kiosk, '2026-02-25T15:00:00Z', 30, [['CASH', 30]]),
    ]);
    await ingestReceipts(client, 2, [
      receipt(apexShop, '2026-03-09T03:00:00Z', 5000, [['VISA', 5000]], { refundAmount: 999 }),
    ]);
  });
  app = await createTestApp(db.pool);
  agents = await signInAgents(
    app,
    { operator: WORLD.users.operator1, tenant: WORLD.users.tenant, otherClient: WORLD.users.operator2 },
    PASSWORD,
  );
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

function ask(kind: 'refund' | 'voucher', params: Record<string, string | number | number[]>, agent = agents.operator) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries({ client_id: 1, mall_ids: [central], ...WEEK, ...params })) {
    for (const item of Array.isArray(value) ? value : [value]) query.append(key, String(item));
  }
  return agent.get(`/api/mall_report/${kind}?${query}`);
}

async function report(
  kind: 'refund' | 'voucher',
  params: Record<string, string | number | number[]> = {},
  agent?: Agent,
) {
  const response = await ask(kind, params, agent);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const days = (figures: [number, number][]) =>
  figures.map(([amount, count], i) => ({ date: `2026-03-${String(9 + i).padStart(2, '0')}`, amount, count }));

describe('refunds', () => {
  it('answers the week against the week before, by day and by outlet', async () => {
    expect(await report('refund')).toEqual({
      current: { amount: 70, count: 2, gmv: 350, transactions: 3 },
      previous: { amount: 5, count: 1, gmv: 40, transactions: 1 },
      previous_start_time: '2026-03-02',
      previous_end_time: '2026-03-08',
      comparison: { compare: 'previous', aligned: [], like_for_like: null, has_data: true },
      daily: days([
        [20, 1],
        [0, 0],
        [50, 1],
        [0, 0],
        [0, 0],
        [0, 0],
        [0, 0],
      ]),
      outlets: [
        {
          outlet_id: boutique,
          outlet_name: 'Boutique Duo',
          mall_id: central,
          mall_name: 'Central Mall',
          amount: 50,
          count: 1,
          gmv: 200,
          transactions: 1,
        },
        {
          outlet_id: cafe,
          outlet_name: 'Cafe Uno',
          mall_id: central,
          mall_name: 'Central Mall',
          amount: 20,
          count: 1,
          gmv: 150,
          transactions: 2,
        },
      ],
    });
  });

  it("converts another currency at its month's rate, and refuses a period whose month has none", async () => {
    const both = await report('refund', { mall_ids: [central, harbour] });
    expect(both.current).toEqual({ amount: 78.1, count: 3, gmv: 431, transactions: 4 });
    expect(both.outlets.map((row: { outlet_id: number; amount: number }) => [row.outlet_id, row.amount])).toEqual([
      [boutique, 50],
      [cafe, 20],
      [kiosk, 8.1],
    ]);
    // The week before 2–8 March reaches back to 23 February, when the kiosk sold without a rate.
    const february = await ask('refund', {
      mall_ids: [central, harbour],
      start_time: '2026-03-02',
      end_time: '2026-03-08',
    });
    expect(february.statusCode).toBe(409);
    expect(february.json().by_currency).toEqual(expect.arrayContaining([expect.objectContaining({ currency: 'USD' })]));
  });

  it("counts only the outlets the caller sees, and refuses another client's malls", async () => {
    const tenant = await report('refund', {}, agents.tenant);
    expect(tenant.current).toEqual({ amount: 50, count: 1, gmv: 200, transactions: 1 });
    expect(tenant.outlets.map((row: { outlet_id: number }) => row.outlet_id)).toEqual([boutique]);
    expect((await ask('refund', {}, agents.otherClient)).statusCode).toBe(403);
    expect((await ask('refund', { start_time: '2026-03-16' })).statusCode).toBe(400);
  });
});

describe('a whole month, a day, a month with a day before it', () => {
  // A whole month or a single day is one rollup row an outlet, taken as it is; a month with a day before it is the
  // month's row and that day's row summed. All three answer the outlets alike.
  const outletsOf = async (params: Record<string, string | number | number[]>) =>
    (await report('refund', params)).outlets.map(
      (row: { outlet_id: number; amount: number; count: number; gmv: number; transactions: number }) => [
        row.outlet_id,
        row.amount,
        row.count,
        row.gmv,
        row.transactions,
      ],
    );

  it('answers each outlet’s refunds, count, GMV and transactions, largest first', async () => {
    // March: cafe 20.00 (9th) and 5.00 (2nd) of 190.00 GMV in 3 receipts, the void left out; boutique 50.00 of 200.00.
    const march = [
      [boutique, 50, 1, 200, 1],
      [cafe, 25, 2, 190, 3],
    ];
    expect(await outletsOf({ start_time: '2026-03-01', end_time: '2026-03-31' })).toEqual(march);
    expect(await outletsOf({ start_time: '2026-02-28', end_time: '2026-03-31' })).toEqual(march);
    // Monday 9 March in both malls: the kiosk's USD 6.00 of 60.00 at 1.35.
    expect(await outletsOf({ start_time: '2026-03-09', end_time: '2026-03-09', mall_ids: [central, harbour] })).toEqual(
      [
        [cafe, 20, 1, 100, 1],
        [kiosk, 8.1, 1, 81, 1],
      ],
    );
  });
});

describe('voucher redemptions', () => {
  it('answers the amounts paid with vouchers and the receipts that redeemed one', async () => {
    const vouchers = await report('voucher');
    expect(vouchers.current).toEqual({ amount: 35, count: 2, gmv: 350, transactions: 3 });
    expect(vouchers.previous).toEqual({ amount: 0, count: 0, gmv: 40, transactions: 1 });
    expect(vouchers.daily.slice(0, 3)).toEqual(
      days([
        [10, 1],
        [25, 1],
        [0, 0],
      ]),
    );
    expect(
      vouchers.outlets.map((row: { outlet_id: number; amount: number; count: number }) => [
        row.outlet_id,
        row.amount,
        row.count,
      ]),
    ).toEqual([[cafe, 35, 2]]);
  });

  it('answers zeros and no outlets for a range without sales', async () => {
    const empty = await report('voucher', { start_time: '2025-01-06', end_time: '2025-01-07' });
    expect(empty).toMatchObject({
      current: { amount: 0, count: 0, gmv: 0, transactions: 0 },
      previous: { amount: 0, count: 0, gmv: 0, transactions: 0 },
      outlets: [],
    });
    expect(empty.daily).toHaveLength(2);
  });
});
