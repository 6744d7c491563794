import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type PgBoss from 'pg-boss';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ReplicaStatus } from './db/replicas.js';

/**
 * Prometheus metrics of one server instance: request rate and latency by operation, the database pools, the job
 * queues, the receipts ingested and the Node process. A registry of its own per app (never prom-client's global
 * one), so that tests build several apps in one process.
 *
 * They are served by `startMetricsServer` on a listener of their own (METRICS_PORT, on loopback or METRICS_HOST),
 * never on the public app's port: /metrics is no operation of openapi.yaml and no entry of the access matrix, and
 * the public app answers it 404 (app.ts).
 *
 * More metrics join `registry` (`registers: [metrics.registry]`); the replicas' lag and use come through
 * `watchReplicas`.
 */
export interface Metrics {
  registry: Registry;
  /** Requests by operationId ('static', 'not_found' for the others), method and status code. */
  requestDuration: Histogram<'operation' | 'method' | 'status'>;
  /** Receipts of device batches (POST /api/ingest/receipts), by outcome: new, already_stored, rejected. */
  ingestedReceipts: Counter<'outcome'>;
  /** Reports a pool's connections under `name` on every scrape. */
  watchPool: (name: string, pool: PoolCounts) => void;
  /** Reports pg-boss's queues on every scrape (their jobs by state), read within JOB_COUNTS_TIMEOUT_MS. */
  watchJobs: (boss: PgBoss, log?: { warn: (object: object, message: string) => void }) => void;
  /** Reports each replica of DATABASE_READ_URL on every scrape: its lag, whether it takes reads, its reads. */
  watchReplicas: (status: () => readonly ReplicaStatus[], primaryReads: () => number) => void;
}

/** What a pg Pool tells of its connections (pg-boss's pool too). */
export interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options: { max?: number };
}

/**
 * Latency buckets in seconds, up to the request timeout's order (REQUEST_TIMEOUT_MS, 10 s by default); a request
 * cut at the timeout lands in the last finite one.
 */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** A scrape waits this long for the job counts; past it, the queue gauge is left out of that scrape. */
export const JOB_COUNTS_TIMEOUT_MS = 2_000;

/** The job states a queue's gauge reports (pg-boss's, without its total). */
const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;

/** pg-boss 10's count of jobs by queue and state (the one of its 'monitor-states' event), not in its typings. */
interface CountsStates {
  countStates: () => Promise<PgBoss.MonitorStates>;
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  // The process's CPU, memory, event loop lag, handles and garbage collection: the instance's own, not per app.
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry });

  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request, by openapi operationId (static, not_found for the others), method and status',
    labelNames: ['operation', 'method', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const ingestedReceipts = new Counter({
    name: 'ingest_receipts_total',
    help: 'Receipts sent by point-of-sale devices, by outcome: new, already_stored, rejected',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const outcome of ['new', 'already_stored', 'rejected']) ingestedReceipts.inc({ outcome }, 0);

  const pools = new Map<string, PoolCounts>();
  const poolGauge = (name: string, help: string, read: (pool: PoolCounts) => number | undefined) =>
    new Gauge({
      name,
      help,
      labelNames: ['pool'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const [pool, counts] of pools) {
          const value = read(counts);
          if (value !== undefined) this.set({ pool }, value);
        }
      },
    });
  poolGauge('db_pool_connections', 'Connections the pool holds open', (pool) => pool.totalCount);
  poolGauge('db_pool_idle_connections', 'Open connections of the pool not in use', (pool) => pool.idleCount);
  poolGauge('db_pool_waiting_clients', 'Queries waiting for a connection of the pool', (pool) => pool.waitingCount);
  poolGauge('db_pool_max_connections', 'The most connections the pool opens', (pool) => pool.options.max);

  let jobs: { boss: PgBoss; log?: { warn: (object: object, message: string) => void } } | undefined;
  // One reading at a time: scrapes that come while the database is slow share it rather than pile up.
  let reading: Promise<Map<string, PgBoss.MonitorState>> | undefined;
  new Gauge({
    name: 'job_queue_jobs',
    help: 'Jobs of each pg-boss queue by state (created and retry: waiting). The database is shared: every instance reports the same numbers',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      if (!jobs) return;
      const { boss, log } = jobs;
      reading ??= countJobs(boss).finally(() => {
        reading = undefined;
      });
      let timer: NodeJS.Timeout | undefined;
      try {
        const counts = await Promise.race([
          reading,
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error('timed out')), JOB_COUNTS_TIMEOUT_MS);
          }),
        ]);
        for (const [queue, states] of counts) {
          for (const state of JOB_STATES) this.set({ queue, state }, states[state]);
        }
      } catch (error) {
        log?.warn({ err: error }, 'job queue counts not read for the metrics');
      } finally {
        clearTimeout(timer);
      }
    },
  });

  return {
    registry,
    requestDuration,
    ingestedReceipts,
    watchReplicas: (status, primaryReads) => {
      new Gauge({
        name: 'db_replica_lag_seconds',
        help: 'How far each replica of DATABASE_READ_URL replays behind the primary (absent: not reachable)',
        labelNames: ['replica'],
        registers: [registry],
        collect() {
          this.reset();
          for (const replica of status()) {
            if (replica.lagSeconds !== undefined) this.set({ replica: replica.url }, replica.lagSeconds);
          }
        },
      });
      new Gauge({
        name: 'db_replica_usable',
        help: 'Whether the report reads go to the replica (1) or skip it (0: down, not a standby, or behind)',
        labelNames: ['replica'],
        registers: [registry],
        collect() {
          this.reset();
          for (const replica of status()) this.set({ replica: replica.url }, replica.usable ? 1 : 0);
        },
      });
      new Gauge({
        name: 'db_reads_answered',
        help: 'Report reads answered, by the replica that answered them or the primary',
        labelNames: ['server'],
        registers: [registry],
        collect() {
          this.reset();
          this.set({ server: 'primary' }, primaryReads());
          for (const replica of status()) this.set({ server: replica.url }, replica.reads);
        },
      });
    },
    watchPool: (name, pool) => {
      pools.set(name, pool);
    },
    watchJobs: (boss, log) => {
      jobs = { boss, log };
    },
  };
}

