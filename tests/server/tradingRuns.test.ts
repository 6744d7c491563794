import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { LIKE_FOR_LIKE_SILENCE_DAYS, likeForLikeOutlets } from '../../server/repositories/comparisons.js';
import { ingestReceipts, rollupMismatches } from '../../server/repositories/ingestion.js';
import { addDays, eachDay } from '../../src/domain/reports.js';
import { receiptInput as receipt, seedWorld, WORLD } from './fixtures.js';
import { createTestDatabase, type TestDatabase } from './helpers.js';

/*
 * Like-for-like reads each outlet's trading runs (outlet_trading_runs, migration 037) for periods longer than
 * LIKE_FOR_LIKE_SILENCE_DAYS, its days for shorter ones. Random trading days for three outlets, ingested in random
 * batches and order (so the triggers merge, split and extend runs as devices would send them, voids included: a day
 * of voids alone does not trade), then random pairs of periods: the outlets kept are the rule's, worked out here from
 * the days themselves.
 */

const { cafe, boutique, kiosk } = WORLD.outlets;
const OUTLETS = [
  { id: cafe, offset: '+08:00' },
  { id: boutique, offset: '+08:00' },
  { id: kiosk, offset: '-05:00' },
];
const FIRST_DAY = '2026-01-01';
const DAYS = eachDay(FIRST_DAY, '2026-06-30');

/** A seeded PRNG (mulberry32): the same days on every run. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(20261203);
const int = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));

/** Each outlet's days: stretches of daily trade with silences of 1 to 12 days between (some longer than 7). */
const trading = new Map<number, Set<string>>();
const voidOnly = new Map<number, Set<string>>();
for (const { id } of OUTLETS) {
  const days = new Set<string>();
  const voids = new Set<string>();
  let index = int(0, 20);
  while (index < DAYS.length) {
    const stretch = int(1, 15);
    for (let n = 0; n < stretch && index < DAYS.length; n++, index++) {
      const day = DAYS[index];
      if (day) days.add(day);
    }
    const silence = int(1, 12);
    const quiet = DAYS[index + int(0, silence - 1)];
    if (quiet && random() < 0.3) voids.add(quiet);
    index += silence;
  }
  trading.set(id, days);
  voidOnly.set(id, voids);
}

/** The rule, from the days: a first sale on or before the earlier start, and each period steady. */
function expectedKept(periods: readonly { start: string; end: string }[]): number[] {
  const first = periods.map((period) => period.start).sort()[0] ?? '';
  return OUTLETS.filter(({ id }) => {
    const days = [...(trading.get(id) ?? [])].sort();
    if (!days[0] || days[0] > first) return false;
    return periods.every(({ start, end }) => {
      const inside = days.filter((day) => day >= start && day <= end);
      if (inside.length === 0) return false;
      const marks = [addDays(start, -1), ...inside, addDays(end, 1)];
      return marks.every(
        (day, index) => index === 0 || eachDay(marks[index - 1] ?? day, day).length - 2 <= LIKE_FOR_LIKE_SILENCE_DAYS,
      );
    });
  })
    .map(({ id }) => id)
    .sort((a, b) => a - b);
}

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  const receipts = OUTLETS.flatMap(({ id, offset }) => [
    ...[...(trading.get(id) ?? [])].map((day) => receipt(id, `${day}T12:00:00${offset}`, int(1, 9999) / 100, [])),
    ...[...(voidOnly.get(id) ?? [])].map((day) =>
      receipt(id, `${day}T13:00:00${offset}`, 5, [], { void: true, closedBill: false }),
    ),
  ]);
  // Random order, random batches: runs are made, joined and extended by many statements
  const shuffled = receipts
    .map((one) => ({ one, key: random() }))
    .sort((a, b) => a.key - b.key)
    .map(({ one }) => one);
  for (let at = 0; at < shuffled.length; ) {
    const size = int(1, 40);
    const batch = shuffled.slice(at, at + size);
    await inTransaction(db.pool, (client) => ingestReceipts(client, 1, batch));
    at += size;
  }
}, 120_000);

afterAll(async () => {
  await db?.drop();
});

describe('outlet trading runs', () => {
  it('are the runs of the trading days, however the receipts came in', async () => {
    expect(await rollupMismatches(db.pool)).toMatchObject({ tradingRuns: 0, daily: 0 });
    const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outlet_trading_runs');
    // Silences longer than 7 days split each outlet's half year into several runs
    expect(rows[0]?.n).toBeGreaterThan(OUTLETS.length);
  });

  it('keep, like for like, the outlets the rule keeps from the days, for periods long and short', async () => {
    const scope = {
      clientId: 1,
      visibility: { clientIds: [1], outletLimits: new Map<number, number[]>() },
      mallIds: [WORLD.malls.central, WORLD.malls.harbour],
    };
    let someKept = 0;
    let someLeftOut = 0;
    for (let n = 0; n < 60; n++) {
      const length = int(1, 45);
      const start = DAYS[int(30, DAYS.length - 2 * length - 1)] ?? FIRST_DAY;
      const current = { start, end: addDays(start, length - 1) };
      const earlier = { start: addDays(start, -length), end: addDays(start, -1) };
      const answer = await likeForLikeOutlets(db.pool, scope, [current, earlier]);
      const expected = expectedKept([current, earlier]);
      expect(answer.kept, `${current.start}..${current.end} against ${earlier.start}..${earlier.end}`).toEqual(
        expected,
      );
      expect(answer.total).toBe(OUTLETS.length);
      if (expected.length > 0) someKept++;
      if (expected.length < OUTLETS.length) someLeftOut++;
    }
    // The cases are not all one way
    expect(someKept).toBeGreaterThan(5);
    expect(someLeftOut).toBeGreaterThan(5);
  });
});
