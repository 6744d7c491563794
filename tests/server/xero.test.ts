import { createHash, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { DEMO_XERO_ORGANISATIONS, type DemoXero, startDemoXero } from '../../server/demo/xeroFake.js';
import {
  postDailySales,
  registerXeroJobs,
  runDailyXeroPosting,
  XERO_DAILY_CRON,
  XERO_DAILY_QUEUE,
  XERO_POST_DAY_QUEUE,
} from '../../server/jobs/xeroPosting.js';
import { earliestMallToday } from '../../server/repositories/xero.js';
import { postManualJournal } from '../../server/xero/api.js';
import { readXeroInfo, type XeroDeps } from '../../server/xero/connection.js';
import { dailySalesJournal, idempotencyKeyOf } from '../../server/xero/journal.js';
import { decryptToken, parseTokenKey } from '../../server/xero/tokenCrypto.js';
import { addDays } from '../../src/domain/apps.js';
import { authorizeAtXero as authorizeAtXeroAs } from '../support/xeroBrowser.js';
import { PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestDatabase, defined, type TestDatabase } from './helpers.js';

/**
 * The Xero integration end to end, against the demo's authorization server (oidc-provider) and its stand-in for
 * Xero's accounting API: connecting with PKCE and a state bound to the session, the info and options, choosing the
 * accounts, refreshing before expiry, posting each outlet's day once (twice run, concurrent runs, a new PgBoss), and
 * disconnecting. Tokens are checked to be encrypted in the table, and absent from answers and logs.
 */

const PUBLIC_URL = 'http://app.test';
const CALLBACK_URL = `${PUBLIC_URL}/api/apps/xero/callback`;
const TOKEN_KEY = randomBytes(32).toString('base64');
const [HARBOURFRONT, SUNRISE] = DEMO_XERO_ORGANISATIONS as [
  (typeof DEMO_XERO_ORGANISATIONS)[number],
  (typeof DEMO_XERO_ORGANISATIONS)[number],
];

let db: TestDatabase;
let demo: DemoXero;
let app: FastifyInstance;
let admin: Agent;
let deps: XeroDeps;
const logLines: string[] = [];
/** Every token and code the test has seen in clear: none may appear in a log line or an answer. */
const secrets = new Set<string>();

const logStream = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(String(chunk));
    done();
  },
});

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  demo = await startDemoXero({ publicUrl: PUBLIC_URL });
  const config = {
    ...loadConfig({}),
    staticDir: '/nonexistent',
    publicUrl: PUBLIC_URL,
    xero: { ...demo.setting, tokenKey: TOKEN_KEY },
  };
  app = await buildApp({ pool: db.pool, config, logger: { level: 'trace', stream: logStream } });
  await app.ready();
  admin = new Agent(app);
  expect((await admin.login(WORLD.users.admin, PASSWORD)).statusCode).toBe(200);
  deps = { pool: db.pool, setting: config.xero, key: parseTokenKey(TOKEN_KEY) };
});
afterAll(async () => {
  await app?.close();
  await demo?.stop();
  await db?.drop();
});

/* ---------------------------------------------------------------- a browser at Xero */

/** Follows the authorization URL at the demo's authorization server like a browser (tests/support/xeroBrowser.ts). */
const authorizeAtXero = (
  authorizationUrl: string,
  choice: { tenantId?: string; action?: 'allow' | 'cancel' } = {},
): Promise<string> =>
  authorizeAtXeroAs(authorizationUrl, CALLBACK_URL, { ...choice, tenantId: choice.tenantId ?? HARBOURFRONT.tenantId });

const callbackPath = (url: string) => url.slice(PUBLIC_URL.length);

async function startConnect(agent: Agent, clientId = WORLD.clients.zenith): Promise<string> {
  const response = await agent.request('POST', '/api/apps/xero/connect', { body: { client_id: clientId } });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { authorizationUrl: string }).authorizationUrl;
}

