import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCESS_CALLERS, grantOperatorPermissions, PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, signInAgents, type TestDatabase } from './helpers.js';

/*
 * Outlet codes on the fixture world, with three more outlets in Central Mall:
 *
 *   Central Mall (Zenith)   Boutique Duo B-02, Cafe Uno C-01, Deli Quattro D-05, Eatery Cinque (no code),
 *                           Florist Sei F-06
 *   Harbour Mall (Zenith)   kiosk tres K-03
 *   Apex Plaza (apex)       Apex Shop S-04
 *
 * The operator sees every outlet of Zenith; the tenant only Boutique Duo.
 */
let db: TestDatabase;
let app: FastifyInstance;
let agents: Record<'operator' | 'tenant' | 'otherClient' | 'noPermission', Agent>;
const { cafe, boutique, kiosk, apexShop } = WORLD.outlets;
const { central, harbour, apexPlaza } = WORLD.malls;
const DELI = 11;
const EATERY = 12;
const FLORIST = 13;
const CODES = 'SELECT id, outlet_code FROM outlets WHERE client_id = 1 ORDER BY id';
const INITIAL: Record<number, string | null> = {
  [cafe]: 'C-01',
  [boutique]: 'B-02',
  [kiosk]: 'K-03',
  [DELI]: 'D-05',
  [EATERY]: null,
  [FLORIST]: 'F-06',
};

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await db.pool.query(
    `INSERT INTO outlets (client_id, id, mall_id, name, outlet_code, type, currency) VALUES
       (1, $1, $4, 'Deli Quattro', 'D-05', 1, 'SGD'),
       (1, $2, $4, 'Eatery Cinque', NULL, 1, 'SGD'),
       (1, $3, $4, 'Florist Sei', 'F-06', 2, 'SGD')`,
    [DELI, EATERY, FLORIST, central],
  );
  await grantOperatorPermissions(db.pool, ['/api/mall_report/outletCode::Read', '/api/mall_report/outletCode::Update']);
  app = await createTestApp(db.pool);
  agents = await signInAgents(app, ACCESS_CALLERS, PASSWORD);
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

/** Every test starts from the codes above and an empty audit log. */
beforeEach(async () => {
  await db.pool.query(
    `UPDATE outlets o SET outlet_code = c.code FROM unnest($1::int[], $2::text[]) AS c(id, code)
     WHERE o.client_id = 1 AND o.id = c.id`,
    [Object.keys(INITIAL).map(Number), Object.values(INITIAL)],
  );
  await db.pool.query('DELETE FROM audit_log');
});

const list = (agent: Agent, query = '', malls: readonly number[] = [central, harbour]) =>
  agent.get(`/api/mall_report/outletCode?client_id=1&${malls.map((id) => `mall_ids=${id}`).join('&')}&${query}`);

const names = (response: { json: () => { data: { outlet_name: string }[] } }) =>
  response.json().data.map((row) => row.outlet_name);

const save = (agent: Agent, data: { outlet_id: number; outlet_code: string | null }[], clientId = 1) =>
  agent.request('PUT', '/api/mall_report/outletCode', { body: { client_id: clientId, data } });

async function codes(): Promise<Record<number, string | null>> {
  const { rows } = await db.pool.query<{ id: number; outlet_code: string | null }>(CODES);
  return Object.fromEntries(rows.map((row) => [row.id, row.outlet_code]));
}

