/**
 * Mall report latency: every mall report call the Shopper Connect pages make, over real HTTP on loopback (each
 * timed from the request until its whole answer has arrived; the timing client does not parse it), on a
 * generated dataset of 3 malls with 100 outlets each (the demo world scaled up) and 26 months of receipts.
 *
 *   npx tsx tests/bench/mallReports.ts              (embedded PostgreSQL in a temp dir unless DATABASE_URL is set)
 *   BENCH_DATABASE_URL=postgres://…/db npx tsx tests/bench/mallReports.ts   (time the calls on an existing database)
 *   BENCH_RECEIPTS_REPORTS=1000000 npx tsx tests/bench/mallReports.ts   (a tenth of the default 10 M, for a quick look)
 *   BENCH_OUTLETS_PER_MALL=150 …   (the first client's 2 malls then hold 300 outlets: the GTO summary's goal)
 *   BENCH_ONLY='refund|voucher' …   (time only the calls whose label matches; BENCH_COUNT=20: calls timed each)
 *   BENCH_SERVER=process …   (the server as a process of its own, as deployed, not in the timing process)
 *   BENCH_SCALE=regional …   (a regional operator: 30 malls, 3,000 outlets, 13 months, 10 M receipts; its goal below)
 *
 * The goal: p95 ≤ 10 ms for every mall report call at 10 M receipts, the growth comparisons (previous period, same
 * weekdays last year, festival-aligned, like-for-like) included, for a 31-day range with an hour filter, a year where
 * the page allows one (monthly, peak hours by week and month); the GTO summary of a client's 300 outlets and the
 * outlet report calls of the sales analysis page (one outlet, 31 days or a year) by the same measure.
 * At the regional size (the first client's 20 malls and 2,000 outlets asked together, the second's 10 and 1,000) the
 * goal is p95 ≤ 30 ms for every mall report call: the cost grows with outlet-days, not receipts.
 * A month still open (breakeven's default, the rent statements of the current month) is timed too, on a clock pinned
 * at 31 October 2026 (pinnedClockUrl): its projection reads each outlet's days of the four weeks before today, or the
 * row the month-projections job keeps an outlet (month_projections); each call is timed both ways, same answer.
 * It ends with what the data costs to keep (bytes a receipt over every table and index; the goal: at most 600 at
 * 10 M) and the indexes no call read.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type pg from 'pg';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { migrate } from '../../server/db/migrate.js';
import { createPool } from '../../server/db/pool.js';
import { generateDemoData } from '../../server/demo/generate.js';
import type { WorldOptions } from '../../server/demo/world.js';
import { fillMonthProjections } from '../../server/repositories/monthFigures.js';
import { createDatabase, databaseUrl, dropDatabase, freePort, withPostgres } from '../support/postgres.js';
import { startServerProcess } from '../support/serverProcess.js';
import { benchIngestionOf } from './demoData.js';
import { answerTimerForBench, signInForBench } from './session.js';
import { printRow, timeCalls } from './stats.js';
import { printStorage } from './storage.js';

const SEED = 20261121;
const END_DATE = '2026-10-31';
const REGIONAL = process.env.BENCH_SCALE === 'regional';
const DATABASE = REGIONAL ? 'bench_mall_reports_regional' : 'bench_mall_reports';
/**
 * The world: outlets per mall (BENCH_OUTLETS_PER_MALL, default 100: 150 gives the first client 300 outlets); at the
 * regional size each of the 3 demo malls ten times over 13 months (October 2026 against October 2025).
 */