/** Connects the client through Xero (demo) and answers where the callback sent the browser. */
async function connect(agent: Agent, choice: { tenantId?: string; action?: 'allow' | 'cancel' } = {}) {
  const callback = await authorizeAtXero(await startConnect(agent), choice);
  const code = new URL(callback).searchParams.get('code');
  if (code) secrets.add(code);
  const response = await agent.get(callbackPath(callback));
  expect(response.statusCode).toBe(302);
  return String(response.headers.location);
}

interface StoredTokens {
  access: string;
  refresh: string;
  accessEnc: string;
  refreshEnc: string;
  expiresAt: Date;
}

async function storedTokens(clientId = WORLD.clients.zenith): Promise<StoredTokens> {
  const { rows } = await db.pool.query<{ access: string; refresh: string; expires: Date }>(
    `SELECT access_token_enc AS access, refresh_token_enc AS refresh, access_expires_at AS expires
     FROM xero_connections WHERE client_id = $1`,
    [clientId],
  );
  const row = defined(rows[0], 'connection');
  const tokens = {
    access: decryptToken(deps.key, clientId, 'access', row.access),
    refresh: decryptToken(deps.key, clientId, 'refresh', row.refresh),
    accessEnc: row.access,
    refreshEnc: row.refresh,
    expiresAt: row.expires,
  };
  secrets.add(tokens.access);
  secrets.add(tokens.refresh);
  return tokens;
}

const info = async (agent = admin) => {
  const response = await agent.get(`/api/apps/xero/info?client_id=${WORLD.clients.zenith}`);
  expect(response.statusCode, response.body).toBe(200);
  for (const secret of secrets) expect(response.body).not.toContain(secret);
  return response.json();
};

const expireAccessTokenIn = (seconds: number) =>
  db.pool.query(
    `UPDATE xero_connections SET access_expires_at = now() + make_interval(secs => $1), options_read_at = NULL
     WHERE client_id = 1`,
    [seconds],
  );

const chooseAccounts = (body: Record<string, unknown>) =>
  admin.request('PUT', '/api/apps/xero/settings', { body: { client_id: WORLD.clients.zenith, ...body } });

const ACCOUNTS = { sales_account: '200', tax_account: 'OUTPUT', clearing_account: '615' };

/* ---------------------------------------------------------------- connecting */

