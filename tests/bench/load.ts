/**
 * Load: 50 signed-in users (real sessions, several per demo account) running the mall report mix of the Shopper
 * Connect pages against the server of `npm start` (a child process, as deployed) on the demo data, for 60 s with
 * autocannon. Prints requests/s, p50, p99 and errors.
 *
 *   npx tsx tests/bench/load.ts          (embedded PostgreSQL in a temp dir unless DATABASE_URL is set)
 *   BENCH_LOAD_USERS=50 BENCH_LOAD_SECONDS=60 BENCH_LOAD_RECEIPTS=180000 npx tsx tests/bench/load.ts
 *   BENCH_LOAD_DATABASE_URL=postgres://…/db npx tsx tests/bench/load.ts   (a database kept from before: demo data
 *     generated on its first run, kept after)
 *
 * The goal: p99 ≤ 200 ms and no error with 50 users for 60 s on two cores.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { createPool } from '../../server/db/pool.js';
import { createDatabase, databaseUrl, dropDatabase, freePort, withPostgres } from '../support/postgres.js';
import { signIn } from './session.js';

const DATABASE = 'bench_load';
const say = (message: string) => process.stdout.write(`${message}\n`);
/** The accounts the users sign in as (each several times): they see the mall reports of one or both clients. */
const ACCOUNTS = ['admin@demo.mall', 'operator@demo.mall', 'operator2@demo.mall', 'showcase@demo.mall'];

export interface LoadOptions {
  users?: number;
  seconds?: number;
  /** Demo receipts the server generates into its empty database (default: the demo's size). */
  receipts?: number;
}

/** The load's settings: those given, else BENCH_LOAD_USERS (50), BENCH_LOAD_SECONDS (60), BENCH_LOAD_RECEIPTS. */
export function loadSettings(options: LoadOptions = {}): { users: number; seconds: number; receipts?: number } {
  return {
    users: options.users ?? Number(process.env.BENCH_LOAD_USERS ?? 50),
    seconds: options.seconds ?? Number(process.env.BENCH_LOAD_SECONDS ?? 60),
    receipts:
      options.receipts ?? (process.env.BENCH_LOAD_RECEIPTS ? Number(process.env.BENCH_LOAD_RECEIPTS) : undefined),
  };
}

/**
 * Starts `server/main.ts` on the database and waits until it is ready; on an empty database it generates the demo
 * data first (`receipts` of them, else the demo's size). `env` is added to the server's environment (a replica, a
 * metrics port).
 */
