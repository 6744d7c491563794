/**
 * Load on a cluster: the 50-user mall report load of load.ts, first on one instance reading everything on the
 * primary, then on BENCH_CLUSTER_INSTANCES instances behind nginx (deploy/nginx.conf's site) whose report reads go
 * to a streaming hot standby (DATABASE_READ_URL), as README's "Deployment" runs them. Figures, not assertions: the
 * two load lines side by side, then for the cluster how the reads were spread (each instance's db_reads_answered:
 * the replica or the primary), the requests each instance answered (nginx's access log) and the replica's lag
 * sampled each second of the run (pg_stat_replication's replay_lag and WAL bytes behind, and the instances' own
 * db_replica_lag_seconds).
 *
 *   npx tsx tests/bench/clusterLoad.ts
 *   BENCH_LOAD_USERS=50 BENCH_LOAD_SECONDS=60 BENCH_LOAD_RECEIPTS=200000 BENCH_CLUSTER_INSTANCES=2 \
 *     npx tsx tests/bench/clusterLoad.ts
 *
 * BENCH_LOAD_USERS (default 50) and BENCH_LOAD_SECONDS (default 60, each phase) as in load.ts; BENCH_LOAD_RECEIPTS
 * the demo receipts (default: the demo's size); BENCH_CLUSTER_INSTANCES (default 2) the instances of the second
 * phase. The primary and the standby are embedded PostgreSQL servers in a temp dir (tests/support/standby.ts), the
 * proxy Debian's nginx (NGINX, default /usr/sbin/nginx; the run is skipped without it). The demo data is generated
 * once, into the primary, by the first phase's instance (as load.ts's server does); the standby receives it by
 * streaming and the load starts once it has replayed up to the primary's WAL position. Each instance keeps its
 * default pools (DATABASE_POOL_SIZE and the others pass through the environment): 29 connections to the primary, so
 * up to 3 instances fit the embedded primary's 100.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createPool, type Pool } from '../../server/db/pool.js';
import { NGINX, type Nginx, startNginx } from '../cluster/nginx.js';
import { scrapeDbMetrics } from '../support/metrics.js';
import { freePort } from '../support/postgres.js';
import { startReplication } from '../support/standby.js';
import { type LoadOptions, lastDemoDay, loadSettings, runLoad, startServer, stopServer } from './load.js';

const DATABASE = 'bench_cluster_load';
/** One download-link secret for every instance (links made on one open on another). */
const DOWNLOAD_SECRET = 'bench-cluster-load-download-secret-0123456789';
const say = (message: string) => process.stdout.write(`${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ClusterLoadOptions extends LoadOptions {
  /** Instances behind nginx in the second phase (default BENCH_CLUSTER_INSTANCES, else 2). */
  instances?: number;
}

interface Instance {
  address: string;
  child: ChildProcess;
  metricsUrl: string;
}

/** The sum of a metric's series whose labels pass `labels` (every series of it by default). */
function sumOf(values: Map<string, number>, name: string, labels: (labels: string) => boolean = () => true): number {
  let sum = 0;
  for (const [key, value] of values) {
    const brace = key.indexOf('{');
    const metric = brace < 0 ? key : key.slice(0, brace);
    if (metric === name && labels(brace < 0 ? '' : key.slice(brace))) sum += value;
  }
  return sum;
}

/** Waits until the standby has replayed the primary's WAL up to the primary's position of now; answers the ms. */
async function waitForStandby(primary: Pool, standby: Pool): Promise<{ ms: number; lsn: string }> {
  const started = performance.now();
  const { rows } = await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
  const lsn = rows[0]?.lsn ?? '0/0';
  for (;;) {
    const replayed = await standby.query<{ caught_up: boolean }>(
      'SELECT coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false) AS caught_up',
      [lsn],
    );
    if (replayed.rows[0]?.caught_up) return { ms: performance.now() - started, lsn };
    if (performance.now() - started > 600_000) throw new Error(`the standby did not replay up to ${lsn} in 10 min`);
    await sleep(200);
  }
}

interface LagSamples {
  /** pg_stat_replication's replay_lag in ms, where the primary had one (null: nothing to replay lately). */
  replayLagMs: number[];
  idle: number;
  /** WAL bytes the standby had still to replay. */
  bytesBehind: number[];
  /** The largest db_replica_lag_seconds any instance reported. */
  instanceLagSeconds: number[];
  /** Samples where every instance sent its reads to the replica (db_replica_usable 1). */
  allUsable: number;
  samples: number;
}

/** Samples the replica's lag each second until `stop` resolves. */
async function sampleLag(primary: Pool, instances: Instance[], stop: Promise<unknown>): Promise<LagSamples> {
  const samples: LagSamples = {
    replayLagMs: [],
    idle: 0,
    bytesBehind: [],
    instanceLagSeconds: [],
    allUsable: 0,
    samples: 0,
  };
  let done = false;
  void stop.finally(() => {
    done = true;
  });
  while (!done) {
    const [{ rows }, scraped] = await Promise.all([
      primary.query<{ behind: number | null; lag: number | null }>(
        `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::float8 AS behind,
           (extract(epoch FROM replay_lag) * 1000)::float8 AS lag
         FROM pg_stat_replication`,
      ),
      Promise.all(instances.map((instance) => scrapeDbMetrics(instance.metricsUrl))),
    ]);
    const row = rows[0];
    samples.samples += 1;
    if (row?.lag == null) samples.idle += 1;
    else samples.replayLagMs.push(row.lag);
    if (row?.behind != null) samples.bytesBehind.push(row.behind);
    samples.instanceLagSeconds.push(Math.max(0, ...scraped.map((values) => sumOf(values, 'db_replica_lag_seconds'))));
    if (scraped.every((values) => sumOf(values, 'db_replica_usable') === 1)) samples.allUsable += 1;
    await Promise.race([sleep(1000), stop]);
  }
  return samples;
}

const max = (values: number[]) => (values.length > 0 ? Math.max(...values) : 0);
const mean = (values: number[]) =>
  values.length > 0 ? values.reduce((sum, value) => sum + value, 0) / values.length : 0;
const count = (n: number) => n.toLocaleString('en-US');

/**
 * Phase A: one instance on the primary alone (it generates the demo data first); phase B: `instances` instances
 * behind nginx with their report reads on the standby. Every process it starts is stopped at the end, also when it
 * fails.
 */
export async function benchClusterLoad(options: ClusterLoadOptions = {}): Promise<void> {
  if (!existsSync(NGINX)) {
    say(`load on a cluster: skipped, ${NGINX} is missing (apt-get install nginx, or set NGINX to its binary)`);
    return;
  }
  const { users, seconds, receipts } = loadSettings(options);
  const instanceCount = options.instances ?? Number(process.env.BENCH_CLUSTER_INSTANCES ?? 2);
  // No stand-in for Xero: nothing of the load posts to it.
  const common = { DOWNLOAD_SECRET, XERO_DEMO: 'false' };
  const started = performance.now();
  const replication = await startReplication(DATABASE);
  const primary = createPool(replication.primaryUrl, 2);
  const standby = createPool(replication.standbyUrl, 1);
  const servers: ChildProcess[] = [];
  let nginx: Nginx | undefined;
  try {
    say(`primary and streaming standby up in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    // Phase A: one instance, every read on the primary. It fills the empty primary with the demo data.
    const generating = performance.now();
    const single = await startServer(replication.primaryUrl, { receipts, env: common });
    servers.push(single.child);
    say(`one instance with its demo data ready in ${((performance.now() - generating) / 1000).toFixed(1)} s`);
    const caughtUp = await waitForStandby(primary, standby);
    say(`standby replayed up to the primary's ${caughtUp.lsn} ${(caughtUp.ms / 1000).toFixed(1)} s later`);
    const lastDay = await lastDemoDay(replication.primaryUrl);
    say('\n-- phase A: one instance, every read on the primary');
    const one = await runLoad(single.address, lastDay, { users, seconds, label: 'one instance, primary only' });
    await stopServer(single.child);
    servers.splice(servers.indexOf(single.child), 1);

    // Phase B: the instances behind nginx, their report reads on the standby.
    say(`\n-- phase B: ${instanceCount} instances behind nginx, report reads on the streaming standby`);
    const starts = await Promise.allSettled(
      Array.from({ length: instanceCount }, async (): Promise<Instance> => {
        const metricsPort = await freePort();
        const server = await startServer(replication.primaryUrl, {
          env: {
            ...common,
            DATABASE_READ_URL: replication.standbyUrl,
            TRUST_PROXY: '127.0.0.1',
            METRICS_PORT: String(metricsPort),
          },
        });
        servers.push(server.child);
        return { ...server, metricsUrl: `http://127.0.0.1:${metricsPort}` };
      }),
    );
    // All settled first, so that every instance that did start is in `servers` to be stopped.
    const instances = starts.map((start) => {
      if (start.status === 'rejected') throw start.reason;
      return start.value;
    });
    // An instance sends no read to the standby before its first check has found it caught up.
    const waitStarted = performance.now();
    for (;;) {
      const scraped = await Promise.all(instances.map((instance) => scrapeDbMetrics(instance.metricsUrl)));
      if (scraped.every((values) => sumOf(values, 'db_replica_usable') === 1)) break;
      if (performance.now() - waitStarted > 60_000) throw new Error('an instance did not take the standby in 60 s');
      await sleep(200);
    }
    nginx = await startNginx({
      upstreams: instances.map((instance) => new URL(instance.address).host),
      port: await freePort(),
    });
    const before = (await nginx.accessLog()).length;
    const label = `${instanceCount} instances behind nginx, reads on the replica`;
    // The lag is sampled while autocannon runs, from after the sign-ins until the load ends (or fails).
    let timedRunStarted = () => {};
    const timedRun = new Promise<void>((resolve) => {
      timedRunStarted = resolve;
    });
    const run = runLoad(nginx.url, lastDay, { users, seconds, label, onStart: timedRunStarted });
    const ended = run.then(
      () => {},
      () => {},
    );
    const sampling = Promise.race([timedRun, ended]).then(() => sampleLag(primary, instances, ended));
    const [cluster, lag] = await Promise.all([run, sampling]);

    // How the reads were spread: each instance's reads on the replica and on the primary since it started.
    const reads = await Promise.all(
      instances.map(async (instance) => {
        const values = await scrapeDbMetrics(instance.metricsUrl);
        const onPrimary = sumOf(values, 'db_reads_answered', (labels) => labels === '{server="primary"}');
        return {
          port: new URL(instance.address).port,
          onPrimary,
          onReplica: sumOf(values, 'db_reads_answered') - onPrimary,
        };
      }),
    );
    const replicaReads = reads.reduce((sum, instance) => sum + instance.onReplica, 0);
    const allReads = reads.reduce((sum, instance) => sum + instance.onReplica + instance.onPrimary, 0);
    say(
      `reads since the instances started (db_reads_answered; the users' sign-in calls included): ${reads
        .map(
          (instance) => `:${instance.port} replica ${count(instance.onReplica)}, primary ${count(instance.onPrimary)}`,
        )
        .join(
          '; ',
        )}; on the replica ${allReads > 0 ? ((replicaReads / allReads) * 100).toFixed(1) : '0'} % of ${count(allReads)}`,
    );
    // The requests each instance answered, from nginx's access log (the last instance tried of a retried request).
    const answered = new Map<string, number>();
    let retried = 0;
    for (const line of (await nginx.accessLog()).slice(before)) {
      const tried = /upstream=(.*?) upstream_status=/.exec(line)?.[1]?.split(', ') ?? [];
      if (tried.length > 1) retried += 1;
      const last = tried.at(-1) ?? '-';
      answered.set(last, (answered.get(last) ?? 0) + 1);
    }
    say(
      `requests by instance (nginx's access log, sign-ins included): ${[...answered]
        .map(([upstream, n]) => `${upstream} ${count(n)}`)
        .join(', ')}; retried on another instance ${count(retried)}`,
    );
    say(
      `replica lag over ${lag.samples} samples (one a second): pg_stat_replication's replay_lag max ${max(lag.replayLagMs).toFixed(1)} ms, ` +
        `mean ${mean(lag.replayLagMs).toFixed(1)} ms (${lag.idle} samples with nothing replayed lately); ` +
        `WAL behind max ${count(max(lag.bytesBehind))} bytes; instances' db_replica_lag_seconds max ${max(lag.instanceLagSeconds).toFixed(3)} s; ` +
        `every instance reading on the replica in ${lag.allUsable} of ${lag.samples} samples`,
    );

    say('\n-- side by side');
    for (const [name, result] of [
      ['one instance, primary only', one],
      [label, cluster],
    ] as const) {
      say(
        `${name}: ${result.requests.average.toFixed(0)} requests/s, p50 ${result.latency.p50} ms, ` +
          `p99 ${result.latency.p99} ms, errors ${result.errors + result.non2xx}`,
      );
    }
  } finally {
    await nginx?.stop();
    await Promise.all(servers.map(stopServer));
    await primary.end();
    await standby.end();
    await replication.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await benchClusterLoad();
}
