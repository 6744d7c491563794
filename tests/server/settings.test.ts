import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { listOperations, permissionFor } from '../../server/openapi.js';
import { ingestReceipts } from '../../server/repositories/ingestion.js';
import { PASSWORD, receiptInput, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, defined, signInAgents, type TestDatabase } from './helpers.js';

/*
 * The settings of the fixture world. Cafe Uno (outlet 1, client 1, Central Mall, Asia/Singapore UTC+8) takes
 * three receipts: 1 March 10:00 VISA 100.00, 2 March 12:00 ' master ' 50.00 (stored MASTER), 5 March 09:00
 * GRABPAY 20.00 (outside the 1-2 March window). AMEX has a stored fee of 3.00 at the cafe and no receipt.
 * The editor (operator1) sees every outlet of client 1; the tenant only Boutique Duo (outlet 2); operator2 only
 * client 2. Every figure below is worked out by hand from these rows.
 */
const SGT = (local: string) => new Date(`${local.replace(' ', 'T')}+08:00`);
const { cafe, boutique, kiosk, apexShop } = WORLD.outlets;

let db: TestDatabase;
let app: FastifyInstance;
let agents: Record<'editor' | 'tenant' | 'otherClient' | 'admin' | 'noPermission', Agent>;
const settingsOperations = listOperations().filter((operation) => operation.tags.includes('settings'));

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await db.pool.query(`INSERT INTO roles (id, name) VALUES (10, 'settings editor')`);
  await db.pool.query('INSERT INTO role_api_permissions (role_id, permission) SELECT 10, unnest($1::text[])', [
    settingsOperations.map(permissionFor),
  ]);
  await db.pool.query(
    `UPDATE user_roles SET role_id = 10 WHERE user_id IN (SELECT id FROM users WHERE email = ANY($1))`,
    [[WORLD.users.operator1, WORLD.users.tenant, WORLD.users.operator2]],
  );
  await inTransaction(db.pool, (tx) =>
    ingestReceipts(tx, 1, [
      receiptInput(cafe, SGT('2026-03-01 10:00:00').toISOString(), 100, [['VISA', 100]]),
      receiptInput(cafe, SGT('2026-03-02 12:00:00').toISOString(), 50, [[' master ', 50]]),
      receiptInput(cafe, SGT('2026-03-05 09:00:00').toISOString(), 20, [['GRABPAY', 20]]),
    ]),
  );
  await db.pool.query(
    `INSERT INTO processing_fees (client_id, outlet_id, payment_method, processing_fees) VALUES (1, 1, 'AMEX', 3.00)`,
  );
  app = await createTestApp(db.pool);
  agents = await signInAgents(
    app,
    {
      editor: WORLD.users.operator1,
      tenant: WORLD.users.tenant,
      otherClient: WORLD.users.operator2,
      admin: WORLD.users.admin,
      noPermission: WORLD.users.noLookup,
    },
    PASSWORD,
  );
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

interface AuditRow {
  client_id: number;
  user_id: number | null;
  action: string;
  entity: string;
  entity_id: string | null;
  before: unknown;
  after: unknown;
}

async function auditOf(entity: string): Promise<AuditRow[]> {
  const { rows } = await db.pool.query<AuditRow>(
    `SELECT client_id, user_id, action, entity, entity_id, detail->'before' AS before, detail->'after' AS after
     FROM audit_log WHERE entity = $1 ORDER BY id`,
    [entity],
  );
  return rows;
}

async function userId(email: string): Promise<number> {
  const { rows } = await db.pool.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [email]);
  return defined(rows[0], email).id;
}

const put = (agent: Agent, url: string, body: unknown) => agent.request('PUT', url, { body });
const post = (agent: Agent, url: string, body?: unknown) => agent.request('POST', url, { body });
const del = (agent: Agent, url: string, body?: unknown) => agent.request('DELETE', url, { body });

describe('access to every settings operation', () => {
  const label = (operation: (typeof settingsOperations)[number]) => `${operation.method} ${operation.path}`;
  it('covers the nineteen operations of §7 and the three of the point-of-sale device keys', () => {
    expect(settingsOperations).toHaveLength(22);
  });
  it.each(settingsOperations.map((operation) => [label(operation), operation] as const))(
    '%s: anonymous 401, without the permission 403, a write without the CSRF token 403',
    async (_, operation) => {
      const url = `${operation.path}?client_id=1`;
      const body = operation.method === 'GET' ? {} : { body: {} };
      const anonymous = await new Agent(app).request(operation.method, url, body);
      expect(anonymous.statusCode).toBe(401);
      const refused = await agents.noPermission.request(operation.method, url, body);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('You do not have permission to do this.');
      if (operation.method !== 'GET') {
        const noCsrf = await agents.editor.request(operation.method, url, { body: {}, csrf: null });
        expect(noCsrf.statusCode).toBe(403);
        expect(noCsrf.json().message).toBe('Invalid or missing CSRF token.');
      }
    },
  );
});

