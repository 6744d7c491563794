import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperations } from '../../server/openapi.js';
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

describe('sessions and CSRF', () => {
  it('hands out a CSRF token with an httpOnly, SameSite=Strict session cookie', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/getcsrftoken' });
    expect(response.statusCode).toBe(200);
    expect(response.json().csrfToken).toMatch(/^[\w-]{40,}$/);
    const sid = response.cookies.find((cookie) => cookie.name === 'sid');
    expect(sid).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(sid?.secure).toBeFalsy();
  });

  it('keeps the same token for the same session', async () => {
    const agent = new Agent(app);
    const first = await agent.fetchCsrf();
    expect(await agent.fetchCsrf()).toBe(first);
  });

  it('refuses a login without the CSRF token, or with a wrong one, with 403', async () => {
    const agent = new Agent(app);
    await agent.fetchCsrf();
    const body = { username: WORLD.users.operator1, password: PASSWORD };
    const missing = await agent.request('POST', '/api/login', { body, csrf: null });
    expect(missing.statusCode).toBe(403);
    expect(missing.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: 'Invalid or missing CSRF token.' });
    const wrong = await agent.request('POST', '/api/login', { body, csrf: 'x'.repeat(43) });
    expect(wrong.statusCode).toBe(403);
    const noSession = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: body,
      headers: { 'x-csrf-token': agent.csrfToken },
    });
    expect(noSession.statusCode).toBe(403);
  });
});

describe('CSRF on every non-GET operation', () => {
  // A device's key is its credential (no session, no CSRF token): tests/server/ingestApi.test.ts.
  const unsafe = listOperations().filter((operation) => operation.method !== 'GET' && operation.access !== 'device');

  it.each(unsafe.map((operation) => [operation.method, operation.path] as const))(
    '%s %s refuses a signed-in call without the token',
    async (method, route) => {
      const agent = new Agent(app);
      await agent.login(WORLD.users.admin, PASSWORD);
      const url = route.replace(/\{\w+\}/g, '1');
      const response = await agent.request(method as 'POST' | 'PUT' | 'DELETE', url, { body: {}, csrf: null });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('Invalid or missing CSRF token.');
    },
  );
});

describe('login', () => {
  it('signs in with the username trimmed and lowercased, rotating the session', async () => {
    const agent = new Agent(app);
    await agent.fetchCsrf();
    const anonymousCookie = agent.cookie;
    const anonymousCsrf = agent.csrfToken;
    const response = await agent.login(`  ${WORLD.users.operator1.toUpperCase()} `, PASSWORD);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.require_mfa).toBe(false);
    expect(body.session.mfaPending).toBe(false);
    expect(body.csrfToken).not.toBe(anonymousCsrf);
    expect(agent.cookie).not.toBe(anonymousCookie);
    expect(body.user).toMatchObject({
      username: WORLD.users.operator1,
      client_id: 1,
      clients: [1],
      roles: ['mall operator'],
      permissions: [
        { name: 'receipts', subPermissions: [] },
        { name: 'shopper-connect', subPermissions: ['mall-gmv', 'mall-home'] },
      ],
      permissionsList: ['/clients::Read', '/malls::Read', '/outlets/transaction/focReason::Read', '/outlets::Read'],
      permissionsComponents: ['datetime-picker-limitation'],
      password_expired: false,
      flags: { tenantOnly: false, hideTopBar: false, receiptsHidden: false },
    });
    // The anonymous session is gone: its cookie no longer opens anything.
    const old = await app.inject({ method: 'GET', url: '/api/credential', headers: { cookie: anonymousCookie } });
    expect(old.statusCode).toBe(401);
  });

  it('answers 401 with the same message for a wrong password and an unknown user', async () => {
    const wrong = await new Agent(app).login(WORLD.users.operator1, 'not-the-password');
    const unknown = await new Agent(app).login('nobody@fixture.test', PASSWORD);
    const disabled = await new Agent(app).login(WORLD.users.disabled, PASSWORD);
    for (const response of [wrong, unknown, disabled]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        statusCode: 401,
        error: 'Unauthorized',
        message: 'username or password is incorrect',
      });
    }
  });

  it('validates the body against openapi.yaml and names the field', async () => {
    const agent = new Agent(app);
    await agent.fetchCsrf();
    const missing = await agent.request('POST', '/api/login', { body: { username: WORLD.users.operator1 } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/password/);
    const extra = await agent.request('POST', '/api/login', {
      body: { username: 'a@b.c', password: 'x', admin: true },
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().message).toMatch(/admin|additional/);
  });

  it('keeps an MFA session pending: it may read its credential but nothing else', async () => {
    const agent = new Agent(app);
    const response = await agent.login(WORLD.users.mfa, PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json().require_mfa).toBe(true);
    expect((await agent.get('/api/credential')).statusCode).toBe(200);
    const clients = await agent.get('/clients');
    expect(clients.statusCode).toBe(401);
  });
});