const WORLD: WorldOptions = {
  outletsPerMall: process.env.BENCH_OUTLETS_PER_MALL ? Number(process.env.BENCH_OUTLETS_PER_MALL) : 100,
  ...(REGIONAL ? { mallCopies: 10, fullMonths: 13 } : {}),
};
const say = (message: string) => process.stdout.write(`${message}\n`);
/** The server process's settings for a bench: no demo data, no periodic work competing with the timed calls. */
const QUIET_SERVER: NodeJS.ProcessEnv = {
  DEMO_DATA: 'false',
  VOID_ALERTS_EVERY_MINUTES: '0',
  DAILY_SUMMARY_EVERY_MINUTES: '0',
  FEED_CHECK_EVERY_MINUTES: '0',
  ALERT_CHECK_EVERY_MINUTES: '0',
  SUBSCRIPTION_CHECK_EVERY_MINUTES: '0',
  // The bench fills the month projections itself, on the clock it pins (benchMallReportCalls).
  MONTH_PROJECTIONS_EVERY_MINUTES: '0',
};

export interface MallReportBenchOptions {
  /** Receipts to generate (default BENCH_RECEIPTS_REPORTS, else 10,000,000: the size the goals are set at). */
  receipts?: number;
  /** Timed calls per operation (default 200). */
  count?: number;
  /** Keep the database afterwards (default false). */
  keep?: boolean;
}

/** The report calls, for one client and its malls, over 31 days ending on END_DATE. */
function calls(clientId: number, mallIds: number[], outletId: number, hours: { start_hour: number; end_hour: number }) {
  const base = new URLSearchParams({ client_id: String(clientId), start_time: '2026-10-01', end_time: END_DATE });
  for (const id of mallIds) base.append('mall_ids', String(id));
  const withHours = `${base}&start_hour=${hours.start_hour}&end_hour=${hours.end_hour}`;
  // The month of Chinese New Year 2026 (17 Feb), met with 2025's (29 Jan).
  const february = new URLSearchParams(base);
  february.set('start_time', '2026-02-01');
  february.set('end_time', '2026-02-28');
  const year = new URLSearchParams(base);
  year.set('start_time', '2025-11-01');
  const outlet = `client_id=${clientId}&outlet_id=${outletId}&start_time=2026-10-01&end_time=${END_DATE}`;
  const breakeven = `client_id=${clientId}${mallIds.map((id) => `&mall_ids=${id}`).join('')}`;
  return [
    ['daily', `/api/mall_report/daily?${withHours}`],
    ['daily (whole days)', `/api/mall_report/daily?${base}`],
    ['monthly (a year)', `/api/mall_report/monthly?${year}`],
    [
      'monthly (a year, hours)',
      `/api/mall_report/monthly?${year}&start_hour=${hours.start_hour}&end_hour=${hours.end_hour}`,
    ],
    ['mall rank_by=gmv', `/api/mall_report/mall?${withHours}&rank_by=gmv`],
    ['growth (against the 31 days before)', `/api/mall_report/growth?${withHours}`],
    ['growth (same weekdays last year)', `/api/mall_report/growth?${withHours}&compare=same_weekday_last_year`],
    ['growth (festival-aligned, February)', `/api/mall_report/growth?${february}&compare=festival_aligned`],
    ['growth (like-for-like)', `/api/mall_report/growth?${withHours}&like_for_like=true`],
    [
      'growth (festival-aligned, like-for-like)',
      `/api/mall_report/growth?${february}&compare=festival_aligned&like_for_like=true`,
    ],
    ['refund (against the 31 days before)', `/api/mall_report/refund?${base}`],
    ['refund (festival-aligned, February)', `/api/mall_report/refund?${february}&compare=festival_aligned`],
    ['refund (like-for-like)', `/api/mall_report/refund?${base}&like_for_like=true`],
    ['voucher (against the 31 days before)', `/api/mall_report/voucher?${base}`],
    ['peak_hour daily', `/api/mall_report/peak_hour?${withHours}&time_range=daily`],
    ['peak_hour weekly (a year)', `/api/mall_report/peak_hour?${year}&time_range=weekly`],
    ['peak_hour monthly (a year)', `/api/mall_report/peak_hour?${year}&time_range=monthly`],
    [
      'peak_hour hourly atv',
      `/api/mall_report/peak_hour?${withHours}&time_range=hourly&metric=average_transaction_value`,
    ],
    ['payment_method/overall', `/api/mall_report/payment_method/overall?${withHours}&limit=10`],
    ['payment_method/overall (whole days)', `/api/mall_report/payment_method/overall?${base}&limit=10`],
    ['member/overall daily', `/api/mall_report/member/overall?${withHours}&time_range=daily`],
    ['member/overall hourly', `/api/mall_report/member/overall?${withHours}&time_range=hourly`],
    ['member/outlet', `/api/mall_report/member/outlet?${withHours}&member=true&rank_by=gmv&limit=10`],
    ['category', `/api/mall_report/category?${withHours}`],
    ['level', `/api/mall_report/level?${withHours}`],
    ['outlet group_by=outlet', `/api/mall_report/outlet?${withHours}&group_by=outlet`],
    [
      'outlet/overallComparison',
      `/api/mall_report/outlet/overallComparison?${outlet}&start_hour=${hours.start_hour}&end_hour=${hours.end_hour}`,
    ],
    [
      'outlet/daily',
      `/api/mall_report/outlet/daily?${outlet}&start_hour=${hours.start_hour}&end_hour=${hours.end_hour}`,
    ],
    ['category/outlet (ranked within categories)', `/api/mall_report/category/outlet?${withHours}`],
    ['category/outlet (one outlet’s peers)', `/api/mall_report/category/outlet?${base}&outlet_id=${outletId}`],
    // October 2026 against the leasing targets: a closed month; and Marcom's with GST.
    ['breakeven_target leasing', `/api/mall_report/breakeven_target?${breakeven}&date=2026-10-01&department=leasing`],
    [
      'breakeven_target marcom (GST)',
      `/api/mall_report/breakeven_target?${breakeven}&date=2026-10-01&department=marcom&include_gst=true`,
    ],
    // The month's submissions of every outlet of the client against its captured sales (October 2026).
    ['gtoReport/summary (all outlets, 10 a page)', `/api/gtoReport/summary?client_id=${clientId}&date=2026-10-01`],
    [
      'gtoReport/summary flagged by variance',
      `/api/gtoReport/summary?client_id=${clientId}&date=2026-10-01&filterOption=flagged&sortColumn=variance_percent`,
    ],
    // The month's rent of every leased outlet of the malls, on declared and on captured sales (October 2026).
    ['rentStatements (a closed month)', `/api/rentStatements?${breakeven}&month=2026-10`],
    // The size the issue sets its goal at: three malls of 100 outlets (the first three when there are more).
    [
      'rentStatements (3 malls, a closed month)',
      `/api/rentStatements?client_id=${clientId}${mallIds
        .slice(0, 3)
        .map((id) => `&mall_ids=${id}`)
        .join('')}&month=2026-10`,
    ],
  ] as const;
}

