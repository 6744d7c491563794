import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOWNLOAD_LINK_MESSAGES } from '../../server/auth/downloadLinks.js';
import { inTransaction, singleRow } from '../../server/db/pool.js';
import { listOperations, permissionFor } from '../../server/openapi.js';
import { createSignedToken } from '../../server/receipts/signedLink.js';
import { ingestReceipts } from '../../server/repositories/ingestion.js';
import { grantOperatorPermissions, PASSWORD, receiptInput, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, type TestDatabase } from './helpers.js';

/*
 * Receipts PDF links checked at each use against the user who made them (server/auth/downloadLinks.ts), and the
 * answers that must not be kept by a browser or cache (Cache-Control: no-store). Each case makes its own creator:
 * a user of the fixtures' 'mall operator' role (2, with every receipt permission here) in client 1, limited to
 * Cafe Uno, where two receipts of 1 March 2026 are stored.
 */

const SECRET = 'test-download-secret';
const { cafe, boutique } = WORLD.outlets;
const WINDOW = `client_id=1&id=${cafe}&startTime=2026-03-01&endTime=2026-03-02`;

let db: TestDatabase;
let app: FastifyInstance;
let admin: Agent;
let creators = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await grantOperatorPermissions(
    db.pool,
    listOperations()
      .filter((operation) => operation.receipts)
      .map(permissionFor),
  );
  await inTransaction(db.pool, (client) =>
    ingestReceipts(client, 1, [
      receiptInput(cafe, '2026-03-01T02:00:00Z', 10, [['VISA', 10]]),
      receiptInput(cafe, '2026-03-01T03:00:00Z', 20, [['CASH', 20]]),
    ]),
  );
  app = await createTestApp(db.pool, { env: { DOWNLOAD_SECRET: SECRET } });
  admin = new Agent(app);
  expect((await admin.login(WORLD.users.admin, PASSWORD)).statusCode).toBe(200);
});

afterAll(async () => {
  await app?.close();
  await db?.drop();
});

/** A new user of the operators' role in client 1, limited to Cafe Uno, with the fixtures' password; signed in. */
async function newCreator(roleId = 2): Promise<{ id: number; email: string; agent: Agent }> {
  creators += 1;
  const email = `creator${creators}@fixture.test`;
  const { rows } = await db.pool.query<{ id: number }>(
    `INSERT INTO users (email, display_name, password_hash, default_client_id)
     SELECT $1, 'Creator', password_hash, 1 FROM users WHERE email = $2 RETURNING id`,
    [email, WORLD.users.admin],
  );
  const { id } = singleRow(rows);
  await db.pool.query('INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)', [id, roleId]);
  await db.pool.query('INSERT INTO user_clients (client_id, user_id) VALUES (1, $1)', [id]);
  await db.pool.query('INSERT INTO user_outlets (client_id, user_id, outlet_id) VALUES (1, $1, $2)', [id, cafe]);
  const agent = new Agent(app);
  expect((await agent.login(email, PASSWORD)).statusCode).toBe(200);
  return { id, email, agent };
}

async function makeLink(agent: Agent): Promise<string> {
  const minted = await agent.get(`/outlets/transaction/pdfLink?${WINDOW}`);
  expect(minted.statusCode, minted.body).toBe(200);
  return (minted.json() as { url: string }).url;
}

/** Opens the link as a browser tab would: no session. */
const open = (link: string, on: FastifyInstance = app) => new Agent(on).get(link);

function expectRefused(response: LightMyRequestResponse, message: string) {
  expect(response.statusCode).toBe(403);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.json()).toEqual({ statusCode: 403, error: 'Forbidden', message });
}

async function expectWorks(link: string, on: FastifyInstance = app) {
  const response = await open(link, on);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/pdf');
  expect(response.headers['x-receipt-count']).toBe('2');
}

