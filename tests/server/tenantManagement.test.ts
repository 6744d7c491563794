import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleRow } from '../../server/db/pool.js';
import { demoRoles } from '../../server/demo/roles.js';
import { createMailer } from '../../server/mail/mailer.js';
import { listOperations } from '../../server/openapi.js';
import { type SmtpSink, startSmtpSink } from '../support/smtpSink.js';
import { PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, defined, type TestDatabase } from './helpers.js';

/*
 * Tenant management on the fixture world. Client 1 (Zenith Malls) has Cafe Uno (1), Boutique Duo (2) and kiosk tres
 * (3); client 2 has Apex Shop (4). The tenant users of client 1, worked out by hand:
 *   Ann Active    ann@    active       Cafe Uno, kiosk tres   created 10 Jan   signed in 2 Mar 08:00 (a session; a
 *                                                                              password check on 1 Mar is older)
 *   Zed Disabled  zed@    deactivated  Cafe Uno               created 13 Jan
 *   Ivy Invited   ivy@    invited      Boutique Duo           created 14 Jan, invited again 5 Mar
 *   Lee Limited   lee@    active       Cafe Uno               created 11 Jan (a manager limited to Cafe Uno)
 *   Tina Tenant   tenant@ active       Boutique Duo           created 12 Jan (the fixture's tenant)
 *   Bulk 01..08   bulkNN@ invited      kiosk tres             created 1..8 Feb
 * and Pat Apex (pat@, Apex Shop) is client 2's only one. Roles are the demo roles of server/demo/roles.ts: the
 * operator's (tenant-management among its tags), the tenant's and leasing's, so that the access asserted here is
 * the demo's.
 */

const { cafe, boutique, kiosk, apexShop } = WORLD.outlets;
const roles = demoRoles(listOperations());
const roleOf = (key: string) =>
  defined(
    roles.find((role) => role.key === key),
    key,
  );
const tenantManagementOperations = listOperations().filter((operation) => operation.tags.includes('tenant-management'));

let db: TestDatabase;
let app: FastifyInstance;
let smtp: SmtpSink;
let operator: Agent;
const ids: Record<string, number> = {};

const USERS = '/api/tenantManagement/users';
const INVITATION = '/api/tenantManagement/users/invitation';
const STATUS = '/api/tenantManagement/users/status';

async function addRole(name: string, api: readonly string[]): Promise<number> {
  // The fixtures hold a tenant role without permissions: it gets the demo's.
  const { rows } = await db.pool.query<{ id: number }>(
    'INSERT INTO roles (name) VALUES ($1) ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id',
    [name],
  );
  const roleId = singleRow(rows).id;
  await db.pool.query('INSERT INTO role_api_permissions (role_id, permission) SELECT $1, unnest($2::text[])', [
    roleId,
    api,
  ]);
  return roleId;
}