describe('credential and logout', () => {
  it('answers 401 without a session', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/credential' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Please sign in.' });
  });

  it('returns the user and CSRF token, then ends the session on logout', async () => {
    const agent = new Agent(app);
    await agent.login(WORLD.users.admin, PASSWORD);
    const credential = await agent.get('/api/credential');
    expect(credential.statusCode).toBe(200);
    expect(credential.json()).toMatchObject({
      csrfToken: agent.csrfToken,
      user: { username: WORLD.users.admin, roles: ['super admin'], permissionsList: ['*::*'], clients: [1, 2] },
    });
    const cookieBefore = agent.cookie;
    const logout = await agent.get('/api/logout');
    expect(logout.statusCode).toBe(200);
    expect(logout.json()).toEqual({ success: true });
    const after = await app.inject({ method: 'GET', url: '/api/credential', headers: { cookie: cookieBefore } });
    expect(after.statusCode).toBe(401);
  });
});

describe('secure cookies', () => {
  it('marks the session cookie Secure when the server is not on loopback', async () => {
    const { buildApp } = await import('../../server/app.js');
    const { loadConfig } = await import('../../server/config.js');
    const config = { ...loadConfig({ HOST: '0.0.0.0', DOWNLOAD_SECRET: 'x'.repeat(32) }), staticDir: '/nonexistent' };
    expect(config.secureCookies).toBe(true);
    const secureApp = await buildApp({ pool: db.pool, config });
    const response = await secureApp.inject({ method: 'GET', url: '/api/getcsrftoken' });
    expect(response.cookies.find((cookie) => cookie.name === 'sid')?.secure).toBe(true);
    await secureApp.close();
  });
});

describe('the super admin on the partner e-mail domain', () => {
  it('reads receipts: the super admin sees every route, the partner rule narrows the other accounts', async () => {
    await db.pool.query(
      `WITH u AS (INSERT INTO users (email, password_hash) SELECT 'chief@partner.test', password_hash FROM users
                  WHERE email = $1 RETURNING id)
       INSERT INTO user_roles (user_id, role_id) SELECT id, 1 FROM u`,
      [WORLD.users.admin],
    );
    const chief = new Agent(app);
    expect((await chief.login('chief@partner.test', PASSWORD)).statusCode).toBe(200);
    const window = 'startTime=2026-03-01&endTime=2026-03-07&timeType=date&page=1&rowsPerPage=10';
    const receipts = await chief.get(`/outlets/transaction?client_id=1&id=${WORLD.outlets.cafe}&${window}`);
    expect(receipts.statusCode, receipts.body).toBe(200);
    const partner = new Agent(app);
    expect((await partner.login(WORLD.users.partner, PASSWORD)).statusCode).toBe(200);
    const refused = await partner.get(`/outlets/transaction?client_id=1&id=${WORLD.outlets.cafe}&${window}`);
    expect(refused.statusCode).toBe(403);
  });
});