describe('connecting (authorization code with PKCE, state bound to the session)', () => {
  it('is not connected at first', async () => {
    expect(await info()).toEqual({
      xeroInfo: null,
      isTokenExpired: false,
      xeroOptions: { salesAccounts: [], taxAccounts: [], clearingAccounts: [], currency: [] },
    });
  });

  it('sends the browser to Xero with S256 PKCE, a state and the callback, kept with the session', async () => {
    const authorizationUrl = await startConnect(admin);
    const url = new URL(authorizationUrl);
    expect(`${url.origin}${url.pathname}`).toBe(demo.setting.authorizeUrl);
    const query = Object.fromEntries(url.searchParams);
    expect(query).toMatchObject({
      response_type: 'code',
      client_id: demo.setting.clientId,
      redirect_uri: CALLBACK_URL,
      code_challenge_method: 'S256',
      scope: 'offline_access accounting.transactions accounting.settings',
    });
    const { rows } = await db.pool.query<{ state: string; verifier: string; session: string }>(
      `SELECT state, code_verifier AS verifier, session_token_hash AS session FROM xero_authorizations`,
    );
    const attempt = defined(rows.at(-1), 'attempt');
    expect(query.state).toBe(attempt.state);
    expect(query.code_challenge).toBe(createHash('sha256').update(attempt.verifier).digest('base64url'));
    expect(authorizationUrl).not.toContain(attempt.verifier);
    const sid = defined(admin.cookie.split('=')[1], 'session cookie');
    expect(attempt.session).toBe(createHash('sha256').update(sid).digest('base64url'));
    expect(admin.otherCookies.get('sid_xero')).toMatch(/^[\w-]{43}$/);
  });

  it('connects the organisation chosen at Xero, and answers info and options without tokens', async () => {
    expect(await connect(admin)).toBe('/apps/xero?xero=connected');
    expect(admin.otherCookies.has('sid_xero')).toBe(false);
    const answer = await info();
    expect(answer.isTokenExpired).toBe(false);
    expect(answer.xeroInfo).toMatchObject({
      tenant_id: HARBOURFRONT.tenantId,
      organisation_name: HARBOURFRONT.name,
      currency: 'SGD',
      connected_by: WORLD.users.admin,
      sales_account: null,
      tax_account: null,
      clearing_account: null,
    });
    expect(Date.now() - Date.parse(answer.xeroInfo.connected_at)).toBeLessThan(60_000);
    expect(answer.xeroOptions).toEqual({
      salesAccounts: [
        { code: '200', name: 'Sales' },
        { code: '210', name: 'Food and Beverage Sales' },
        { code: '260', name: 'Other Revenue' },
      ],
      taxAccounts: [
        { code: 'EXEMPTOUTPUT', name: 'Exempt Supplies (0%)' },
        { code: 'NONE', name: 'No GST (0%)' },
        { code: 'OUTPUT', name: 'Standard-Rated Supplies (9%)' },
        { code: 'ZERORATEDOUTPUT', name: 'Zero-Rated Supplies (0%)' },
      ],
      clearingAccounts: [
        { code: '090', name: 'Business Bank Account' },
        { code: '091', name: 'Business Savings Account' },
        { code: '615', name: 'Sales Clearing' },
        { code: '620', name: 'Prepayments' },
      ],
      currency: ['SGD'],
    });
  });

  it('keeps the tokens encrypted in the table: the plaintext is not in the row', async () => {
    const tokens = await storedTokens();
    const { rows } = await db.pool.query<{ row: string }>(
      'SELECT row_to_json(x)::text AS row FROM xero_connections x WHERE client_id = 1',
    );
    const row = defined(rows[0], 'row').row;
    expect(tokens.accessEnc).toMatch(/^v1\.[\w-]+$/);
    expect(tokens.refreshEnc).toMatch(/^v1\.[\w-]+$/);
    expect(row).not.toContain(tokens.access);
    expect(row).not.toContain(tokens.refresh);
    // The plaintext is Xero's working token: the accounting API takes it.
    const organisation = await fetch(`${demo.api.apiUrl}/Organisation`, {
      headers: { authorization: `Bearer ${tokens.access}`, 'xero-tenant-id': HARBOURFRONT.tenantId },
    });
    expect(organisation.status).toBe(200);
    // A sealed token opens for its client and kind only.
    expect(() => decryptToken(deps.key, 2, 'access', tokens.accessEnc)).toThrow();
    expect(() => decryptToken(deps.key, 1, 'refresh', tokens.accessEnc)).toThrow();
  });

  it('refuses a callback whose state does not match, and the attempt is spent', async () => {
    const callback = new URL(await authorizeAtXero(await startConnect(admin)));
    const state = defined(callback.searchParams.get('state'), 'state');
    callback.searchParams.set('state', `${state.slice(0, -2)}xx`);
    const refused = await admin.get(callbackPath(callback.href));
    expect(refused.headers.location).toBe('/apps/xero?xero=mismatch');
    callback.searchParams.set('state', state);
    const again = await admin.get(callbackPath(callback.href));
    expect(again.headers.location).toBe('/apps/xero?xero=expired');
  });

  it('refuses a callback in a browser that did not start the attempt (no callback cookie)', async () => {
    const callback = await authorizeAtXero(await startConnect(admin));
    const other = new Agent(app);
    expect((await other.login(WORLD.users.admin, PASSWORD)).statusCode).toBe(200);
    const response = await other.get(callbackPath(callback));
    expect(response.headers.location).toBe('/apps/xero?xero=expired');
  });

  it('refuses a callback after the session that started it signed out', async () => {
    const agent = new Agent(app);
    expect((await agent.login(WORLD.users.admin, PASSWORD)).statusCode).toBe(200);
    const callback = await authorizeAtXero(await startConnect(agent));
    expect((await agent.get('/api/logout')).statusCode).toBe(200);
    const response = await agent.get(callbackPath(callback));
    expect(response.headers.location).toBe('/apps/xero?xero=signed_out');
  });

  it('exchanges the code with the attempt’s PKCE verifier: another verifier is refused by Xero', async () => {
    const callback = await authorizeAtXero(await startConnect(admin));
    await db.pool.query(`UPDATE xero_authorizations SET code_verifier = $1`, [randomBytes(32).toString('base64url')]);
    const response = await admin.get(callbackPath(callback));
    expect(response.headers.location).toBe('/apps/xero?xero=refused');
    expect((await info()).xeroInfo.tenant_id).toBe(HARBOURFRONT.tenantId);
  });

  it('tells when the user cancels at Xero', async () => {
    expect(await connect(admin, { action: 'cancel' })).toBe('/apps/xero?xero=cancelled');
  });

  it('refuses a caller limited to some outlets of the client', async () => {
    await db.pool.query(
      `INSERT INTO user_outlets (client_id, user_id, outlet_id)
       SELECT 1, id, 1 FROM users WHERE email = $1 ON CONFLICT DO NOTHING`,
      [WORLD.users.operator1],
    );
    await db.pool.query(
      `INSERT INTO role_api_permissions (role_id, permission) VALUES (2, '/api/apps/xero/connect::Create')
       ON CONFLICT DO NOTHING`,
    );
    const limited = new Agent(app);
    expect((await limited.login(WORLD.users.operator1, PASSWORD)).statusCode).toBe(200);
    const response = await limited.request('POST', '/api/apps/xero/connect', { body: { client_id: 1 } });
    expect(response.statusCode).toBe(403);
  });
});