export async function startServer(
  url: string,
  options: { receipts?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<{ address: string; child: ChildProcess }> {
  const { receipts, env } = options;
  const port = await freePort();
  const child = spawn(path.resolve('node_modules/.bin/tsx'), ['server/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SSO_DEMO: 'false',
      STATIC_DIR: '/nonexistent',
      ...(receipts ? { DEMO_RECEIPTS: String(receipts) } : {}),
      ...env,
    },
    // Its records (JSON lines, warnings and worse at LOG_LEVEL warn) go with the bench's output.
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // Ready once /healthz/ready answers 200 (the demo data generated, the migrations applied).
  const address = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before it was ready`);
    const ready = await fetch(`${address}/healthz/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return { address, child };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Stops a server of `startServer` (SIGTERM) and waits until it has exited. */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function getJson<T>(address: string, cookie: string, pathAndQuery: string): Promise<T> {
  const response = await fetch(`${address}${pathAndQuery}`, { headers: { cookie } });
  if (response.status !== 200) throw new Error(`${pathAndQuery}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The calls the mall report pages make for one client's malls: the default 7 days and a month, whole days and hours. */
function reportMix(clientId: number, mallIds: number[], outletId: number, lastDay: string): string[] {
  const day = (offset: number) =>
    new Date(Date.parse(`${lastDay}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
  const week = new URLSearchParams({ client_id: String(clientId), start_time: day(-6), end_time: lastDay });
  for (const id of mallIds) week.append('mall_ids', String(id));
  const month = new URLSearchParams(week);
  month.set('start_time', day(-30));
  const year = new URLSearchParams(week);
  year.set('start_time', day(-364));
  const hours = 'start_hour=10&end_hour=21';
  const outlet = `client_id=${clientId}&outlet_id=${outletId}&start_time=${day(-6)}&end_time=${lastDay}`;
  return [
    `/api/mall_report/daily?${week}`,
    `/api/mall_report/mall?${week}&rank_by=gmv`,
    `/api/mall_report/payment_method/overall?${week}&limit=10`,
    `/api/mall_report/outlet?${week}&group_by=outlet`,
    `/api/mall_report/daily?${month}&${hours}`,
    `/api/mall_report/monthly?${year}`,
    `/api/mall_report/peak_hour?${week}&time_range=daily`,
    `/api/mall_report/peak_hour?${week}&${hours}&time_range=hourly`,
    `/api/mall_report/member/overall?${week}&time_range=daily`,
    `/api/mall_report/member/outlet?${week}&member=true&rank_by=gmv&limit=10`,
    `/api/mall_report/category?${month}`,
    `/api/mall_report/level?${week}`,
    `/api/mall_report/outlet/overallComparison?${outlet}`,
    `/api/mall_report/outlet/daily?${outlet}&${hours}`,
  ];
}

/** The last day of the demo data on the database at `url` ('YYYY-MM-DD'): the reports' date ranges end on it. */
export async function lastDemoDay(url: string): Promise<string> {
  const pool = createPool(url, 1);
  const { rows } = await pool
    .query<{ last: string }>(`SELECT to_char(max(local_day), 'YYYY-MM-DD') AS last FROM rollup_mall_day_hours`)
    .finally(() => pool.end());
  const lastDay = rows[0]?.last;
  if (!lastDay) throw new Error('the demo data has no mall day');
  return lastDay;
}

/**
 * Runs the load against a server (or a proxy in front of servers) already holding the demo data; its line of
 * figures starts with `label` (default 'load'). `onStart` is called once the users are signed in, as the timed
 * run begins.
 */
export async function runLoad(
  address: string,
  lastDay: string,
  options: { users: number; seconds: number; label?: string; onStart?: () => void },
) {
  const users: { cookie: string; paths: string[] }[] = [];
  for (let i = 0; i < options.users; i += 1) {
    const cookie = await signIn(address, ACCOUNTS[i % ACCOUNTS.length] ?? 'admin@demo.mall');
    const clients = await getJson<{ id: number }[]>(address, cookie, '/clients');
    const client = clients[i % clients.length];
    if (!client) throw new Error('a user sees no client');
    const malls = await getJson<{ id: number }[]>(address, cookie, `/malls?client_id=${client.id}`);
    const [outlet] = await getJson<{ id: number }[]>(address, cookie, `/outlets?client_id=${client.id}`);
    if (!outlet || malls.length === 0) throw new Error(`client ${client.id} has no mall or outlet`);
    const paths = reportMix(
      client.id,
      malls.map((mall) => mall.id),
      outlet.id,
      lastDay,
    );
    // Users start at different calls of the mix, as pages load at different moments.
    users.push({ cookie, paths: [...paths.slice(i % paths.length), ...paths.slice(0, i % paths.length)] });
  }
  let next = 0;
  options.onStart?.();
  const result = await autocannon({
    url: address,
    connections: options.users,
    duration: options.seconds,
    timeout: 10,
    setupClient: (client) => {
      const user = users[next++ % users.length];
      if (!user) return;
      client.setRequests(
        user.paths.map((pathAndQuery) => ({ method: 'GET', path: pathAndQuery, headers: { cookie: user.cookie } })),
      );
    },
  });
  const errors = result.errors + result.non2xx;
  say(
    `${options.label ?? 'load'}: ${options.users} signed-in users, ${options.seconds} s, mall report mix of ${users[0]?.paths.length ?? 0} calls: ` +
      `${result.requests.average.toFixed(0)} requests/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
      `max ${result.latency.max} ms, errors ${errors} (non-2xx ${result.non2xx}, connection errors ${result.errors}, timeouts ${result.timeouts}), ` +
      `${result['2xx'].toLocaleString('en-US')} answered`,
  );
  return result;
}

/** The server of `npm start` on the database (generating the demo data when it is empty), then the load. */
export async function benchLoadOn(url: string, options: LoadOptions = {}): Promise<void> {
  const { users, seconds, receipts } = loadSettings(options);
  const started = performance.now();
  const { address, child } = await startServer(url, { receipts });
  try {
    say(`server of npm start with its demo data ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await runLoad(address, await lastDemoDay(url), { users, seconds });
  } finally {
    await stopServer(child);
  }
}

/** A fresh database on `serverUrl` for the load, dropped after. */
export async function benchLoad(serverUrl: string, options: LoadOptions = {}): Promise<void> {
  await (await createDatabase(serverUrl, DATABASE)).end();
  try {
    await benchLoadOn(databaseUrl(serverUrl, DATABASE), options);
  } finally {
    await dropDatabase(serverUrl, DATABASE);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  if (process.env.BENCH_LOAD_DATABASE_URL) await benchLoadOn(process.env.BENCH_LOAD_DATABASE_URL);
  else await withPostgres((serverUrl) => benchLoad(serverUrl));
}
