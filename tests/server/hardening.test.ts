import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { parseIds, scopeIdsOf } from '../../server/auth/access.js';
import { loadConfig } from '../../server/config.js';
import { createPool, type Pool } from '../../server/db/pool.js';
import { SERVER_ERROR_MESSAGE, TIMEOUT_MESSAGE } from '../../server/errors.js';
import { loadSpecification } from '../../server/openapi.js';
import { isEmailAddress } from '../../src/domain/credentials.js';
import { grantOperatorPermissions, PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, type TestDatabase } from './helpers.js';

/**
 * The inputs that answered 500, were accepted when they should not be, or took the server down, each answering
 * a 400 that names the field now; a database error and a timeout answering without the driver's text; a method
 * a path does not support answering 405.
 */

let db: TestDatabase;
let app: FastifyInstance;
let operator: Agent;
let admin: Agent;

const CAFE = WORLD.outlets.cafe;
const WINDOW = { client_id: '1', id: String(CAFE), startTime: '2026-03-01', endTime: '2026-03-07' };
const url = (path: string, query: Record<string, string | string[]>) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, item);
  }
  return `${path}?${params}`;
};

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await db.pool.query(
    `INSERT INTO role_api_permissions (role_id, permission) VALUES (2, '/outlets/transaction::Read'),
       (2, '/outlets/transaction/generatepdf::Read'), (2, '/outlets/paymentMethodBreakdown::Read'),
       (2, '/outlets/getPaymentAndSum::Read'), (2, '/api/tenant/receiptData::Read'), (2, '/api/tenant/receiptImage::Read'),
       (2, '/outlets/paymentMethodNameOption::Read'), (2, '/api/mall_report/daily::Read')`,
  );
  app = await createTestApp(db.pool);
  operator = new Agent(app);
  expect((await operator.login(WORLD.users.operator1, PASSWORD)).statusCode).toBe(200);
  admin = new Agent(app);
  expect((await admin.login(WORLD.users.admin, PASSWORD)).statusCode).toBe(200);
});
afterAll(async () => {
  await app.close();
  await db.drop();
});

function expectBadRequest(response: { statusCode: number; body: string }, field: string) {
  expect(response.statusCode, response.body).toBe(400);
  const body = JSON.parse(response.body) as { statusCode: number; message: string; code?: string };
  expect(body.statusCode).toBe(400);
  expect(body.message).toContain(field);
  expect(body).not.toHaveProperty('code');
}

describe('ids beyond PostgreSQL integer', () => {
  const HUGE = ['2147483648', '9007199254740993', '12345678901234567890', '1e309', '12204310477868244140032'];

  it.each(HUGE)('client_id=%s answers 400 naming client_id', async (id) => {
    expectBadRequest(await operator.get(`/malls?client_id=${id}`), 'client_id');
  });

  it.each(HUGE)('mall_ids=%s answers 400 naming mall_ids', async (id) => {
    const response = await operator.get(
      url('/api/mall_report/daily', { client_id: '1', mall_ids: id, start_time: '2026-03-01', end_time: '2026-03-07' }),
    );
    expectBadRequest(response, 'mall_ids');
  });

  it.each([...HUGE, '0', '01', `${CAFE},0`, `0${CAFE}`])('id=%s answers 400 naming id', async (id) => {
    expectBadRequest(await operator.get(url('/outlets/transaction', { ...WINDOW, id })), 'querystring/id');
  });

  it('answers 400, not 500, on an operation that is not built yet', async () => {
    expectBadRequest(
      await admin.get(url('/outlets/topSKU', { ...WINDOW, client_id: '2147483648' })),
      'querystring/client_id',
    );
  });

  it('takes the largest id there is', async () => {
    const response = await operator.get('/malls?client_id=2147483647');
    expect(response.statusCode).toBe(403);
  });
});