/* ---------------------------------------------------------------- accounts */

describe('choosing the accounts', () => {
  it('refuses codes that are not options of the organisation, naming the field', async () => {
    for (const [field, code] of [
      ['sales_account', '090'],
      ['tax_account', 'INPUT'],
      ['clearing_account', '610'],
    ] as const) {
      const response = await chooseAccounts({ ...ACCOUNTS, [field]: code });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(`body/${field}`);
    }
  });

  it('saves the sales account, tax rate and clearing account', async () => {
    const response = await chooseAccounts(ACCOUNTS);
    expect(response.statusCode).toBe(200);
    expect(response.json().xeroInfo).toMatchObject({
      sales_account: '200',
      tax_account: 'OUTPUT',
      clearing_account: '615',
    });
    expect((await info()).xeroInfo).toMatchObject({ sales_account: '200', tax_account: 'OUTPUT' });
  });
});

/* ---------------------------------------------------------------- refreshing */

describe('refreshing the access token before it expires', () => {
  it('keeps a token that lasts more than five minutes', async () => {
    const before = await storedTokens();
    const refreshes = demo.identity.grantsIssued.refresh_token ?? 0;
    await info();
    expect(demo.identity.grantsIssued.refresh_token ?? 0).toBe(refreshes);
    expect((await storedTokens()).accessEnc).toBe(before.accessEnc);
  });

  it('refreshes a token that expires within five minutes, once even for concurrent calls', async () => {
    const before = await storedTokens();
    await expireAccessTokenIn(60);
    const refreshes = demo.identity.grantsIssued.refresh_token ?? 0;
    await Promise.all([info(), info(), info(), info()]);
    expect(demo.identity.grantsIssued.refresh_token ?? 0).toBe(refreshes + 1);
    const after = await storedTokens();
    expect(after.access).not.toBe(before.access);
    expect(after.refresh).not.toBe(before.refresh);
    expect(after.expiresAt.getTime() - Date.now()).toBeGreaterThan(25 * 60 * 1000);
    expect((await info()).isTokenExpired).toBe(false);
  });
});

