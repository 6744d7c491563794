import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendGtoReminders } from '../../server/jobs/gtoReminders.js';
import type { Mail, Mailer } from '../../server/mail/mailer.js';
import { grantOperatorPermissions, PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, signInAgents, type TestDatabase } from './helpers.js';

/*
 * A client's GTO review rules (threshold, due day, reminders) and the reminder job, on the fixture world: the
 * tenant is limited to Boutique Duo (Central Mall, Singapore); a second tenant is given Kiosk tres (Harbour Mall,
 * New York) here, so that the two malls' days differ.
 */
let db: TestDatabase;
let app: FastifyInstance;
let agents: Record<'operator' | 'tenant' | 'otherClient', Agent>;
const { boutique, kiosk } = WORLD.outlets;
const KIOSK_TENANT = 'kiosk-tenant@fixture.test';

const sent: Mail[] = [];
const mailer: Mailer = {
  kind: 'outbox',
  send: async (mail) => {
    sent.push(mail);
  },
};
const remind = (now: string) =>
  sendGtoReminders({ pool: db.pool, mailer, publicUrl: 'https://mall.example', now: new Date(now) });

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await grantOperatorPermissions(db.pool, [
    '/api/gtoReport/settings::Read',
    '/api/gtoReport/settings::Update',
    '/api/gtoReport/summary::Read',
    '/api/gtoReport/outletNameOption::Read',
    '/api/gtoReport/mallNameOption::Read',
  ]);
  const kioskTenant = await db.pool.query<{ id: number }>(
    `INSERT INTO users (email, password_hash, default_client_id)
     SELECT $1, password_hash, 1 FROM users WHERE email = $2 RETURNING id`,
    [KIOSK_TENANT, WORLD.users.tenant],
  );
  const kioskTenantId = kioskTenant.rows[0]?.id;
  await db.pool.query('INSERT INTO user_clients (client_id, user_id) VALUES (1, $1)', [kioskTenantId]);
  await db.pool.query('INSERT INTO user_outlets (client_id, user_id, outlet_id) VALUES (1, $1, $2)', [
    kioskTenantId,
    kiosk,
  ]);
  app = await createTestApp(db.pool);
  agents = await signInAgents(
    app,
    { operator: WORLD.users.operator1, tenant: WORLD.users.tenant, otherClient: WORLD.users.operator2 },
    PASSWORD,
  );
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const settingsOf = (agent: Agent, client = 1) => agent.get(`/api/gtoReport/settings?client_id=${client}`);
const save = (agent: Agent, body: Record<string, unknown>, csrf?: null) =>
  agent.request('PUT', '/api/gtoReport/settings', { body, ...(csrf === null ? { csrf } : {}) });

describe('the client’s GTO rules', () => {
  it('starts at a 5 % threshold, due on the 7th, with reminders on', async () => {
    const response = await settingsOf(agents.operator);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ variance_threshold: 5, due_day: 7, reminders: true });
  });

  it('saves new rules to 2 decimals and audit-logs the change', async () => {
    const response = await save(agents.operator, {
      client_id: 1,
      variance_threshold: 7.125,
      due_day: 10,
      reminders: false,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ variance_threshold: 7.13, due_day: 10, reminders: false });
    expect((await settingsOf(agents.operator)).json()).toEqual({
      variance_threshold: 7.13,
      due_day: 10,
      reminders: false,
    });
    const { rows } = await db.pool.query(
      `SELECT a.action, a.entity, a.entity_id, a.detail, u.email FROM audit_log a JOIN users u ON u.id = a.user_id
       WHERE a.entity = 'gto_settings'`,
    );
    expect(rows).toEqual([
      {
        action: 'update',
        entity: 'gto_settings',
        entity_id: '1',
        email: WORLD.users.operator1,
        detail: {
          before: { variance_threshold: 5, due_day: 7, reminders: true },
          after: { variance_threshold: 7.13, due_day: 10, reminders: false },
        },
      },
    ]);
    await db.pool.query('UPDATE clients SET gto_variance_threshold = 5, gto_due_day = 7, gto_reminders = true');
  });

  it.each([
    [{ variance_threshold: 100.5, due_day: 7, reminders: true }, 'variance_threshold'],
    [{ variance_threshold: -1, due_day: 7, reminders: true }, 'variance_threshold'],
    [{ variance_threshold: 5, due_day: 29, reminders: true }, 'due_day'],
    [{ variance_threshold: 5, due_day: 0, reminders: true }, 'due_day'],
    [{ variance_threshold: 5, due_day: 7, reminders: 'yes' }, 'reminders'],
    [{ variance_threshold: 5, due_day: 7 }, 'reminders'],
  ])('refuses %j naming %s, and changes nothing', async (rules, field) => {
    const response = await save(agents.operator, { client_id: 1, ...rules });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(field);
    expect((await settingsOf(agents.operator)).json()).toEqual({ variance_threshold: 5, due_day: 7, reminders: true });
  });

  it('refuses another client’s caller, a tenant without the permission, no session and no CSRF token', async () => {
    const rules = { client_id: 1, variance_threshold: 1, due_day: 1, reminders: false };
    expect((await settingsOf(agents.otherClient)).statusCode).toBe(403);
    expect((await save(agents.otherClient, rules)).statusCode).toBe(403);
    expect((await new Agent(app).get('/api/gtoReport/settings?client_id=1')).statusCode).toBe(401);
    expect((await save(agents.operator, rules, null)).statusCode).toBe(403);
    const { rows } = await db.pool.query('SELECT gto_due_day FROM clients WHERE id = 1');
    expect(rows).toEqual([{ gto_due_day: 7 }]);
  });
});