describe('the outlet id list', () => {
  const schemas = (loadSpecification().components as { schemas: Record<string, { pattern: string }> }).schemas;
  const contract = new RegExp(schemas.OutletIds?.pattern ?? '', 'u');
  const part = fc.oneof(
    fc.integer({ min: 0, max: 2 ** 32 }).map(String),
    fc.constantFrom('2147483647', '2147483648', '0', '01', '', ' 1', '1e3', '-1', '9999999999', '10000000000'),
  );

  it('is read by the server exactly as the contract pattern allows it, in both directions (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 4 }), (parts) => {
        const text = parts.join(',');
        const read = parseIds(text).length > 0;
        expect(read, text).toBe(contract.test(text));
      }),
      { seed: 7, numRuns: 2000 },
    );
  });
});

describe('days and times that do not exist', () => {
  it.each([
    ['/outlets/transaction', 'startTime', '2026-02-30'],
    ['/outlets/transaction', 'endTime', '2025-13-01'],
    ['/outlets/getPaymentAndSum', 'startTime', '0000-00-00'],
    ['/outlets/paymentMethodBreakdown', 'endTime', '2026-02-30'],
    ['/api/tenant/receiptData', 'startTime', '2025-13-01'],
    ['/outlets/transaction', 'startTime', '2025-06-01 25:61:61'],
  ])('%s with %s=%s answers 400 naming it', async (path, field, value) => {
    const query = { ...WINDOW, timeType: value.length > 10 ? 'datetime' : 'date', [field]: value };
    expectBadRequest(await operator.get(url(path, query)), field);
  });

  it('refuses an hour that does not exist even when timeType is date', async () => {
    expectBadRequest(
      await operator.get(url('/outlets/transaction', { ...WINDOW, startTime: '2025-06-01 25:61:61' })),
      'startTime',
    );
  });

  it('refuses 29 February of a year that has none on a mall report', async () => {
    const response = await operator.get(
      url('/api/mall_report/daily', {
        client_id: '1',
        mall_ids: '1',
        start_time: '2025-02-29',
        end_time: '2025-03-01',
      }),
    );
    expectBadRequest(response, 'start_time');
  });
});

describe('control characters in text filters', () => {
  it.each([
    ['/outlets/transaction', 'focReason'],
    ['/outlets/transaction', 'paymentMethod'],
    ['/outlets/transaction', 'receiptId'],
  ])('%s with a NUL byte in %s answers 400 naming it', async (path, field) => {
    expectBadRequest(await operator.get(url(path, { ...WINDOW, [field]: 'VI\u0000SA' })), field);
  });

  it('refuses a NUL byte in aimbox_id', async () => {
    const response = await operator.get(
      url('/api/tenant/receiptImage', { client_id: '1', id: '1', aimbox_id: 'R\u0000' }),
    );
    expectBadRequest(response, 'aimbox_id');
  });
});

describe('pages', () => {
  it.each(['/outlets/transaction', '/api/tenant/receiptData'])(
    '%s with page=99999999999999999999 answers 400 naming page',
    async (path) => {
      expectBadRequest(await operator.get(url(path, { ...WINDOW, page: '99999999999999999999' })), 'page');
    },
  );

  it('answers the last allowed page with an empty list', async () => {
    const response = await operator.get(url('/outlets/transaction', { ...WINDOW, page: '100000', rowsPerPage: '100' }));
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual([]);
  });
});

describe('JSON bodies keep their types', () => {
  it('refuses {"client_id": true} and creates no invitation', async () => {
    const response = await admin.request('POST', '/api/user/invite', {
      body: { client_id: true, email: 'coerced@fixture.test' },
    });
    expectBadRequest(response, 'body/client_id');
    const { rows } = await db.pool.query('SELECT 1 FROM users WHERE email = $1', ['coerced@fixture.test']);
    expect(rows).toHaveLength(0);
  });

  it('refuses an id sent as text in a body', async () => {
    const response = await admin.request('POST', '/api/user/invite', {
      body: { client_id: '1', email: 'text-id@fixture.test' },
    });
    expectBadRequest(response, 'body/client_id');
  });
});

