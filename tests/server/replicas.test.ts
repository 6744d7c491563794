import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { migrate } from '../../server/db/migrate.js';
import { createPool, inTransaction, type Pool } from '../../server/db/pool.js';
import { createReadPool, type ReadPool, redactedUrl } from '../../server/db/replicas.js';
import { createMetrics } from '../../server/metrics.js';
import { ingestReceipts } from '../../server/repositories/ingestion.js';
import { type Replication, startReplication } from '../support/standby.js';
import { grantOperatorPermissions, PASSWORD, receiptInput, seedWorld, WORLD } from './fixtures.js';
import { Agent, waitUntil } from './helpers.js';

/*
 * Report reads on a real hot standby fed by PostgreSQL's streaming replication (tests/support/standby.ts): they go
 * to the standby while it is up and caught up, to the primary while it is stopped or behind, and back once it has
 * caught up; no call answers an error meanwhile. Writes and sign-in stay on the primary.
 */

let replication: Replication;
let primary: Pool;
let reads: ReadPool;
let app: FastifyInstance;
let agent: Agent;
const MAX_LAG_MS = 1000;

const { central } = WORLD.malls;
const report = `/api/mall_report/daily?client_id=${WORLD.clients.zenith}&mall_ids=${central}&start_time=2026-03-01&end_time=2026-03-07`;

/** GMV of the report's days, as the API answers it (asserting a 200). */
async function gmv(): Promise<number> {
  const response = await agent.get(report);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { data: { gmv: number }[] }).data.reduce((sum, day) => sum + day.gmv, 0);
}

const ingest = (amount: number, iso: string) =>
  inTransaction(primary, (client) =>
    ingestReceipts(client, WORLD.clients.zenith, [receiptInput(WORLD.outlets.cafe, iso, amount, [['VISA', amount]])]),
  );

const usable = () => reads.status()[0]?.usable === true;

beforeAll(async () => {
  replication = await startReplication('mall_replicas');
  primary = createPool(replication.primaryUrl, 4);
  await migrate(primary);
  await seedWorld(primary);
  await grantOperatorPermissions(primary, ['/api/mall_report/daily::Read']);
  await ingest(100, '2026-03-02T04:00:00Z');
  reads = createReadPool({
    primary,
    replicaUrls: [replication.standbyUrl],
    maxLagMs: MAX_LAG_MS,
    poolSize: 2,
    checkEveryMs: 100,
  });
  app = await buildApp({ pool: primary, reads, config: { ...loadConfig({}), staticDir: '/nonexistent' } });
  await app.ready();
  agent = new Agent(app);
  expect((await agent.login(WORLD.users.operator1, PASSWORD)).statusCode).toBe(200);
}, 180_000);

afterAll(async () => {
  await app?.close();
  await reads?.end();
  await primary?.end();
  await replication?.stop();
}, 60_000);

describe('report reads on a streaming replica', () => {
  it('go to the replica once it has caught up, with what the primary holds', async () => {
    await waitUntil('the replica takes reads', usable);
    const before = reads.status()[0]?.reads ?? 0;
    expect(await gmv()).toBe(100);
    expect(reads.status()[0]?.reads).toBeGreaterThan(before);
    // What Prometheus scrapes of it: in use, caught up, its password hidden.
    const metrics = createMetrics();
    metrics.watchReplicas(reads.status, reads.primaryReads);
    const text = await metrics.registry.metrics();
    const label = `replica="${redactedUrl(replication.standbyUrl)}"`;
    expect(label).toContain(':***@');
    expect(text).toContain(`db_replica_usable{${label}} 1`);
    expect(text).toContain(`db_replica_lag_seconds{${label}} 0`);
    expect(text).toMatch(/db_reads_answered\{server="primary"\} \d+/);
  });

  it('answer a read that meets a stopping replica from the primary, before any check has seen it stop', async () => {
    // A pool whose checks run only when asked: the read below is the first to meet the stopped replica.
    const unchecked = createReadPool({
      primary,
      replicaUrls: [replication.standbyUrl],
      maxLagMs: MAX_LAG_MS,
      poolSize: 1,
      checkEveryMs: 3_600_000,
    });
    try {
      await waitUntil('the replica takes reads', async () => {
        await unchecked.check();
        return unchecked.status()[0]?.usable === true;
      });
      // A connection to the replica open in the pool, as a serving instance has.
      await unchecked.query('SELECT 1');
      expect(unchecked.status()[0]?.reads).toBe(1);
      await replication.stopStandby();
      const { rows } = await unchecked.query<{ n: number }>('SELECT count(*)::int AS n FROM receipts');
      expect(rows[0]?.n).toBe(1);
      expect(unchecked.primaryReads()).toBe(1);
      expect(unchecked.status()[0]?.usable).toBe(false);
    } finally {
      await unchecked.end();
      await replication.startStandby();
    }
  }, 60_000);

  it('fall back to the primary, with no error, while the replica is stopped, and return once it is back', async () => {
    await replication.stopStandby();
    // The first read after the stop meets the replica's closed connections: it is answered by the primary.
    const onPrimary = reads.primaryReads();
    expect(await gmv()).toBe(100);
    expect(reads.primaryReads()).toBeGreaterThan(onPrimary);
    await waitUntil('the replica is skipped', () => !usable());
    // A write meanwhile: the primary has it, and so will the replica once it has streamed it.
    await ingest(50, '2026-03-03T04:00:00Z');
    expect(await gmv()).toBe(150);
    await replication.startStandby();
    await waitUntil('the replica takes reads again', usable);
    const before = reads.status()[0]?.reads ?? 0;
    expect(await gmv()).toBe(150);
    expect(reads.status()[0]?.reads).toBeGreaterThan(before);
  }, 60_000);

  it('skip a replica that falls behind by more than the bound, and use it again once it has caught up', async () => {
    await waitUntil('the replica takes reads', usable);
    await replication.onStandby('SELECT pg_wal_replay_pause()');
    try {
      // The primary moves on; the replica's last replayed transaction grows older than the bound.
      await ingest(25, '2026-03-04T04:00:00Z');
      await waitUntil('the replica is skipped for its lag', () => !usable());
      expect(reads.status()[0]?.lagSeconds).toBeGreaterThan(MAX_LAG_MS / 1000);
      // Reads meanwhile are the primary's: they already see the new receipt.
      expect(await gmv()).toBe(175);
    } finally {
      await replication.onStandby('SELECT pg_wal_replay_resume()');
    }
    await waitUntil('the replica takes reads again', usable);
    expect(reads.status()[0]?.lagSeconds).toBe(0);
    expect(await gmv()).toBe(175);
  }, 60_000);
});