/**
 * The instant the open month is timed at: noon in Singapore on 31 October 2026, the data's last day, as a live month's
 * today is (no row after it). From the 29th on an open month reads each outlet's every day so far, the most it reads.
 */
const PINNED_NOW = '2026-10-31T04:00:00Z';

/**
 * The calls of a month still open, at PINNED_NOW: breakeven of October (each outlet projected to the month's end from
 * the same weekdays of the four weeks before today) and October's rent statements (their sales projected the same way).
 */
function openMonthCalls(clientId: number, mallIds: number[]) {
  const malls = `client_id=${clientId}${mallIds.map((id) => `&mall_ids=${id}`).join('')}`;
  return [
    [
      'breakeven_target leasing (October open)',
      `/api/mall_report/breakeven_target?${malls}&date=2026-10-01&department=leasing`,
    ],
    [
      'breakeven_target marcom (GST, October open)',
      `/api/mall_report/breakeven_target?${malls}&date=2026-10-01&department=marcom&include_gst=true`,
    ],
    ['rentStatements (October open)', `/api/rentStatements?${malls}&month=2026-10`],
  ] as const;
}

/**
 * A connection string on which now() is PINNED_NOW, for timing a month still open on data that ends before today:
 * a function now() in a schema of its own, named before pg_catalog in the search path (PostgreSQL finds its
 * built-ins first only when pg_catalog is not named), after public: public stays the current schema, where the
 * tables are and where a server process's migrations look (with bench_clock first, a server process took it for an
 * empty database and migrated a copy of every table into it). The server's SQL runs as it is; only the connections
 * of this string see the pinned clock.
 */
