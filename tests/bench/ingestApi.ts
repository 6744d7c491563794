/**
 * Receipts ingestion over HTTP on loopback: POST /api/ingest/receipts with batches of 1,000, from several
 * point-of-sale devices (one outlet each) at once, to the server of `npm start` (server/main.ts, its own process)
 * on a database with the demo data. Prints receipts per second (the goal: at least 20,000) and the batch latency.
 *
 *   npx tsx tests/bench/ingestApi.ts       (embedded PostgreSQL in a temp dir unless DATABASE_URL is set)
 *   BENCH_INGEST_RECEIPTS=400000 BENCH_INGEST_DEVICES=4 npx tsx tests/bench/ingestApi.ts
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateDemoData } from '../../server/demo/generate.js';
import { createDeviceKey } from '../../server/repositories/deviceKeys.js';
import { type PosReceipt, posReceipt } from '../support/posDevice.js';
import { createDatabase, databaseUrl, dropDatabase, freePort, withPostgres } from '../support/postgres.js';
import { startServerProcess } from '../support/serverProcess.js';
import { percentile } from './stats.js';

const DATABASE = 'bench_ingest_api';
const BATCH = 1000;
const say = (message: string) => process.stdout.write(`${message}\n`);

/** A printed receipt of typical length (about 600 characters). */
const rawReceipt = (n: number) =>
  [
    'THE DEMO OUTLET',
    '1 Demo Street #01-23',
    `Receipt T-${n}`,
    ...Array.from({ length: 12 }, (_, i) => `${`${i + 1} x Item number ${i + 1}`.padEnd(36, '.')} 12.50`),
    `${'TOTAL'.padEnd(36, ' ')} 150.00`,
    'Thank you, please come again',
  ].join('\n');

export async function benchIngestApi(
  serverUrl: string,
  options: { receipts?: number; devices?: number } = {},
): Promise<void> {
  const total = options.receipts ?? Number(process.env.BENCH_INGEST_RECEIPTS ?? 200_000);
  const devices = options.devices ?? Number(process.env.BENCH_INGEST_DEVICES ?? 4);
  const pool = await createDatabase(serverUrl, DATABASE);
  let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
  try {
    await generateDemoData(pool, { seed: 20261121, receipts: 10_000, endDate: '2026-10-31' });
    const { rows: outlets } = await pool.query<{ client_id: number; outlet_id: number; skus: number[] }>(
      `SELECT client_id, outlet_id, (array_agg(id ORDER BY id))[1:4] AS skus
       FROM skus GROUP BY client_id, outlet_id HAVING count(*) >= 4 ORDER BY outlet_id LIMIT $1`,
      [devices],
    );
    const keys = await Promise.all(
      outlets.map(async (outlet) => ({
        outlet,
        key: (
          await createDeviceKey(pool, {
            clientId: outlet.client_id,
            outletId: outlet.outlet_id,
            name: 'Bench till',
            createdBy: null,
          })
        ).key,
      })),
    );
    // The bodies are built before the clock starts: the figure is the server's, not the client's JSON.
    const perDevice = Math.ceil(total / BATCH / keys.length);
    const bodies = keys.map(({ outlet }) =>
      Array.from({ length: perDevice }, (_, b) => {
        const receipts: PosReceipt[] = Array.from({ length: BATCH }, (_, i) => {
          const n = b * BATCH + i;
          return posReceipt(n, '2026-10-01T01:00:00Z', outlet.skus.slice(0, 1 + (n % 4)), {
            datetime: new Date(Date.parse('2026-10-01T01:00:00Z') + n * 20_000).toISOString(),
            raw_receipt: rawReceipt(n),
          });
        });
        return JSON.stringify({ receipts });
      }),
    );
    const sent = perDevice * BATCH * keys.length;
    const bytes = bodies.flat().reduce((sum, body) => sum + body.length, 0);
    server = await startServerProcess({ databaseUrl: databaseUrl(serverUrl, DATABASE), port: await freePort() });
    const url = `${server.url}/api/ingest/receipts`;
    const post = async (key: string, body: string) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body,
      });
      const answer = (await response.json()) as { new?: number; rejected?: unknown[] };
      if (response.status !== 200 || answer.new !== BATCH) {
        throw new Error(`batch answered ${response.status}: ${JSON.stringify(answer).slice(0, 300)}`);
      }
    };
    const latencies: number[] = [];
    const started = performance.now();
    await Promise.all(
      keys.map(async ({ key }, d) => {
        for (const body of bodies[d] ?? []) {
          const t0 = performance.now();
          await post(key, body);
          latencies.push(performance.now() - t0);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    say(
      `${sent.toLocaleString('en-US')} receipts (${(bytes / sent).toFixed(0)} bytes of JSON each) from ${keys.length} devices, ` +
        `batches of ${BATCH.toLocaleString('en-US')}: ${Math.round(sent / seconds).toLocaleString('en-US')} receipts/s ` +
        `(${seconds.toFixed(1)} s; goal >= 20,000/s)`,
    );
    say(
      `  batch latency p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms`,
    );
    const again = performance.now();
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys[0]?.key}`, 'content-type': 'application/json' },
      body: bodies[0]?.[0],
    });
    const answer = (await response.json()) as { new: number; already_stored: number };
    say(
      `  the first batch sent again: ${answer.new} new, ${answer.already_stored} already stored, ` +
        `${(performance.now() - again).toFixed(0)} ms`,
    );
  } finally {
    await server?.kill();
    await pool.end();
    await dropDatabase(serverUrl, DATABASE);
  }
}

if (import.meta.url === pathToFileURL(path.resolve(process.argv[1] ?? '')).href) {
  await withPostgres((serverUrl) => benchIngestApi(serverUrl));
}