describe('e-mail subscriptions', () => {
  it('answers the signed-in user’s subscription, off until set, and stores each change with its audit row', async () => {
    const first = await agents.editor.get('/outlets/emailSubscribe?client_id=1');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      list: [{ client_id: 1, email: WORLD.users.operator1, email_subscribe: false, summary_email_subscribe: false }],
    });

    const saved = await post(agents.editor, '/outlets/emailSubscribe?client_id=1&void_email=true&summary_email=false');
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({
      client_id: 1,
      email: WORLD.users.operator1,
      email_subscribe: true,
      summary_email_subscribe: false,
    });
    await post(agents.editor, '/outlets/emailSubscribe?client_id=1&void_email=false&summary_email=true');
    expect((await agents.editor.get('/outlets/emailSubscribe?client_id=1')).json().list).toEqual([
      { client_id: 1, email: WORLD.users.operator1, email_subscribe: false, summary_email_subscribe: true },
    ]);
    // Another user of the client keeps their own.
    expect((await agents.tenant.get('/outlets/emailSubscribe?client_id=1')).json().list[0]).toMatchObject({
      email_subscribe: false,
      summary_email_subscribe: false,
    });

    const editor = await userId(WORLD.users.operator1);
    expect(await auditOf('email_subscription')).toEqual([
      {
        client_id: 1,
        user_id: editor,
        action: 'create',
        entity: 'email_subscription',
        entity_id: String(editor),
        before: null,
        after: { email_subscribe: true, summary_email_subscribe: false },
      },
      {
        client_id: 1,
        user_id: editor,
        action: 'update',
        entity: 'email_subscription',
        entity_id: String(editor),
        before: { email_subscribe: true, summary_email_subscribe: false },
        after: { email_subscribe: false, summary_email_subscribe: true },
      },
    ]);
  });

  it('refuses another client and a value that is not a boolean', async () => {
    expect((await agents.otherClient.get('/outlets/emailSubscribe?client_id=1')).statusCode).toBe(403);
    const bad = await post(agents.editor, '/outlets/emailSubscribe?client_id=1&void_email=maybe&summary_email=true');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('void_email');
  });
});