async function pinnedClockUrl(pool: pg.Pool, url: string): Promise<string> {
  await pool.query('CREATE SCHEMA IF NOT EXISTS bench_clock');
  await pool.query(
    `CREATE OR REPLACE FUNCTION bench_clock.now() RETURNS timestamptz LANGUAGE sql STABLE
     AS $$ SELECT timestamptz '${PINNED_NOW}' $$`,
  );
  const pinned = new URL(url);
  const options = pinned.searchParams.get('options');
  pinned.searchParams.set('options', `${options ? `${options} ` : ''}-c search_path=public,bench_clock,pg_catalog`);
  return pinned.toString();
}

/** The server the calls are timed on: a process of its own (BENCH_SERVER=process) or in the timing process. */
async function startBenchServer(url: string): Promise<{ address: string; stop: () => Promise<void> }> {
  if (process.env.BENCH_SERVER === 'process') {
    const server = await startServerProcess({ databaseUrl: url, port: await freePort(), env: QUIET_SERVER });
    return { address: server.url, stop: () => server.stop() };
  }
  // The pool as a server's request pool has it: its prepared statements (DATABASE_STATEMENT_CACHE).
  const pool = createPool(url, 10, { statementCache: loadConfig({}).databaseStatementCache });
  const app = await buildApp({ pool, config: { ...loadConfig({}), staticDir: '/nonexistent' } });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    address,
    stop: async () => {
      await app.close();
      await pool.end();
    },
  };
}

/**
 * The sales analysis page's outlet report calls (§7) for one outlet: 31 days ending on END_DATE against the 31
 * before, and the heavier year-long asks (top SKUs ranked by revenue, the item breakdown by week, meal timings).
 */
function outletReportCalls(clientId: number, outletId: number) {
  const month = `client_id=${clientId}&id=${outletId}&startTime=2026-10-01&endTime=${END_DATE}`;
  const year = `client_id=${clientId}&id=${outletId}&startTime=2025-11-01&endTime=${END_DATE}`;
  return [
    [
      'outlets/overallComparison',
      `/outlets/overallComparison?${month}&comparedStartTime=2026-08-31&comparedEndTime=2026-09-30`,
    ],
    ['outlets/totalRevenuePoints daily', `/outlets/totalRevenuePoints?${month}&timeRange=daily`],
    ['outlets/totalRevenuePoints hourly', `/outlets/totalRevenuePoints?${month}&timeRange=hourly`],
    ['outlets/totalRevenuePoints monthly (a year)', `/outlets/totalRevenuePoints?${year}&timeRange=monthly`],
    ['outlets/totalTransactionPoints daily', `/outlets/totalTransactionPoints?${month}&timeRange=daily`],
    ['outlets/totalUnitSalePoints daily', `/outlets/totalUnitSalePoints?${month}&timeRange=daily`],
    ['outlets/breakdown', `/outlets/breakdown?${month}`],
    ['outlets/topSKU by quantity', `/outlets/topSKU?${month}&sortMethod=quantity&page=1&rowsPerPage=10`],
    ['outlets/topSKU by amount (a year, page 3)', `/outlets/topSKU?${year}&sortMethod=amount&page=3&rowsPerPage=10`],
    ['outlets/itemSalesBreakdown daily', `/outlets/itemSalesBreakdown?${month}&timeRange=daily`],
    ['outlets/itemSalesBreakdown weekly (a year)', `/outlets/itemSalesBreakdown?${year}&timeRange=weekly`],
    ['outlets/mealTimingReport (a year)', `/outlets/mealTimingReport?${year}`],
    ['outlets/sku search', `/outlets/sku?client_id=${clientId}&id=${outletId}&searchText=a`],
    [
      'crossSpending (31 days)',
      `/api/mall_report/crossSpending?client_id=${clientId}&outlet_id=${outletId}&start_time=2026-10-01&end_time=${END_DATE}`,
    ],
  ] as const;
}

