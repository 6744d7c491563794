import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../../server/app.js';
import { setPasswordHashCost } from '../../server/auth/passwords.js';
import { loadConfig } from '../../server/config.js';
import type { Pool } from '../../server/db/pool.js';
import type { ReportSubscriptionRuntime } from '../../server/jobs/reportSubscriptions.js';
import type { Mailer } from '../../server/mail/mailer.js';
import type { Metrics } from '../../server/metrics.js';
import type { Lifecycle } from '../../server/routes/types.js';
import { createDatabase, databaseUrl, dropDatabase } from '../support/postgres.js';
import { TEMPLATE_DATABASE } from './globalSetup.js';

/**
 * The cost (log2 of scrypt's N) of the passwords the server tests hash, the fixtures' and the app's: 2^14, not the
 * production 2^17, so that the suites' hundreds of sign-ins take 60 ms each rather than 300-500 ms. Every server test
 * file imports this module, so it holds for each of them; a test of the production cost names it explicitly.
 */
export const TEST_PASSWORD_HASH_COST = 14;
setPasswordHashCost(TEST_PASSWORD_HASH_COST);

/** A value the test expects to be there: fails with `what` when it is undefined or null. */
export function defined<T>(value: T | undefined | null, what = 'value'): T {
  if (value === undefined || value === null) throw new Error(`Expected ${what} to be defined`);
  return value;
}

export interface TestDatabase {
  pool: Pool;
  url: string;
  drop: () => Promise<void>;
}

/**
 * A fresh database of its own: copied from the run's template (every migration applied), or empty
 * (`{ empty: true }`, nothing applied) for tests of the migrations themselves.
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = inject('pgUrl');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const pool = await createDatabase(serverUrl, name, {
    template: options.empty ? 'template0' : TEMPLATE_DATABASE,
    max: 5,
  });
  return {
    pool,
    url: databaseUrl(serverUrl, name),
    drop: async () => {
      await pool.end();
      await dropDatabase(serverUrl, name);
    },
  };
}

export async function createTestApp(
  pool: Pool,
  options: {
    env?: NodeJS.ProcessEnv;
    mailer?: Mailer;
    lifecycle?: Lifecycle;
    metrics?: Metrics;
    reportSubscriptions?: ReportSubscriptionRuntime;
  } = {},
): Promise<FastifyInstance> {
  const config = { ...loadConfig(options.env ?? {}), staticDir: '/nonexistent' };
  const app = await buildApp({
    pool,
    config,
    mailer: options.mailer,
    lifecycle: options.lifecycle,
    metrics: options.metrics,
    ...(options.reportSubscriptions ? { reportSubscriptions: options.reportSubscriptions } : {}),
  });
  await app.ready();
  return app;
}

/** A browser-like agent: keeps the session cookie and the CSRF token between calls. */
export class Agent {
  cookie = '';
  csrfToken = '';
  /** The other cookies the server set (the device cookie), by name. */
  readonly otherCookies = new Map<string, string>();
  constructor(
    private readonly app: FastifyInstance,
    /** The address the requests come from (127.0.0.1 unless given). */
    private readonly remoteAddress?: string,
  ) {}

  private remember(response: LightMyRequestResponse) {
    for (const cookie of response.cookies) {
      if (cookie.name === 'sid') this.cookie = cookie.value ? `sid=${cookie.value}` : '';
      else if (cookie.value) this.otherCookies.set(cookie.name, cookie.value);
      else this.otherCookies.delete(cookie.name);
    }
    return response;
  }

  private cookieHeader(): string {
    return [this.cookie, ...[...this.otherCookies].map(([name, value]) => `${name}=${value}`)]
      .filter(Boolean)
      .join('; ');
  }

  async request(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    options: { body?: unknown; csrf?: string | null; headers?: Record<string, string> } = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    const cookie = this.cookieHeader();
    if (cookie) headers.cookie = cookie;
    const csrf = options.csrf === undefined ? this.csrfToken : options.csrf;
    if (method !== 'GET' && csrf) headers['x-csrf-token'] = csrf;
    return this.remember(
      await this.app.inject({
        method,
        url,
        headers,
        ...(this.remoteAddress ? { remoteAddress: this.remoteAddress } : {}),
        ...(options.body === undefined ? {} : { payload: options.body as object }),
      }),
    );
  }

  get(url: string) {
    return this.request('GET', url);
  }

  async fetchCsrf(): Promise<string> {
    const response = await this.get('/api/getcsrftoken');
    this.csrfToken = (response.json() as { csrfToken: string }).csrfToken;
    return this.csrfToken;
  }

  async login(username: string, password: string): Promise<LightMyRequestResponse> {
    if (!this.csrfToken) await this.fetchCsrf();
    const response = await this.request('POST', '/api/login', { body: { username, password } });
    if (response.statusCode === 200) this.csrfToken = (response.json() as { csrfToken: string }).csrfToken;
    return response;
  }
}

/**
 * An agent signed in for each user of `users` (a name for the test, the user's e-mail), all with `password`; a
 * sign-in that does not answer 200 fails the test's setup.
 */
export async function signInAgents<TName extends string>(
  app: FastifyInstance,
  users: Readonly<Record<TName, string>>,
  password: string,
): Promise<Record<TName, Agent>> {
  const agents = {} as Record<TName, Agent>;
  for (const [name, email] of Object.entries(users) as [TName, string][]) {
    const agent = new Agent(app);
    const response = await agent.login(email, password);
    if (response.statusCode !== 200) throw new Error(`${email} could not sign in: ${response.body}`);
    agents[name] = agent;
  }
  return agents;
}

/** Polls `check` every `everyMs` until it holds; throws, naming `what`, after `timeoutMs`. */
export async function waitUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
  everyMs = 50,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** The rows of `FROM ...` (a table and its conditions, e.g. `scheduled_mails WHERE delivered_at IS NULL`). */
export async function countRows(pool: Pool, from: string, values: unknown[] = []): Promise<number> {
  return (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${from}`, values)).rows[0]?.n ?? 0;
}

/**
 * Waits until every scheduled mail is delivered, then answers the outbox, oldest first, or by subject (then age)
 * when several workers deliver and their order is not the mails' order.
 */
export async function deliveredOutbox(
  pool: Pool,
  order: 'oldest' | 'subject' = 'oldest',
): Promise<{ recipient: string; subject: string; text: string }[]> {
  await waitUntil(
    'every mail is delivered',
    async () => (await countRows(pool, 'scheduled_mails WHERE delivered_at IS NULL')) === 0,
  );
  const { rows } = await pool.query<{ recipient: string; subject: string; text: string }>(
    `SELECT recipient, subject, text FROM outbox ORDER BY ${order === 'subject' ? 'subject, id' : 'id'}`,
  );
  return rows;
}
