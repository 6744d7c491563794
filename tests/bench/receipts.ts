/**
 * Receipts list latency: GET /outlets/transaction over real HTTP on loopback, on a generated dataset, for the
 * outlet with the most receipts in the last 31 days: page 1 and a deep page (the last) sorted by amount, and the
 * default sort, the receipt id search and a filter for comparison.
 *
 *   npx tsx tests/bench/receipts.ts                          (embedded PostgreSQL in a temp dir unless DATABASE_URL is set)
 *   BENCH_DATABASE_URL=postgres://…/db npx tsx tests/bench/receipts.ts   (time the calls on an existing database)
 *   BENCH_RECEIPTS_LIST=10000000 npx tsx tests/bench/receipts.ts
 *
 * The goal: p95 under 30 ms at 10 M receipts.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { createPool } from '../../server/db/pool.js';
import { generateDemoData } from '../../server/demo/generate.js';
import { createDatabase, databaseUrl, dropDatabase, withPostgres } from '../support/postgres.js';
import { signInForBench } from './session.js';
import { printRow, timeCalls } from './stats.js';

const DATABASE = 'bench_receipts_list';
const SEED = 20261121;
const END_DATE = '2026-10-31';
const START_DATE = '2026-10-01';
const say = (message: string) => process.stdout.write(`${message}\n`);

export interface ReceiptsBenchOptions {
  /** Receipts to generate (default BENCH_RECEIPTS_LIST, else 1,000,000). */
  receipts?: number;
  /** Timed calls per operation (default 200). */
  count?: number;
  keep?: boolean;
}

export async function benchReceiptListCalls(url: string, count = 200): Promise<void> {
  const pool = createPool(url, 10);
  const app = await buildApp({ pool, config: { ...loadConfig({}), staticDir: '/nonexistent' } });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const { rows: busiest } = await pool.query<{ client_id: number; outlet_id: number; n: number; total: number }>(
      `SELECT r.client_id, r.outlet_id, count(*)::int AS n, (SELECT count(*)::int FROM receipts) AS total
       FROM receipts r JOIN outlets o ON o.client_id = r.client_id AND o.id = r.outlet_id
       JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
       WHERE r.datetime >= ($1::timestamp AT TIME ZONE m.time_zone) AND r.datetime < (($2::date + 1)::timestamp AT TIME ZONE m.time_zone)
       GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 1`,
      [START_DATE, END_DATE],
    );
    const target = busiest[0];
    if (!target) throw new Error('no receipts in the window');
    say(
      `${target.total.toLocaleString('en-US')} receipts; outlet ${target.outlet_id} has ${target.n.toLocaleString('en-US')} in ${START_DATE} – ${END_DATE}`,
    );

    const get = await signInForBench(address, 'admin@demo.mall');
    const base = `/outlets/transaction?client_id=${target.client_id}&id=${target.outlet_id}&startTime=${START_DATE}&endTime=${END_DATE}`;
    const lastPage = Math.max(1, Math.ceil(target.n / 10));
    const calls: [string, string][] = [
      ['list page 1, by amount', `${base}&sortColumn=total_amount&orderByMethod=desc&page=1`],
      [
        `list page ${lastPage} (last), by amount`,
        `${base}&sortColumn=total_amount&orderByMethod=desc&page=${lastPage}`,
      ],
      ['list page 1, by datetime', `${base}&page=1`],
      [`list page ${lastPage} (last), by datetime`, `${base}&page=${lastPage}`],
      ['list page 1, receipt id search', `${base}&receiptId=00&sortColumn=total_amount`],
      ['list page 1, void receipts', `${base}&receiptType=voidReceipts&sortColumn=total_amount`],
      [
        'payment summary',
        `/outlets/getPaymentAndSum?client_id=${target.client_id}&id=${target.outlet_id}&startTime=${START_DATE}&endTime=${END_DATE}`,
      ],
      [
        'receipt type options',
        `/outlets/transaction/receiptTypeOptions?client_id=${target.client_id}&id=${target.outlet_id}`,
      ],
    ];
    for (const [label, pathAndQuery] of calls) {
      const times = await timeCalls(async () => {
        await get(pathAndQuery);
      }, count);
      printRow(label, times);
    }
  } finally {
    await app.close();
    await pool.end();
  }
}

/** Generates the dataset into a fresh database on `serverUrl`, then times the receipts list. */
export async function benchReceiptsList(serverUrl: string, options: ReceiptsBenchOptions = {}): Promise<void> {
  const receipts =
    options.receipts ?? (process.env.BENCH_RECEIPTS_LIST ? Number(process.env.BENCH_RECEIPTS_LIST) : 1_000_000);
  const pool = await createDatabase(serverUrl, DATABASE);
  try {
    const started = performance.now();
    await generateDemoData(pool, { seed: SEED, receipts, endDate: END_DATE });
    say(
      `generated ${receipts.toLocaleString('en-US')} receipts in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    // Steady state: autovacuum sets the visibility map of an insert-only table (PostgreSQL 13+); do it now.
    await pool.query('VACUUM (ANALYZE) receipts');
    await pool.query('ANALYZE');
    await pool.end();
    await benchReceiptListCalls(databaseUrl(serverUrl, DATABASE), options.count ?? 200);
  } finally {
    if (!options.keep) await dropDatabase(serverUrl, DATABASE);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  // BENCH_DATABASE_URL: time the calls on a database generated before (e.g. one kept with BENCH_KEEP=1).
  if (process.env.BENCH_DATABASE_URL) await benchReceiptListCalls(process.env.BENCH_DATABASE_URL);
  else await withPostgres((url) => benchReceiptsList(url, { keep: process.env.BENCH_KEEP === '1' }));
}
