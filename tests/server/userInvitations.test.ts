import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../server/mail/mailer.js';
import { type SmtpSink, startSmtpSink } from '../support/smtpSink.js';
import { grantOperatorPermissions, PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, type TestDatabase } from './helpers.js';

/**
 * The rules of `POST /api/user/invite` on stored data (server/repositories/userInvitations.ts): roles that exist,
 * the super admin role given only by a super admin, and an invitation whose mail fails leaving nothing behind.
 */

const INVITE = '/api/user/invite';

let db: TestDatabase;
let app: FastifyInstance;
let smtp: SmtpSink;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  // The operators may invite here, so that an inviter who is not a super admin can be tried.
  await grantOperatorPermissions(db.pool, [`${INVITE}::Create`]);
  smtp = await startSmtpSink();
  const mailer = createMailer({ smtpUrl: smtp.url, mailFrom: 'Mall Analytics <no-reply@fixture.test>' }, db.pool, {
    info: () => {},
  });
  app = await createTestApp(db.pool, { mailer, env: { PUBLIC_URL: 'http://mall.test' } });
});
afterAll(async () => {
  await app.close();
  await smtp.stop();
  await db.drop();
});

async function signedIn(target: FastifyInstance, email: string) {
  const agent = new Agent(target);
  expect((await agent.login(email, PASSWORD)).statusCode).toBe(200);
  return agent;
}

async function accountsOf(email: string) {
  const { rows } = await db.pool.query('SELECT id FROM users WHERE email = $1', [email]);
  return rows.length;
}

describe('inviting a user', () => {
  it('refuses a role that does not exist, naming it, and creates nothing', async () => {
    const admin = await signedIn(app, WORLD.users.admin);
    const response = await admin.request('POST', INVITE, {
      body: { client_id: 1, email: 'night@fixture.test', roles: ['mall operator', 'night shift'] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, message: 'Unknown role: night shift' });
    expect(await accountsOf('night@fixture.test')).toBe(0);
  });

  it('lets only a super admin give the super admin role', async () => {
    const operator = await signedIn(app, WORLD.users.operator1);
    const refused = await operator.request('POST', INVITE, {
      body: { client_id: 1, email: 'boss@fixture.test', roles: ['super admin'] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Unknown role: super admin');
    expect(await accountsOf('boss@fixture.test')).toBe(0);

    const byOperator = await operator.request('POST', INVITE, {
      body: { client_id: 1, email: 'clerk@fixture.test', roles: ['mall operator'] },
    });
    expect(byOperator.json()).toEqual({ success: true });

    const admin = await signedIn(app, WORLD.users.admin);
    const since = smtp.mails.length;
    const byAdmin = await admin.request('POST', INVITE, {
      body: { client_id: 1, email: 'boss@fixture.test', roles: ['super admin'] },
    });
    expect(byAdmin.json()).toEqual({ success: true });
    expect((await smtp.waitFor('boss@fixture.test', { since })).text).toContain('/account-creation?validationKey=');
  });

  it('leaves no account behind when the invitation cannot be sent, so the address can be invited again', async () => {
    const failing = await createTestApp(db.pool, {
      mailer: {
        kind: 'smtp',
        send: async () => {
          throw new Error('SMTP server unreachable');
        },
      },
    });
    try {
      const admin = await signedIn(failing, WORLD.users.admin);
      const response = await admin.request('POST', INVITE, {
        body: { client_id: 1, email: 'unsent@fixture.test', roles: ['mall operator'] },
      });
      expect(response.statusCode).toBe(500);
      expect(await accountsOf('unsent@fixture.test')).toBe(0);
    } finally {
      await failing.close();
    }
    const admin = await signedIn(app, WORLD.users.admin);
    const again = await admin.request('POST', INVITE, {
      body: { client_id: 1, email: 'unsent@fixture.test', roles: ['mall operator'] },
    });
    expect(again.json()).toEqual({ success: true });
    expect(await accountsOf('unsent@fixture.test')).toBe(1);
  });
});