describe('processing fees', () => {
  const FEES = '/outlets/processingFees?client_id=1&id=1&startTime=2026-03-01&endTime=2026-03-02';
  const SUMMARY = '/outlets/getPaymentAndSum?client_id=1&id=1&startTime=2026-03-01&endTime=2026-03-02';
  const body = (formData: unknown) => ({ client_id: 1, id: String(cafe), formData });

  it('lists the methods seen in the range and the methods with a fee, 0 and new when none is stored', async () => {
    const response = await agents.editor.get(FEES);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: [
        { payment_method: 'AMEX', processing_fees: 3, isNewMethod: false },
        { payment_method: 'MASTER', processing_fees: 0, isNewMethod: true },
        { payment_method: 'VISA', processing_fees: 0, isNewMethod: true },
      ],
    });
    // GRABPAY was paid on 5 March only.
    const wider = await agents.editor.get(FEES.replace('endTime=2026-03-02', 'endTime=2026-03-05'));
    expect(wider.json().data.map((row: { payment_method: string }) => row.payment_method)).toEqual([
      'AMEX',
      'GRABPAY',
      'MASTER',
      'VISA',
    ]);
  });

  it('creates and updates fees (methods normalised), and the payment summary reads each change at once', async () => {
    expect(
      (
        await post(
          agents.editor,
          '/outlets/processingFees',
          body([{ payment_method: ' visa ', processing_fees: '2.50' }]),
        )
      ).statusCode,
    ).toBe(200);
    expect((await agents.editor.get(FEES)).json().data).toContainEqual({
      payment_method: 'VISA',
      processing_fees: 2.5,
      isNewMethod: false,
    });
    // VISA 100.00 at 2.50%: net 100 - 2.50 = 97.50; MASTER 50.00 without a fee: net 50.00.
    expect((await agents.admin.get(SUMMARY)).json().data).toEqual([
      { payment_method: 'VISA', sum: 100, processing_fees: 2.5, net_amount: 97.5 },
      { payment_method: 'MASTER', sum: 50, processing_fees: 0, net_amount: 50 },
    ]);

    const updated = await put(
      agents.editor,
      '/outlets/processingFees',
      body([
        { payment_method: 'VISA', processing_fees: '1.75' },
        { payment_method: 'amex', processing_fees: '3.1' },
        { payment_method: 'Master', processing_fees: '100' },
      ]),
    );
    expect(updated.statusCode).toBe(200);
    expect((await agents.editor.get(FEES)).json().data).toEqual([
      { payment_method: 'AMEX', processing_fees: 3.1, isNewMethod: false },
      { payment_method: 'MASTER', processing_fees: 100, isNewMethod: false },
      { payment_method: 'VISA', processing_fees: 1.75, isNewMethod: false },
    ]);
    // VISA 100.00 at 1.75%: 98.25; MASTER 50.00 at 100%: 0.
    expect((await agents.admin.get(SUMMARY)).json().data).toEqual([
      { payment_method: 'VISA', sum: 100, processing_fees: 1.75, net_amount: 98.25 },
      { payment_method: 'MASTER', sum: 50, processing_fees: 100, net_amount: 0 },
    ]);

    const editor = await userId(WORLD.users.operator1);
    const audit = await auditOf('processing_fee');
    expect(audit).toEqual([
      {
        client_id: 1,
        user_id: editor,
        action: 'create',
        entity: 'processing_fee',
        entity_id: '1:VISA',
        before: null,
        after: { outlet_id: 1, payment_method: 'VISA', processing_fees: 2.5 },
      },
      expect.objectContaining({
        action: 'update',
        entity_id: '1:AMEX',
        before: { outlet_id: 1, payment_method: 'AMEX', processing_fees: 3 },
        after: { outlet_id: 1, payment_method: 'AMEX', processing_fees: 3.1 },
      }),
      expect.objectContaining({
        action: 'create',
        entity_id: '1:MASTER',
        before: null,
        after: { outlet_id: 1, payment_method: 'MASTER', processing_fees: 100 },
      }),
      expect.objectContaining({
        action: 'update',
        entity_id: '1:VISA',
        before: { outlet_id: 1, payment_method: 'VISA', processing_fees: 2.5 },
        after: { outlet_id: 1, payment_method: 'VISA', processing_fees: 1.75 },
      }),
    ]);
  });

  it.each([
    [
      'a fee over 100',
      [{ payment_method: 'VISA', processing_fees: '100.01' }],
      'formData[0].processing_fees: must be a percent from 0 to 100.',
    ],
    ['three decimals', [{ payment_method: 'VISA', processing_fees: '2.555' }], 'processing_fees'],
    ['a number instead of the 2-decimal string', [{ payment_method: 'VISA', processing_fees: 2.5 }], 'processing_fees'],
    ['a negative fee', [{ payment_method: 'VISA', processing_fees: '-1' }], 'processing_fees'],
    ['no method', [{ payment_method: '', processing_fees: '1' }], 'payment_method'],
    [
      'one method twice once normalised',
      [
        { payment_method: 'visa', processing_fees: '1' },
        { payment_method: 'VISA ', processing_fees: '2' },
      ],
      'formData[1].payment_method: VISA is given twice.',
    ],
  ])('refuses %s with a 400 naming the field, storing nothing', async (_, formData, message) => {
    const before = await db.pool.query('SELECT * FROM processing_fees ORDER BY payment_method');
    const response = await put(agents.editor, '/outlets/processingFees', body(formData));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect((await db.pool.query('SELECT * FROM processing_fees ORDER BY payment_method')).rows).toEqual(before.rows);
  });

  it('keeps the tenant to its outlet and another client out', async () => {
    expect((await agents.tenant.get(FEES)).statusCode).toBe(403);
    expect(
      (await post(agents.tenant, '/outlets/processingFees', body([{ payment_method: 'VISA', processing_fees: '9' }])))
        .statusCode,
    ).toBe(403);
    const own = await agents.tenant.get(FEES.replace('&id=1', `&id=${boutique}`));
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toEqual({ data: [] });
    expect((await agents.otherClient.get(FEES)).statusCode).toBe(403);
    const otherOutlet = await put(agents.otherClient, '/outlets/processingFees', {
      client_id: 2,
      id: String(cafe),
      formData: [{ payment_method: 'VISA', processing_fees: '9' }],
    });
    expect(otherOutlet.statusCode).toBe(403);
    expect((await agents.editor.get(FEES)).json().data).toContainEqual({
      payment_method: 'VISA',
      processing_fees: 1.75,
      isNewMethod: false,
    });
  });

  it('keeps the later of two saves of one new method at once, both in the audit log', async () => {
    const save = (fee: string) =>
      post(agents.editor, '/outlets/processingFees', body([{ payment_method: 'PayNow', processing_fees: fee }]));
    const answers = await Promise.all([save('1.00'), save('2.00')]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const audit = (await auditOf('processing_fee')).filter((row) => row.entity_id === '1:PAYNOW');
    expect(audit.map((row) => row.action)).toEqual(['create', 'update']);
    const [first, second] = audit as [AuditRow, AuditRow];
    expect(first.before).toBeNull();
    expect(second.before).toEqual(first.after);
    const { rows } = await db.pool.query(
      `SELECT outlet_id, payment_method, processing_fees FROM processing_fees WHERE payment_method = 'PAYNOW'`,
    );
    expect(rows).toEqual([second.after]);
  });

  it('refuses a range that ends before it starts', async () => {
    const response = await agents.editor.get(FEES.replace('startTime=2026-03-01', 'startTime=2026-03-03'));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('startTime');
  });
});

