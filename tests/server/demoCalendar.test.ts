import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FESTIVAL_DAYS } from '../../server/demo/festivalDays.js';
import { generateDemoData } from '../../server/demo/generate.js';
import { createTestDatabase, defined, type TestDatabase } from './helpers.js';

/*
 * The demo's calendar (issue 31): 26 whole months before the current one, so that this year compares with the last,
 * with the festival peaks of each mall's country, the weekday pattern and a growth year on year.
 */

/** The day before today (2026-12-02): the last day of a demo generated today. */
const END_DATE = '2026-12-01';

describe('the demo calendar', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
    await generateDemoData(db.pool, { seed: 31, receipts: 30_000, endDate: END_DATE });
  }, 120_000);

  afterAll(async () => {
    await db?.drop();
  });

  /** Receipts of a mall (by time zone) on the days from `from` to `to`, both included. */
  const receipts = async (timeZone: string, from: string, to: string): Promise<number> =>
    defined(
      (
        await db.pool.query<{ n: number }>(
          `SELECT coalesce(sum(r.transactions), 0)::int AS n FROM rollup_outlet_daily r
           JOIN outlets o ON o.id = r.outlet_id JOIN malls m ON m.id = o.mall_id
           WHERE m.time_zone = $1 AND r.local_day BETWEEN $2::date AND $3::date`,
          [timeZone, from, to],
        )
      ).rows[0],
      'receipts',
    ).n;

  it('holds rollups of every day of the 26 whole months before the current one in every mall', async () => {
    const { rows } = await db.pool.query<{ mall: string; first: string; days: number; months: number }>(
      `SELECT m.name AS mall, min(r.local_day)::text AS first,
         count(DISTINCT r.local_day) FILTER (WHERE r.local_day < '2026-12-01')::int AS days,
         count(DISTINCT date_trunc('month', r.local_day)) FILTER (WHERE r.local_day < '2026-12-01')::int AS months
       FROM rollup_outlet_daily r JOIN outlets o ON o.id = r.outlet_id JOIN malls m ON m.id = o.mall_id
       WHERE r.transactions > 0 GROUP BY m.name ORDER BY m.name`,
    );
    expect(rows).toHaveLength(3);
    // 2024-10-01 to 2026-11-30: 92 + 365 + 334 days.
    for (const row of rows) expect(row, row.mall).toMatchObject({ first: '2024-10-01', days: 791, months: 26 });
  });

  it('has last year’s Chinese New Year and Hari Raya in the data', async () => {
    expect(await receipts('Asia/Singapore', '2025-01-29', '2025-01-30')).toBeGreaterThan(0);
    expect(await receipts('Asia/Kuala_Lumpur', '2025-03-31', '2025-04-01')).toBeGreaterThan(0);
    expect(FESTIVAL_DAYS.SG).toContainEqual({ festival: 'Chinese New Year', from: '2025-01-29', to: '2025-01-30' });
    expect(FESTIVAL_DAYS.MY).toContainEqual({ festival: 'Hari Raya Puasa', from: '2026-03-21', to: '2026-03-22' });
  });

  it('lifts a Singapore mall in the ten days before Chinese New Year over the same weekdays a month later', async () => {
    const before = await receipts('Asia/Singapore', '2026-02-07', '2026-02-16');
    const later = await receipts('Asia/Singapore', '2026-03-07', '2026-03-16');
    expect(before / later).toBeGreaterThan(1.15);
  });

  it('lifts the Malaysian and Indonesian malls in the two weeks before Hari Raya Puasa', async () => {
    for (const timeZone of ['Asia/Kuala_Lumpur', 'Asia/Jakarta']) {
      const before = await receipts(timeZone, '2026-03-06', '2026-03-19');
      const later = await receipts(timeZone, '2026-04-03', '2026-04-16');
      expect(before / later, timeZone).toBeGreaterThan(1.1);
    }
  });

  it('makes Saturday the busiest day of the week and Monday the quietest in every mall', async () => {
    const { rows } = await db.pool.query<{ mall: string; weekday: number; average: number }>(
      `SELECT m.name AS mall, extract(dow FROM d.local_day)::int AS weekday, avg(d.n)::float AS average
       FROM (SELECT o.mall_id, r.local_day, sum(r.transactions) AS n FROM rollup_outlet_daily r
             JOIN outlets o ON o.id = r.outlet_id GROUP BY 1, 2) d
       JOIN malls m ON m.id = d.mall_id GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    for (const mall of new Set(rows.map((row) => row.mall))) {
      const averages = rows.filter((row) => row.mall === mall).map((row) => row.average);
      expect(averages, mall).toHaveLength(7);
      const [sunday, monday, , , , , saturday] = averages.map((average) => defined(average));
      expect(saturday, mall).toBe(Math.max(...averages));
      expect(monday, mall).toBe(Math.min(...averages));
      expect(defined(saturday) / defined(monday), mall).toBeGreaterThan(1.5);
      expect(defined(sunday) / defined(monday), mall).toBeGreaterThan(1.4);
    }
  });

  it('grows every mall by about 5 to 10 % a year', async () => {
    for (const timeZone of ['Asia/Singapore', 'Asia/Kuala_Lumpur', 'Asia/Jakarta']) {
      const growth =
        (await receipts(timeZone, '2025-12-01', '2026-11-30')) / (await receipts(timeZone, '2024-12-01', '2025-11-30'));
      expect(growth, timeZone).toBeGreaterThan(1.03);
      expect(growth, timeZone).toBeLessThan(1.13);
    }
  });

  it('submits GTO for the older months and most of the latest, with targets from the first month on', async () => {
    const { rows } = await db.pool.query<{ month: string; gto: number; outlets: number }>(
      `SELECT to_char(c.month, 'YYYY-MM') AS month, count(g.outlet_id)::int AS gto, count(*)::int AS outlets
       FROM (SELECT DISTINCT outlet_id, date_trunc('month', local_day)::date AS month FROM rollup_outlet_daily
             WHERE transactions > 0 AND local_day < '2026-12-01') c
       LEFT JOIN gto_submissions g ON g.outlet_id = c.outlet_id AND g.month = c.month
       GROUP BY 1 ORDER BY 1`,
    );
    expect(rows.map((row) => row.month)).toHaveLength(26);
    expect(rows[0]?.month).toBe('2024-10');
    for (const row of rows.slice(0, -1)) expect(row.gto / row.outlets, row.month).toBeGreaterThan(0.85);
    const latest = defined(rows.at(-1));
    expect(latest.month).toBe('2026-11');
    expect(latest.gto / latest.outlets).toBeGreaterThan(0.55);
    expect(latest.gto / latest.outlets).toBeLessThan(0.9);
    const targets = defined(
      (
        await db.pool.query<{ first: string; last: string }>(
          `SELECT to_char(min(month), 'YYYY-MM') AS first, to_char(max(month), 'YYYY-MM') AS last FROM sales_targets`,
        )
      ).rows[0],
    );
    expect(targets).toEqual({ first: '2024-10', last: '2027-02' });
  });
});