async function addUser(user: {
  key: string;
  email: string;
  name: string;
  roleId: number;
  clientId: number;
  outlets: readonly number[];
  createdAt: string;
  invited?: boolean;
  disabled?: boolean;
}): Promise<void> {
  const { rows } = await db.pool.query<{ id: number }>(
    `INSERT INTO users (email, display_name, password_hash, disabled, default_client_id, created_at)
     VALUES ($1, $2, CASE WHEN $3 THEN NULL ELSE (SELECT password_hash FROM users WHERE email = $4) END, $5, $6, $7)
     RETURNING id`,
    [
      user.email,
      user.name,
      user.invited ?? false,
      WORLD.users.admin,
      user.disabled ?? false,
      user.clientId,
      user.createdAt,
    ],
  );
  const userId = singleRow(rows).id;
  ids[user.key] = userId;
  await db.pool.query('INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)', [userId, user.roleId]);
  await db.pool.query('INSERT INTO user_clients (client_id, user_id) VALUES ($1, $2)', [user.clientId, userId]);
  await db.pool.query('INSERT INTO user_outlets (client_id, user_id, outlet_id) SELECT $1, $2, unnest($3::int[])', [
    user.clientId,
    userId,
    user.outlets,
  ]);
}

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  const tenantRole = await addRole(roleOf('tenant').name, roleOf('tenant').api);
  const operatorRole = await addRole('demo operator', roleOf('operator').api);
  const leasingRole = await addRole(roleOf('leasing').name, roleOf('leasing').api);

  await db.pool.query(
    `UPDATE users SET display_name = 'Tina Tenant', created_at = '2026-01-12T00:00:00Z' WHERE email = $1`,
    [WORLD.users.tenant],
  );
  const { rows } = await db.pool.query<{ id: number; email: string }>(
    'SELECT id, email FROM users WHERE email = ANY($1)',
    [[WORLD.users.tenant, WORLD.users.operator1, WORLD.users.admin]],
  );
  for (const row of rows) ids[row.email] = row.id;
  await db.pool.query('INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)', [
    ids[WORLD.users.operator1],
    operatorRole,
  ]);

  const common = { roleId: tenantRole, clientId: 1 };
  await addUser({
    ...common,
    key: 'ann',
    email: 'ann@fixture.test',
    name: 'Ann Active',
    outlets: [cafe, kiosk],
    createdAt: '2026-01-10T00:00:00Z',
  });
  await addUser({
    ...common,
    key: 'zed',
    email: 'zed@fixture.test',
    name: 'Zed Disabled',
    outlets: [cafe],
    createdAt: '2026-01-13T00:00:00Z',
    disabled: true,
  });
  await addUser({
    ...common,
    key: 'ivy',
    email: 'ivy@fixture.test',
    name: 'Ivy Invited',
    outlets: [boutique],
    createdAt: '2026-01-14T00:00:00Z',
    invited: true,
  });
  await addUser({
    key: 'lee',
    email: 'lee@fixture.test',
    name: 'Lee Limited',
    roleId: operatorRole,
    clientId: 1,
    outlets: [cafe],
    createdAt: '2026-01-11T00:00:00Z',
  });
  for (let n = 1; n <= 8; n++) {
    const nn = String(n).padStart(2, '0');
    await addUser({
      ...common,
      key: `bulk${nn}`,
      email: `bulk${nn}@fixture.test`,
      name: `Bulk ${nn}`,
      outlets: [kiosk],
      createdAt: `2026-02-${nn}T00:00:00Z`,
      invited: true,
    });
  }
  await addUser({
    roleId: tenantRole,
    clientId: 2,
    key: 'pat',
    email: 'pat@fixture.test',
    name: 'Pat Apex',
    outlets: [apexShop],
    createdAt: '2026-01-15T00:00:00Z',
  });
  await addUser({
    roleId: leasingRole,
    clientId: 1,
    key: 'dora',
    email: 'dora@fixture.test',
    name: 'Dora Leasing',
    outlets: [],
    createdAt: '2026-01-16T00:00:00Z',
  });

  // Ann's sign-ins: a password check on 1 March and a session started on 2 March (the later one counts).
  await db.pool.query(
    `INSERT INTO login_attempts (username, address, succeeded, attempted_at)
     VALUES ('ann@fixture.test', '10.0.0.9', true, '2026-03-01T10:00:00Z')`,
  );
  await db.pool.query(
    `INSERT INTO sessions (token_hash, user_id, csrf_token, created_at, expires_at)
     VALUES ('ann-old-session', $1, 'x', '2026-03-02T08:00:00Z', now() + interval '1 day')`,
    [ids.ann],
  );
  // Ivy's earlier invitation (a key whose link nobody holds).
  await db.pool.query(
    `INSERT INTO validation_keys (key_hash, user_id, purpose, expires_at, created_at)
     VALUES ('ivy-first-key', $1, 'activate', now() + interval '1 day', '2026-03-05T00:00:00Z')`,
    [ids.ivy],
  );

  smtp = await startSmtpSink();
  const mailer = createMailer({ smtpUrl: smtp.url, mailFrom: 'Mall Analytics <no-reply@fixture.test>' }, db.pool, {
    info: () => {},
  });
  app = await createTestApp(db.pool, { mailer, env: { PUBLIC_URL: 'http://mall.test' } });
  operator = new Agent(app);
  expect((await operator.login(WORLD.users.operator1, PASSWORD)).statusCode).toBe(200);
});