describe('sales targets', () => {
  it('lists every outlet the caller sees with its target of the month, and saves targets to 2 decimals', async () => {
    const empty = await agents.editor.get('/outlets/salesTargets?client_id=1&date=2026-03-15');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({
      data: [
        { outlet_id: boutique, name: 'Boutique Duo', target: null },
        { outlet_id: cafe, name: 'Cafe Uno', target: null },
        { outlet_id: kiosk, name: 'kiosk tres', target: null },
      ],
    });
    const saved = await post(agents.editor, '/outlets/salesTargets', {
      client_id: 1,
      date: '2026-03-31',
      outlet_target: [
        { outlet_id: cafe, target: 1234.567 },
        { outlet_id: kiosk, target: 500 },
      ],
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ success: true });
    expect((await agents.editor.get('/outlets/salesTargets?client_id=1&date=2026-03-01')).json().data).toEqual([
      { outlet_id: boutique, name: 'Boutique Duo', target: null },
      { outlet_id: cafe, name: 'Cafe Uno', target: 1234.57 },
      { outlet_id: kiosk, name: 'kiosk tres', target: 500 },
    ]);
    // Another month is untouched.
    expect(
      (await agents.editor.get('/outlets/salesTargets?client_id=1&date=2026-04-01'))
        .json()
        .data.map((row: { target: number | null }) => row.target),
    ).toEqual([null, null, null]);
    await post(agents.editor, '/outlets/salesTargets', {
      client_id: 1,
      date: '2026-03-01',
      outlet_target: [{ outlet_id: cafe, target: 1300 }],
    });
    const audit = await auditOf('sales_target');
    expect(audit.map(({ action, entity_id, before, after }) => ({ action, entity_id, before, after }))).toEqual([
      {
        action: 'create',
        entity_id: '1:2026-03-01',
        before: null,
        after: { outlet_id: 1, month: '2026-03-01', target: 1234.57 },
      },
      {
        action: 'create',
        entity_id: '3:2026-03-01',
        before: null,
        after: { outlet_id: 3, month: '2026-03-01', target: 500 },
      },
      {
        action: 'update',
        entity_id: '1:2026-03-01',
        before: { outlet_id: 1, month: '2026-03-01', target: 1234.57 },
        after: { outlet_id: 1, month: '2026-03-01', target: 1300 },
      },
    ]);
  });

  it('shows the tenant its outlets only and refuses outlets it does not see', async () => {
    expect((await agents.tenant.get('/outlets/salesTargets?client_id=1&date=2026-03-01')).json().data).toEqual([
      { outlet_id: boutique, name: 'Boutique Duo', target: null },
    ]);
    const refused = await post(agents.tenant, '/outlets/salesTargets', {
      client_id: 1,
      date: '2026-03-01',
      outlet_target: [{ outlet_id: cafe, target: 1 }],
    });
    expect(refused.statusCode).toBe(403);
    const otherClient = await post(agents.otherClient, '/outlets/salesTargets', {
      client_id: 2,
      date: '2026-03-01',
      outlet_target: [
        { outlet_id: apexShop, target: 1 },
        { outlet_id: cafe, target: 1 },
      ],
    });
    expect(otherClient.statusCode).toBe(403);
    const { rows } = await db.pool.query('SELECT outlet_id, target FROM sales_targets ORDER BY outlet_id');
    expect(rows).toEqual([
      { outlet_id: cafe, target: 1300 },
      { outlet_id: kiosk, target: 500 },
    ]);
  });

  it.each([
    [
      'an outlet twice',
      [
        { outlet_id: 1, target: 1 },
        { outlet_id: 1, target: 2 },
      ],
      'outlet_target[1].outlet_id: outlet 1 is given twice.',
    ],
    ['a negative target', [{ outlet_id: 1, target: -1 }], 'target'],
    ['a target as text', [{ outlet_id: 1, target: '$1,000' }], 'target'],
    ['no targets', [], 'outlet_target'],
  ])('refuses %s with a 400 naming the field', async (_, outlet_target, message) => {
    const response = await post(agents.editor, '/outlets/salesTargets', {
      client_id: 1,
      date: '2026-03-01',
      outlet_target,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it('keeps the later of two saves of one target at once, both in the audit log', async () => {
    const save = (target: number) =>
      post(agents.editor, '/outlets/salesTargets', {
        client_id: 1,
        date: '2026-05-01',
        outlet_target: [{ outlet_id: kiosk, target }],
      });
    const answers = await Promise.all([save(111), save(222)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const audit = (await auditOf('sales_target')).filter((row) => row.entity_id === '3:2026-05-01');
    expect(audit).toHaveLength(2);
    const [first, second] = audit as [AuditRow, AuditRow];
    expect(first.before).toBeNull();
    expect(second.before).toEqual(first.after);
    const { rows } = await db.pool.query<{ target: number }>(
      `SELECT target FROM sales_targets WHERE outlet_id = $1 AND month = '2026-05-01'`,
      [kiosk],
    );
    expect(rows).toEqual([{ target: (second.after as { target: number }).target }]);
  });
});

describe('categories, subcategories and SKUs', () => {
  const ids: Record<string, number> = {};
  const create = async (name: string, isCategory: boolean, agent = agents.editor, clientId = 1) => {
    const response = await post(agent, '/outlets/categories', { client_id: clientId, name, isCategory });
    expect(response.statusCode, response.body).toBe(200);
    const created = response.json() as { id: number; name: string };
    ids[`${clientId}:${name}`] = created.id;
    return created;
  };
  const id = (name: string, clientId = 1) => defined(ids[`${clientId}:${name}`], name);

  beforeAll(async () => {
    await create('Food', true);
    await create('Drinks', true);
    for (const name of ['Noodles', 'Rice', 'Coffee']) await create(name, false);
    await create('Food', true, agents.otherClient, 2);
    await create('Hats', false, agents.otherClient, 2);
    const { rows } = await db.pool.query<{ id: number; item_name: string }>(
      `INSERT INTO skus (client_id, outlet_id, barcode, item_name, unit_price) VALUES
         (1, 1, 'B100', 'Latte', 5.50), (1, 1, 'B101', 'Mocha', 6.00), (1, 2, 'B200', 'Scarf', 25.00),
         (2, 4, 'A100', 'Cap', 10.00)
       RETURNING id, item_name`,
    );
    for (const row of rows) ids[`sku:${row.item_name}`] = row.id;
  });
  const sku = (name: string) => defined(ids[`sku:${name}`], name);

  it('creates categories and subcategories, and lists them by name, paged, with the total', async () => {
    const categories = await agents.editor.get('/outlets/categories?client_id=1');
    expect(categories.json()).toEqual({
      data: [
        { id: id('Drinks'), name: 'Drinks' },
        { id: id('Food'), name: 'Food' },
      ],
      total: 2,
    });
    const secondPage = await agents.editor.get('/outlets/categories?client_id=1&page=2&rowsPerPage=1');
    expect(secondPage.json()).toEqual({ data: [{ id: id('Food'), name: 'Food' }], total: 2 });
    const subcategories = await agents.editor.get('/outlets/subcategories?client_id=1');
    expect(subcategories.json()).toEqual({
      data: [
        { id: id('Coffee'), name: 'Coffee', category_id: null },
        { id: id('Noodles'), name: 'Noodles', category_id: null },
        { id: id('Rice'), name: 'Rice', category_id: null },
      ],
      total: 3,
    });
    expect((await agents.otherClient.get('/outlets/categories?client_id=2')).json()).toEqual({
      data: [{ id: id('Food', 2), name: 'Food' }],
      total: 1,
    });
  });

  it('refuses a name the client already has (any case) and a blank one, with the field named', async () => {
    const duplicate = await post(agents.editor, '/outlets/categories', {
      client_id: 1,
      name: ' food ',
      isCategory: true,
    });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().message).toBe('name: a category named "food" already exists.');
    const subDuplicate = await post(agents.editor, '/outlets/categories', {
      client_id: 1,
      name: 'RICE',
      isCategory: false,
    });
    expect(subDuplicate.statusCode).toBe(400);
    expect(subDuplicate.json().message).toBe('name: a subcategory named "RICE" already exists.');
    const blank = await post(agents.editor, '/outlets/categories', { client_id: 1, name: '   ', isCategory: true });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe('name: must not be blank.');
    const number = await post(agents.editor, '/outlets/categories', { client_id: 1, name: 'X', isCategory: 1 });
    expect(number.statusCode).toBe(400);
    expect(number.json().message).toContain('isCategory');
    expect((await agents.editor.get('/outlets/categories?client_id=1')).json().total).toBe(2);
  });

  it('creates one of two categories of one name added at once, refusing the other with a 400', async () => {
    const add = () => post(agents.editor, '/outlets/categories', { client_id: 1, name: 'Snacks', isCategory: true });
    const answers = await Promise.all([add(), add()]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
    const created = defined(answers.find((answer) => answer.statusCode === 200)).json() as { id: number };
    await db.pool.query('DELETE FROM categories WHERE id = $1', [created.id]);
  });

  it('assigns subcategories to a category (ids de-duplicated), lists them as assigned, and unassigns them', async () => {
    const assigned = await put(agents.editor, '/outlets/subcategories', {
      client_id: 1,
      category_id: id('Food'),
      subcategory_ids: [id('Noodles'), id('Rice'), id('Noodles')],
    });
    expect(assigned.json()).toEqual({ success: true, updated: 2 });
    const again = await put(agents.editor, '/outlets/subcategories', {
      client_id: 1,
      category_id: id('Food'),
      subcategory_ids: [id('Rice')],
    });
    expect(again.json()).toEqual({ success: true, updated: 0 });
    const options = await agents.editor.get(`/outlets/subcategories/name_option?client_id=1&category_id=${id('Food')}`);
    expect(options.json()).toEqual({
      data: [
        { id: id('Coffee'), name: 'Coffee' },
        { id: id('Noodles'), name: 'Noodles' },
        { id: id('Rice'), name: 'Rice' },
      ],
      assignedIds: [id('Noodles'), id('Rice')].sort((a, b) => a - b),
    });
    const searched = await agents.editor.get(
      `/outlets/subcategories/name_option?client_id=1&category_id=${id('Food')}&searchedText=O`,
    );
    expect(searched.json().data).toEqual([
      { id: id('Coffee'), name: 'Coffee' },
      { id: id('Noodles'), name: 'Noodles' },
    ]);
    const unassigned = await put(agents.editor, '/outlets/subcategories', {
      client_id: 1,
      category_id: null,
      subcategory_ids: [id('Rice')],
    });
    expect(unassigned.json()).toEqual({ success: true, updated: 1 });
    expect((await agents.editor.get('/outlets/subcategories?client_id=1')).json().data).toEqual([
      { id: id('Coffee'), name: 'Coffee', category_id: null },
      { id: id('Noodles'), name: 'Noodles', category_id: id('Food') },
      { id: id('Rice'), name: 'Rice', category_id: null },
    ]);
    const audit = (await auditOf('subcategory')).filter((row) => row.action === 'assign');
    expect(audit.map(({ entity_id, before, after }) => ({ entity_id, before, after }))).toEqual([
      { entity_id: String(id('Noodles')), before: { category_id: null }, after: { category_id: id('Food') } },
      { entity_id: String(id('Rice')), before: { category_id: null }, after: { category_id: id('Food') } },
      { entity_id: String(id('Rice')), before: { category_id: id('Food') }, after: { category_id: null } },
    ]);
  });

  it('pages the name options 20 at a time', async () => {
    await db.pool.query(
      `INSERT INTO subcategories (client_id, name) SELECT 1, 'Sub ' || lpad(n::text, 2, '0') FROM generate_series(1, 22) n`,
    );
    const url = `/outlets/subcategories/name_option?client_id=1&category_id=${id('Food')}&searchedText=sub%20`;
    const first = (await agents.editor.get(url)).json().data as { name: string }[];
    const second = (await agents.editor.get(`${url}&page=2`)).json().data as { name: string }[];
    expect(first).toHaveLength(20);
    expect(first[0]?.name).toBe('Sub 01');
    expect(second.map((row) => row.name)).toEqual(['Sub 21', 'Sub 22']);
    await db.pool.query(`DELETE FROM subcategories WHERE name LIKE 'Sub %'`);
  });

  it('refuses ids of another client, changing nothing', async () => {
    const otherSub = await put(agents.editor, '/outlets/subcategories', {
      client_id: 1,
      category_id: id('Food'),
      subcategory_ids: [id('Coffee'), id('Hats', 2)],
    });
    expect(otherSub.statusCode).toBe(400);
    expect(otherSub.json().message).toBe(`subcategory_ids: ${id('Hats', 2)} is not a subcategory of this client.`);
    const otherCategory = await put(agents.editor, '/outlets/subcategories', {
      client_id: 1,
      category_id: id('Food', 2),
      subcategory_ids: [id('Coffee')],
    });
    expect(otherCategory.statusCode).toBe(400);
    expect(otherCategory.json().message).toBe(`category_id: there is no category ${id('Food', 2)} in this client.`);
    const otherSku = await post(agents.editor, '/outlets/skuCategory', {
      client_id: 1,
      subcategory_id: id('Coffee'),
      sku_ids: [sku('Cap')],
    });
    expect(otherSku.statusCode).toBe(400);
    expect(otherSku.json().message).toBe(`sku_ids: ${sku('Cap')} is not an SKU of this client.`);
    const deleteOther = await del(agents.editor, '/outlets/categories', { client_id: 1, category_id: id('Food', 2) });
    expect(deleteOther.statusCode).toBe(404);
    expect((await agents.otherClient.get('/outlets/categories?client_id=2')).json().total).toBe(1);
    const { rows } = await db.pool.query('SELECT category_id FROM subcategories WHERE id = $1', [id('Coffee')]);
    expect(rows).toEqual([{ category_id: null }]);
    expect((await agents.otherClient.get('/outlets/subcategories?client_id=1')).statusCode).toBe(403);
  });

  it('assigns SKUs to a subcategory and lists them, the tenant only those of its outlet', async () => {
    const base = `/outlets/skuCategory/name_option?client_id=1&subcategory_id=${id('Coffee')}`;
    expect((await agents.editor.get(base)).json()).toEqual({
      data: [
        { id: sku('Latte'), name: 'Latte' },
        { id: sku('Mocha'), name: 'Mocha' },
        { id: sku('Scarf'), name: 'Scarf' },
      ],
      assignedIds: [],
    });
    const assigned = await post(agents.editor, '/outlets/skuCategory', {
      client_id: 1,
      id: String(cafe),
      subcategory_id: id('Coffee'),
      sku_ids: [sku('Mocha'), sku('Latte'), sku('Mocha')],
    });
    expect(assigned.json()).toEqual({ success: true, updated: 2 });
    expect((await agents.editor.get(base)).json().assignedIds).toEqual([sku('Latte'), sku('Mocha')]);
    expect((await agents.editor.get(`${base}&searchedText=b20`)).json().data).toEqual([
      { id: sku('Scarf'), name: 'Scarf' },
    ]);
    expect((await agents.tenant.get(base)).json()).toEqual({
      data: [{ id: sku('Scarf'), name: 'Scarf' }],
      assignedIds: [],
    });
    const tenantOther = await post(agents.tenant, '/outlets/skuCategory', {
      client_id: 1,
      subcategory_id: null,
      sku_ids: [sku('Latte')],
    });
    expect(tenantOther.statusCode).toBe(403);
    const audit = await auditOf('sku');
    expect(audit.map(({ entity_id, action, before, after }) => ({ entity_id, action, before, after }))).toEqual([
      {
        entity_id: String(sku('Latte')),
        action: 'assign',
        before: { subcategory_id: null },
        after: { subcategory_id: id('Coffee') },
      },
      {
        entity_id: String(sku('Mocha')),
        action: 'assign',
        before: { subcategory_id: null },
        after: { subcategory_id: id('Coffee') },
      },
    ]);
  });

  it('deletes a subcategory (its SKUs unassigned) and a category (its subcategories unassigned)', async () => {
    const deletedSub = await del(agents.editor, '/outlets/categories', {
      client_id: 1,
      category_id: id('Coffee'),
      isCategory: false,
    });
    expect(deletedSub.json()).toEqual({ success: true });
    const { rows: skus } = await db.pool.query(
      'SELECT item_name, subcategory_id FROM skus WHERE client_id = 1 ORDER BY item_name',
    );
    expect(skus).toEqual([
      { item_name: 'Latte', subcategory_id: null },
      { item_name: 'Mocha', subcategory_id: null },
      { item_name: 'Scarf', subcategory_id: null },
    ]);
    const deleted = await del(agents.editor, '/outlets/categories', { client_id: 1, category_id: id('Food') });
    expect(deleted.json()).toEqual({ success: true });
    expect((await agents.editor.get('/outlets/categories?client_id=1')).json()).toEqual({
      data: [{ id: id('Drinks'), name: 'Drinks' }],
      total: 1,
    });
    expect((await agents.editor.get('/outlets/subcategories?client_id=1')).json().data).toEqual([
      { id: id('Noodles'), name: 'Noodles', category_id: null },
      { id: id('Rice'), name: 'Rice', category_id: null },
    ]);
    const again = await del(agents.editor, '/outlets/categories', { client_id: 1, category_id: id('Food') });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(`category_id: there is no category ${id('Food')} in this client.`);

    const editor = await userId(WORLD.users.operator1);
    expect((await auditOf('subcategory')).find((row) => row.action === 'delete')).toEqual({
      client_id: 1,
      user_id: editor,
      action: 'delete',
      entity: 'subcategory',
      entity_id: String(id('Coffee')),
      before: { id: id('Coffee'), name: 'Coffee', category_id: null, sku_ids: [sku('Latte'), sku('Mocha')] },
      after: null,
    });
    const named = [String(id('Food')), String(id('Drinks'))];
    expect(
      (await auditOf('category')).filter((row) => row.client_id === 1 && named.includes(`${row.entity_id}`)),
    ).toEqual([
      expect.objectContaining({
        action: 'create',
        entity_id: String(id('Food')),
        before: null,
        after: { id: id('Food'), name: 'Food' },
      }),
      expect.objectContaining({ action: 'create', entity_id: String(id('Drinks')) }),
      expect.objectContaining({
        action: 'delete',
        entity_id: String(id('Food')),
        before: { id: id('Food'), name: 'Food', subcategory_ids: [id('Noodles')] },
        after: null,
      }),
    ]);
  });
});

describe('meal timings', () => {
  const LIST = `/outlets/mealTimings?client_id=1&outlet_id=${cafe}`;
  const timing = (id: number, name: string, start_time: string, end_time: string) => ({
    id,
    outlet_id: cafe,
    client_id: 1,
    meal_timing: { name, start_time, end_time },
  });
  const save = (meal_timing: unknown, agent = agents.editor) =>
    put(agent, '/outlets/mealTimings', { client_id: 1, outlet_id: cafe, meal_timing });
  let first = 0;
  let second = 0;
  let third = 0;

  it('adds timings in the first free hour, renames and retimes them, lists them by start time', async () => {
    expect((await agents.editor.get(LIST)).json()).toEqual({ data: [] });
    const one = await post(agents.editor, '/outlets/mealTimings', { client_id: 1, outlet_id: cafe });
    first = one.json().id;
    expect(one.json()).toEqual(timing(first, 'Meal 1', '00:00', '01:00'));
    const two = await post(agents.editor, '/outlets/mealTimings', { client_id: 1, outlet_id: cafe });
    second = two.json().id;
    expect(two.json()).toEqual(timing(second, 'Meal 2', '01:00', '02:00'));
    const saved = await save([
      { id: second, name: ' Dinner ', start_time: '17:30', end_time: '21:00' },
      { id: first, name: 'Lunch', start_time: '11:00', end_time: '14:00' },
    ]);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({
      data: [timing(first, 'Lunch', '11:00', '14:00'), timing(second, 'Dinner', '17:30', '21:00')],
    });
    const three = await post(agents.editor, '/outlets/mealTimings', { client_id: 1, outlet_id: cafe });
    third = three.json().id;
    expect(three.json()).toEqual(timing(third, 'Meal 3', '00:00', '01:00'));
    // Touching is not overlapping.
    const touching = await save([{ id: third, name: 'Tea', start_time: '14:00', end_time: '17:30' }]);
    expect(touching.json().data).toEqual([
      timing(first, 'Lunch', '11:00', '14:00'),
      timing(third, 'Tea', '14:00', '17:30'),
      timing(second, 'Dinner', '17:30', '21:00'),
    ]);
    expect((await agents.editor.get(LIST)).json()).toEqual(touching.json());
  });

  it.each([
    [
      'an overlap with another timing',
      () => [{ id: third, name: 'Tea', start_time: '13:30', end_time: '15:00' }],
      'meal_timing[0].start_time: Tea (13:30-15:00) overlaps Lunch (11:00-14:00).',
    ],
    [
      'an overlap between two saved rows',
      () => [
        { id: first, name: 'Lunch', start_time: '11:00', end_time: '14:00' },
        { id: third, name: 'Tea', start_time: '15:00', end_time: '18:00' },
      ],
      'meal_timing[1].start_time: Tea (15:00-18:00) overlaps Dinner (17:30-21:00).',
    ],
    [
      'a start that is not before the end',
      () => [{ id: first, name: 'Lunch', start_time: '14:00', end_time: '14:00' }],
      'meal_timing[0].end_time: must be after start_time (14:00).',
    ],
    [
      'a time that does not exist',
      () => [{ id: first, name: 'Lunch', start_time: '11:00', end_time: '24:00' }],
      'end_time',
    ],
    [
      'a timing of another outlet',
      () => [{ id: 999, name: 'X', start_time: '01:00', end_time: '02:00' }],
      'meal_timing[0].id: 999 is not a meal timing of this outlet.',
    ],
    [
      'one timing twice',
      () => [
        { id: first, name: 'Lunch', start_time: '11:00', end_time: '14:00' },
        { id: first, name: 'Lunch', start_time: '11:00', end_time: '13:00' },
      ],
      () => `meal_timing[1].id: meal timing ${first} is given twice.`,
    ],
    [
      'a blank name',
      () => [{ id: first, name: '  ', start_time: '11:00', end_time: '14:00' }],
      'meal_timing[0].name: must not be blank.',
    ],
  ])('refuses %s with a 400 naming the field, changing nothing', async (_, rows, message) => {
    const before = (await agents.editor.get(LIST)).json();
    const response = await save(rows());
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(typeof message === 'function' ? message() : message);
    expect((await agents.editor.get(LIST)).json()).toEqual(before);
  });

  it('deletes a timing, 404 for one the outlet does not have', async () => {
    const deleted = await del(agents.editor, `/outlets/mealTimings?client_id=1&outlet_id=${cafe}&id=${third}`);
    expect(deleted.json()).toEqual({ success: true });
    const again = await del(agents.editor, `/outlets/mealTimings?client_id=1&outlet_id=${cafe}&id=${third}`);
    expect(again.statusCode).toBe(404);
    const elsewhere = await del(agents.editor, `/outlets/mealTimings?client_id=1&outlet_id=${boutique}&id=${first}`);
    expect(elsewhere.statusCode).toBe(404);
    expect((await agents.editor.get(LIST)).json().data).toHaveLength(2);
    const audit = await auditOf('meal_timing');
    expect(audit.map(({ action, entity_id }) => `${action} ${entity_id}`)).toEqual([
      `create ${first}`,
      `create ${second}`,
      `update ${second}`,
      `update ${first}`,
      `create ${third}`,
      `update ${third}`,
      `delete ${third}`,
    ]);
    expect(audit[2]).toMatchObject({
      before: timing(second, 'Meal 2', '01:00', '02:00'),
      after: timing(second, 'Dinner', '17:30', '21:00'),
    });
    expect(audit[6]).toMatchObject({ before: timing(third, 'Tea', '14:00', '17:30'), after: null });
  });

  it('keeps the tenant to its outlet and another client out', async () => {
    expect((await agents.tenant.get(LIST)).statusCode).toBe(403);
    expect(
      (await save([{ id: first, name: 'X', start_time: '01:00', end_time: '02:00' }], agents.tenant)).statusCode,
    ).toBe(403);
    expect((await post(agents.tenant, '/outlets/mealTimings', { client_id: 1, outlet_id: cafe })).statusCode).toBe(403);
    expect(
      (await del(agents.tenant, `/outlets/mealTimings?client_id=1&outlet_id=${cafe}&id=${first}`)).statusCode,
    ).toBe(403);
    expect((await agents.tenant.get(`/outlets/mealTimings?client_id=1&outlet_id=${boutique}`)).json()).toEqual({
      data: [],
    });
    expect((await agents.otherClient.get(LIST)).statusCode).toBe(403);
    expect((await agents.otherClient.get(`/outlets/mealTimings?client_id=2&outlet_id=${cafe}`)).statusCode).toBe(403);
    expect((await agents.editor.get(LIST)).json().data).toHaveLength(2);
  });
});
