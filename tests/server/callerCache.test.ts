import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CALLER_CACHE_TTL_MS } from '../../server/auth/callerCache.js';
import { PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, type TestDatabase } from './helpers.js';

let db: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  app = await createTestApp(db.pool);
});
afterAll(async () => {
  await app.close();
  await db.drop();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** The statements a call sends to the database. */
async function statementsOf(call: () => Promise<unknown>): Promise<string[]> {
  const query = vi.spyOn(db.pool, 'query');
  try {
    await call();
    return query.mock.calls.map(([statement]) => (typeof statement === 'string' ? statement : String(statement)));
  } finally {
    query.mockRestore();
  }
}

const readsSession = (sql: string) => /FROM sessions/.test(sql);
const readsUser = (sql: string) => /FROM users u/.test(sql) || /FROM user_roles/.test(sql);

describe('the caller cache', () => {
  it('asks the database for the session, user and grants once, not on every call', async () => {
    const agent = new Agent(app);
    await agent.login(WORLD.users.operator1, PASSWORD);
    await agent.get('/api/credential');
    const statements = await statementsOf(() => agent.get('/clients'));
    expect(statements.filter(readsSession)).toEqual([]);
    expect(statements.filter(readsUser)).toEqual([]);
    expect(statements.length).toBeGreaterThan(0);
  });

  it('remembers that a session may see the malls it keeps asking for, never that it may not', async () => {
    const agent = new Agent(app);
    await agent.login(WORLD.users.admin, PASSWORD);
    const report = (mallId: number) =>
      `/api/mall_report/daily?client_id=${WORLD.clients.zenith}&mall_ids=${mallId}&start_time=2026-03-01&end_time=2026-03-07`;
    const checksMalls = (sql: string) => /count\(\*\)::int AS n FROM malls m/.test(sql);
    expect((await agent.get(report(WORLD.malls.central))).statusCode).toBe(200);
    const again = await statementsOf(async () => {
      expect((await agent.get(report(WORLD.malls.central))).statusCode).toBe(200);
    });
    expect(again.filter(checksMalls)).toEqual([]);
    for (let i = 0; i < 2; i += 1) {
      const refused = await statementsOf(async () => {
        expect((await agent.get(report(WORLD.malls.apexPlaza))).statusCode).toBe(403);
      });
      expect(refused.filter(checksMalls)).toHaveLength(1);
    }
  });

  it('forgets a session at logout: its cookie opens nothing at once', async () => {
    const agent = new Agent(app);
    await agent.login(WORLD.users.operator1, PASSWORD);
    expect((await agent.get('/clients')).statusCode).toBe(200);
    const cookie = agent.cookie;
    expect((await agent.get('/api/logout')).statusCode).toBe(200);
    const replay = await app.inject({ method: 'GET', url: '/clients', headers: { cookie } });
    expect(replay.statusCode).toBe(401);
  });

  it("forgets every session of a user whose password changes, in this browser's and others'", async () => {
    const other = new Agent(app);
    await other.login(WORLD.users.operator2, PASSWORD);
    expect((await other.get('/clients')).statusCode).toBe(200);
    const agent = new Agent(app);
    await agent.login(WORLD.users.operator2, PASSWORD);
    const changed = await agent.request('PUT', '/api/user/password', {
      body: { currentPassword: PASSWORD, newPassword: 'cached-no-more-7' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await other.get('/clients')).statusCode).toBe(401);
    await db.pool.query(
      'UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE email = $1) WHERE email = $2',
      [WORLD.users.operator1, WORLD.users.operator2],
    );
  });

  it('sees a change made elsewhere (another server, the database) within its time to live', async () => {
    const agent = new Agent(app);
    await agent.login(WORLD.users.tenant, PASSWORD);
    expect((await agent.get('/api/credential')).statusCode).toBe(200);
    await db.pool.query('UPDATE users SET disabled = true WHERE email = $1', [WORLD.users.tenant]);
    try {
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + CALLER_CACHE_TTL_MS + 1 });
      expect((await agent.get('/api/credential')).statusCode).toBe(401);
    } finally {
      vi.useRealTimers();
      await db.pool.query('UPDATE users SET disabled = false WHERE email = $1', [WORLD.users.tenant]);
    }
  });
});
