import type { FastifyInstance } from 'fastify';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { createPool, type Pool } from '../../server/db/pool.js';
import {
  createMetrics,
  jobsPoolOf,
  type Metrics,
  type MetricsServer,
  startMetricsServer,
} from '../../server/metrics.js';
import { createDeviceKey } from '../../server/repositories/deviceKeys.js';
import { posReceipt } from '../support/posDevice.js';
import { seedWorld, WORLD } from './fixtures.js';
import { createTestApp, createTestDatabase, defined, type TestDatabase } from './helpers.js';

/*
 * The Prometheus metrics of an app (server/metrics.ts): requests by operation, the pools, the job queues and the
 * receipts ingested, read from the metrics listener of their own port; the public app does not serve them.
 */
let db: TestDatabase;
let app: FastifyInstance;
let metrics: Metrics;
let requestPool: Pool;
let server: MetricsServer;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await db.pool.query(
    `INSERT INTO skus (client_id, id, outlet_id, barcode, item_name, unit_price) VALUES (1, 101, 1, '0101', 'Latte', 2.5)`,
  );
  metrics = createMetrics({ defaultMetrics: true });
  requestPool = createPool(db.url, 3);
  metrics.watchPool('requests', requestPool);
  metrics.watchPool('main', db.pool);
  app = await createTestApp(requestPool, { metrics });
  server = await startMetricsServer(metrics.registry, { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await server?.close();
  await app?.close();
  await requestPool?.end();
  await db?.drop();
});

async function scrape(): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The value of a sample line (`name{labels} value`), undefined when there is no such line. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('the metrics', () => {
  it('time requests by operationId, method and status, never by URL', async () => {
    expect((await app.inject({ method: 'GET', url: '/healthz/live' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/healthz/live' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/no-such-route/12345' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/login?domain=not_a_domain' })).statusCode).toBe(400);

    const text = await scrape();
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    const count = (labels: string) => sample(text, `http_request_duration_seconds_count{${labels}}`);
    expect(count('operation="getLiveness",method="GET",status="200"')).toBe(2);
    expect(count('operation="not_found",method="GET",status="404"')).toBe(1);
    expect(count('operation="startSso",method="GET",status="400"')).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_bucket{le="+Inf",operation="getLiveness",method="GET",status="200"}'),
    ).toBe(2);
    expect(text).not.toContain('no-such-route');
    expect(text).not.toContain('/healthz');
  });

  it('report each pool by name, the Node process and the receipts ingested', async () => {
    await requestPool.query('SELECT 1');
    const text = await scrape();
    for (const pool of ['requests', 'main']) {
      for (const gauge of ['db_pool_connections', 'db_pool_idle_connections', 'db_pool_waiting_clients']) {
        expect(sample(text, `${gauge}{pool="${pool}"}`), `${gauge} ${pool}`).toBeGreaterThanOrEqual(0);
      }
    }
    expect(sample(text, 'db_pool_connections{pool="requests"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'db_pool_max_connections{pool="requests"}')).toBe(3);
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(sample(text, 'ingest_receipts_total{outcome="new"}')).toBe(0);

    const { key } = await createDeviceKey(db.pool, {
      clientId: 1,
      outletId: WORLD.outlets.cafe,
      name: 'Till',
      createdBy: null,
    });
    const post = (receipts: unknown[]) =>
      app.inject({
        method: 'POST',
        url: '/api/ingest/receipts',
        headers: { authorization: `Bearer ${key}` },
        payload: { receipts },
      });
    const start = '2026-03-02T01:00:00Z';
    expect((await post([posReceipt(1, start, [101]), posReceipt(2, start, [101])])).statusCode).toBe(200);
    expect((await post([posReceipt(2, start, [101]), posReceipt(3, start, [999])])).statusCode).toBe(200);
    const after = await scrape();
    expect(sample(after, 'ingest_receipts_total{outcome="new"}')).toBe(2);
    expect(sample(after, 'ingest_receipts_total{outcome="already_stored"}')).toBe(1);
    expect(sample(after, 'ingest_receipts_total{outcome="rejected"}')).toBe(1);
    expect(
      sample(after, 'http_request_duration_seconds_count{operation="ingestReceipts",method="POST",status="200"}'),
    ).toBe(2);
  });

  it("report pg-boss's queues by state, those without jobs too, and its pool", async () => {
    const boss = new PgBoss({
      connectionString: db.url,
      schema: 'pgboss_metrics',
      max: 2,
      supervise: false,
      schedule: false,
    });
    boss.on('error', () => {});
    await boss.start();
    try {
      await boss.createQueue('metrics-busy');
      await boss.createQueue('metrics-idle');
      await boss.send('metrics-busy', {});
      const failing = defined(await boss.send('metrics-busy', {}, { retryLimit: 0 }), 'job id');
      await boss.fail('metrics-busy', failing, { message: 'test' });
      metrics.watchJobs(boss);
      metrics.watchPool('jobs', defined(jobsPoolOf(boss), "pg-boss's pool"));

      const text = await scrape();
      expect(sample(text, 'job_queue_jobs{queue="metrics-busy",state="created"}')).toBe(1);
      expect(sample(text, 'job_queue_jobs{queue="metrics-busy",state="failed"}')).toBe(1);
      expect(sample(text, 'job_queue_jobs{queue="metrics-idle",state="created"}')).toBe(0);
      expect(sample(text, 'db_pool_max_connections{pool="jobs"}')).toBe(2);

      // Counts that cannot be read leave the gauge out of that scrape, with a warning; the rest is served.
      await boss.stop({ graceful: false, wait: true });
      const warnings: string[] = [];
      metrics.watchJobs(boss, { warn: (_details, message) => warnings.push(message) });
      const without = await scrape();
      expect(without).not.toContain('job_queue_jobs{');
      expect(without).toContain('http_request_duration_seconds_count{');
      expect(warnings).toEqual(['job queue counts not read for the metrics']);
    } finally {
      await boss.stop({ graceful: false, wait: true }).catch(() => {});
    }
  });

  it('are served on their own listener only: the public app answers /metrics 404', async () => {
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('http_request_duration_seconds');
    expect((await fetch(`http://127.0.0.1:${server.port}/other`)).status).toBe(404);
    // METRICS_PORT: none by default, on loopback unless METRICS_HOST says, never the app's port.
    expect(loadConfig({})).toMatchObject({ metricsPort: 0, metricsHost: '127.0.0.1' });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' })).toMatchObject({
      metricsPort: 9464,
      metricsHost: '10.0.0.5',
    });
    expect(() => loadConfig({ PORT: '9464', METRICS_PORT: '9464' })).toThrow(/METRICS_PORT must differ from PORT/);
    // Apps built one after another in a process each have their own registry.
    const other = await createTestApp(db.pool, { metrics: createMetrics() });
    await other.close();
  });
});
