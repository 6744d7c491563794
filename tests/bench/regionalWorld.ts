import { generateDemoData } from '../../server/demo/generate.js';
import { createDatabase, databaseUrl, dropDatabase } from '../support/postgres.js';

/** The seed and last day of the benches' generated worlds (mallReports.ts uses the same). */
export const BENCH_SEED = 20261121;
export const BENCH_END_DATE = '2026-10-31';

const say = (message: string) => process.stdout.write(`${message}\n`);

/**
 * Generates a regional operator's world (30 malls of BENCH_OUTLETS_PER_MALL outlets, default 100, over 13 months;
 * the world of `BENCH_SCALE=regional` in mallReports.ts) with `receipts` receipts into a fresh database `database`
 * on `serverUrl`, runs `bench` on it, then drops it unless `keep`.
 */
export async function withRegionalWorld(
  serverUrl: string,
  database: string,
  options: { receipts: number; keep?: boolean },
  bench: (url: string) => Promise<void>,
): Promise<void> {
  const pool = await createDatabase(serverUrl, database);
  try {
    const started = performance.now();
    const result = await generateDemoData(pool, {
      seed: BENCH_SEED,
      receipts: options.receipts,
      endDate: BENCH_END_DATE,
      world: {
        outletsPerMall: process.env.BENCH_OUTLETS_PER_MALL ? Number(process.env.BENCH_OUTLETS_PER_MALL) : 100,
        mallCopies: 10,
        fullMonths: 13,
      },
    });
    say(
      `generated ${options.receipts.toLocaleString('en-US')} receipts for ${result.outlets} outlets in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    await pool.end();
    await bench(databaseUrl(serverUrl, database));
  } finally {
    if (!options.keep) await dropDatabase(serverUrl, database);
  }
}
