import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEVICE_COOKIE } from '../../server/auth/devices.js';
import { accountDelaySeconds, SIGN_IN_THROTTLE, signInRefusal } from '../../server/auth/throttle.js';
import { PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, type TestDatabase } from './helpers.js';

let db: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  // Failures before a password change do not count: the fixture's passwords were set long ago.
  await db.pool.query(`UPDATE users SET password_changed_at = now() - interval '30 days'`);
  app = await createTestApp(db.pool, { env: { PUBLIC_URL: 'http://mall.test' } });
});
afterAll(async () => {
  await app.close();
  await db.drop();
});
beforeEach(async () => {
  await db.pool.query('DELETE FROM login_attempts');
  await db.pool.query('DELETE FROM auth_events');
  await db.pool.query('DELETE FROM known_devices');
});

let addressCounter = 0;
/** A browser at an address of its own, so that only the per-account rules are at work. */
const strangerBrowser = () => new Agent(app, `203.0.113.${(addressCounter++ % 250) + 1}`);

/** Moves every sign-in attempt back in time. */
async function ageAttempts(seconds: number) {
  await db.pool.query(`UPDATE login_attempts SET attempted_at = attempted_at - make_interval(secs => $1)`, [seconds]);
}

describe('the account backoff', () => {
  it('grows from 30 seconds, doubling to at most 15 minutes, after 5 free failures', () => {
    expect(accountDelaySeconds(4, 0)).toBe(0);
    expect(accountDelaySeconds(5, 0)).toBe(30);
    expect(accountDelaySeconds(6, 0)).toBe(60);
    expect(accountDelaySeconds(7, 0)).toBe(120);
    expect(accountDelaySeconds(9, 0)).toBe(480);
    expect(accountDelaySeconds(10, 0)).toBe(SIGN_IN_THROTTLE.maxDelaySeconds);
    expect(accountDelaySeconds(40, 0)).toBe(SIGN_IN_THROTTLE.maxDelaySeconds);
    expect(accountDelaySeconds(6, 45)).toBe(15);
    expect(accountDelaySeconds(6, 61)).toBe(0);
  });

  it('slows a guesser spread over many addresses, without checking the password while it waits', async () => {
    for (let i = 0; i < 5; i += 1) {
      expect((await strangerBrowser().login(WORLD.users.noLookup, 'wrong-password')).statusCode).toBe(401);
    }
    const waiting = await strangerBrowser().login(WORLD.users.noLookup, PASSWORD);
    expect(waiting.statusCode).toBe(429);
    expect(waiting.json()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message:
        'Too many failed sign-ins to this account. Please try again in 1 minute, sign in from a browser you have used before, or reset your password.',
    });
    expect(Number(waiting.headers['retry-after'])).toBeGreaterThan(25);
    expect(Number(waiting.headers['retry-after'])).toBeLessThanOrEqual(30);

    // Once the delay has passed, one more try; a wrong one doubles the next delay.
    await ageAttempts(31);
    expect((await strangerBrowser().login(WORLD.users.noLookup, 'wrong-password')).statusCode).toBe(401);
    expect((await strangerBrowser().login(WORLD.users.noLookup, PASSWORD)).statusCode).toBe(429);
    await ageAttempts(31);
    expect((await strangerBrowser().login(WORLD.users.noLookup, PASSWORD)).statusCode).toBe(429);
    await ageAttempts(30);
    expect((await strangerBrowser().login(WORLD.users.noLookup, PASSWORD)).statusCode).toBe(200);
    // The success starts the count again.
    expect((await strangerBrowser().login(WORLD.users.noLookup, 'wrong-password')).statusCode).toBe(401);
    expect((await strangerBrowser().login(WORLD.users.noLookup, PASSWORD)).statusCode).toBe(200);
  });

  it('answers an unknown username as it answers a known one', async () => {
    for (let i = 0; i < 5; i += 1) {
      expect((await strangerBrowser().login('nobody@fixture.test', 'wrong-password')).statusCode).toBe(401);
    }
    expect((await strangerBrowser().login('nobody@fixture.test', 'wrong-password')).statusCode).toBe(429);
  });
});

