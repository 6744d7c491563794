import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { SSO_CALLBACK_PATH, SSO_SUCCESS_PAGE } from '../../server/auth/sso.js';
import { loadConfig } from '../../server/config.js';
import { createPool, type Pool } from '../../server/db/pool.js';
import { createDemoSsoIssuer, type DemoSsoIssuer, issuerAnswers } from '../../server/demo/ssoIssuer.js';
import { DEMO_SSO_CLIENT_ID, DEMO_SSO_DOMAIN } from '../../server/demo/ssoProvider.js';
import { findSsoDomain, saveSsoDomain } from '../../server/repositories/sso.js';
import { signInAtProvider } from '../support/oidcProvider.js';
import { PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { createTestDatabase, defined, type TestDatabase } from './helpers.js';

/** A demo account of the provider's domain (a fixture operator given a demo.mall address). */
const DEMO_USER = `operator1@${DEMO_SSO_DOMAIN}`;

/** One instance of server/main.ts as far as the demo's sign-on goes: its pool, its demo issuer, maybe its app. */
interface Instance {
  publicUrl: string;
  pool: Pool;
  issuer: DemoSsoIssuer;
  app?: FastifyInstance;
}

let db: TestDatabase;
const instances: Instance[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await db.pool.query('UPDATE users SET email = $2 WHERE email = $1', [WORLD.users.operator1, DEMO_USER]);
});
afterAll(async () => {
  for (const instance of instances) {
    await instance.app?.close();
    await instance.issuer.stop();
    await instance.pool.end();
  }
  await db?.drop();
});

/**
 * An instance reached at `publicUrl`, on a pool of its own; with `app`, its HTTP app too (requests by inject). Its
 * checks of an issuer take 100 ms more than they do, so that instances starting together check at the same time.
 */
async function startInstance(publicUrl: string, options: { app?: boolean } = {}): Promise<Instance> {
  const pool = createPool(db.url, 3);
  const answers = async (issuer: string) => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    return issuerAnswers(issuer);
  };
  const issuer = createDemoSsoIssuer(pool, { publicUrl, answers });
  const instance: Instance = { publicUrl, pool, issuer };
  instances.push(instance);
  if (options.app) {
    const config = { ...loadConfig({}), staticDir: '/nonexistent', publicUrl };
    instance.app = await buildApp({ pool, config, demoSso: issuer });
    await instance.app.ready();
  }
  return instance;
}

async function storedIssuer(): Promise<string> {
  return defined(await findSsoDomain(db.pool, DEMO_SSO_DOMAIN), 'the demo domain’s provider').issuer;
}

/** A browser towards one instance's app: keeps the app's cookies (session, sign-on binding) between calls. */
class Browser {
  readonly cookies = new Map<string, string>();
  constructor(private readonly app: FastifyInstance) {}

  async get(url: string): Promise<LightMyRequestResponse> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await this.app.inject({
      method: 'GET',
      url,
      headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) },
    });
    for (const set of response.cookies) {
      if (set.value === '' || set.maxAge === 0) this.cookies.delete(set.name);
      else this.cookies.set(set.name, set.value);
    }
    return response;
  }

  /** Starts the demo domain's sign-on: answers where the app sends the browser. */
  async startSignOn(): Promise<string> {
    const start = await this.get(`/api/login?domain=${DEMO_SSO_DOMAIN}`);
    expect(start.statusCode).toBe(302);
    return String(start.headers.location);
  }
}

