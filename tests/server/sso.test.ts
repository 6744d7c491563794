import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import {
  CookieJar,
  parseForm,
  type RunningOidcProvider,
  signInAtProvider,
  startOidcProvider,
} from '../support/oidcProvider.js';
import { seedWorld, WORLD } from './fixtures.js';
import { createTestDatabase, defined, type TestDatabase } from './helpers.js';

/** The address the app believes it is reached at; the test feeds the provider's redirects to it with inject. */
const PUBLIC_URL = 'http://app.test';
const CALLBACK_URL = `${PUBLIC_URL}/api/login/callback`;
const CLIENT_ID = 'mall-analytics';
const CLIENT_SECRET = 'fixture-client-secret';

let provider: RunningOidcProvider;
let db: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  provider = await startOidcProvider({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUris: [CALLBACK_URL],
    postLogoutRedirectUris: [`${PUBLIC_URL}/login`],
  });
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await db.pool.query(
    `INSERT INTO email_domains (domain, oidc_issuer, oidc_client_id, oidc_client_secret) VALUES ($1, $2, $3, $4)
     ON CONFLICT (domain) DO UPDATE SET oidc_issuer = $2, oidc_client_id = $3, oidc_client_secret = $4`,
    ['fixture.test', provider.issuer, CLIENT_ID, CLIENT_SECRET],
  );
  await db.pool.query(
    `INSERT INTO email_domains (domain, receipts_hidden) VALUES ('partner.test', true) ON CONFLICT (domain) DO NOTHING`,
  );
  // A provider that cannot be reached (nothing listens on port 9 of the loopback).
  await db.pool.query(
    `INSERT INTO email_domains (domain, oidc_issuer, oidc_client_id) VALUES ('down.test', 'http://127.0.0.1:9', 'x')`,
  );
  const config = { ...loadConfig({}), staticDir: '/nonexistent', publicUrl: PUBLIC_URL };
  app = await buildApp({ pool: db.pool, config });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
  await provider?.stop();
});

/** A browser towards the app: keeps its cookies (the session and the single sign-on binding) between calls. */
class Browser {
  readonly cookies = new Map<string, string>();
  /** The browser's cookies at the provider. */
  readonly providerJar = new CookieJar();

  async request(
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await app.inject({ method, url, headers: { ...headers, ...(cookie ? { cookie } : {}) } });
    for (const set of response.cookies) {
      const expired =
        set.value === '' || (set.expires !== undefined && set.expires.getTime() <= Date.now()) || set.maxAge === 0;
      if (expired) this.cookies.delete(set.name);
      else this.cookies.set(set.name, set.value);
    }
    return response;
  }

  /** Starts single sign-on and signs in at the provider; answers the callback path the provider sent the browser to. */
  async signInAtProvider(login: string): Promise<string> {
    const start = await this.request('GET', '/api/login?domain=fixture.test', { accept: 'text/html' });
    expect(start.statusCode).toBe(302);
    const callback = await signInAtProvider({
      authorizationUrl: String(start.headers.location),
      login,
      returnTo: CALLBACK_URL,
      jar: this.providerJar,
    });
    return callback.slice(PUBLIC_URL.length);
  }
}

function ssoError(response: LightMyRequestResponse): string | null {
  expect(response.statusCode).toBe(302);
  const location = String(response.headers.location);
  expect(location).toMatch(/^\/sso\?error=/);
  return new URL(location, PUBLIC_URL).searchParams.get('error');
}