/** Waits until a statement of the test database waits for a row lock (5 s at most). */
async function waitForLockWait(): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const { rows } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if ((rows[0]?.n ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the list', () => {
  it('lists the malls’ outlets with their codes, by mall then outlet name, a page at a time', async () => {
    const first = await list(agents.operator, 'rowsPerPage=4');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      data: [
        {
          outlet_id: boutique,
          outlet_name: 'Boutique Duo',
          mall_id: central,
          mall_name: 'Central Mall',
          outlet_code: 'B-02',
        },
        { outlet_id: cafe, outlet_name: 'Cafe Uno', mall_id: central, mall_name: 'Central Mall', outlet_code: 'C-01' },
        {
          outlet_id: DELI,
          outlet_name: 'Deli Quattro',
          mall_id: central,
          mall_name: 'Central Mall',
          outlet_code: 'D-05',
        },
        {
          outlet_id: EATERY,
          outlet_name: 'Eatery Cinque',
          mall_id: central,
          mall_name: 'Central Mall',
          outlet_code: null,
        },
      ],
      total: 6,
    });
    const second = await list(agents.operator, 'rowsPerPage=4&page=2');
    expect(names(second)).toEqual(['Florist Sei', 'kiosk tres']);
    expect(second.json().total).toBe(6);
    const past = await list(agents.operator, 'rowsPerPage=4&page=5');
    expect(past.json()).toEqual({ data: [], total: 6 });
  });

  it('lists only the malls asked for', async () => {
    const response = await list(agents.operator, '', [harbour]);
    expect(response.json()).toEqual({
      data: [
        {
          outlet_id: kiosk,
          outlet_name: 'kiosk tres',
          mall_id: harbour,
          mall_name: 'Harbour Mall',
          outlet_code: 'K-03',
        },
      ],
      total: 1,
    });
  });

  it('sorts by each column either way, case-insensitively, outlets without a code last', async () => {
    expect(names(await list(agents.operator, 'sortColumn=outlet_name&orderByMethod=desc'))).toEqual([
      'kiosk tres',
      'Florist Sei',
      'Eatery Cinque',
      'Deli Quattro',
      'Cafe Uno',
      'Boutique Duo',
    ]);
    const byCode = async (order: string) =>
      (await list(agents.operator, `sortColumn=outlet_code&orderByMethod=${order}`))
        .json()
        .data.map((row: { outlet_code: string | null }) => row.outlet_code);
    expect(await byCode('asc')).toEqual(['B-02', 'C-01', 'D-05', 'F-06', 'K-03', null]);
    expect(await byCode('desc')).toEqual(['K-03', 'F-06', 'D-05', 'C-01', 'B-02', null]);
    expect(names(await list(agents.operator, 'sortColumn=mall_name&orderByMethod=desc'))).toEqual([
      'kiosk tres',
      'Boutique Duo',
      'Cafe Uno',
      'Deli Quattro',
      'Eatery Cinque',
      'Florist Sei',
    ]);
  });

  it('searches outlet names and codes, any case, as plain text', async () => {
    expect(names(await list(agents.operator, 'searchText=TRES'))).toEqual(['kiosk tres']);
    expect(names(await list(agents.operator, 'searchText=c-0'))).toEqual(['Cafe Uno']);
    expect(names(await list(agents.operator, `searchText=${encodeURIComponent('  -0 ')}&rowsPerPage=2`))).toEqual([
      'Boutique Duo',
      'Cafe Uno',
    ]);
    expect((await list(agents.operator, 'searchText=-0&rowsPerPage=2')).json().total).toBe(5);
    expect((await list(agents.operator, 'searchText=%25')).json()).toEqual({ data: [], total: 0 });
    expect((await list(agents.operator, 'searchText=_')).json()).toEqual({ data: [], total: 0 });
  });

  it('shows a caller limited to some outlets only theirs', async () => {
    const response = await list(agents.tenant, '', [central]);
    expect(response.statusCode, response.body).toBe(200);
    expect(names(response)).toEqual(['Boutique Duo']);
  });
});