/* ---------------------------------------------------------------- posting */

async function seedSales(day: string, rows: [outletId: number, gmv: number][]) {
  for (const [outletId, gmv] of rows) {
    await db.pool.query(
      `INSERT INTO rollup_outlet_daily (client_id, outlet_id, local_day, gmv, transactions) VALUES (1, $1, $2, $3, 10)
       ON CONFLICT (client_id, outlet_id, local_day) DO UPDATE SET gmv = excluded.gmv`,
      [outletId, day, gmv],
    );
  }
}

const journalsOf = (day: string) => demo.api.journals(HARBOURFRONT.tenantId).filter((journal) => journal.Date === day);
const postDay = (day: string) =>
  admin.request('POST', '/api/apps/xero/postings', { body: { client_id: WORLD.clients.zenith, day } });

async function waitForJob(boss: PgBoss, queue: string, id: string) {
  for (let tries = 0; tries < 100; tries += 1) {
    const job = await boss.getJobById(queue, id);
    if (job && ['completed', 'failed'].includes(job.state)) return job.state;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`job ${id} did not finish`);
}

describe('posting each outlet’s day as a manual journal, once', () => {
  let today: string;
  const day = (back: number) => addDays(today, -back);

  beforeAll(async () => {
    today = defined(await earliestMallToday(db.pool, WORLD.clients.zenith), 'today');
  });

  it('posts each SGD outlet’s sales as a balanced journal, and skips the USD outlet', async () => {
    const d = day(6);
    await seedSales(d, [
      [WORLD.outlets.cafe, 1234.56],
      [WORLD.outlets.boutique, 99.9],
      [WORLD.outlets.kiosk, 500],
    ]);
    const response = await postDay(d);
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json();
    expect(result.postedNow).toBe(2);
    expect(result.rows.map((row: { outlet_id: number; status: string }) => [row.outlet_id, row.status])).toEqual([
      [WORLD.outlets.cafe, 'posted'],
      [WORLD.outlets.boutique, 'posted'],
      [WORLD.outlets.kiosk, 'skipped'],
    ]);
    const journals = journalsOf(d);
    expect(journals).toHaveLength(2);
    const cafe = defined(
      journals.find((journal) => journal.Narration.includes('Cafe Uno')),
      'cafe journal',
    );
    expect(result.rows[0].journal_id).toBe(cafe.ManualJournalID);
    expect(cafe).toMatchObject({ Status: 'POSTED', Date: d, LineAmountTypes: 'Inclusive' });
    expect(
      cafe.JournalLines.map(({ LineAmount, AccountCode, TaxType }) => ({ LineAmount, AccountCode, TaxType })),
    ).toEqual([
      { LineAmount: 1234.56, AccountCode: '615', TaxType: 'NONE' },
      { LineAmount: -1234.56, AccountCode: '200', TaxType: 'OUTPUT' },
    ]);
    expect(cafe.JournalLines[1]?.TaxAmount).toBe(-101.94);
    expect(cafe.idempotencyKey).toBe(idempotencyKeyOf(1, WORLD.outlets.cafe, d, HARBOURFRONT.tenantId, 0));
    expect(result.rows[2].message).toContain('USD');
  });

  it('posts nothing again: a second call, a direct run and concurrent runs', async () => {
    const d = day(6);
    const second = await postDay(d);
    expect(second.json().postedNow).toBe(0);
    expect(await postDailySales(deps, { clientId: 1, day: d })).toMatchObject({ posted: 0, alreadyPosted: 2 });
    expect(journalsOf(d)).toHaveLength(2);

    const d5 = day(5);
    await seedSales(d5, [
      [WORLD.outlets.cafe, 10],
      [WORLD.outlets.boutique, 20],
    ]);
    const runs = await Promise.all([1, 2, 3, 4].map(() => postDailySales(deps, { clientId: 1, day: d5 })));
    expect(runs.reduce((sum, run) => sum + run.posted, 0)).toBe(2);
    expect(journalsOf(d5)).toHaveLength(2);
  });

  it('posts once from the job queue, also with a new PgBoss after a restart', async () => {
    const d = day(4);
    await seedSales(d, [[WORLD.outlets.cafe, 42]]);
    for (let start = 0; start < 2; start += 1) {
      const boss = new PgBoss({ connectionString: db.url, max: 2 });
      boss.on('error', () => {});
      await boss.start();
      try {
        await registerXeroJobs(boss, deps, { pollingIntervalSeconds: 0.5 });
        const schedules = await boss.getSchedules();
        expect(schedules.find((schedule) => schedule.name === XERO_DAILY_QUEUE)?.cron).toBe(XERO_DAILY_CRON);
        for (const posted of [d, day(6)]) {
          const id = defined(await boss.send(XERO_POST_DAY_QUEUE, { clientId: 1, day: posted }), 'job id');
          expect(await waitForJob(boss, XERO_POST_DAY_QUEUE, id)).toBe('completed');
        }
      } finally {
        await boss.stop({ graceful: false, wait: true });
      }
      expect(journalsOf(d)).toHaveLength(1);
      expect(journalsOf(day(6))).toHaveLength(2);
    }
  });

  it('sends the same Idempotency-Key after a crash: the journal Xero made is not made again', async () => {
    const d = day(3);
    await seedSales(d, [[WORLD.outlets.boutique, 75]]);
    const { access } = await storedTokens();
    // The journal reached Xero, and the process stopped before its transaction committed: no row in the log.
    const sales = {
      outletId: WORLD.outlets.boutique,
      outletName: 'Boutique Duo',
      outletCode: 'B-02',
      mallName: 'Central Mall',
      currency: 'SGD',
      day: d,
      amount: 75,
    };
    const accounts = { salesAccount: '200', taxType: 'OUTPUT', clearingAccount: '615', clearingTaxType: 'NONE' };
    const madeBefore = await postManualJournal(
      deps.setting,
      access,
      HARBOURFRONT.tenantId,
      dailySalesJournal(sales, accounts),
      idempotencyKeyOf(1, WORLD.outlets.boutique, d, HARBOURFRONT.tenantId, 0),
    );
    const result = await postDailySales(deps, { clientId: 1, day: d });
    expect(result.posted).toBe(1);
    expect(journalsOf(d)).toHaveLength(1);
    const { rows } = await db.pool.query<{ journal_id: string }>(
      'SELECT journal_id FROM xero_postings WHERE client_id = 1 AND outlet_id = $1 AND day = $2',
      [WORLD.outlets.boutique, d],
    );
    expect(rows[0]?.journal_id).toBe(madeBefore);
  });

  it('records Xero’s refusal, and posts the day with a new key once the account is right', async () => {
    const d = day(2);
    await seedSales(d, [[WORLD.outlets.cafe, 15]]);
    await db.pool.query(`UPDATE xero_connections SET tax_type = 'BOGUS' WHERE client_id = 1`);
    const refused = await postDay(d);
    expect(refused.json().rows[0]).toMatchObject({ status: 'failed', journal_id: null });
    expect(refused.json().rows[0].message).toContain("TaxType code 'BOGUS' does not exist");
    expect(journalsOf(d)).toHaveLength(0);
    expect((await chooseAccounts(ACCOUNTS)).statusCode).toBe(200);
    const posted = await postDay(d);
    expect(posted.json()).toMatchObject({ postedNow: 1, rows: [{ status: 'posted', message: null }] });
    expect(journalsOf(d)[0]?.idempotencyKey).toBe(idempotencyKeyOf(1, WORLD.outlets.cafe, d, HARBOURFRONT.tenantId, 1));
  });

  it('runs the daily posting over the last days that have ended', async () => {
    const d = day(1);
    await seedSales(d, [[WORLD.outlets.boutique, 5]]);
    expect(await runDailyXeroPosting(deps)).toBe(1);
    expect(journalsOf(d)).toHaveLength(1);
    expect(await runDailyXeroPosting(deps)).toBe(0);
  });

  it('lists the log a page at a time', async () => {
    const response = await admin.get('/api/apps/xero/postings?client_id=1&rowsPerPage=10&sortColumn=day&order=asc');
    expect(response.statusCode).toBe(200);
    const { data, total } = response.json();
    expect(total).toBe(9);
    expect(data[0]).toMatchObject({
      day: day(6),
      outlet_name: 'Cafe Uno',
      currency: 'SGD',
      amount: 1234.56,
      status: 'posted',
    });
    expect(data.filter((row: { status: string }) => row.status === 'posted')).toHaveLength(8);
    const second = await admin.get('/api/apps/xero/postings?client_id=1&rowsPerPage=10&page=2');
    expect(second.json()).toEqual({ data: [], total: 9 });
  });

  it('refuses a day that has not ended in every mall, or is too long ago', async () => {
    for (const bad of [today, addDays(today, 3), addDays(today, -367)]) {
      const response = await postDay(bad);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain('body/day');
    }
  });
});