describe('the demo identity provider of several instances on one database', () => {
  let owner: Instance;
  let adopter: Instance;

  it('instances starting together agree on one stored issuer that answers; only its instance runs a provider', async () => {
    // The last run's provider, stopped: nothing listens on port 9 of the loopback.
    await saveSsoDomain(db.pool, {
      domain: DEMO_SSO_DOMAIN,
      issuer: 'http://127.0.0.1:9',
      clientId: DEMO_SSO_CLIENT_ID,
      clientSecret: 'the-last-run',
    });
    const starting = await Promise.all(
      ['http://127.0.0.1:18001', 'http://127.0.0.1:18002'].map((url) => startInstance(url)),
    );
    const standings = await Promise.all(starting.map((instance) => instance.issuer.settle()));

    const issuer = await storedIssuer();
    expect(standings.map((standing) => standing.issuer)).toEqual([issuer, issuer]);
    expect(standings.filter((standing) => standing.own)).toHaveLength(1);
    expect(await issuerAnswers(issuer)).toBe(true);
    owner = defined(starting.find((instance) => instance.issuer.ownIssuer === issuer));
    adopter = defined(starting.find((instance) => instance !== owner));
    expect(adopter.issuer.ownIssuer).toBeUndefined();

    // A later start adopts it too, and it stays stored.
    const later = await startInstance('http://127.0.0.1:18003');
    expect(await later.issuer.settle()).toEqual({ issuer, own: false });
    expect(later.issuer.ownIssuer).toBeUndefined();
    expect(await storedIssuer()).toBe(issuer);
    expect((await findSsoDomain(db.pool, DEMO_SSO_DOMAIN))?.clientId).toBe(DEMO_SSO_CLIENT_ID);
  });

  it('when that provider stops, the next instance to start takes over; the others adopt its provider', async () => {
    const stopped = await storedIssuer();
    await owner.issuer.stop();
    expect(await issuerAnswers(stopped)).toBe(false);

    const next = await startInstance('http://127.0.0.1:18004');
    const standing = await next.issuer.settle();
    expect(standing.own).toBe(true);
    expect(standing.issuer).not.toBe(stopped);
    expect(await storedIssuer()).toBe(standing.issuer);
    expect(await issuerAnswers(standing.issuer)).toBe(true);
    expect(await adopter.issuer.settle()).toEqual({ issuer: standing.issuer, own: false });
    owner = next;
  });

  it('a sign-on start takes over from a stopped provider, and an instance at another address signs in through it', async () => {
    const first = await startInstance('http://127.0.0.1:18005', { app: true });
    const second = await startInstance('http://localhost:18006', { app: true });
    expect((await first.issuer.settle()).own).toBe(false);
    expect((await second.issuer.settle()).own).toBe(false);
    await owner.issuer.stop();

    // The first sign-on after the stop: the first instance's app starts its own provider, stores it, sends there.
    const firstApp = defined(first.app);
    const location = await new Browser(firstApp).startSignOn();
    const issuer = defined(first.issuer.ownIssuer, 'the first instance’s provider');
    expect(location.startsWith(`${issuer}/`)).toBe(true);
    expect(await storedIssuer()).toBe(issuer);

    // The second instance, at its own address, adopts it and completes a sign-on there.
    const secondApp = defined(second.app);
    const browser = new Browser(secondApp);
    const authorizationUrl = await browser.startSignOn();
    expect(authorizationUrl.startsWith(`${issuer}/`)).toBe(true);
    expect(second.issuer.ownIssuer).toBeUndefined();
    const callback = await signInAtProvider({
      authorizationUrl,
      login: DEMO_USER,
      password: PASSWORD,
      returnTo: `${second.publicUrl}${SSO_CALLBACK_PATH}`,
    });
    const finished = await browser.get(callback.slice(second.publicUrl.length));
    expect(finished.statusCode).toBe(302);
    expect(finished.headers.location).toBe(SSO_SUCCESS_PAGE);

    // A callback beyond this machine is not one of the apps': the provider refuses it, sending nothing there.
    const foreign = new URL(authorizationUrl);
    foreign.searchParams.set('redirect_uri', `https://elsewhere.example${SSO_CALLBACK_PATH}`);
    const refused = await fetch(foreign, { redirect: 'manual' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
    await refused.body?.cancel();
  });
});