/** Times every mall report call against an existing database of demo data. */
export async function benchMallReportCalls(url: string, count = 200): Promise<void> {
  // BENCH_ONLY: a regular expression; only the calls whose label it matches are timed.
  const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
  // The bench's own queries (the world's counts, the storage); each server it starts has its own pool.
  const pool = createPool(url, 10);
  // A database generated before may predate the latest migrations.
  await migrate(pool);
  // BENCH_SERVER=process: the server as a deployment runs it, a process of its own (server/main.ts, its periodic jobs
  // off), so that the timing client's own work (its JSON parsing, its garbage) is not inside the server's answers.
  const server = await startBenchServer(url);
  const address = server.address;
  say(
    process.env.BENCH_SERVER === 'process'
      ? 'server: a process of its own (BENCH_SERVER=process)'
      : 'server: in the timing process',
  );
  let pinned: { address: string; stop: () => Promise<void> } | undefined;
  let pinnedPool: pg.Pool | undefined;
  try {
    const { rows: world } = await pool.query<{
      receipts: number;
      outlets: number;
      malls: number;
      outletDays: number;
      mallDays: number;
    }>(
      `SELECT (SELECT count(*) FROM receipts)::int AS receipts, (SELECT count(*) FROM outlets)::int AS outlets,
              (SELECT count(*) FROM malls)::int AS malls, (SELECT count(*) FROM rollup_outlet_day_hours)::int AS "outletDays",
              (SELECT count(*) FROM rollup_mall_day_hours)::int AS "mallDays"`,
    );
    const [w] = world;
    if (!w) throw new Error('The world counts query returned no row');
    say(
      `${w.receipts.toLocaleString('en-US')} receipts, ${w.malls} malls, ${w.outlets} outlets; ` +
        `rollups: ${w.outletDays.toLocaleString('en-US')} outlet days, ${w.mallDays.toLocaleString('en-US')} mall days`,
    );
    const get = await signInForBench(address, 'admin@demo.mall');
    // Each call timed until its whole answer has arrived (not parsed).
    const answer = await answerTimerForBench(address, 'admin@demo.mall');
    const clients = (await get('/clients')) as { id: number; name: string }[];
    // The calls of a month still open, timed after the others on a server of their own (below).
    const openCalls: { client: { id: number; name: string }; calls: (readonly [string, string])[] }[] = [];
    for (const client of clients) {
      const malls = (await get(`/malls?client_id=${client.id}`)) as { id: number; name: string }[];
      openCalls.push({
        client,
        calls: openMonthCalls(
          client.id,
          malls.map((mall) => mall.id),
        ).filter(([label]) => !only || only.test(label)),
      });
      const [outlet] = (await get(`/outlets?client_id=${client.id}`)) as { id: number }[];
      if (!outlet) throw new Error(`${client.name} has no outlet`);
      const outletCount = (
        await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outlets WHERE client_id = $1', [client.id])
      ).rows[0]?.n;
      say(
        `\n-- ${client.name}: ${malls.length} malls, ${outletCount} outlets; 1 Oct – 31 Oct 2026 (31 days), hours 10–21 unless noted`,
      );
      for (const [label, pathAndQuery] of [
        ...calls(
          client.id,
          malls.map((mall) => mall.id),
          outlet.id,
          { start_hour: 10, end_hour: 21 },
        ),
        ...outletReportCalls(client.id, outlet.id),
      ]) {
        if (only && !only.test(label)) continue;
        const times = await timeCalls(() => answer(pathAndQuery), Number(process.env.BENCH_COUNT ?? count));
        printRow(label, times);
      }
    }

    // A month still open, on a server whose connections read the clock at PINNED_NOW: each call timed twice, read
    // from the outlets' days (month_projections emptied) and as the month-projections job leaves it (filled on the
    // pinned clock, as its run of the minute would), and the two answers must be the same.
    if (openCalls.some((entry) => entry.calls.length > 0)) {
      const pinnedUrl = await pinnedClockUrl(pool, url);
      pinned = await startBenchServer(pinnedUrl);
      pinnedPool = createPool(pinnedUrl, 2);
      // Signed in on the real clock: a session written at the pinned instant would look expired to the server's
      // caller cache (it compares with the process's clock) and be read again on every call.
      const getPinned = await signInForBench(pinned.address, 'admin@demo.mall', address);
      const answerPinned = await answerTimerForBench(pinned.address, 'admin@demo.mall', address);
      for (const { client, calls: pinnedCalls } of openCalls) {
        say(`\n-- ${client.name}: October 2026 still open, the clock at ${PINNED_NOW} (noon in Singapore)`);
        for (const [label, pathAndQuery] of pinnedCalls) {
          await pool.query('DELETE FROM month_projections');
          // The answer must be of an open month, or the bench would time a closed one under this label.
          const body = (await getPinned(pathAndQuery)) as { month_open?: boolean; rows?: { partial?: boolean }[] };
          if (body.month_open !== true && !body.rows?.some((row) => row.partial === true)) {
            throw new Error(`${label}: the month is not open at ${PINNED_NOW}`);
          }
          const times = Number(process.env.BENCH_COUNT ?? count);
          printRow(`${label}, from the days`, await timeCalls(() => answerPinned(pathAndQuery), times));
          const kept = await fillMonthProjections(pinnedPool);
          if (kept === 0) throw new Error('The month-projections job kept no outlet');
          const keptBody = await getPinned(pathAndQuery);
          if (JSON.stringify(keptBody) !== JSON.stringify(body)) {
            throw new Error(`${label}: the answer from month_projections differs from the one from the days`);
          }
          printRow(`${label}, kept`, await timeCalls(() => answerPinned(pathAndQuery), times));
        }
      }
    }
    say('\n-- storage');
    await printStorage(pool);
  } finally {
    await pinned?.stop();
    await pinnedPool?.end();
    await server.stop();
    await pool.end();
  }
}