describe('late months in the review', () => {
  // March 2026 is due on 7 April 2026 (in each mall's time zone): long past.
  const summary = async () =>
    (
      await agents.operator.get(
        '/api/gtoReport/summary?client_id=1&date=2026-03-01&sortColumn=outlet_name&orderByMethod=asc',
      )
    ).json() as {
      data: { outlet_id: number; due_on: string; late: boolean; status: string; last_reminded_on: string | null }[];
    };
  const submitted = (outlet: number, at: string) =>
    db.pool.query(
      `INSERT INTO gto_submissions (client_id, outlet_id, month, gto_amount, submitted_at)
       VALUES (1, $1, '2026-03-01', 100, $2)
       ON CONFLICT (client_id, outlet_id, month) DO UPDATE SET submitted_at = EXCLUDED.submitted_at`,
      [outlet, at],
    );

  it('is late when submitted after the due day in the mall’s time zone, or not submitted by then', async () => {
    // Cafe: 7 April 23:30 in Singapore (on time); Boutique: 8 April 00:30 in Singapore (late); Kiosk: missing.
    await submitted(WORLD.outlets.cafe, '2026-04-07T15:30:00Z');
    await submitted(boutique, '2026-04-07T16:30:00Z');
    const rows = (await summary()).data;
    expect(rows.map(({ outlet_id, due_on, late, status }) => ({ outlet_id, due_on, late, status }))).toEqual([
      { outlet_id: boutique, due_on: '2026-04-07', late: true, status: 'submitted' },
      { outlet_id: WORLD.outlets.cafe, due_on: '2026-04-07', late: false, status: 'submitted' },
      { outlet_id: kiosk, due_on: '2026-04-07', late: true, status: 'notSubmitted' },
    ]);
    const late = (
      await agents.operator.get('/api/gtoReport/summary?client_id=1&date=2026-03-01&filterOption=late')
    ).json();
    expect(late.total).toBe(2);
  });

  it('moves with the client’s due day', async () => {
    await db.pool.query('UPDATE clients SET gto_due_day = 8 WHERE id = 1');
    try {
      const rows = (await summary()).data;
      expect(rows.map(({ due_on, late }) => ({ due_on, late }))).toEqual([
        { due_on: '2026-04-08', late: false },
        { due_on: '2026-04-08', late: false },
        { due_on: '2026-04-08', late: true },
      ]);
    } finally {
      await db.pool.query('UPDATE clients SET gto_due_day = 7 WHERE id = 1');
      await db.pool.query("DELETE FROM gto_submissions WHERE month = '2026-03-01'");
    }
  });
});