afterAll(async () => {
  await app?.close();
  await smtp?.stop();
  await db?.drop();
});

const keyIn = (text: string) => /account-creation\?validationKey=([\w-]+)/.exec(text)?.[1] ?? '';

async function list(agent: Agent, query: string) {
  const response = await agent.get(`${USERS}?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { data: { id: number; name: string; email: string; status: string }[]; total: number };
}
const names = (page: { data: { name: string }[] }) => page.data.map((user) => user.name);

async function auditOf(userId: number | undefined) {
  const { rows } = await db.pool.query<{
    client_id: number;
    user_id: number;
    action: string;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
  }>(
    `SELECT client_id, user_id, action, detail->'before' AS before, detail->'after' AS after FROM audit_log
     WHERE entity = 'user' AND entity_id = $1 ORDER BY id`,
    [String(defined(userId, 'user id'))],
  );
  return rows;
}

describe('the list', () => {
  it('lists the tenant users of the client with their outlets, status, invitation and last sign-in', async () => {
    const page = await list(operator, 'client_id=1&rowsPerPage=10&page=2');
    expect(page.total).toBe(13);
    expect(page.data).toEqual([
      {
        id: ids.lee,
        name: 'Lee Limited',
        email: 'lee@fixture.test',
        status: 'active',
        outlets: [{ id: cafe, name: 'Cafe Uno' }],
        invited_at: '2026-01-11T00:00:00.000Z',
        last_sign_in_at: null,
      },
      {
        id: ids[WORLD.users.tenant],
        name: 'Tina Tenant',
        email: 'tenant@fixture.test',
        status: 'active',
        outlets: [{ id: boutique, name: 'Boutique Duo' }],
        invited_at: '2026-01-12T00:00:00.000Z',
        last_sign_in_at: null,
      },
      {
        id: ids.zed,
        name: 'Zed Disabled',
        email: 'zed@fixture.test',
        status: 'deactivated',
        outlets: [{ id: cafe, name: 'Cafe Uno' }],
        invited_at: '2026-01-13T00:00:00.000Z',
        last_sign_in_at: null,
      },
    ]);
    const first = await list(operator, 'client_id=1&rowsPerPage=10');
    expect(first.total).toBe(13);
    expect(first.data[0]).toEqual({
      id: ids.ann,
      name: 'Ann Active',
      email: 'ann@fixture.test',
      status: 'active',
      outlets: [
        { id: cafe, name: 'Cafe Uno' },
        { id: kiosk, name: 'kiosk tres' },
      ],
      invited_at: '2026-01-10T00:00:00.000Z',
      last_sign_in_at: '2026-03-02T08:00:00.000Z',
    });
    expect(first.data[9]).toEqual({
      id: ids.ivy,
      name: 'Ivy Invited',
      email: 'ivy@fixture.test',
      status: 'invited',
      outlets: [{ id: boutique, name: 'Boutique Duo' }],
      invited_at: '2026-03-05T00:00:00.000Z',
      last_sign_in_at: null,
    });
    expect(names(first).slice(1)).toEqual([
      'Bulk 01',
      'Bulk 02',
      'Bulk 03',
      'Bulk 04',
      'Bulk 05',
      'Bulk 06',
      'Bulk 07',
      'Bulk 08',
      'Ivy Invited',
    ]);
    // A page past the end: no rows, and the count.
    expect(await list(operator, 'client_id=1&rowsPerPage=10&page=3')).toEqual({ data: [], total: 13 });
  });

  it('sorts by any column either way, ties by id', async () => {
    const sorted = async (column: string, order: string) =>
      names(await list(operator, `client_id=1&rowsPerPage=50&sortColumn=${column}&orderByMethod=${order}`));
    expect((await sorted('name', 'desc')).slice(0, 3)).toEqual(['Zed Disabled', 'Tina Tenant', 'Lee Limited']);
    expect((await sorted('email', 'desc')).slice(0, 4)).toEqual([
      'Zed Disabled',
      'Tina Tenant',
      'Lee Limited',
      'Ivy Invited',
    ]);
    expect((await sorted('outlets', 'asc')).slice(0, 6)).toEqual([
      'Tina Tenant',
      'Ivy Invited',
      'Zed Disabled',
      'Lee Limited',
      'Ann Active',
      'Bulk 01',
    ]);
    expect((await sorted('status', 'asc')).slice(0, 6)).toEqual([
      'Tina Tenant',
      'Ann Active',
      'Lee Limited',
      'Zed Disabled',
      'Ivy Invited',
      'Bulk 01',
    ]);
    expect((await sorted('invited_at', 'desc')).slice(0, 3)).toEqual(['Ivy Invited', 'Bulk 08', 'Bulk 07']);
    expect((await sorted('invited_at', 'asc')).slice(0, 3)).toEqual(['Ann Active', 'Lee Limited', 'Tina Tenant']);
    // Those never signed in last either way.
    expect((await sorted('last_sign_in_at', 'desc'))[0]).toBe('Ann Active');
    expect((await sorted('last_sign_in_at', 'asc'))[0]).toBe('Ann Active');
  });

  it('searches the name or the e-mail as plain text, and filters by status', async () => {
    expect(names(await list(operator, 'client_id=1&search=INVITED'))).toEqual(['Ivy Invited']);
    expect(names(await list(operator, 'client_id=1&search=zed%40fixture'))).toEqual(['Zed Disabled']);
    expect((await list(operator, 'client_id=1&search=bulk0')).total).toBe(8);
    expect((await list(operator, 'client_id=1&search=%25')).total).toBe(0);
    expect((await list(operator, 'client_id=1&status=invited')).total).toBe(9);
    expect(names(await list(operator, 'client_id=1&status=deactivated'))).toEqual(['Zed Disabled']);
    expect(names(await list(operator, 'client_id=1&status=active'))).toEqual([
      'Ann Active',
      'Lee Limited',
      'Tina Tenant',
    ]);
    expect(names(await list(operator, 'client_id=1&status=invited&search=ivy'))).toEqual(['Ivy Invited']);
  });

  it('lists only the client’s users; a caller limited to some outlets sees only users of those outlets', async () => {
    const admin = new Agent(app);
    await admin.login(WORLD.users.admin, PASSWORD);
    expect(names(await list(admin, 'client_id=2'))).toEqual(['Pat Apex']);
    const lee = new Agent(app);
    await lee.login('lee@fixture.test', PASSWORD);
    // Ann also has kiosk tres, Ivy and Tina Boutique Duo: outlets Lee does not see.
    expect(names(await list(lee, 'client_id=1'))).toEqual(['Lee Limited', 'Zed Disabled']);
  });

  it('refuses a bad sort column or page size with 400 naming the field', async () => {
    const response = await operator.get(`${USERS}?client_id=1&sortColumn=password_hash`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/sortColumn/);
    expect((await operator.get(`${USERS}?client_id=1&rowsPerPage=1000`)).statusCode).toBe(400);
  });
});

describe('inviting', () => {
  it('creates a tenant of the outlets, mails the invitation, and the link activates the account', async () => {
    const since = smtp.mails.length;
    const response = await operator.request('POST', USERS, {
      body: { client_id: 1, email: 'New.Tenant@Fixture.test', name: ' Nora New ', outlet_ids: `${kiosk},${boutique}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    const invited = response.json();
    expect(invited).toMatchObject({
      name: 'Nora New',
      email: 'new.tenant@fixture.test',
      status: 'invited',
      outlets: [
        { id: boutique, name: 'Boutique Duo' },
        { id: kiosk, name: 'kiosk tres' },
      ],
      last_sign_in_at: null,
    });
    ids.nora = invited.id;

    const mail = await smtp.waitFor('new.tenant@fixture.test', { since });
    expect(mail.subject).toBe('You are invited to Mall Analytics');
    expect(mail.text).toContain('http://mall.test/account-creation?validationKey=');

    const { rows } = await db.pool.query(
      `SELECT u.default_client_id, u.password_hash,
         (SELECT array_agg(r.name) FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id) AS roles,
         (SELECT array_agg(client_id) FROM user_clients WHERE user_id = u.id) AS clients,
         (SELECT array_agg(ARRAY[client_id, outlet_id] ORDER BY outlet_id) FROM user_outlets WHERE user_id = u.id) AS outlets
       FROM users u WHERE u.id = $1`,
      [invited.id],
    );
    expect(rows).toEqual([
      {
        default_client_id: 1,
        password_hash: null,
        roles: ['tenant'],
        clients: [1],
        outlets: [
          [1, boutique],
          [1, kiosk],
        ],
      },
    ]);
    expect(await auditOf(invited.id)).toEqual([
      {
        client_id: 1,
        user_id: ids[WORLD.users.operator1],
        action: 'create',
        before: null,
        after: {
          email: 'new.tenant@fixture.test',
          name: 'Nora New',
          status: 'invited',
          outlet_ids: [boutique, kiosk],
          invited_at: invited.invited_at,
          role: 'tenant',
        },
      },
    ]);

    const guest = new Agent(app);
    await guest.fetchCsrf();
    const activate = await guest.request('POST', '/api/user/activate', {
      body: { validationKey: keyIn(mail.text), password: 'Harbour-lights-77' },
    });
    expect(activate.json()).toEqual({ success: true });
    const nora = new Agent(app);
    expect((await nora.login('new.tenant@fixture.test', 'Harbour-lights-77')).statusCode).toBe(200);
    // The tenant sees only its outlets.
    const outlets = await nora.get('/outlets?client_id=1');
    expect(outlets.json().map((outlet: { id: number }) => outlet.id)).toEqual([boutique, kiosk]);
    const [row] = (await list(operator, 'client_id=1&search=nora')).data;
    expect(row).toMatchObject({ status: 'active', last_sign_in_at: expect.any(String) });
  });

  it('refuses an e-mail that already has an account of the client, naming the field', async () => {
    for (const email of ['ann@fixture.test', 'Zed@fixture.test', WORLD.users.operator1]) {
      const response = await operator.request('POST', USERS, {
        body: { client_id: 1, email, name: 'Someone', outlet_ids: String(cafe) },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('email: an account with this e-mail address already exists.');
    }
    const blank = await operator.request('POST', USERS, {
      body: { client_id: 1, email: 'blank@fixture.test', name: '   ', outlet_ids: String(cafe) },
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe('name: must not be blank.');
  });

  it('answers an e-mail of another client’s account as a new address, changes nothing, and tells its owner', async () => {
    const accountsBefore = await db.pool.query(
      'SELECT id, email, display_name, link_generation FROM users ORDER BY id',
    );
    const since = smtp.mails.length;
    const outletIds = `${kiosk},${boutique}`;
    const existing = await operator.request('POST', USERS, {
      body: { client_id: 1, email: 'PAT@fixture.test', name: ' Pat Again ', outlet_ids: outletIds },
    });
    expect(existing.statusCode, existing.body).toBe(200);
    const fresh = await operator.request('POST', USERS, {
      body: { client_id: 1, email: 'fresh.face@fixture.test', name: 'Fresh Face', outlet_ids: outletIds },
    });
    expect(fresh.statusCode).toBe(200);
    // The two answers have the same shape and the same kind of values: nothing tells the existing account apart.
    const [shown, created] = [existing.json(), fresh.json()];
    expect(Object.keys(shown).sort()).toEqual(Object.keys(created).sort());
    expect(shown).toEqual({
      ...created,
      id: shown.id,
      name: 'Pat Again',
      email: 'pat@fixture.test',
      invited_at: expect.any(String),
    });
    expect(shown.id).not.toBe(ids.pat);
    expect(created.id).toBeGreaterThan(shown.id);
    expect(Number.isNaN(Date.parse(shown.invited_at))).toBe(false);

    // Pat's account and client 2 are as they were; Pat is told, with no link.
    await db.pool.query(`DELETE FROM users WHERE email = 'fresh.face@fixture.test'`);
    const accountsAfter = await db.pool.query('SELECT id, email, display_name, link_generation FROM users ORDER BY id');
    expect(accountsAfter.rows).toEqual(accountsBefore.rows);
    const { rows: patOutlets } = await db.pool.query(
      'SELECT client_id, outlet_id FROM user_outlets WHERE user_id = $1 ORDER BY 1, 2',
      [ids.pat],
    );
    expect(patOutlets).toEqual([{ client_id: 2, outlet_id: apexShop }]);
    const notice = await smtp.waitFor('pat@fixture.test', { since });
    expect(notice.subject).toBe('You are invited to Mall Analytics');
    expect(notice.text).toContain('This address already has an account');
    expect(notice.text).toContain('http://mall.test/login');
    expect(notice.text).not.toContain('validationKey');
    expect(await auditOf(shown.id)).toEqual([]);
  });

  it('refuses outlets of another client, and outlets the caller does not see', async () => {
    const attempts = [
      { client_id: 1, outlet_ids: String(apexShop) },
      { client_id: 1, outlet_ids: `${cafe},${apexShop}` },
      { client_id: 2, outlet_ids: String(apexShop) },
    ];
    for (const attempt of attempts) {
      const response = await operator.request('POST', USERS, {
        body: { ...attempt, email: 'nobody@fixture.test', name: 'Nobody' },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('You do not have access to this data.');
    }
    const lee = new Agent(app);
    await lee.login('lee@fixture.test', PASSWORD);
    const hidden = await lee.request('POST', USERS, {
      body: { client_id: 1, email: 'nobody@fixture.test', name: 'Nobody', outlet_ids: String(kiosk) },
    });
    expect(hidden.statusCode).toBe(403);
    const { rows } = await db.pool.query(`SELECT 1 FROM users WHERE email = 'nobody@fixture.test'`);
    expect(rows).toEqual([]);
    const own = await lee.request('POST', USERS, {
      body: { client_id: 1, email: 'cafe.staff@fixture.test', name: 'Cafe Staff', outlet_ids: String(cafe) },
    });
    expect(own.statusCode).toBe(200);
  });

  it('leaves no account behind when the invitation cannot be sent', async () => {
    const failing = await createTestApp(db.pool, {
      mailer: {
        kind: 'smtp',
        send: async () => {
          throw new Error('SMTP server unreachable');
        },
      },
    });
    try {
      const agent = new Agent(failing);
      await agent.login(WORLD.users.operator1, PASSWORD);
      const response = await agent.request('POST', USERS, {
        body: { client_id: 1, email: 'unsent@fixture.test', name: 'Unsent', outlet_ids: String(cafe) },
      });
      expect(response.statusCode).toBe(500);
      const { rows } = await db.pool.query(`SELECT 1 FROM users WHERE email = 'unsent@fixture.test'`);
      expect(rows).toEqual([]);
    } finally {
      await failing.close();
    }
  });
});

describe('resending an invitation', () => {
  it('mails a new link; the earlier one stops working and the new one activates the account', async () => {
    const resend = () => operator.request('POST', INVITATION, { body: { client_id: 1, user_id: ids.ivy } });
    const since = smtp.mails.length;
    const first = await resend();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ id: ids.ivy, status: 'invited' });
    expect(first.json().invited_at > '2026-03-05T00:00:00.000Z').toBe(true);
    const firstKey = keyIn((await smtp.waitFor('ivy@fixture.test', { since })).text);
    const again = smtp.mails.length;
    expect((await resend()).statusCode).toBe(200);
    const secondKey = keyIn((await smtp.waitFor('ivy@fixture.test', { since: again })).text);
    expect(secondKey).not.toBe(firstKey);

    const guest = new Agent(app);
    await guest.fetchCsrf();
    const verify = (validationKey: string) =>
      guest.request('POST', '/api/user/verifyUserEmail', { body: { email: 'ivy@fixture.test', validationKey } });
    expect((await verify(firstKey)).json()).toEqual({ success: false });
    const stale = await guest.request('POST', '/api/user/activate', {
      body: { validationKey: firstKey, password: 'Lantern-walk-2026' },
    });
    expect(stale.statusCode).toBe(404);
    expect((await verify(secondKey)).json()).toEqual({ success: true });
    const activate = await guest.request('POST', '/api/user/activate', {
      body: { validationKey: secondKey, password: 'Lantern-walk-2026' },
    });
    expect(activate.json()).toEqual({ success: true });
    expect((await new Agent(app).login('ivy@fixture.test', 'Lantern-walk-2026')).statusCode).toBe(200);

    const audit = await auditOf(ids.ivy);
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({
      action: 'update',
      before: { status: 'invited', invited_at: '2026-03-05T00:00:00.000Z' },
      after: { status: 'invited', invited_at: first.json().invited_at },
    });
  });

  it('is refused for an activated or deactivated user, and for users the caller does not manage', async () => {
    const resend = (userId: number | undefined, clientId = 1) =>
      operator.request('POST', INVITATION, { body: { client_id: clientId, user_id: userId } });
    const active = await resend(ids.ivy);
    expect(active.statusCode).toBe(400);
    expect(active.json().message).toBe('user_id: ivy@fixture.test has already activated the account.');
    const deactivated = await resend(ids.zed);
    expect(deactivated.statusCode).toBe(400);
    expect(deactivated.json().message).toBe('user_id: zed@fixture.test is deactivated; reactivate the account first.');
    for (const userId of [ids.pat, ids.dora, ids[WORLD.users.operator1], 999_999]) {
      const response = await resend(defined(userId));
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe(`user_id: there is no tenant user ${userId} in this client.`);
    }
    expect((await resend(defined(ids.pat), 2)).statusCode).toBe(403);
  });
});

describe('deactivating', () => {
  it('ends every session of the user at once; they cannot sign in until reactivated', async () => {
    const ann = new Agent(app);
    const annElsewhere = new Agent(app);
    await ann.login('ann@fixture.test', PASSWORD);
    await annElsewhere.login('ann@fixture.test', PASSWORD);
    // Both sessions are in the caller cache now.
    expect((await ann.get('/api/credential')).statusCode).toBe(200);
    expect((await annElsewhere.get('/api/credential')).statusCode).toBe(200);

    const setActive = (active: boolean) =>
      operator.request('PUT', STATUS, { body: { client_id: 1, user_id: ids.ann, active } });
    const response = await setActive(false);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id: ids.ann, status: 'deactivated' });

    expect((await ann.get('/api/credential')).statusCode).toBe(401);
    expect((await annElsewhere.get('/clients')).statusCode).toBe(401);
    const sessions = await db.pool.query('SELECT 1 FROM sessions WHERE user_id = $1', [ids.ann]);
    expect(sessions.rows).toEqual([]);
    const signIn = await new Agent(app).login('ann@fixture.test', PASSWORD);
    expect(signIn.statusCode).toBe(401);
    expect(signIn.json().message).toBe('username or password is incorrect');

    // Asked again: nothing changes, and nothing more is logged.
    expect((await setActive(false)).json()).toMatchObject({ status: 'deactivated' });
    expect(await auditOf(ids.ann)).toEqual([
      {
        client_id: 1,
        user_id: ids[WORLD.users.operator1],
        action: 'update',
        before: expect.objectContaining({ email: 'ann@fixture.test', status: 'active', outlet_ids: [cafe, kiosk] }),
        after: expect.objectContaining({ email: 'ann@fixture.test', status: 'deactivated', outlet_ids: [cafe, kiosk] }),
      },
    ]);

    expect((await setActive(true)).json()).toMatchObject({ status: 'active' });
    expect((await new Agent(app).login('ann@fixture.test', PASSWORD)).statusCode).toBe(200);
    const audit = await auditOf(ids.ann);
    expect(audit).toHaveLength(2);
    expect(audit[1]).toMatchObject({ before: { status: 'deactivated' }, after: { status: 'active' } });
  });

  it('stops an invited user’s link', async () => {
    const since = smtp.mails.length;
    expect(
      (await operator.request('POST', INVITATION, { body: { client_id: 1, user_id: ids.bulk01 } })).statusCode,
    ).toBe(200);
    const key = keyIn((await smtp.waitFor('bulk01@fixture.test', { since })).text);
    const off = await operator.request('PUT', STATUS, { body: { client_id: 1, user_id: ids.bulk01, active: false } });
    expect(off.json()).toMatchObject({ status: 'deactivated' });
    await operator.request('PUT', STATUS, { body: { client_id: 1, user_id: ids.bulk01, active: true } });
    const guest = new Agent(app);
    await guest.fetchCsrf();
    const activate = await guest.request('POST', '/api/user/activate', {
      body: { validationKey: key, password: 'Quiet-river-4040' },
    });
    expect(activate.statusCode).toBe(404);
    const [row] = (await list(operator, 'client_id=1&search=bulk01')).data;
    expect(row?.status).toBe('invited');
  });

  it('is refused for the caller’s own account and for users the caller does not manage', async () => {
    const lee = new Agent(app);
    await lee.login('lee@fixture.test', PASSWORD);
    const own = await lee.request('PUT', STATUS, { body: { client_id: 1, user_id: ids.lee, active: false } });
    expect(own.statusCode).toBe(400);
    expect(own.json().message).toBe('user_id: you cannot deactivate your own account.');
    // Ann has an outlet Lee does not see.
    const hidden = await lee.request('PUT', STATUS, { body: { client_id: 1, user_id: ids.ann, active: false } });
    expect(hidden.statusCode).toBe(404);
    const other = await operator.request('PUT', STATUS, { body: { client_id: 1, user_id: ids.pat, active: false } });
    expect(other.statusCode).toBe(404);
    const otherClient = await operator.request('PUT', STATUS, {
      body: { client_id: 2, user_id: ids.pat, active: false },
    });
    expect(otherClient.statusCode).toBe(403);
    const { rows } = await db.pool.query('SELECT disabled FROM users WHERE id = ANY($1) ORDER BY id', [
      [ids.ann, ids.pat, ids.lee],
    ]);
    expect(rows).toEqual([{ disabled: false }, { disabled: false }, { disabled: false }]);
  });
});