describe('GET /api/login?domain= (start single sign-on)', () => {
  it('answers 404 JSON for a domain without single sign-on', async () => {
    for (const domain of ['unknown.test', 'partner.test']) {
      const response = await app.inject({
        method: 'GET',
        url: `/api/login?domain=${domain}`,
        headers: { accept: 'application/json' },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: `Single sign-on is not set up for ${domain}.`,
      });
    }
  });

  it('sends a browser navigation for an unknown domain to /sso with its code', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/login?domain=Unknown.test',
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(response.statusCode).toBe(302);
    // A code, never text: the page shows the code's fixed message (src/domain/ssoErrors.ts).
    expect(response.headers.location).toBe('/sso?error=not_set_up');
  });

  it('tells when the provider cannot be reached', async () => {
    const page = await app.inject({
      method: 'GET',
      url: '/api/login?domain=down.test',
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe('/sso?error=unreachable');
    const call = await app.inject({ method: 'GET', url: '/api/login?domain=down.test' });
    expect(call.statusCode).toBe(502);
    expect(call.json()).toMatchObject({ statusCode: 502 });
  });

  it('refuses a malformed domain with 400', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/login?domain=not_a_domain' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400 });
  });

  it('redirects to the provider with PKCE (S256), state, nonce and the callback URL', async () => {
    const browser = new Browser();
    const response = await browser.request('GET', '/api/login?domain=fixture.test');
    expect(response.statusCode).toBe(302);
    const location = new URL(String(response.headers.location));
    expect(location.origin).toBe(provider.issuer);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      client_id: CLIENT_ID,
      response_type: 'code',
      redirect_uri: CALLBACK_URL,
      scope: 'openid email',
      code_challenge_method: 'S256',
    });
    for (const name of ['code_challenge', 'state', 'nonce'])
      expect(location.searchParams.get(name)).toMatch(/^[\w-]{20,}$/);
    // An anonymous session holds the handshake; a SameSite=Lax cookie binds the callback to this browser.
    const cookies = response.cookies;
    expect(cookies.find((cookie) => cookie.name === 'sid')).toMatchObject({ sameSite: 'Strict', httpOnly: true });
    expect(cookies.find((cookie) => cookie.name === 'sid_sso')).toMatchObject({
      sameSite: 'Lax',
      httpOnly: true,
      path: '/api/login/callback',
    });
    const { rows } = await db.pool.query<{ pending: Record<string, unknown> }>(
      'SELECT sso_pending AS pending FROM sessions WHERE sso_pending IS NOT NULL AND sso_pending->>$1 = $2',
      ['state', location.searchParams.get('state')],
    );
    expect(rows[0]?.pending).toMatchObject({ domain: 'fixture.test', nonce: location.searchParams.get('nonce') });
    expect(rows[0]?.pending.codeVerifier).toEqual(expect.any(String));
  });

  it('reuses the caller’s anonymous session', async () => {
    const browser = new Browser();
    await browser.request('GET', '/api/getcsrftoken');
    const sid = browser.cookies.get('sid');
    const response = await browser.request('GET', '/api/login?domain=fixture.test');
    expect(response.statusCode).toBe(302);
    expect(response.cookies.find((cookie) => cookie.name === 'sid')).toBeUndefined();
    expect(browser.cookies.get('sid')).toBe(sid);
  });
});