describe('a receipts PDF link', () => {
  it('works, then no longer once its creator is deactivated, not even after a reactivation', async () => {
    const creator = await newCreator();
    const link = await makeLink(creator.agent);
    await expectWorks(link);

    const status = (active: boolean) =>
      admin.request('PUT', '/api/tenantManagement/users/status', {
        body: { client_id: 1, user_id: creator.id, active },
      });
    expect((await status(false)).statusCode).toBe(200);
    expectRefused(await open(link), DOWNLOAD_LINK_MESSAGES.deactivated);

    expect((await status(true)).statusCode).toBe(200);
    expectRefused(await open(link), DOWNLOAD_LINK_MESSAGES.changed);
    // A link made after the reactivation works (deactivation ended the creator's sessions: a new sign-in).
    const again = new Agent(app);
    expect((await again.login(creator.email, PASSWORD)).statusCode).toBe(200);
    await expectWorks(await makeLink(again));
  });

  it('ends when its creator loses the permission of the link, from their role or from their roles', async () => {
    // A role of its own, so that removing its permission touches no other test.
    const { rows } = await db.pool.query<{ id: number }>(
      `INSERT INTO roles (name) VALUES ('link makers') RETURNING id`,
    );
    const roleId = singleRow(rows).id;
    await db.pool.query(
      'INSERT INTO role_api_permissions (role_id, permission) SELECT $1, permission FROM role_api_permissions WHERE role_id = 2',
      [roleId],
    );
    const byRole = await newCreator(roleId);
    const roleLink = await makeLink(byRole.agent);
    await expectWorks(roleLink);
    await db.pool.query(
      `DELETE FROM role_api_permissions WHERE role_id = $1 AND permission = '/outlets/transaction/pdfLink::Read'`,
      [roleId],
    );
    expectRefused(await open(roleLink), DOWNLOAD_LINK_MESSAGES.changed);

    const byUser = await newCreator();
    const userLink = await makeLink(byUser.agent);
    await expectWorks(userLink);
    await db.pool.query('DELETE FROM user_roles WHERE user_id = $1', [byUser.id]);
    expectRefused(await open(userLink), DOWNLOAD_LINK_MESSAGES.changed);
    // Given back, the role does not bring the link back: any change of the user's grants ended it.
    await db.pool.query('INSERT INTO user_roles (user_id, role_id) VALUES ($1, 2)', [byUser.id]);
    expectRefused(await open(userLink), DOWNLOAD_LINK_MESSAGES.changed);
  });

  it('ends when its creator’s outlets change', async () => {
    const creator = await newCreator();
    const link = await makeLink(creator.agent);
    await expectWorks(link);
    await db.pool.query('UPDATE user_outlets SET outlet_id = $2 WHERE user_id = $1', [creator.id, boutique]);
    expectRefused(await open(link), DOWNLOAD_LINK_MESSAGES.changed);
  });

  it('ends when its creator changes their password', async () => {
    const creator = await newCreator();
    const link = await makeLink(creator.agent);
    await expectWorks(link);
    const changed = await creator.agent.request('PUT', '/api/user/password', {
      body: { currentPassword: PASSWORD, newPassword: 'a-new-password-42' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expectRefused(await open(link), DOWNLOAD_LINK_MESSAGES.changed);
  });

  it('keeps working when only the stored hash of the same password is renewed', async () => {
    const creator = await newCreator();
    const link = await makeLink(creator.agent);
    await db.pool.query(`UPDATE users SET password_hash = password_hash || '' WHERE id = $1`, [creator.id]);
    await expectWorks(link);
  });

  it('is checked against the outlets its creator sees, whatever it names', async () => {
    const creator = await newCreator();
    const { rows } = await db.pool.query<{ generation: number }>(
      'SELECT link_generation AS generation FROM users WHERE id = $1',
      [creator.id],
    );
    const generation = singleRow(rows).generation;
    const expiresAt = new Date(Date.now() + 60_000);
    const filters = { startTime: '2026-03-01', endTime: '2026-03-02' };
    for (const f of [
      { ...filters, clientId: 1, outletIds: [boutique] },
      { ...filters, clientId: 2, outletIds: [WORLD.outlets.apexShop] },
    ]) {
      const token = createSignedToken(SECRET, { f, u: creator.id, g: generation }, expiresAt);
      expectRefused(await open(`/download/receipts/pdf?token=${token}`), DOWNLOAD_LINK_MESSAGES.noAccess);
    }
    // A link of the old form, which names no creator, is refused.
    const old = createSignedToken(SECRET, { f: { ...filters, clientId: 1, outletIds: [cafe] } }, expiresAt);
    expectRefused(await open(`/download/receipts/pdf?token=${old}`), DOWNLOAD_LINK_MESSAGES.invalid);
  });

  it('is checked in the database, so another server instance with the same secret sees the same', async () => {
    const other = await createTestApp(db.pool, { env: { DOWNLOAD_SECRET: SECRET } });
    try {
      const creator = await newCreator();
      const link = await makeLink(creator.agent);
      await expectWorks(link, other);
      await db.pool.query('UPDATE users SET disabled = true WHERE id = $1', [creator.id]);
      expectRefused(await open(link, other), DOWNLOAD_LINK_MESSAGES.deactivated);
    } finally {
      await other.close();
    }
  });
});

describe('Cache-Control: no-store', () => {
  const noStore = (response: LightMyRequestResponse) => response.headers['cache-control'];

  it('is on the credential and on every receipt call, answered or refused', async () => {
    const operator = new Agent(app);
    expect((await operator.login(WORLD.users.operator1, PASSWORD)).statusCode).toBe(200);
    const credential = await operator.get('/api/credential');
    expect(credential.statusCode).toBe(200);
    expect(noStore(credential)).toBe('no-store');
    expect(noStore(await new Agent(app).get('/api/credential'))).toBe('no-store');

    const calls: Record<string, string> = {
      getTransactions: `/outlets/transaction?${WINDOW}`,
      generateTransactionsPdf: `/outlets/transaction/generatepdf?${WINDOW}`,
      createTransactionsPdfLink: `/outlets/transaction/pdfLink?${WINDOW}`,
      getReceiptTypeOptions: `/outlets/transaction/receiptTypeOptions?client_id=1&id=${cafe}`,
      getFocReasons: `/outlets/transaction/focReason?client_id=1&id=${cafe}`,
      getPaymentMethodNameOptions: `/outlets/paymentMethodNameOption?client_id=1&id=${cafe}`,
      getPaymentAndSum: `/outlets/getPaymentAndSum?${WINDOW}`,
      getPaymentMethodBreakdown: `/outlets/paymentMethodBreakdown?${WINDOW}`,
      getTenantReceiptData: `/api/tenant/receiptData?${WINDOW}`,
      getReceiptImage: `/api/tenant/receiptImage?client_id=1&id=${cafe}&aimbox_id=${encodeURIComponent(`R-${cafe}-2026-03-01T02:00:00Z`)}`,
    };
    const receiptCalls = listOperations().filter((operation) => operation.receipts);
    expect(receiptCalls.map((operation) => operation.operationId).sort()).toEqual(Object.keys(calls).sort());
    for (const [operationId, path] of Object.entries(calls)) {
      const answered = await operator.get(path);
      expect(answered.statusCode, `${operationId}: ${answered.body.slice(0, 200)}`).toBe(200);
      expect(noStore(answered), operationId).toBe('no-store');
      // A refusal is not kept either: another client's outlet.
      const refused = await operator.get(path.replace('client_id=1', 'client_id=2'));
      expect(refused.statusCode, operationId).toBe(403);
      expect(noStore(refused), operationId).toBe('no-store');
    }

    const link = await makeLink(operator);
    const download = await open(link);
    expect(download.statusCode).toBe(200);
    expect(noStore(download)).toBe('no-store');
    expect(noStore(await open('/download/receipts/pdf?token=nothing.here'))).toBe('no-store');
  });

  it('is not on other calls, which caches may keep as before', async () => {
    const operator = new Agent(app);
    expect((await operator.login(WORLD.users.operator1, PASSWORD)).statusCode).toBe(200);
    expect(noStore(await operator.get('/clients'))).toBeUndefined();
  });
});
