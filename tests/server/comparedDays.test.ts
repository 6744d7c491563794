import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { figuresOverDays, likeForLikeOutlets } from '../../server/repositories/comparisons.js';
import { ingestReceipts } from '../../server/repositories/ingestion.js';
import { amountReport, type ReportScope } from '../../server/repositories/mallReports.js';
import { eachDay } from '../../src/domain/reports.js';
import { receiptInput as receipt, seedWorld, WORLD } from './fixtures.js';
import { createTestDatabase, type TestDatabase } from './helpers.js';

/*
 * A comparison whose malls read different days (a festival-aligned one over malls of two countries): each mall's
 * rows count on its own days only, whether every mall reads the same days (one day list) or not (mall, day pairs).
 * Counts, not amounts: Central Mall sells in SGD, Harbour Mall in USD.
 *
 *   cafe (Central)   2025-02-03 10:00 (1 sale), 2025-02-10 10:00 (2 sales, one a refund of 5.00)
 *   kiosk (Harbour)  2025-02-03 10:00 (4 sales),  2025-02-10 10:00 (8 sales)
 *
 * Like-for-like over 1-20 Mar and 1-20 Apr 2024 (a sale at noon UTC on each day listed):
 *   cafe      1 Feb, then every day of 1 Mar - 20 Apr
 *   boutique  every day of 1 Mar - 20 Apr but 5-11 Mar (7 days without a sale)
 *   kiosk     every day of 1 Mar - 20 Apr but 5-12 Apr (8 days)
 */

let db: TestDatabase;
const { cafe, boutique, kiosk } = WORLD.outlets;
const { central, harbour } = WORLD.malls;
const scope: ReportScope = {
  clientId: WORLD.clients.zenith,
  visibility: { clientIds: [WORLD.clients.zenith], outletLimits: new Map() },
  mallIds: [central, harbour],
};

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  const sales = (outletId: number, iso: string, count: number, refund = false) =>
    Array.from({ length: count }, (_, n) =>
      receipt(outletId, iso.replace(':00:00', `:0${n}:00`), 10, [['VISA', 10]], {
        receiptId: `R-${outletId}-${iso}-${n}`,
        refundAmount: refund && n === 0 ? 5 : 0,
      }),
    );
  await inTransaction(db.pool, async (client) => {
    await ingestReceipts(client, WORLD.clients.zenith, [
      ...sales(cafe, '2025-02-03T02:00:00Z', 1),
      ...sales(cafe, '2025-02-10T02:00:00Z', 2, true),
      ...sales(kiosk, '2025-02-03T15:00:00Z', 4),
      ...sales(kiosk, '2025-02-10T15:00:00Z', 8),
      receipt(cafe, '2024-02-01T04:00:00Z', 10, [['VISA', 10]]),
      ...eachDay('2024-03-01', '2024-04-20').flatMap((day) => [
        receipt(cafe, `${day}T04:00:00Z`, 10, [['VISA', 10]]),
        ...(day >= '2024-03-05' && day <= '2024-03-11'
          ? []
          : [receipt(boutique, `${day}T04:00:00Z`, 10, [['VISA', 10]])]),
        ...(day >= '2024-04-05' && day <= '2024-04-12' ? [] : [receipt(kiosk, `${day}T16:00:00Z`, 10, [['VISA', 10]])]),
      ]),
    ]);
  });
});
afterAll(async () => {
  await db?.drop();
});

const wholeDay = { startHour: 0, endHour: 23 };