describe('a browser that signed in before', () => {
  it('signs the owner in while a stranger keeps the account in backoff', async () => {
    const owner = strangerBrowser();
    expect((await owner.login(WORLD.users.operator2, PASSWORD)).statusCode).toBe(200);
    expect(owner.otherCookies.get(DEVICE_COOKIE)).toBeTruthy();
    await owner.request('GET', '/api/logout');

    for (let i = 0; i < 12; i += 1) await strangerBrowser().login(WORLD.users.operator2, 'wrong-password');
    expect((await strangerBrowser().login(WORLD.users.operator2, PASSWORD)).statusCode).toBe(429);

    owner.csrfToken = '';
    const signedIn = await owner.login(WORLD.users.operator2, PASSWORD);
    expect(signedIn.statusCode).toBe(200);
    expect((await owner.get('/clients')).statusCode).toBe(200);
  });

  it('has a budget of its own: 5 failures in 15 minutes', async () => {
    const owner = strangerBrowser();
    expect((await owner.login(WORLD.users.operator2, PASSWORD)).statusCode).toBe(200);
    await owner.request('GET', '/api/logout');
    owner.csrfToken = '';
    for (let i = 0; i < 5; i += 1)
      expect((await owner.login(WORLD.users.operator2, 'wrong-password')).statusCode).toBe(401);
    const refused = await owner.login(WORLD.users.operator2, PASSWORD);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe('Too many sign-in attempts. Please try again in 15 minutes.');
    await ageAttempts(16 * 60);
    expect((await owner.login(WORLD.users.operator2, PASSWORD)).statusCode).toBe(200);
  });

  it('counts only for the account it signed in to', async () => {
    const browser = strangerBrowser();
    expect((await browser.login(WORLD.users.operator2, PASSWORD)).statusCode).toBe(200);
    await browser.request('GET', '/api/logout');
    for (let i = 0; i < 6; i += 1) await strangerBrowser().login(WORLD.users.tenant, 'wrong-password');
    browser.csrfToken = '';
    expect((await browser.login(WORLD.users.tenant, PASSWORD)).statusCode).toBe(429);
  });
});

describe('a password reset', () => {
  it('ends the account backoff', async () => {
    for (let i = 0; i < 8; i += 1) await strangerBrowser().login(WORLD.users.operator1, 'wrong-password');
    expect((await strangerBrowser().login(WORLD.users.operator1, PASSWORD)).statusCode).toBe(429);

    const owner = strangerBrowser();
    await owner.fetchCsrf();
    await owner.request('POST', '/api/user/sendResetPasswordEmail', { body: { email: WORLD.users.operator1 } });
    const { rows } = await db.pool.query<{ text: string }>(
      'SELECT text FROM outbox WHERE recipient = $1 ORDER BY id DESC LIMIT 1',
      [WORLD.users.operator1],
    );
    const key = /validationKey=([\w-]+)/.exec(rows[0]?.text ?? '')?.[1] ?? '';
    const newPassword = 'after-the-reset-9';
    const reset = await owner.request('PUT', '/api/user/password', { body: { validationKey: key, newPassword } });
    expect(reset.statusCode).toBe(200);
    owner.csrfToken = '';
    expect((await owner.login(WORLD.users.operator1, newPassword)).statusCode).toBe(200);
  });
});