describe('reminders', () => {
  beforeEach(async () => {
    sent.length = 0;
    await db.pool.query('DELETE FROM gto_reminders');
    await db.pool.query("DELETE FROM gto_submissions WHERE month = '2026-02-01'");
    await db.pool.query('UPDATE clients SET gto_due_day = 7, gto_reminders = true WHERE id = 1');
    await db.pool.query('UPDATE users SET disabled = false WHERE email IN ($1, $2)', [
      WORLD.users.tenant,
      KIOSK_TENANT,
    ]);
  });

  it('reminds each outlet’s tenants once a day from the due day in the mall’s time zone', async () => {
    // 6 March 17:00 UTC: already 7 March in Singapore, still 6 March in New York.
    expect(await remind('2026-03-06T17:00:00Z')).toBe(1);
    expect(sent).toEqual([
      {
        to: WORLD.users.tenant,
        subject: 'GTO for February 2026 not submitted yet: Boutique Duo',
        text: expect.stringContaining(
          'The gross turnover of Boutique Duo (Central Mall) for February 2026 was due on 7 March 2026',
        ),
      },
    ]);
    expect(sent[0]?.text).toContain('https://mall.example/tenants/gto_submission');
    // The same day again (a second run, or a restart): nothing.
    expect(await remind('2026-03-06T23:00:00Z')).toBe(0);
    // 7 March in New York: the kiosk's tenant; Singapore has been reminded today.
    expect(await remind('2026-03-07T14:00:00Z')).toBe(1);
    expect(sent.map((mail) => mail.to)).toEqual([WORLD.users.tenant, KIOSK_TENANT]);
    // The next day in Singapore: again.
    expect(await remind('2026-03-08T01:00:00Z')).toBe(1);
    const { rows } = await db.pool.query(
      "SELECT outlet_id, to_char(sent_on, 'YYYY-MM-DD') AS sent_on, recipients FROM gto_reminders ORDER BY sent_at",
    );
    expect(rows).toEqual([
      { outlet_id: boutique, sent_on: '2026-03-07', recipients: 1 },
      { outlet_id: kiosk, sent_on: '2026-03-07', recipients: 1 },
      { outlet_id: boutique, sent_on: '2026-03-08', recipients: 1 },
    ]);
    // The review shows the last reminder of the month.
    const summary = (
      await agents.operator.get(
        '/api/gtoReport/summary?client_id=1&date=2026-02-01&sortColumn=outlet_name&orderByMethod=asc',
      )
    ).json();
    expect(
      summary.data.map((row: { outlet_id: number; last_reminded_on: string | null }) => [
        row.outlet_id,
        row.last_reminded_on,
      ]),
    ).toEqual([
      [boutique, '2026-03-08'],
      [WORLD.outlets.cafe, null],
      [kiosk, '2026-03-07'],
    ]);
  });

  it('sends nothing before the due day, after the submission, with reminders off, or to a deactivated tenant', async () => {
    expect(await remind('2026-03-06T10:00:00Z')).toBe(0);
    await db.pool.query(
      "INSERT INTO gto_submissions (client_id, outlet_id, month, gto_amount) VALUES (1, $1, '2026-02-01', 10)",
      [boutique],
    );
    await db.pool.query('UPDATE users SET disabled = true WHERE email = $1', [KIOSK_TENANT]);
    expect(await remind('2026-03-09T10:00:00Z')).toBe(0);
    await db.pool.query('UPDATE users SET disabled = false WHERE email = $1', [KIOSK_TENANT]);
    await db.pool.query('UPDATE clients SET gto_reminders = false WHERE id = 1');
    expect(await remind('2026-03-09T20:00:00Z')).toBe(0);
    expect(sent).toEqual([]);
  });

  it('records nothing when the mail cannot be sent, so the next run tries again', async () => {
    const failing: Mailer = {
      kind: 'smtp',
      send: async () => {
        throw new Error('SMTP down');
      },
    };
    await expect(
      sendGtoReminders({
        pool: db.pool,
        mailer: failing,
        publicUrl: 'https://mall.example',
        now: new Date('2026-03-07T03:00:00Z'),
      }),
    ).rejects.toThrow('SMTP down');
    expect((await db.pool.query('SELECT count(*)::int AS n FROM gto_reminders')).rows).toEqual([{ n: 0 }]);
    expect(await remind('2026-03-07T04:00:00Z')).toBe(1);
  });

  it('runs once when two servers run it at the same moment', async () => {
    const counts = await Promise.all([remind('2026-03-07T03:00:00Z'), remind('2026-03-07T03:00:00Z')]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect(sent).toHaveLength(1);
  });
});

describe('the review’s name options', () => {
  it('come 20 a page by name, searched case-insensitively, of the malls and outlets the caller sees', async () => {
    // 25 more outlets in Central Mall: 'Shop 01' … 'Shop 25'.
    await db.pool.query(
      `INSERT INTO outlets (client_id, id, mall_id, name, outlet_code, type, currency)
       SELECT 1, 100 + n, 1, 'Shop ' || lpad(n::text, 2, '0'), 'S-' || n, 2, 'SGD' FROM generate_series(1, 25) n`,
    );
    const names = async (query: string, agent = agents.operator) => {
      const response = await agent.get(`/api/gtoReport/outletNameOption?client_id=1${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as { data: { name: string }[] }).data.map((row) => row.name);
    };
    const first = await names('');
    expect(first).toHaveLength(20);
    expect(first.slice(0, 4)).toEqual(['Boutique Duo', 'Cafe Uno', 'kiosk tres', 'Shop 01']);
    expect(await names('&page=2')).toEqual(Array.from({ length: 8 }, (_, n) => `Shop ${18 + n}`));
    expect(await names('&page=3')).toEqual([]);
    expect(await names('&searchedText=SHOP 2')).toEqual([
      'Shop 20',
      'Shop 21',
      'Shop 22',
      'Shop 23',
      'Shop 24',
      'Shop 25',
    ]);
    expect(await names('&searchedText=%25')).toEqual([]);
    expect(await names(`&mall_ids=${WORLD.malls.harbour}`)).toEqual(['kiosk tres']);
    // The tenant sees its own outlet only.
    expect(await names('', agents.tenant)).toEqual(['Boutique Duo']);
    const malls = await agents.operator.get('/api/gtoReport/mallNameOption?client_id=1&searchedText=harb');
    expect(malls.json()).toEqual({ data: [{ id: WORLD.malls.harbour, name: 'Harbour Mall' }] });
    expect((await agents.operator.get('/api/gtoReport/outletNameOption?client_id=1&page=0')).statusCode).toBe(400);
  });
});