describe('the days a comparison reads, mall by mall', () => {
  it('reads the same days of every mall as one day list', async () => {
    const figures = await figuresOverDays(db.pool, scope, wholeDay, [
      { mallId: central, days: ['2025-02-03'] },
      { mallId: harbour, days: ['2025-02-03'] },
    ]);
    expect(figures.transactions).toBe(1 + 4);
  });

  it("reads each mall on its own days when they differ, at the malls' level and the outlets'", async () => {
    const mallDays = [
      { mallId: central, days: ['2025-02-03'] },
      { mallId: harbour, days: ['2025-02-10'] },
    ];
    // Whole days of whole malls read the mall rollup; an hour filter reads the outlets' rows.
    expect((await figuresOverDays(db.pool, scope, wholeDay, mallDays)).transactions).toBe(1 + 8);
    expect((await figuresOverDays(db.pool, scope, { startHour: 0, endHour: 22 }, mallDays)).transactions).toBe(1 + 8);
    const crossed = [
      { mallId: central, days: ['2025-02-10'] },
      { mallId: harbour, days: ['2025-02-03'] },
    ];
    expect((await figuresOverDays(db.pool, scope, { startHour: 0, endHour: 22 }, crossed)).transactions).toBe(2 + 4);
  });

  it('compares the refunds of each mall with its own days', async () => {
    const range = { start: '2025-02-10', end: '2025-02-10' };
    const report = await amountReport(
      db.pool,
      scope,
      range,
      {
        span: { start: '2025-02-03', end: '2025-02-10' },
        mallDays: [
          { mallId: central, days: ['2025-02-03'] },
          { mallId: harbour, days: ['2025-02-10'] },
        ],
      },
      'refund',
    );
    expect(report.current).toMatchObject({ count: 1, transactions: 2 + 8 });
    // Central's 3 Feb (1 sale) and Harbour's 10 Feb (8 sales): not Central's 10 Feb nor Harbour's 3 Feb.
    expect(report.previous).toMatchObject({ count: 0, transactions: 1 + 8 });
    expect(report.previous_has_data).toBe(true);
    expect(report.daily).toEqual([{ date: '2025-02-10', amount: 5, count: 1 }]);
    expect(report.outlets).toEqual([
      expect.objectContaining({ outlet_id: cafe, amount: 5, count: 1, transactions: 2 }),
    ]);
  });
});

describe('like-for-like outlets', () => {
  const march = { start: '2024-03-01', end: '2024-03-20' };
  const april = { start: '2024-04-01', end: '2024-04-20' };

  it('keeps the outlets trading through both periods: a silence of 7 days passes, one of 8 does not', async () => {
    expect(await likeForLikeOutlets(db.pool, scope, [april, march])).toEqual({
      kept: [cafe, boutique],
      leftOut: [kiosk],
      total: 3,
    });
  });

  it("counts the kept outlets from the mall rows less the left-out outlets' rows, as from the kept outlets' own", async () => {
    const days = [
      { mallId: central, days: eachDay(april.start, april.end) },
      { mallId: harbour, days: eachDay(april.start, april.end) },
    ];
    const kept: ReportScope = {
      ...scope,
      visibility: { ...scope.visibility, outletLimits: new Map([[WORLD.clients.zenith, [cafe, boutique]]]) },
    };
    for (const hours of [
      { startHour: 0, endHour: 23 },
      { startHour: 12, endHour: 12 },
    ]) {
      const fromOutlets = await figuresOverDays(db.pool, kept, hours, days);
      // Cafe and boutique sell at noon, Singapore time, on each of 20 days.
      expect(fromOutlets.transactions).toBe(40);
      expect(await figuresOverDays(db.pool, { ...scope, leftOut: [kiosk] }, hours, days)).toEqual(fromOutlets);
    }
    // Without leaving the kiosk out, its 12 April days count too.
    expect((await figuresOverDays(db.pool, scope, { startHour: 0, endHour: 23 }, days)).transactions).toBe(40 + 12);
  });

  it('leaves out an outlet whose first sale is not before both periods, or that stops before the end of one', async () => {
    // Boutique's and kiosk's first sale is on 1 Mar: not on or before 29 Feb.
    const early = { start: '2024-02-29', end: '2024-03-20' };
    expect((await likeForLikeOutlets(db.pool, scope, [april, early])).kept).toEqual([cafe]);
    // Nothing after 20 Apr: 21-29 Apr is 9 days without a sale for every outlet.
    const late = { start: '2024-04-01', end: '2024-04-29' };
    expect((await likeForLikeOutlets(db.pool, scope, [late, march])).kept).toEqual([]);
    // 21-27 Apr is 7 days: cafe and boutique stay.
    const week = { start: '2024-04-01', end: '2024-04-27' };
    expect((await likeForLikeOutlets(db.pool, scope, [week, march])).kept).toEqual([cafe, boutique]);
  });
});