describe('saving codes', () => {
  it('sets, trims and clears codes, one audit row per code changed', async () => {
    const response = await save(agents.operator, [
      { outlet_id: cafe, outlet_code: 'C-11' },
      { outlet_id: FLORIST, outlet_code: '  F-60  ' },
      { outlet_id: DELI, outlet_code: '' },
      { outlet_id: EATERY, outlet_code: null },
      { outlet_id: boutique, outlet_code: 'B-02' },
      { outlet_id: kiosk, outlet_code: '   ' },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ success: true, updated: 4 });
    expect(await codes()).toEqual({ ...INITIAL, [cafe]: 'C-11', [FLORIST]: 'F-60', [DELI]: null, [kiosk]: null });
    expect(names(await list(agents.operator, 'searchText=c-11'))).toEqual(['Cafe Uno']);

    const { rows } = await db.pool.query(
      `SELECT a.client_id, u.email, a.action, a.entity, a.entity_id, a.detail
       FROM audit_log a JOIN users u ON u.id = a.user_id ORDER BY a.entity_id::int`,
    );
    const row = (
      id: number,
      name: string,
      mall: number,
      mallName: string,
      before: string | null,
      after: string | null,
    ) => ({
      client_id: 1,
      email: WORLD.users.operator1,
      action: 'update',
      entity: 'outlet_code',
      entity_id: String(id),
      detail: {
        before: { outlet_id: id, outlet_name: name, mall_id: mall, mall_name: mallName, outlet_code: before },
        after: { outlet_id: id, outlet_name: name, mall_id: mall, mall_name: mallName, outlet_code: after },
      },
    });
    expect(rows).toEqual([
      row(cafe, 'Cafe Uno', central, 'Central Mall', 'C-01', 'C-11'),
      row(kiosk, 'kiosk tres', harbour, 'Harbour Mall', 'K-03', null),
      row(DELI, 'Deli Quattro', central, 'Central Mall', 'D-05', null),
      row(FLORIST, 'Florist Sei', central, 'Central Mall', 'F-06', 'F-60'),
    ]);
  });

  it('changes nothing and logs nothing when every code stays the same', async () => {
    const response = await save(agents.operator, [
      { outlet_id: cafe, outlet_code: ' C-01' },
      { outlet_id: EATERY, outlet_code: '' },
    ]);
    expect(response.json()).toEqual({ success: true, updated: 0 });
    expect((await db.pool.query('SELECT 1 FROM audit_log')).rowCount).toBe(0);
  });

  it('refuses a code another outlet of the mall has, any case, naming the item, and saves nothing', async () => {
    const response = await save(agents.operator, [
      { outlet_id: cafe, outlet_code: 'X-1' },
      { outlet_id: DELI, outlet_code: 'b-02' },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message:
        'data[1].outlet_code: "b-02" is already the code of Boutique Duo in Central Mall; a code is unique within its mall.',
    });
    expect(await codes()).toEqual(INITIAL);
    expect((await db.pool.query('SELECT 1 FROM audit_log')).rowCount).toBe(0);
  });

  it('refuses one code given to two outlets of a mall', async () => {
    const response = await save(agents.operator, [
      { outlet_id: EATERY, outlet_code: 'Z-9' },
      { outlet_id: DELI, outlet_code: 'z-9' },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(
      'data[0].outlet_code: "Z-9" is also given to Deli Quattro (data[1]); a code is unique within its mall.',
    );
    expect(await codes()).toEqual(INITIAL);
  });

  it('takes the code of an outlet of another mall, and codes swapped between two outlets', async () => {
    const other = await save(agents.operator, [{ outlet_id: kiosk, outlet_code: 'B-02' }]);
    expect(other.statusCode, other.body).toBe(200);
    const swapped = await save(agents.operator, [
      { outlet_id: cafe, outlet_code: 'B-02' },
      { outlet_id: boutique, outlet_code: 'C-01' },
    ]);
    expect(swapped.statusCode, swapped.body).toBe(200);
    expect(await codes()).toEqual({ ...INITIAL, [kiosk]: 'B-02', [cafe]: 'B-02', [boutique]: 'C-01' });
  });

  it('takes a code another outlet gives up in the same save', async () => {
    const response = await save(agents.operator, [
      { outlet_id: DELI, outlet_code: 'C-01' },
      { outlet_id: cafe, outlet_code: null },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    expect(await codes()).toEqual({ ...INITIAL, [DELI]: 'C-01', [cafe]: null });
  });

  it('locks the mall’s outlets: a save waits for another in the mall and checks the code it committed', async () => {
    // Another save of Central Mall, under way: it holds Eatery Cinque's row.
    const other = await db.pool.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT 1 FROM outlets WHERE client_id = 1 AND id = $1 FOR UPDATE', [EATERY]);
      const pending = save(agents.operator, [{ outlet_id: DELI, outlet_code: 'Q-1' }]);
      await waitForLockWait();
      await other.query(`UPDATE outlets SET outlet_code = 'q-1' WHERE client_id = 1 AND id = $1`, [EATERY]);
      await other.query('COMMIT');
      const response = await pending;
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toBe(
        'data[0].outlet_code: "Q-1" is already the code of Eatery Cinque in Central Mall; a code is unique within its mall.',
      );
    } finally {
      other.release();
    }
    expect(await codes()).toEqual({ ...INITIAL, [EATERY]: 'q-1' });
  });

  it('refuses an outlet given twice', async () => {
    const response = await save(agents.operator, [
      { outlet_id: cafe, outlet_code: 'A' },
      { outlet_id: cafe, outlet_code: 'B' },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('data[1].outlet_id: outlet 1 is given twice.');
  });

  it('refuses a code past 50 characters or with a control character, naming the field', async () => {
    for (const code of ['x'.repeat(51), 'a\u0007b']) {
      const response = await save(agents.operator, [{ outlet_id: cafe, outlet_code: code }]);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain('outlet_code');
    }
  });
});

describe('access', () => {
  it('answers 401 to an anonymous caller', async () => {
    const anonymous = new Agent(app);
    expect((await list(anonymous)).statusCode).toBe(401);
    await anonymous.fetchCsrf();
    expect((await save(anonymous, [{ outlet_id: cafe, outlet_code: 'A' }])).statusCode).toBe(401);
  });

  it('answers 403 without the permission', async () => {
    expect((await list(agents.noPermission)).statusCode).toBe(403);
    expect((await save(agents.noPermission, [{ outlet_id: cafe, outlet_code: 'A' }])).statusCode).toBe(403);
  });

  it('answers 403 to a caller of another client, for the client and for outlets of the body', async () => {
    const listed = await list(agents.otherClient);
    expect(listed.statusCode).toBe(403);
    expect(listed.json().message).toBe('You do not have access to this data.');
    expect((await save(agents.otherClient, [{ outlet_id: cafe, outlet_code: 'A' }])).statusCode).toBe(403);
    // Its own client, with an outlet of the other.
    const mixed = await save(
      agents.otherClient,
      [
        { outlet_id: apexShop, outlet_code: 'S-40' },
        { outlet_id: cafe, outlet_code: 'A' },
      ],
      2,
    );
    expect(mixed.statusCode).toBe(403);
    expect(mixed.json().message).toBe('You do not have access to this data.');
    expect(await codes()).toEqual(INITIAL);
  });

  it('answers 403 to a save without the CSRF token', async () => {
    const response = await agents.operator.request('PUT', '/api/mall_report/outletCode', {
      body: { client_id: 1, data: [{ outlet_id: cafe, outlet_code: 'A' }] },
      csrf: null,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('Invalid or missing CSRF token.');
    expect(await codes()).toEqual(INITIAL);
  });

  it('answers 403 for a mall the caller does not see', async () => {
    expect((await list(agents.tenant, '', [central, harbour])).statusCode).toBe(403);
    expect((await list(agents.operator, '', [apexPlaza])).statusCode).toBe(403);
  });

  it('lets a caller limited to some outlets set only theirs, never naming an outlet they do not see', async () => {
    const other = await save(agents.tenant, [{ outlet_id: cafe, outlet_code: 'A' }]);
    expect(other.statusCode).toBe(403);
    const taken = await save(agents.tenant, [{ outlet_id: boutique, outlet_code: 'c-01' }]);
    expect(taken.statusCode).toBe(400);
    expect(taken.json().message).toBe(
      'data[0].outlet_code: "c-01" is already the code of another outlet in Central Mall; a code is unique within its mall.',
    );
    const own = await save(agents.tenant, [{ outlet_id: boutique, outlet_code: 'B-20' }]);
    expect(own.statusCode, own.body).toBe(200);
    expect(await codes()).toEqual({ ...INITIAL, [boutique]: 'B-20' });
  });
});