describe('the limits of an address, kept with the account', () => {
  it('refuses an address further usernames after failures on 30 of them in 15 minutes', async () => {
    const address = '198.51.100.7';
    for (let i = 0; i < 30; i += 1) {
      expect((await new Agent(app, address).login(`guess${i}@fixture.test`, 'wrong-password')).statusCode).toBe(401);
    }
    const refused = await new Agent(app, address).login(WORLD.users.admin, PASSWORD);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe('Too many sign-in attempts. Please try again in 15 minutes.');
    // A username the address has tried keeps its own budget; other addresses are not concerned.
    expect((await new Agent(app, address).login('guess0@fixture.test', 'wrong-password')).statusCode).toBe(401);
    expect((await strangerBrowser().login(WORLD.users.admin, PASSWORD)).statusCode).toBe(200);
    await ageAttempts(16 * 60);
    expect((await new Agent(app, address).login(WORLD.users.admin, PASSWORD)).statusCode).toBe(200);
  });

  it('lets a browser that signed in to the account before sign in from an address that is over its budget', async () => {
    const address = '198.51.100.8';
    const owner = new Agent(app, address);
    expect((await owner.login(WORLD.users.operator2, PASSWORD)).statusCode).toBe(200);
    await owner.request('GET', '/api/logout');
    owner.csrfToken = '';
    for (let i = 0; i < 30; i += 1) await new Agent(app, address).login(`spray${i}@fixture.test`, 'wrong-password');
    expect((await new Agent(app, address).login(WORLD.users.operator2, PASSWORD)).statusCode).toBe(429);
    expect((await owner.login(WORLD.users.operator2, PASSWORD)).statusCode).toBe(200);
  });

  it('does not let one user’s failures from 127.0.0.1 block another user there', async () => {
    // Earlier failures of the tenant from this address, as a day of mistyping leaves them (no backoff skipped).
    await db.pool.query(
      `INSERT INTO login_attempts (username, address, succeeded, attempted_at)
       SELECT $1, '127.0.0.1', false, now() - make_interval(secs => n * 20) FROM generate_series(1, 40) n`,
      [WORLD.users.tenant],
    );
    const tenant = await new Agent(app).login(WORLD.users.tenant, PASSWORD);
    expect(tenant.statusCode).toBe(429);
    expect(tenant.json().message).toBe('Too many sign-in attempts. Please try again in 15 minutes.');
    expect((await new Agent(app).login(WORLD.users.admin, PASSWORD)).statusCode).toBe(200);
  });

  it('does not let several users’ failures from one address block another user there', async () => {
    const users = [
      WORLD.users.tenant,
      WORLD.users.noLookup,
      WORLD.users.operator2,
      WORLD.users.expired,
      WORLD.users.partner,
      WORLD.users.mfa,
    ];
    for (const user of users) {
      for (let i = 0; i < 5; i += 1) {
        expect((await new Agent(app).login(user, 'wrong-password')).statusCode).toBe(401);
      }
    }
    // 30 failures from 127.0.0.1 in all: each of those accounts is slowed, no one else.
    expect((await new Agent(app).login(WORLD.users.tenant, PASSWORD)).statusCode).toBe(429);
    expect((await new Agent(app).login(WORLD.users.admin, PASSWORD)).statusCode).toBe(200);
  });

  it('refuses an account from an address after 10 failures there, and only there', () => {
    const counts = {
      byAddressAccount: SIGN_IN_THROTTLE.maxPerAddressAccount,
      accountsFromAddress: 1,
      byAccount: 0,
      secondsSinceAccountFailure: 1e9,
      byDevice: 0,
    };
    expect(signInRefusal(counts, false)).toMatchObject({ limit: 'address and account', seconds: 15 * 60 });
    expect(signInRefusal({ ...counts, byAddressAccount: 9 }, false)).toBeUndefined();
    // A browser that signed in to the account before has only its own budget.
    expect(signInRefusal(counts, true)).toBeUndefined();
    expect(signInRefusal({ ...counts, byDevice: 5 }, true)).toMatchObject({ limit: 'device' });
  });
});

describe('the address of a request', () => {
  /** A wrong password for `username` from a client at `forwardedFor` behind the socket's peer `socket`. */
  async function failFrom(target: FastifyInstance, socket: string, forwardedFor: string, username: string) {
    const agent = new Agent(target, socket);
    const headers = { 'x-forwarded-for': forwardedFor };
    agent.csrfToken = (await agent.request('GET', '/api/getcsrftoken', { headers })).json().csrfToken;
    return agent.request('POST', '/api/login', { body: { username, password: 'wrong-password' }, headers });
  }

  it('is the client a proxy named by TRUST_PROXY forwarded for', async () => {
    const proxied = await createTestApp(db.pool, { env: { PUBLIC_URL: 'http://mall.test', TRUST_PROXY: '10.0.0.1' } });
    try {
      for (let i = 0; i < 30; i += 1) {
        expect((await failFrom(proxied, '10.0.0.1', '192.0.2.1', `proxied${i}@fixture.test`)).statusCode).toBe(401);
      }
      expect((await failFrom(proxied, '10.0.0.1', '192.0.2.1', 'one-more@fixture.test')).statusCode).toBe(429);
      // Another client behind the same proxy has a budget of its own.
      expect((await failFrom(proxied, '10.0.0.1', '192.0.2.2', 'one-more@fixture.test')).statusCode).toBe(401);
    } finally {
      await proxied.close();
    }
  });

  it('is the socket’s peer otherwise, whatever X-Forwarded-For says', async () => {
    for (let i = 0; i < 30; i += 1) {
      expect((await failFrom(app, '10.0.0.2', `192.0.2.${i + 10}`, `direct${i}@fixture.test`)).statusCode).toBe(401);
    }
    expect((await failFrom(app, '10.0.0.2', '192.0.2.99', 'one-more@fixture.test')).statusCode).toBe(429);
  });
});

