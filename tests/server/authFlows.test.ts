import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMailer } from '../../server/mail/mailer.js';
import { type SmtpSink, startSmtpSink } from '../support/smtpSink.js';
import { PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, type TestDatabase } from './helpers.js';

let db: TestDatabase;
let app: FastifyInstance;
let smtp: SmtpSink;
const quiet = { info: () => {} };

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  smtp = await startSmtpSink();
  const mailer = createMailer(
    { smtpUrl: smtp.url, mailFrom: 'Mall Analytics <no-reply@fixture.test>' },
    db.pool,
    quiet,
  );
  app = await createTestApp(db.pool, { mailer, env: { PUBLIC_URL: 'http://mall.test' } });
});
afterAll(async () => {
  await app.close();
  await smtp.stop();
  await db.drop();
});

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? '';
const keyIn = (text: string) => /validationKey=([\w-]+)/.exec(text)?.[1] ?? '';

describe('one-time codes', () => {
  // Sends and wrong codes are counted per account over 10 and 15 minutes: each test starts with none.
  beforeEach(async () => {
    await db.pool.query('DELETE FROM auth_events');
  });

  async function pendingAgent() {
    const agent = new Agent(app);
    const login = await agent.login(WORLD.users.mfa, PASSWORD);
    expect(login.json().require_mfa).toBe(true);
    return agent;
  }

  async function requestCode(agent: Agent) {
    const since = smtp.mails.length;
    expect((await agent.get('/api/otp')).json()).toEqual({ success: true });
    const mail = await smtp.waitFor(WORLD.users.mfa, { since });
    expect(mail.subject).toMatch(/sign-in code/);
    return codeIn(mail.text);
  }

  const verify = (agent: Agent, code: string) => agent.request('POST', '/api/verifyOtp', { body: { code } });
  const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');
  const invalidCode = { statusCode: 400, error: 'Bad Request', message: 'Invalid or expired code.' };
  const tooManyCodes = {
    statusCode: 429,
    error: 'Too Many Requests',
    message: 'Too many wrong codes. Please try again in 15 minutes.',
  };

  it('mails a 6-digit code that completes the sign-in; a wrong or used code answers 400', async () => {
    const agent = await pendingAgent();
    const code = await requestCode(agent);
    expect(code).toMatch(/^\d{6}$/);
    const wrong = await verify(agent, wrongFor(code));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual(invalidCode);
    expect((await agent.get('/clients')).statusCode).toBe(401);
    const right = await verify(agent, code);
    expect(right.statusCode).toBe(200);
    expect(right.json()).toEqual({ success: true });
    expect((await agent.get('/clients')).statusCode).toBe(200);
    // A used code does not work twice.
    expect((await verify(agent, code)).json()).toEqual(invalidCode);
  });

  it('counts wrong codes per account, over every code sent: a new code gives no new tries', async () => {
    const agent = await pendingAgent();
    const first = await requestCode(agent);
    for (let i = 0; i < 3; i += 1) expect((await verify(agent, wrongFor(first))).statusCode).toBe(400);
    const second = await requestCode(agent);
    for (let i = 0; i < 2; i += 1) expect((await verify(agent, wrongFor(second))).statusCode).toBe(400);
    // Five wrong codes: even the right one is refused now, and so are the codes of another pending session.
    const refused = await verify(agent, second);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(tooManyCodes);
    expect(Number(refused.headers['retry-after'])).toBe(15 * 60);
    const other = await pendingAgent();
    const third = await requestCode(other);
    expect((await verify(other, third)).statusCode).toBe(429);

    await db.pool.query(`UPDATE auth_events SET happened_at = happened_at - interval '16 minutes'`);
    expect((await verify(other, third)).json()).toEqual({ success: true });
  });

  it('a verified code clears the wrong ones before it', async () => {
    const agent = await pendingAgent();
    const code = await requestCode(agent);
    for (let i = 0; i < 4; i += 1) expect((await verify(agent, wrongFor(code))).statusCode).toBe(400);
    expect((await verify(agent, code)).statusCode).toBe(200);
    const next = await pendingAgent();
    const nextCode = await requestCode(next);
    for (let i = 0; i < 4; i += 1) expect((await verify(next, wrongFor(nextCode))).statusCode).toBe(400);
    expect((await verify(next, nextCode)).statusCode).toBe(200);
  });

  it('sends at most 3 codes to an account in 10 minutes', async () => {
    const agent = await pendingAgent();
    for (let i = 0; i < 3; i += 1) await requestCode(agent);
    const since = smtp.mails.length;
    const refused = await agent.get('/api/otp');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe('Too many codes sent. Please wait 10 minutes before asking for another.');
    // Another session of the same account is counted with it.
    expect((await (await pendingAgent()).get('/api/otp')).statusCode).toBe(429);
    expect(smtp.mails.length).toBe(since);

    await db.pool.query(`UPDATE auth_events SET happened_at = happened_at - interval '11 minutes'`);
    const code = await requestCode(agent);
    expect((await verify(agent, code)).json()).toEqual({ success: true });
  });

  it('keeps an expired password locked after the code: nothing but the pending calls open', async () => {
    await db.pool.query('UPDATE users SET password_expired = true WHERE email = $1', [WORLD.users.mfa]);
    try {
      const agent = await pendingAgent();
      const code = await requestCode(agent);
      expect((await verify(agent, code)).json()).toEqual({ success: true });
      expect((await agent.get('/api/credential')).json().user.password_expired).toBe(true);
      const clients = await agent.get('/clients');
      expect(clients.statusCode).toBe(401);
      expect(clients.json().message).toBe('Password expired.');
    } finally {
      await db.pool.query('UPDATE users SET password_expired = false WHERE email = $1', [WORLD.users.mfa]);
    }
  });

  it('refuses an expired code', async () => {
    const agent = await pendingAgent();
    const code = await requestCode(agent);
    await db.pool.query(`UPDATE one_time_codes SET expires_at = now() - interval '1 second'`);
    expect((await verify(agent, code)).json()).toEqual(invalidCode);
  });

  it('rejects a malformed code with 400 naming the field', async () => {
    const agent = await pendingAgent();
    const response = await verify(agent, '12ab56');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('code');
  });
});