describe('single sign-on round trip with a real provider', () => {
  it('signs the user in, then logging out sends the browser to the provider’s end-session endpoint', async () => {
    const browser = new Browser();
    const callbackPath = await browser.signInAtProvider(WORLD.users.operator1);
    expect(callbackPath).toMatch(/^\/api\/login\/callback\?code=/);
    const anonymousSid = browser.cookies.get('sid');
    expect(anonymousSid).toBeTruthy();

    const callback = await browser.request('GET', callbackPath, { accept: 'text/html' });
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/sso?status=success');
    // A new session cookie; the binding cookie is spent.
    const sid = callback.cookies.find((cookie) => cookie.name === 'sid');
    expect(sid).toMatchObject({ sameSite: 'Strict', httpOnly: true, path: '/' });
    expect(sid?.value).not.toBe(anonymousSid);
    expect(browser.cookies.has('sid_sso')).toBe(false);

    const credential = await browser.request('GET', '/api/credential');
    expect(credential.statusCode).toBe(200);
    expect((credential.json() as { user: { username: string } }).user.username).toBe(WORLD.users.operator1);
    const { rows } = await db.pool.query<{ mfaPending: boolean; idToken: string | null }>(
      `SELECT mfa_pending AS "mfaPending", sso_id_token AS "idToken" FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE u.email = $1`,
      [WORLD.users.operator1],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ mfaPending: false, idToken: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/) });
    // This provider serves the e-mail from its userinfo endpoint, not in the ID token: that path is covered.
    const payload = JSON.parse(Buffer.from(rows[0]?.idToken?.split('.')[1] ?? '', 'base64url').toString()) as object;
    expect(payload).not.toHaveProperty('email');

    // The callback cannot be replayed: the handshake was used up.
    const replay = await new Browser().request('GET', callbackPath);
    expect(ssoError(replay)).toBe('expired');

    const logout = await browser.request('GET', '/api/logout');
    expect(logout.statusCode).toBe(200);
    const { success, redirectUrl } = logout.json() as { success: boolean; redirectUrl?: string };
    expect(success).toBe(true);
    const endSession = new URL(String(redirectUrl));
    expect(`${endSession.origin}${endSession.pathname}`).toBe(`${provider.issuer}/session/end`);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${PUBLIC_URL}/login`);
    expect(endSession.searchParams.get('id_token_hint')).toBe(rows[0]?.idToken);
    expect((await browser.request('GET', '/api/credential')).statusCode).toBe(401);

    // The provider accepts the logout and sends the browser back to the app's login page.
    const confirm = await fetch(endSession, { headers: { cookie: browser.providerJar.header() } });
    browser.providerJar.store(confirm);
    expect(confirm.status).toBe(200);
    const form = defined(parseForm(await confirm.text(), endSession.href), 'the logout form');
    const done = await fetch(form.action, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: browser.providerJar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...form.fields, logout: 'yes' }).toString(),
    });
    expect(done.status).toBeGreaterThanOrEqual(300);
    expect(done.status).toBeLessThan(400);
    expect(done.headers.get('location')).toBe(`${PUBLIC_URL}/login`);
  });

  it('does not accept an answer with a state other than the one sent', async () => {
    const browser = new Browser();
    const callbackPath = await browser.signInAtProvider(WORLD.users.operator1);
    const wrong = callbackPath.replace(/([?&]state=)[^&]*/, '$1wrong-state-value');
    expect(wrong).not.toBe(callbackPath);
    const response = await browser.request('GET', wrong);
    expect(ssoError(response)).toBe('mismatch');
    expect((await browser.request('GET', '/api/credential')).statusCode).toBe(401);
  });

  it('does not accept an answer in a browser that did not start the sign-on', async () => {
    const browser = new Browser();
    const callbackPath = await browser.signInAtProvider(WORLD.users.operator1);
    const other = new Browser();
    await other.request('GET', '/api/getcsrftoken');
    expect(ssoError(await other.request('GET', callbackPath))).toBe('expired');
    expect((await other.request('GET', '/api/credential')).statusCode).toBe(401);
  });

  it('tells of an e-mail without an account (and a disabled one)', async () => {
    for (const email of ['nobody@fixture.test', WORLD.users.disabled]) {
      const browser = new Browser();
      const response = await browser.request('GET', await browser.signInAtProvider(email));
      expect(ssoError(response)).toBe('no_account');
      expect((await browser.request('GET', '/api/credential')).statusCode).toBe(401);
    }
  });

  it('matches the e-mail case-insensitively', async () => {
    const browser = new Browser();
    const response = await browser.request('GET', await browser.signInAtProvider('Operator2@Fixture.TEST'));
    expect(response.headers.location).toBe('/sso?status=success');
    const credential = await browser.request('GET', '/api/credential');
    expect((credential.json() as { user: { username: string } }).user.username).toBe(WORLD.users.operator2);
  });

  it('refuses an e-mail of another domain than the one whose provider signed in', async () => {
    const browser = new Browser();
    const response = await browser.request('GET', await browser.signInAtProvider('admin@elsewhere.test'));
    expect(ssoError(response)).toBe('wrong_domain');
  });

  it('reports an error answer of the provider', async () => {
    const browser = new Browser();
    const start = await browser.request('GET', '/api/login?domain=fixture.test');
    const state = new URL(String(start.headers.location)).searchParams.get('state') ?? '';
    const response = await browser.request(
      'GET',
      `/api/login/callback?error=access_denied&error_description=End-User+aborted+interaction&state=${state}`,
    );
    expect(ssoError(response)).toBe('cancelled');
  });

  it('passes no text of the provider to the page: any other error answer is refused as a code', async () => {
    const browser = new Browser();
    const start = await browser.request('GET', '/api/login?domain=fixture.test');
    const state = new URL(String(start.headers.location)).searchParams.get('state') ?? '';
    const response = await browser.request(
      'GET',
      `/api/login/callback?error=${encodeURIComponent('Call +1 555 0100 now')}&state=${state}`,
    );
    expect(response.headers.location).toBe('/sso?error=refused');
  });

  it('sends a callback without a sign-on under way to /sso with a code', async () => {
    const response = await new Browser().request('GET', '/api/login/callback?code=abc&state=def');
    expect(ssoError(response)).toBe('expired');
  });
});