describe('the longest range', () => {
  it('refuses a payment breakdown to 9999-12-31 at once, naming endTime', async () => {
    const started = Date.now();
    const response = await operator.get(
      url('/outlets/paymentMethodBreakdown', { ...WINDOW, startTime: '2025-06-01', endTime: '9999-12-31' }),
    );
    expectBadRequest(response, 'endTime');
    expect(response.json().message).toBe(
      'endTime: You have selected a date range more than 366 days. Please try again.',
    );
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('answers 366 days and refuses 367', async () => {
    const query = { ...WINDOW, startTime: '2025-01-01' };
    const year = await operator.get(url('/outlets/paymentMethodBreakdown', { ...query, endTime: '2026-01-01' }));
    expect(year.statusCode).toBe(200);
    const tooLong = await operator.get(url('/outlets/paymentMethodBreakdown', { ...query, endTime: '2026-01-02' }));
    expectBadRequest(tooLong, 'endTime');
  });

  it('refuses a reversed range with the spec’s words', async () => {
    const response = await operator.get(
      url('/outlets/transaction', { ...WINDOW, startTime: '2026-03-08', endTime: '2026-03-01' }),
    );
    expectBadRequest(response, 'startTime');
    expect(response.json().message).toContain('Date must be before End Date.');
  });
});

describe('one e-mail rule', () => {
  const schemas = (loadSpecification().components as { schemas: Record<string, { pattern: string }> }).schemas;
  const contract = new RegExp(schemas.Email?.pattern ?? '', 'u');

  it.each([
    'someone@example.com',
    'first.last+tag@mail.example.co',
    '0@com',
    'a@b',
    'no-at.example.com',
    'two@@example.com',
    'space in@example.com',
    'a@-bad.com',
    'a@bad-.com',
    'a@b.c',
  ])('the contract and the client agree on %s', (email) => {
    expect(contract.test(email)).toBe(isEmailAddress(email));
  });

  it('the server answers what the contract says', async () => {
    const anonymous = new Agent(app);
    await anonymous.fetchCsrf();
    const accepted = await anonymous.request('POST', '/api/user/sendResetPasswordEmail', {
      body: { email: 'someone@example.com' },
    });
    expect(accepted.statusCode).toBe(200);
    const refused = await anonymous.request('POST', '/api/user/sendResetPasswordEmail', { body: { email: '0@com' } });
    expectBadRequest(refused, 'body/email');
  });
});

describe('a method the path does not support', () => {
  it.each([
    ['POST', '/clients', 'GET, HEAD'],
    ['DELETE', '/outlets/transaction', 'GET, HEAD'],
    ['GET', '/api/user/invite', 'POST'],
    ['PUT', '/api/login', 'GET, POST, HEAD'],
  ] as const)('%s %s answers 405 with Allow: %s', async (method, path, allow) => {
    const response = await app.inject({ method, url: `${path}?x=1` });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe(allow);
    expect(response.json()).toMatchObject({ statusCode: 405, error: 'Method Not Allowed' });
  });

  it('still answers 404 for a path that is not in the contract', async () => {
    expect((await app.inject({ method: 'POST', url: '/api/nope' })).statusCode).toBe(404);
  });
});

/** An app on its own database, whose log lines are kept. */
async function loggedApp(options: { pool?: (url: string) => Pool; env?: NodeJS.ProcessEnv } = {}) {
  const own = await createTestDatabase();
  await seedWorld(own.pool);
  const pool = options.pool ? options.pool(own.url) : own.pool;
  const lines: Record<string, unknown>[] = [];
  const instance = await buildApp({
    pool,
    config: { ...loadConfig(options.env ?? {}), staticDir: '/nonexistent' },
    logger: { level: 'warn', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
  });
  await instance.ready();
  return {
    app: instance,
    db: own,
    pool,
    lines,
    close: async () => {
      await instance.close();
      if (pool !== own.pool) await pool.end();
      await own.drop();
    },
  };
}

describe('a database error', () => {
  it('answers 500 with a generic message and the request id, and logs the error with that id', async () => {
    const logged = await loggedApp();
    try {
      const agent = new Agent(logged.app);
      expect((await agent.login(WORLD.users.operator1, PASSWORD)).statusCode).toBe(200);
      await logged.db.pool.query('ALTER TABLE malls RENAME TO malls_gone');
      const response = await agent.get('/malls?client_id=1');
      expect(response.statusCode).toBe(500);
      const body = response.json();
      expect(body).toEqual({
        statusCode: 500,
        error: 'Internal Server Error',
        message: SERVER_ERROR_MESSAGE,
        requestId: expect.any(String),
      });
      expect(response.body).not.toMatch(/malls|relation|42P01/);
      const line = logged.lines.find((entry) => entry.reqId === body.requestId && entry.level === 50);
      expect(JSON.stringify(line)).toContain('malls');
    } finally {
      await logged.close();
    }
  });

  it('answers the same when it happens in a hook (the session lookup)', async () => {
    const logged = await loggedApp();
    try {
      await logged.db.pool.query('ALTER TABLE sessions RENAME TO sessions_gone');
      const response = await logged.app.inject({ method: 'GET', url: '/api/getcsrftoken' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toMatchObject({ message: SERVER_ERROR_MESSAGE, requestId: expect.any(String) });
      expect(response.body).not.toMatch(/sessions|relation|42P01/);
    } finally {
      await logged.close();
    }
  });
});

describe('a slow request', () => {
  /** Holds an exclusive lock on `table`, so that a query of it waits, until release() is called. */
  async function lockTable(pool: Pool, table: string) {
    const client = await pool.connect();
    await client.query('BEGIN');
    await client.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    return async () => {
      await client.query('ROLLBACK');
      client.release();
    };
  }

  it('is stopped by PostgreSQL’s statement_timeout: 503, and the server answers the next request', async () => {
    const logged = await loggedApp({ pool: (databaseUrl) => createPool(databaseUrl, 3, { statementTimeoutMs: 200 }) });
    try {
      const agent = new Agent(logged.app);
      expect((await agent.login(WORLD.users.operator1, PASSWORD)).statusCode).toBe(200);
      const release = await lockTable(logged.db.pool, 'malls');
      let response: Awaited<ReturnType<Agent['get']>>;
      try {
        response = await agent.get('/malls?client_id=1');
      } finally {
        await release();
      }
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ statusCode: 503, message: TIMEOUT_MESSAGE });
      expect(response.body).not.toMatch(/cancel|57014/);
      expect((await agent.get('/malls?client_id=1')).statusCode).toBe(200);
    } finally {
      await logged.close();
    }
  });

  it('answers 503 when the request timeout passes, and the server answers the next request', async () => {
    const logged = await loggedApp({ env: { REQUEST_TIMEOUT_MS: '300' } });
    try {
      const agent = new Agent(logged.app);
      expect((await agent.login(WORLD.users.operator1, PASSWORD)).statusCode).toBe(200);
      const release = await lockTable(logged.db.pool, 'malls');
      const started = Date.now();
      const pending = agent.get('/malls?client_id=1');
      let response: Awaited<ReturnType<Agent['get']>>;
      try {
        response = await pending;
      } finally {
        await release();
      }
      expect(Date.now() - started).toBeLessThan(3000);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({
        statusCode: 503,
        message: TIMEOUT_MESSAGE,
        requestId: expect.any(String),
      });
      expect((await agent.get('/malls?client_id=1')).statusCode).toBe(200);
    } finally {
      await logged.close();
    }
  });

  it('cancels the statements of a request that timed out, read or write, while the lock is still held', async () => {
    const logged = await loggedApp({ env: { REQUEST_TIMEOUT_MS: '300' } });
    const waitingForLocks = async () => {
      const { rows } = await logged.db.pool.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
      );
      return rows[0]?.count;
    };
    /** Sends `call` while `table` is locked: it answers 503 and leaves nothing waiting on the lock. */
    const timesOutCleanly = async (table: string, call: () => Promise<{ statusCode: number }>) => {
      const release = await lockTable(logged.db.pool, table);
      try {
        expect((await call()).statusCode).toBe(503);
        expect(await waitingForLocks()).toBe(0);
      } finally {
        await release();
      }
    };
    try {
      const agent = new Agent(logged.app);
      expect((await agent.login(WORLD.users.operator1, PASSWORD)).statusCode).toBe(200);
      await timesOutCleanly('malls', () => agent.get('/malls?client_id=1'));
      expect((await agent.get('/malls?client_id=1')).statusCode).toBe(200);
      // A request with a body over a real socket: its handler runs after the body has arrived, and is tracked
      // all the same.
      const other = new Agent(logged.app);
      await other.fetchCsrf();
      const address = await logged.app.listen({ port: 0, host: '127.0.0.1' });
      const login = () =>
        fetch(`${address}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: other.cookie, 'x-csrf-token': other.csrfToken },
          body: JSON.stringify({ username: WORLD.users.operator2, password: PASSWORD }),
        }).then((response) => ({ statusCode: response.status }));
      await timesOutCleanly('users', login);
      expect((await login()).statusCode).toBe(200);
    } finally {
      await logged.close();
    }
  });

  it('reads both timeouts from the environment, 10 s by default', () => {
    expect(loadConfig({})).toMatchObject({ requestTimeoutMs: 10_000, statementTimeoutMs: 10_000 });
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '2500', STATEMENT_TIMEOUT_MS: '2000' })).toMatchObject({
      requestTimeoutMs: 2500,
      statementTimeoutMs: 2000,
    });
    expect(() => loadConfig({ STATEMENT_TIMEOUT_MS: '0' })).toThrow(/STATEMENT_TIMEOUT_MS/);
  });
});

/*
 * A body that is not JSON used to skip validation (Fastify binds a body's schema to application/json) and the
 * ownership check (which skipped a body that was not an object): another client's operator got past the 403.
 */
describe('a body that is not JSON', () => {
  const ATTACKS = [
    { method: 'POST', url: '/outlets/categories', body: { client_id: 1, name: 'Stolen', isCategory: true } },
    {
      method: 'PUT',
      url: '/api/gtoReport/settings',
      body: { client_id: 1, variance_threshold: 5, due_day: 7, reminders: true },
    },
    { method: 'POST', url: '/api/apps/xero/connect', body: { client_id: 1 } },
  ] as const;
  let otherClient: Agent;

  beforeAll(async () => {
    await grantOperatorPermissions(db.pool, [
      '/outlets/categories::Create',
      '/api/gtoReport/settings::Update',
      '/api/apps/xero/connect::Create',
    ]);
    otherClient = new Agent(app);
    expect((await otherClient.login(WORLD.users.operator2, PASSWORD)).statusCode).toBe(200);
  });

  it.each(ATTACKS)(
    "is refused (415) to another client's operator on $method $url, and JSON is a 403",
    async (attack) => {
      const categories = 'SELECT count(*)::int AS n FROM categories';
      const before = (await db.pool.query(categories)).rows[0];
      for (const contentType of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=b',
      ]) {
        const response = await otherClient.request(attack.method, attack.url, {
          headers: { 'content-type': contentType },
          body: JSON.stringify(attack.body),
        });
        expect(response.statusCode, `${contentType}: ${response.body}`).toBe(415);
        expect(response.json()).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type' });
      }
      const json = await otherClient.request(attack.method, attack.url, { body: attack.body });
      expect(json.statusCode, json.body).toBe(403);
      expect((await db.pool.query(categories)).rows[0]).toEqual(before);
    },
  );

  it('answers 415, not 500, on the sign-in and on ingestion', async () => {
    const signIn = await new Agent(app).request('POST', '/api/login', {
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ username: WORLD.users.admin, password: PASSWORD }),
    });
    expect(signIn.statusCode, signIn.body).toBe(415);
    const ingest = await app.inject({
      method: 'POST',
      url: '/api/ingest/receipts',
      headers: { 'content-type': 'text/plain', authorization: 'Bearer pos_unknown' },
      payload: '{"receipts":[]}',
    });
    expect(ingest.statusCode, ingest.body).toBe(415);
  });

  it('is refused by the ownership check when a body it must read is not an object', () => {
    const scope = { client: 'body.client_id' } as const;
    const request = (body: unknown) => ({ body, query: {}, params: {} });
    for (const body of [undefined, null, 'client_id=2', 7, [{ client_id: 1 }]]) {
      expect(scopeIdsOf(request(body), scope), JSON.stringify(body)).toBeUndefined();
    }
    expect(scopeIdsOf(request({ client_id: 1 }), scope)).toEqual(new Map([['client', [1]]]));
    expect(scopeIdsOf(request({}), scope)).toEqual(new Map());
  });
});