describe('expired passwords', () => {
  it('refuses the sign-in with "Password expired." and lets the user set a new password', async () => {
    const agent = new Agent(app);
    const login = await agent.login(WORLD.users.expired, PASSWORD);
    expect(login.statusCode).toBe(401);
    expect(login.json().message).toBe('Password expired.');

    const weak = await agent.request('PUT', '/api/user/password', {
      body: { username: WORLD.users.expired, currentPassword: PASSWORD, newPassword: 'onlyletters' },
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toBe('The new password must contain at least one letter and one digit.');

    const wrong = await agent.request('PUT', '/api/user/password', {
      body: { username: WORLD.users.expired, currentPassword: 'wrong-password-1', newPassword: 'brand-new-pass-2' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('The current password is incorrect.');

    const changed = await agent.request('PUT', '/api/user/password', {
      body: { username: WORLD.users.expired, currentPassword: PASSWORD, newPassword: 'brand-new-pass-2' },
    });
    expect(changed.json()).toEqual({ success: true });
    const again = new Agent(app);
    expect((await again.login(WORLD.users.expired, 'brand-new-pass-2')).statusCode).toBe(200);
    expect((await new Agent(app).login(WORLD.users.expired, PASSWORD)).statusCode).toBe(401);
  });
});

describe('password reset', () => {
  it('answers the same for known and unknown e-mails and mails only the known one', async () => {
    const agent = new Agent(app);
    await agent.fetchCsrf();
    const since = smtp.mails.length;
    const unknown = await agent.request('POST', '/api/user/sendResetPasswordEmail', {
      body: { email: 'nobody@fixture.test' },
    });
    const known = await agent.request('POST', '/api/user/sendResetPasswordEmail', {
      body: { email: WORLD.users.operator2 },
    });
    expect(unknown.json()).toEqual({ success: true });
    expect(known.json()).toEqual({ success: true });
    await smtp.waitFor(WORLD.users.operator2, { since });
    expect(smtp.mails.slice(since).map((mail) => mail.to[0])).toEqual([WORLD.users.operator2]);
  });

  it('resets with a single-use key from the mailed link and ends the old sessions', async () => {
    const signedIn = new Agent(app);
    await signedIn.login(WORLD.users.tenant, PASSWORD);

    const agent = new Agent(app);
    await agent.fetchCsrf();
    const since = smtp.mails.length;
    await agent.request('POST', '/api/user/sendResetPasswordEmail', {
      body: { email: WORLD.users.tenant.toUpperCase() },
    });
    const mail = await smtp.waitFor(WORLD.users.tenant, { since });
    expect(mail.text).toContain('http://mall.test/reset-password?validationKey=');
    const key = keyIn(mail.text);

    expect((await agent.get(`/api/user/resetPassword?validationKey=${key}`)).json()).toEqual({ success: true });
    expect((await agent.get('/api/user/resetPassword?validationKey=not-a-key')).json()).toEqual({ success: false });

    const reset = await agent.request('PUT', '/api/user/password', {
      body: { validationKey: key, newPassword: 'reset-pass-word-3' },
    });
    expect(reset.json()).toEqual({ success: true });
    expect((await signedIn.get('/clients')).statusCode).toBe(401);
    expect((await agent.get(`/api/user/resetPassword?validationKey=${key}`)).json()).toEqual({ success: false });

    const second = new Agent(app);
    await second.fetchCsrf();
    const reuse = await second.request('PUT', '/api/user/password', {
      body: { validationKey: key, newPassword: 'another-pass-4' },
    });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().message).toBe('This link is invalid or has expired. Please ask for a new one.');
    expect((await new Agent(app).login(WORLD.users.tenant, 'reset-pass-word-3')).statusCode).toBe(200);
  });

  it('refuses an expired key', async () => {
    const agent = new Agent(app);
    await agent.fetchCsrf();
    const since = smtp.mails.length;
    await agent.request('POST', '/api/user/sendResetPasswordEmail', { body: { email: WORLD.users.noLookup } });
    const key = keyIn((await smtp.waitFor(WORLD.users.noLookup, { since })).text);
    await db.pool.query(`UPDATE validation_keys SET expires_at = now() - interval '1 second'`);
    const response = await agent.request('PUT', '/api/user/password', {
      body: { validationKey: key, newPassword: 'too-late-pass-5' },
    });
    expect(response.statusCode).toBe(400);
  });

  it('changes the password of a signed-in user who gives the current one', async () => {
    const agent = new Agent(app);
    await agent.login(WORLD.users.operator2, PASSWORD);
    const wrong = await agent.request('PUT', '/api/user/password', {
      body: { currentPassword: 'nope', newPassword: 'signed-in-pass-6' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('The current password is incorrect.');
    const same = await agent.request('PUT', '/api/user/password', {
      body: { currentPassword: PASSWORD, newPassword: PASSWORD },
    });
    expect(same.json().message).toBe('The new password must differ from the current one.');
    const ok = await agent.request('PUT', '/api/user/password', {
      body: { currentPassword: PASSWORD, newPassword: 'signed-in-pass-6' },
    });
    expect(ok.json()).toEqual({ success: true });
    expect((await agent.get('/api/credential')).statusCode).toBe(401);
    await db.pool.query(
      `UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE email = $1) WHERE email = $2`,
      [WORLD.users.operator1, WORLD.users.operator2],
    );
  });

  it('asks for a proof when neither a key nor the current password is given', async () => {
    const agent = new Agent(app);
    await agent.fetchCsrf();
    const response = await agent.request('PUT', '/api/user/password', { body: { newPassword: 'whatever-pass-7' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Give the current password, or use the link from the password-reset e-mail.');
  });
});

describe('invitations', () => {
  it('invites a user who activates the account from the mailed link', async () => {
    const admin = new Agent(app);
    await admin.login(WORLD.users.admin, PASSWORD);
    const since = smtp.mails.length;
    const invite = await admin.request('POST', '/api/user/invite', {
      body: { client_id: 1, email: 'New.Person@fixture.test', username: 'New Person', roles: ['mall operator'] },
    });
    expect(invite.json()).toEqual({ success: true });
    const mail = await smtp.waitFor('new.person@fixture.test', { since });
    expect(mail.text).toContain('http://mall.test/account-creation?validationKey=');
    const key = keyIn(mail.text);

    const guest = new Agent(app);
    await guest.fetchCsrf();
    expect(
      (
        await guest.request('POST', '/api/user/verifyUserEmail', {
          body: { email: 'someone@fixture.test', validationKey: key },
        })
      ).json(),
    ).toEqual({ success: false });
    expect(
      (
        await guest.request('POST', '/api/user/verifyUserEmail', {
          body: { email: 'new.person@fixture.test', validationKey: key },
        })
      ).json(),
    ).toEqual({ success: true });
    // Not activated yet: the account has no password, so none works.
    expect((await new Agent(app).login('new.person@fixture.test', 'first-pass-word-8')).statusCode).toBe(401);
    const activate = await guest.request('POST', '/api/user/activate', {
      body: { validationKey: key, password: 'first-pass-word-8' },
    });
    expect(activate.json()).toEqual({ success: true });
    const again = await guest.request('POST', '/api/user/activate', {
      body: { validationKey: key, password: 'first-pass-word-9' },
    });
    expect(again.statusCode).toBe(404);

    const person = new Agent(app);
    const login = await person.login('new.person@fixture.test', 'first-pass-word-8');
    expect(login.statusCode).toBe(200);
    expect(login.json().user).toMatchObject({ roles: ['mall operator'], clients: [1] });

    const duplicate = await admin.request('POST', '/api/user/invite', {
      body: { client_id: 1, email: 'new.person@fixture.test' },
    });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().message).toBe('An account with this e-mail already exists.');
  });

  it('answers an address of another client’s account as a new one, creating nothing and telling its owner', async () => {
    const admin = new Agent(app);
    await admin.login(WORLD.users.admin, PASSWORD);
    const before = await db.pool.query(
      `SELECT u.id, u.display_name, array_agg(c.client_id ORDER BY c.client_id) AS clients,
         (SELECT array_agg(role_id) FROM user_roles WHERE user_id = u.id) AS roles
       FROM users u JOIN user_clients c ON c.user_id = u.id WHERE u.email = $1 GROUP BY u.id`,
      [WORLD.users.operator2],
    );
    const since = smtp.mails.length;
    const invite = await admin.request('POST', '/api/user/invite', {
      body: { client_id: 1, email: 'Operator2@fixture.test', username: 'Someone', roles: ['mall operator'] },
    });
    expect(invite.statusCode).toBe(200);
    expect(invite.json()).toEqual({ success: true });
    const notice = await smtp.waitFor(WORLD.users.operator2, { since });
    expect(notice.text).toContain('This address already has an account');
    expect(notice.text).not.toContain('validationKey');
    const after = await db.pool.query(
      `SELECT u.id, u.display_name, array_agg(c.client_id ORDER BY c.client_id) AS clients,
         (SELECT array_agg(role_id) FROM user_roles WHERE user_id = u.id) AS roles
       FROM users u JOIN user_clients c ON c.user_id = u.id WHERE u.email = $1 GROUP BY u.id`,
      [WORLD.users.operator2],
    );
    expect(after.rows).toEqual(before.rows);
    // An account of the client itself is still named.
    const own = await admin.request('POST', '/api/user/invite', {
      body: { client_id: 2, email: WORLD.users.operator2 },
    });
    expect(own.statusCode).toBe(400);
    expect(own.json().message).toBe('An account with this e-mail already exists.');
  });

  it('is refused to users without the invite permission', async () => {
    const operator = new Agent(app);
    await operator.login(WORLD.users.operator1, PASSWORD);
    const response = await operator.request('POST', '/api/user/invite', {
      body: { client_id: 1, email: 'x@fixture.test' },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('the partner e-mail domain', () => {
  it('loses the receipt calls that the same role may otherwise make', async () => {
    const url = '/outlets/transaction/focReason?client_id=1&id=1';
    const partner = new Agent(app);
    await partner.login(WORLD.users.partner, PASSWORD);
    const credential = await partner.get('/api/credential');
    expect(credential.json().user.flags.receiptsHidden).toBe(true);
    const refused = await partner.get(url);
    expect(refused.statusCode).toBe(403);
    const operator = new Agent(app);
    await operator.login(WORLD.users.operator1, PASSWORD);
    expect((await operator.get(url)).statusCode).not.toBe(403);
  });
});

describe('the local outbox', () => {
  it('keeps mail in the database without SMTP and shows it to the super admin only', async () => {
    const outboxApp = await createTestApp(db.pool);
    try {
      const guest = new Agent(outboxApp);
      await guest.fetchCsrf();
      await guest.request('POST', '/api/user/sendResetPasswordEmail', { body: { email: WORLD.users.operator1 } });
      const admin = new Agent(outboxApp);
      await admin.login(WORLD.users.admin, PASSWORD);
      const outbox = await admin.get('/api/admin/outbox?rowsPerPage=10');
      expect(outbox.statusCode).toBe(200);
      const latest = outbox.json().data[0];
      expect(latest).toMatchObject({ recipient: WORLD.users.operator1, subject: 'Reset your Mall Analytics password' });
      expect(latest.text).toContain('/reset-password?validationKey=');
      const operator = new Agent(outboxApp);
      await operator.login(WORLD.users.operator1, PASSWORD);
      expect((await operator.get('/api/admin/outbox')).statusCode).toBe(403);
    } finally {
      await outboxApp.close();
    }
  });
});
