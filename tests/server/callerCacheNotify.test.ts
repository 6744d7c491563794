import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CacheListener } from '../../server/auth/cacheInvalidation.js';
import { createPool, type Pool } from '../../server/db/pool.js';
import { grantOperatorPermissions, PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { type Agent, createTestDatabase, type TestDatabase, waitUntil } from './helpers.js';

/*
 * Two server instances on one database, each with its own caller cache and its own listener: a change made through
 * one (or at the database) is seen by the other at once, not after the cache's 10 s. The server modules are loaded
 * afresh for each instance (vi.resetModules), since the cache lives in a module, one a process.
 */

interface Instance {
  app: FastifyInstance;
  pool: Pool;
  listener: CacheListener;
  newAgent: () => Agent;
}

const silent = { info: () => {}, error: () => {} };
let db: TestDatabase;
let a: Instance;
let b: Instance;

async function startInstance(): Promise<Instance> {
  vi.resetModules();
  const helpers = await import('./helpers.js');
  const { listenForCallerChanges } = await import('../../server/auth/cacheInvalidation.js');
  const pool = createPool(db.url, 5);
  const app = await helpers.createTestApp(pool);
  const listener = await listenForCallerChanges({ connectionString: db.url, log: silent, retryMs: 300 });
  return { app, pool, listener, newAgent: () => new helpers.Agent(app) };
}

async function stopInstance(instance: Instance | undefined) {
  if (!instance) return;
  await instance.listener.stop();
  await instance.app.close();
  await instance.pool.end();
}

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  // The operators may deactivate the tenant users of their client.
  await grantOperatorPermissions(db.pool, ['/api/tenantManagement/users/status::Update']);
  a = await startInstance();
  b = await startInstance();
});
afterAll(async () => {
  await stopInstance(a);
  await stopInstance(b);
  await db.drop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The status of `call` once it answers `expected`, asked again every 20 ms for up to a second; else its last. */
async function statusWithinASecond(call: () => Promise<{ statusCode: number }>, expected: number): Promise<number> {
  const until = Date.now() + 1000;
  let status = (await call()).statusCode;
  while (status !== expected && Date.now() < until) {
    await sleep(20);
    status = (await call()).statusCode;
  }
  return status;
}

/** The same browser's call on another instance (a proxy sends each request where it likes). */
const callOn =
  (instance: Instance, cookie: string, url = '/clients') =>
  () =>
    instance.app.inject({ method: 'GET', url, headers: { cookie } });

async function setDisabled(email: string, disabled: boolean) {
  await db.pool.query('UPDATE users SET disabled = $2 WHERE email = $1', [email, disabled]);
}

describe('the caller cache across instances', () => {
  it('forgets a user deactivated through the other instance: their next call answers 401', async () => {
    const tenant = b.newAgent();
    expect((await tenant.login(WORLD.users.tenant, PASSWORD)).statusCode).toBe(200);
    expect((await tenant.get('/clients')).statusCode).toBe(200);
    const operator = a.newAgent();
    expect((await operator.login(WORLD.users.operator1, PASSWORD)).statusCode).toBe(200);
    const { rows } = await db.pool.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [WORLD.users.tenant]);
    const off = await operator.request('PUT', '/api/tenantManagement/users/status', {
      body: { client_id: WORLD.clients.zenith, user_id: rows[0]?.id, active: false },
    });
    expect(off.statusCode).toBe(200);
    try {
      expect(await statusWithinASecond(() => tenant.get('/clients'), 401)).toBe(401);
    } finally {
      await setDisabled(WORLD.users.tenant, false);
    }
  });

  it('forgets a user deactivated at the database, whose sessions stay', async () => {
    const operator = b.newAgent();
    expect((await operator.login(WORLD.users.operator2, PASSWORD)).statusCode).toBe(200);
    expect((await operator.get('/clients')).statusCode).toBe(200);
    await setDisabled(WORLD.users.operator2, true);
    try {
      expect(await statusWithinASecond(() => operator.get('/clients'), 401)).toBe(401);
    } finally {
      await setDisabled(WORLD.users.operator2, false);
    }
  });

  it('forgets the holders of a role whose permission is removed: their next call answers 403', async () => {
    const operator = b.newAgent();
    expect((await operator.login(WORLD.users.operator1, PASSWORD)).statusCode).toBe(200);
    expect((await operator.get('/clients')).statusCode).toBe(200);
    await a.pool.query(`DELETE FROM role_api_permissions WHERE role_id = 2 AND permission = '/clients::Read'`);
    try {
      expect(await statusWithinASecond(() => operator.get('/clients'), 403)).toBe(403);
    } finally {
      await grantOperatorPermissions(db.pool, ['/clients::Read']);
    }
    expect(await statusWithinASecond(() => operator.get('/clients'), 200)).toBe(200);
  });

  it('ends on every instance a session logged out on one', async () => {
    const browser = a.newAgent();
    expect((await browser.login(WORLD.users.operator1, PASSWORD)).statusCode).toBe(200);
    const cookie = browser.cookie;
    expect((await callOn(b, cookie)()).statusCode).toBe(200);
    expect((await browser.get('/api/logout')).statusCode).toBe(200);
    expect(await statusWithinASecond(callOn(b, cookie), 401)).toBe(401);
  });

  it('listens again after losing its connection, and forgets what it may have missed meanwhile', async () => {
    const operator = b.newAgent();
    expect((await operator.login(WORLD.users.operator2, PASSWORD)).statusCode).toBe(200);
    expect((await operator.get('/clients')).statusCode).toBe(200);
    await db.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = 'mall-analytics-cache-listener' AND datname = current_database()`,
    );
    await waitUntil('the listener notices', () => !b.listener.listening);
    // Announced while nobody listens on B.
    await setDisabled(WORLD.users.operator2, true);
    try {
      await waitUntil('the listener listens again', () => b.listener.listening && a.listener.listening);
      expect((await operator.get('/clients')).statusCode).toBe(401);
      await setDisabled(WORLD.users.operator2, false);
      expect(await statusWithinASecond(() => operator.get('/clients'), 200)).toBe(200);
      // And hears again.
      await setDisabled(WORLD.users.operator2, true);
      expect(await statusWithinASecond(() => operator.get('/clients'), 401)).toBe(401);
    } finally {
      await setDisabled(WORLD.users.operator2, false);
    }
  });
});

describe('the changes announced on caller_cache (migration 030)', () => {
  /** The payloads that `statements` announce, each run in its own transaction, in order. */
  async function announced(statements: string[]): Promise<string[]> {
    const listener = new pg.Client({ connectionString: db.url });
    const payloads: string[] = [];
    listener.on('notification', (message) => payloads.push(message.payload ?? ''));
    await listener.connect();
    try {
      await listener.query('LISTEN caller_cache');
      for (const statement of statements) await db.pool.query(statement);
      await db.pool.query(`SELECT pg_notify('caller_cache', 'end')`);
      await waitUntil('the last notification', () => payloads.includes('end'));
      return payloads.filter((payload) => payload !== 'end');
    } finally {
      await listener.end();
    }
  }

  it('names the session, user, role, domain or clients changed, never more than a hash', async () => {
    const { rows } = await db.pool.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [
      WORLD.users.noLookup,
    ]);
    const id = rows[0]?.id;
    const payloads = await announced([
      `INSERT INTO sessions (token_hash, user_id, csrf_token, expires_at) VALUES
         ('live-hash', ${id}, 'c', now() + interval '1 hour'), ('old-hash', ${id}, 'c', now() - interval '1 day')`,
      `UPDATE sessions SET mfa_pending = true WHERE token_hash = 'live-hash'`,
      // The sweep: a session long expired is no news.
      `DELETE FROM sessions WHERE expires_at <= now()`,
      `DELETE FROM sessions WHERE token_hash = 'live-hash'`,
      // A column the cache does not hold, and a column set to what it was, are no news either.
      `UPDATE users SET display_name = 'No Lookup', require_mfa = false WHERE id = ${id}`,
      `UPDATE users SET tenant_only = true WHERE id = ${id}`,
      `UPDATE users SET tenant_only = false WHERE id = ${id}`,
      `INSERT INTO user_outlets (client_id, user_id, outlet_id) VALUES (1, ${id}, 1)`,
      `DELETE FROM user_outlets WHERE user_id = ${id}`,
      `INSERT INTO user_roles (user_id, role_id) VALUES (${id}, 4)`,
      `DELETE FROM user_roles WHERE user_id = ${id} AND role_id = 4`,
      `INSERT INTO role_component_permissions (role_id, component) VALUES (3, 'x')`,
      `DELETE FROM role_component_permissions WHERE role_id = 3 AND component = 'x'`,
      `UPDATE roles SET is_super_admin = false WHERE id = 3`,
      `INSERT INTO email_domains (domain) VALUES ('quiet.test')`,
      `UPDATE email_domains SET receipts_hidden = true WHERE domain = 'quiet.test'`,
      `DELETE FROM email_domains WHERE domain = 'quiet.test'`,
      `INSERT INTO clients (name) VALUES ('Third'), ('Fourth')`,
    ]);
    expect(payloads).toEqual([
      'session:live-hash',
      'session:live-hash',
      `user:${id}`,
      `user:${id}`,
      `user:${id}`,
      `user:${id}`,
      `user:${id}`,
      `user:${id}`,
      'role:3',
      'role:3',
      'role:3',
      'domain:quiet.test',
      'domain:quiet.test',
      'clients:',
    ]);
  });
});