/** Every queue's jobs by state: the queues pg-boss knows, those without jobs at 0. */
async function countJobs(boss: PgBoss): Promise<Map<string, PgBoss.MonitorState>> {
  const [queues, states] = await Promise.all([boss.getQueues(), (boss as unknown as CountsStates).countStates()]);
  const none: PgBoss.MonitorState = { all: 0, created: 0, retry: 0, active: 0, completed: 0, cancelled: 0, failed: 0 };
  const counts = new Map(queues.map((queue) => [queue.name, none]));
  for (const [queue, state] of Object.entries(states.queues)) counts.set(queue, { ...none, ...state });
  return counts;
}

/** The pool pg-boss opened for itself (its `getDb().pool`, not in its typings), when it is one. */
export function jobsPoolOf(boss: PgBoss): PoolCounts | undefined {
  const pool = (boss.getDb() as { pool?: Partial<PoolCounts> }).pool;
  return typeof pool?.totalCount === 'number' ? (pool as PoolCounts) : undefined;
}

/**
 * The operation label of a request: its operationId; for the others 'not_found' (no route: 404, or 405 on a
 * path of the contract) or 'static' (the web app's files and page, the API docs). Never the URL, whose values
 * (ids, dates, any path a scanner tries) would make a series each.
 */
function operationOf(request: FastifyRequest, reply: FastifyReply): string {
  const operation = request.routeOptions.config.operation;
  if (operation) return operation.operationId;
  return reply.statusCode === 404 || reply.statusCode === 405 ? 'not_found' : 'static';
}

/** Times every answered request into `http_request_duration_seconds`. */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.requestDuration.observe(
      { operation: operationOf(request, reply), method: request.method, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
}

export interface MetricsServer {
  /** The port it listens on (the one asked for, or the system's choice for 0). */
  port: number;
  close: () => Promise<void>;
}

/**
 * The metrics listener: GET /metrics in Prometheus's text format, anything else 404. Plain node:http, apart from
 * the public app: no session, no CSRF, no access rule applies, so it must only be reachable by the scraper.
 */
export async function startMetricsServer(
  registry: Registry,
  { host, port }: { host: string; port: number },
): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    const pathname = (request.url ?? '').split('?')[0];
    if (pathname !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the metrics are at GET /metrics.\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('The metrics could not be read.\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