/** Generates the dataset into a fresh database on `serverUrl`, then times every call. */
export async function benchMallReports(serverUrl: string, options: MallReportBenchOptions = {}): Promise<void> {
  const receipts =
    options.receipts ?? (process.env.BENCH_RECEIPTS_REPORTS ? Number(process.env.BENCH_RECEIPTS_REPORTS) : 10_000_000);
  const pool = await createDatabase(serverUrl, DATABASE);
  try {
    const started = performance.now();
    const result = await generateDemoData(pool, {
      seed: SEED,
      receipts,
      endDate: END_DATE,
      world: WORLD,
    });
    const seconds = (performance.now() - started) / 1000;
    say(
      `generated ${receipts.toLocaleString('en-US')} receipts for ${result.outlets} outlets in ${seconds.toFixed(1)} s ` +
        `(receipts simulated while the previous chunk is ingested, rollups kept in step, then VACUUM ANALYZE): ` +
        `${Math.round(receipts / seconds).toLocaleString('en-US')} receipts/s`,
    );
    await pool.end();
    await benchMallReportCalls(databaseUrl(serverUrl, DATABASE), options.count ?? 200);
    say('\n-- ingestion at the density of this dataset');
    await benchIngestionOf(databaseUrl(serverUrl, DATABASE), serverUrl, {
      seed: SEED,
      endDate: END_DATE,
      world: WORLD,
      count: Math.min(receipts, 1_000_000),
    });
  } finally {
    if (!options.keep) await dropDatabase(serverUrl, DATABASE);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  // BENCH_DATABASE_URL: time the calls on a database generated before (e.g. one kept with BENCH_KEEP=1).
  if (process.env.BENCH_DATABASE_URL) await benchMallReportCalls(process.env.BENCH_DATABASE_URL);
  else await withPostgres((url) => benchMallReports(url, { keep: process.env.BENCH_KEEP === '1' }));
}
