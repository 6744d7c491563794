import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lifecycle } from '../../server/routes/types.js';
import { createTestApp, createTestDatabase, type TestDatabase } from './helpers.js';

/*
 * What a proxy and a supervisor read of an instance: /healthz/live (the process answers), /healthz/ready (the
 * database answers, the migrations are applied, the server is not stopping), and a request id unique across
 * instances on every answer.
 */

let db: TestDatabase;
let app: FastifyInstance;
const lifecycle: Lifecycle = { stopping: false };

beforeAll(async () => {
  db = await createTestDatabase();
  app = await createTestApp(db.pool, { lifecycle });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

describe('health', () => {
  it('is live and ready on a migrated database', async () => {
    expect((await get('/healthz/live')).json()).toEqual({ status: 'ok' });
    const ready = await get('/healthz/ready');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok' });
  });

  it('is not ready while a migration this server knows is not applied, and says which', async () => {
    await db.pool.query(`DELETE FROM schema_migrations WHERE name = '029_refund_voucher_covering_key.sql'`);
    try {
      const ready = await get('/healthz/ready');
      expect(ready.statusCode).toBe(503);
      expect(ready.json().message).toBe('Migrations not applied: 029_refund_voucher_covering_key.sql.');
      expect((await get('/healthz/live')).statusCode).toBe(200);
    } finally {
      await db.pool.query(`INSERT INTO schema_migrations (name) VALUES ('029_refund_voucher_covering_key.sql')`);
    }
  });

  it('is not ready from the moment it stops, while it still answers', async () => {
    lifecycle.stopping = true;
    try {
      const ready = await get('/healthz/ready');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ statusCode: 503, message: 'The server is stopping.' });
      expect((await get('/healthz/live')).statusCode).toBe(200);
    } finally {
      lifecycle.stopping = false;
    }
  });
});

describe('request ids', () => {
  it('answers each request with its own random id, never a per-process counter', async () => {
    const ids = await Promise.all([1, 2, 3].map(async () => (await get('/healthz/live')).headers['x-request-id']));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(3);
  });

  it('keeps the proxy’s X-Request-Id when it is a plain token, and replaces anything else', async () => {
    expect((await get('/healthz/live', { 'x-request-id': 'nginx-7f3a.01:2' })).headers['x-request-id']).toBe(
      'nginx-7f3a.01:2',
    );
    for (const bad of ['<script>', 'a'.repeat(129), 'two words']) {
      const id = (await get('/healthz/live', { 'x-request-id': bad })).headers['x-request-id'];
      expect(id).not.toBe(bad);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