describe('the audit log', () => {
  it('shows every change of a user on the Audit Logs call', async () => {
    const response = await operator.get('/api/auditLogs?client_id=1&entity=user&rowsPerPage=50');
    expect(response.statusCode).toBe(200);
    const entries = response.json().data as { entity_id: string; action: string; user_email: string }[];
    expect(
      entries.every((entry) => entry.user_email === WORLD.users.operator1 || entry.user_email === 'lee@fixture.test'),
    ).toBe(true);
    const count = (userId: number | undefined) => entries.filter((entry) => entry.entity_id === String(userId)).length;
    expect(count(ids.nora)).toBe(1);
    expect(count(ids.ivy)).toBe(2);
    expect(count(ids.ann)).toBe(2);
    expect(count(ids.bulk01)).toBe(3);
  });
});

describe('access', () => {
  const calls = (agent: Agent) => [
    agent.get(`${USERS}?client_id=1`),
    agent.request('POST', USERS, {
      body: { client_id: 1, email: 'refused@fixture.test', name: 'Refused', outlet_ids: String(cafe) },
    }),
    agent.request('POST', INVITATION, { body: { client_id: 1, user_id: defined(ids.bulk02) } }),
    agent.request('PUT', STATUS, { body: { client_id: 1, user_id: defined(ids.bulk02), active: false } }),
  ];

  it('is the operator’s: a tenant or department caller is refused every call', async () => {
    expect(tenantManagementOperations.map((operation) => operation.operationId).sort()).toEqual([
      'getTenantUsers',
      'inviteTenantUser',
      'resendTenantInvitation',
      'setTenantUserStatus',
    ]);
    const tenant = new Agent(app);
    expect((await tenant.login('ann@fixture.test', PASSWORD)).statusCode).toBe(200);
    const department = new Agent(app);
    expect((await department.login('dora@fixture.test', PASSWORD)).statusCode).toBe(200);
    for (const agent of [tenant, department]) {
      for (const response of await Promise.all(calls(agent))) {
        expect(response.statusCode).toBe(403);
        expect(response.json().message).toBe('You do not have permission to do this.');
      }
    }
    for (const response of await Promise.all(calls(new Agent(app)))) expect(response.statusCode).toBe(401);
    const { rows } = await db.pool.query(`SELECT disabled, password_hash IS NULL AS invited FROM users WHERE id = $1`, [
      ids.bulk02,
    ]);
    expect(rows).toEqual([{ disabled: false, invited: true }]);
  });
});
