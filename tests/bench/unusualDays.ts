/**
 * The morning evaluation of unusual days (issue 34): what the daily summary adds to a day's transaction for a
 * regional operator's 3,000 outlets (30 malls of 100, 13 months; the world of `BENCH_SCALE=regional` in
 * mallReports.ts). It times the read of every outlet's day and its eight same weekdays from rollup_outlet_daily
 * (declared non-trading days, the calendar's festivals and public holidays left out), every mall's from
 * rollup_mall_daily, and the rule applied to each (`unusualDays`, all malls of the day at once, as a run that finds
 * every mall due does), then each statement alone.
 *
 *   npx tsx tests/bench/unusualDays.ts                 (embedded PostgreSQL in a temp dir unless DATABASE_URL is set)
 *   BENCH_DATABASE_URL=postgres://…/db npx tsx tests/bench/unusualDays.ts   (an existing database: its outlets, as
 *                                                    they are; e.g. bench_mall_reports_regional kept with BENCH_KEEP=1)
 *   BENCH_RECEIPTS_UNUSUAL=1000000 …   (receipts generated, default 1,000,000: the cost grows with outlets, not receipts)
 *   BENCH_OUTLETS_PER_MALL=10 …   (300 outlets, for a quick look); BENCH_COUNT=50: runs timed (default 20)
 *   BENCH_UNUSUAL_DAY=2026-10-31 …   (the day judged; default the latest day of rollup_outlet_daily)
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { migrate } from '../../server/db/migrate.js';
import { createPool } from '../../server/db/pool.js';
import { unusualDays } from '../../server/jobs/unusualDays.js';
import { mallDaysAgainstBaseline, outletDaysAgainstBaseline } from '../../server/repositories/unusualDays.js';
import { withPostgres } from '../support/postgres.js';
import { BENCH_END_DATE, withRegionalWorld } from './regionalWorld.js';
import { printRow, timeCalls } from './stats.js';

const END_DATE = BENCH_END_DATE;
const DATABASE = 'bench_unusual_days';
const say = (message: string) => process.stdout.write(`${message}\n`);

/** Times the evaluation on the database at `url`. */
export async function benchUnusualDaysOn(url: string, count = Number(process.env.BENCH_COUNT ?? 20)): Promise<void> {
  const pool = createPool(url, 4);
  try {
    // A database generated before may predate the migration of the clients' rule.
    await migrate(pool);
    const latest = await pool.query<{ day: string }>(
      `SELECT to_char(max(local_day), 'YYYY-MM-DD') AS day FROM rollup_outlet_daily`,
    );
    const day = process.env.BENCH_UNUSUAL_DAY ?? latest.rows[0]?.day ?? END_DATE;
    const malls = (
      await pool.query<{ clientId: number; mallId: number }>(
        'SELECT client_id AS "clientId", id AS "mallId" FROM malls ORDER BY client_id, id',
      )
    ).rows;
    const outlets = await outletDaysAgainstBaseline(pool, day, malls);
    const flagged = await unusualDays(pool, day, malls);
    const judged = outlets.filter((outlet) => outlet.baselineGmvCents.length >= outlet.minBaselineDays).length;
    say(
      `${day}: ${malls.length} malls, ${outlets.length.toLocaleString('en-US')} outlets (${judged.toLocaleString('en-US')} ` +
        `with a baseline to judge), ${flagged.filter((flag) => flag.outlet === null).length} malls and ` +
        `${flagged.filter((flag) => flag.outlet !== null).length} outlets flagged`,
    );
    printRow(
      'evaluation: every outlet and mall, judged',
      await timeCalls(
        async () => {
          await unusualDays(pool, day, malls);
        },
        count,
        3,
      ),
    );
    printRow(
      'outlets against their baselines (read)',
      await timeCalls(
        async () => {
          await outletDaysAgainstBaseline(pool, day, malls);
        },
        count,
        3,
      ),
    );
    printRow(
      'malls against their baselines (read)',
      await timeCalls(
        async () => {
          await mallDaysAgainstBaseline(pool, day, malls);
        },
        count,
        3,
      ),
    );
    // A morning's usual run: the malls of one time zone, here the first client's first mall.
    const one = malls.slice(0, 1);
    printRow(
      'evaluation: one mall',
      await timeCalls(
        async () => {
          await unusualDays(pool, day, one);
        },
        count,
        3,
      ),
    );
  } finally {
    await pool.end();
  }
}

/** Generates the regional world into a fresh database on `serverUrl`, then times it. */
export async function benchUnusualDays(serverUrl: string, options: { keep?: boolean } = {}): Promise<void> {
  const receipts = process.env.BENCH_RECEIPTS_UNUSUAL ? Number(process.env.BENCH_RECEIPTS_UNUSUAL) : 1_000_000;
  await withRegionalWorld(serverUrl, DATABASE, { receipts, ...options }, (url) => benchUnusualDaysOn(url));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  if (process.env.BENCH_DATABASE_URL) await benchUnusualDaysOn(process.env.BENCH_DATABASE_URL);
  else await withPostgres((url) => benchUnusualDays(url, { keep: process.env.BENCH_KEEP === '1' }));
}