describe('password-reset e-mails', () => {
  const ask = (agent: Agent, email: string) =>
    agent.request('POST', '/api/user/sendResetPasswordEmail', { body: { email } });
  const mailsTo = async (email: string) =>
    (await db.pool.query('SELECT 1 FROM outbox WHERE recipient = $1', [email])).rowCount ?? 0;

  it('go out at most 3 times an hour for one e-mail address from one address, known or not', async () => {
    const before = await mailsTo(WORLD.users.tenant);
    for (const email of [WORLD.users.tenant, 'nobody@fixture.test']) {
      const agent = new Agent(app, '198.51.100.40');
      await agent.fetchCsrf();
      for (let i = 0; i < 3; i += 1) expect((await ask(agent, email)).statusCode).toBe(200);
      const refused = await ask(agent, email);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toBe('Too many password reset requests. Please try again in 60 minutes.');
      // The owner asking from another address is not refused for it.
      const owner = strangerBrowser();
      await owner.fetchCsrf();
      expect((await ask(owner, email)).statusCode).toBe(200);
    }
    expect((await mailsTo(WORLD.users.tenant)) - before).toBe(4);
    await db.pool.query(`UPDATE auth_events SET happened_at = happened_at - interval '61 minutes'`);
    const agent = new Agent(app, '198.51.100.40');
    await agent.fetchCsrf();
    expect((await ask(agent, WORLD.users.tenant)).statusCode).toBe(200);
  });

  it('go out at most 10 times an hour to one e-mail address, from every address together', async () => {
    for (let i = 0; i < 10; i += 1) {
      const agent = strangerBrowser();
      await agent.fetchCsrf();
      expect((await ask(agent, WORLD.users.operator1)).statusCode).toBe(200);
    }
    const agent = strangerBrowser();
    await agent.fetchCsrf();
    expect((await ask(agent, WORLD.users.operator1)).statusCode).toBe(429);
    expect(await mailsTo(WORLD.users.operator1)).toBeGreaterThanOrEqual(10);
  });

  it('from one address are not used up by other e-mail addresses’ requests', async () => {
    const shared = new Agent(app);
    await shared.fetchCsrf();
    // The old limit was 10 requests an hour per address, whatever the e-mail addresses.
    for (let i = 0; i < 12; i += 1) expect((await ask(shared, `colleague${i}@fixture.test`)).statusCode).toBe(200);
    const owner = new Agent(app);
    await owner.fetchCsrf();
    const before = await mailsTo(WORLD.users.tenant);
    expect((await ask(owner, WORLD.users.tenant)).statusCode).toBe(200);
    expect((await mailsTo(WORLD.users.tenant)) - before).toBe(1);
  });

  it('are asked for at most 30 distinct e-mail addresses an hour from one address', async () => {
    const agent = new Agent(app, '198.51.100.9');
    await agent.fetchCsrf();
    for (let i = 0; i < 30; i += 1) expect((await ask(agent, `someone${i}@fixture.test`)).statusCode).toBe(200);
    expect((await ask(agent, 'someone-else@fixture.test')).statusCode).toBe(429);
    // One it has asked for keeps its own 3.
    expect((await ask(agent, 'someone0@fixture.test')).statusCode).toBe(200);
  });
});