/* ---------------------------------------------------------------- expiry and disconnecting */

describe('a connection Xero no longer honours, and disconnecting', () => {
  it('says the token has expired when Xero refuses the refresh token', async () => {
    const { refresh } = await storedTokens();
    const revoked = await fetch(demo.setting.revokeUrl, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${demo.setting.clientId}:${demo.setting.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ token: refresh, token_type_hint: 'refresh_token' }).toString(),
    });
    expect(revoked.status).toBe(200);
    await expireAccessTokenIn(-10);
    const answer = await info();
    expect(answer.isTokenExpired).toBe(true);
    expect(answer.xeroInfo.organisation_name).toBe(HARBOURFRONT.name);
    expect((await postDay(addDays(defined(await earliestMallToday(db.pool, 1)), -1))).statusCode).toBe(409);
  });

  it('connects again, to another organisation, which clears the accounts', async () => {
    expect(await connect(admin, { tenantId: SUNRISE.tenantId })).toBe('/apps/xero?xero=connected');
    const answer = await info();
    expect(answer).toMatchObject({ isTokenExpired: false, xeroInfo: { tenant_id: SUNRISE.tenantId, currency: 'IDR' } });
    expect(answer.xeroInfo.sales_account).toBeNull();
  });

  it('says the token has expired, rather than failing, when the token key has changed', async () => {
    const otherKey = { ...deps, key: parseTokenKey(randomBytes(32).toString('base64')) };
    expect((await readXeroInfo(otherKey, WORLD.clients.zenith)).isTokenExpired).toBe(true);
    expect((await info()).isTokenExpired).toBe(false);
  });

  it('disconnects: the tokens are revoked at Xero and forgotten, the log is kept', async () => {
    const { access } = await storedTokens();
    const response = await admin.request('DELETE', '/api/apps/xero/connection?client_id=1');
    expect(response.statusCode).toBe(200);
    expect(response.json().xeroInfo).toBeNull();
    expect((await db.pool.query('SELECT 1 FROM xero_connections WHERE client_id = 1')).rowCount).toBe(0);
    const afterwards = await fetch(demo.api.connectionsUrl, { headers: { authorization: `Bearer ${access}` } });
    expect(afterwards.status).toBe(401);
    expect((await info()).xeroInfo).toBeNull();
    expect((await admin.get('/api/apps/xero/postings?client_id=1')).json().total).toBe(9);
  });

  it('never wrote a token or an authorization code to the log', () => {
    expect(secrets.size).toBeGreaterThan(4);
    const log = logLines.join('');
    expect(log).toContain('Xero connected');
    expect(log).toContain('/api/apps/xero/callback?code=[redacted]&state=[redacted]');
    for (const secret of secrets) expect(log).not.toContain(secret);
  });
});
