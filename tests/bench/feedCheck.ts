/**
 * The feed check (issue 34): what each run of the feed alert job costs for a regional operator's 3,000 outlets
 * (30 malls of 100, 13 months; the world of `BENCH_SCALE=regional` in mallReports.ts). It times the check's read of
 * every outlet (its mall's day and hour, the four same weekdays of the hour rollup, its last receipt, its devices'
 * last call, a non-trading day, an open silence) with the rule applied to each, which is all a run does while no
 * outlet changes; then raising and closing a silence of every outlet at once (the worst run), in a transaction
 * rolled back (the rows only; each mail is one more row and job in that transaction).
 *
 *   npx tsx tests/bench/feedCheck.ts                 (embedded PostgreSQL in a temp dir unless DATABASE_URL is set)
 *   BENCH_DATABASE_URL=postgres://…/db npx tsx tests/bench/feedCheck.ts   (an existing database: its outlets, as
 *                                                    they are; e.g. bench_mall_reports_regional kept with BENCH_KEEP=1)
 *   BENCH_RECEIPTS_FEEDS=1000000 …   (receipts generated, default 1,000,000: the cost grows with outlets, not receipts)
 *   BENCH_OUTLETS_PER_MALL=10 …   (300 outlets, for a quick look); BENCH_COUNT=50: runs timed (default 20)
 *   BENCH_FEED_NOW=2026-10-31T05:30:00Z …   (the check's now; default 13:30 in the malls the day after the generated
 *                                                    last, a Sunday without receipts: every outlet that usually trades then is silent)
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { migrate } from '../../server/db/migrate.js';
import { createPool, inTransaction } from '../../server/db/pool.js';
import { closeSilences, feedFactsOf, feedOutlets, openSilences } from '../../server/repositories/feeds.js';
import { isSilent } from '../../src/domain/dataFeeds.js';
import { withPostgres } from '../support/postgres.js';
import { withRegionalWorld } from './regionalWorld.js';
import { printRow, timeCalls } from './stats.js';

const DATABASE = 'bench_feed_check';
const NOW = new Date(process.env.BENCH_FEED_NOW ?? '2026-11-01T05:30:00Z');
const say = (message: string) => process.stdout.write(`${message}\n`);

/** Times the check on the database at `url`. */
export async function benchFeedCheckOn(url: string, count = Number(process.env.BENCH_COUNT ?? 20)): Promise<void> {
  const pool = createPool(url, 4);
  try {
    // A database generated before may predate the migration of the silences.
    await migrate(pool);
    const outlets = await feedOutlets(pool, NOW, { kind: 'all' });
    const silent = outlets.filter((outlet) => isSilent(feedFactsOf(outlet), NOW.getTime()));
    const usual = outlets.filter((outlet) => outlet.usualNow >= 3).length;
    say(
      `${outlets.length.toLocaleString('en-US')} outlets at ${NOW.toISOString()}: ${usual.toLocaleString('en-US')} ` +
        `usually trade at this hour, ${silent.length.toLocaleString('en-US')} silent`,
    );
    printRow(
      'read and rule, every outlet',
      await timeCalls(
        async () => {
          const read = await feedOutlets(pool, NOW, { kind: 'all' });
          read.filter((outlet) => isSilent(feedFactsOf(outlet), NOW.getTime()));
        },
        count,
        3,
      ),
    );
    // The worst run: every outlet falls silent at once.
    const silences = outlets.map((outlet) => ({
      clientId: outlet.clientId,
      outletId: outlet.outletId,
      since: outlet.lastReceiptAt ?? new Date(NOW.getTime() - outlet.silenceMinutes * 60_000),
      lastReceiptAt: outlet.lastReceiptAt,
      lastCallAt: outlet.lastCallAt,
    }));
    printRow(
      `raise and close ${silences.length.toLocaleString('en-US')} silences (rolled back)`,
      await timeCalls(
        async () => {
          await inTransaction(pool, async (tx) => {
            const raised = await openSilences(tx, silences, NOW);
            await closeSilences(tx, raised);
            throw new RolledBack();
          }).catch((error: unknown) => {
            if (!(error instanceof RolledBack)) throw error;
          });
        },
        Math.min(count, 10),
        1,
      ),
    );
  } finally {
    await pool.end();
  }
}

class RolledBack extends Error {}

/** Generates the regional world into a fresh database on `serverUrl`, then times it. */
export async function benchFeedCheck(serverUrl: string, options: { keep?: boolean } = {}): Promise<void> {
  const receipts = process.env.BENCH_RECEIPTS_FEEDS ? Number(process.env.BENCH_RECEIPTS_FEEDS) : 1_000_000;
  await withRegionalWorld(serverUrl, DATABASE, { receipts, ...options }, (url) => benchFeedCheckOn(url));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  if (process.env.BENCH_DATABASE_URL) await benchFeedCheckOn(process.env.BENCH_DATABASE_URL);
  else await withPostgres((url) => benchFeedCheck(url, { keep: process.env.BENCH_KEEP === '1' }));
}
