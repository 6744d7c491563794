import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findDeviceByKey } from '../../server/repositories/deviceKeys.js';
import { ACCESS_CALLERS, grantOperatorPermissions, PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, defined, signInAgents, type TestDatabase } from './helpers.js';

/*
 * Point-of-sale device keys (Settings) on the fixture world:
 *
 *   Central Mall (Zenith)   Cafe Uno, Boutique Duo
 *   Harbour Mall (Zenith)   kiosk tres
 *   Apex Plaza (apex)       Apex Shop
 *
 * The operator sees every outlet of Zenith; the tenant only Boutique Duo; the other operator only apex.
 */
let db: TestDatabase;
let app: FastifyInstance;
let agents: Record<'operator' | 'tenant' | 'otherClient' | 'noPermission', Agent>;
const { cafe, boutique, kiosk, apexShop } = WORLD.outlets;
const { central, harbour, apexPlaza } = WORLD.malls;
const KEY = /^pos_[A-Za-z0-9_-]{43}$/;

interface Row {
  id: number;
  name: string;
  outlet_id: number;
  outlet_name: string;
  key_prefix: string;
  created_at: string;
  created_by: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  revoked_by: string | null;
}

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await grantOperatorPermissions(db.pool, [
    '/api/deviceKeys::Read',
    '/api/deviceKeys::Create',
    '/api/deviceKeys::Delete',
  ]);
  app = await createTestApp(db.pool);
  agents = await signInAgents(app, ACCESS_CALLERS, PASSWORD);
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

/** Every test starts with no key and an empty audit log. */
beforeEach(async () => {
  await db.pool.query('DELETE FROM device_keys');
  await db.pool.query('DELETE FROM audit_log');
});

const create = (agent: Agent, body: Record<string, unknown>, csrf?: string | null) =>
  agent.request('POST', '/api/deviceKeys', { body, ...(csrf === undefined ? {} : { csrf }) });

const revoke = (agent: Agent, id: number, clientId = 1) =>
  agent.request('DELETE', `/api/deviceKeys?client_id=${clientId}&id=${id}`);

const list = (agent: Agent, query = '', mallId: number = central, clientId = 1) =>
  agent.get(`/api/deviceKeys?client_id=${clientId}&mall_id=${mallId}&${query}`);

const names = (response: { json: () => { data: Row[] } }) => response.json().data.map((row) => row.name);

/** Creates a key as the operator and answers the key and its row. */
async function issue(outletId: number, name: string, agent: Agent = agents.operator, clientId = 1) {
  const response = await create(agent, { client_id: clientId, outlet_id: outletId, name });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { key: string; device_key: Row };
}

describe('creating a key', () => {
  it('answers the key once with its row; the table keeps only its hash and prefix', async () => {
    const response = await create(agents.operator, { client_id: 1, outlet_id: cafe, name: '  Till 1  ' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const { key, device_key: row } = response.json() as { key: string; device_key: Row };
    expect(key).toMatch(KEY);
    expect(row).toEqual({
      id: expect.any(Number),
      name: 'Till 1',
      outlet_id: cafe,
      outlet_name: 'Cafe Uno',
      key_prefix: key.slice(0, 12),
      created_at: expect.any(String),
      created_by: WORLD.users.operator1,
      last_used_at: null,
      revoked_at: null,
      revoked_by: null,
    });

    const { rows } = await db.pool.query<{ key_hash: Buffer; key_prefix: string; whole: string }>(
      'SELECT key_hash, key_prefix, row_to_json(k)::text AS whole FROM device_keys k WHERE id = $1',
      [row.id],
    );
    const stored = defined(rows[0], 'the stored key');
    expect(stored.key_hash.equals(createHash('sha256').update(key).digest())).toBe(true);
    expect(stored.key_prefix).toBe(key.slice(0, 12));
    expect(stored.whole).not.toContain(key);
    expect(stored.whole).not.toContain(key.slice(12));

    // The list shows the prefix, never the key.
    const listed = await list(agents.operator);
    expect(listed.json().data).toEqual([row]);
    expect(listed.body).not.toContain(key);

    // The key opens ingestion for its outlet, and its use shows in the list.
    expect(await findDeviceByKey(db.pool, key)).toEqual({ keyId: row.id, clientId: 1, outletId: cafe });
    expect((await list(agents.operator)).json().data[0].last_used_at).toEqual(expect.any(String));
  });

  it('writes the creation to the audit log without the key', async () => {
    const { key, device_key: row } = await issue(boutique, 'Front counter');
    const { rows } = await db.pool.query<{ action: string; entity: string; entity_id: string; detail: unknown }>(
      'SELECT action, entity, entity_id, detail FROM audit_log',
    );
    expect(rows).toEqual([
      {
        action: 'create',
        entity: 'device_key',
        entity_id: String(row.id),
        detail: {
          before: null,
          after: {
            name: 'Front counter',
            outlet_id: boutique,
            outlet_name: 'Boutique Duo',
            key_prefix: row.key_prefix,
            revoked_at: null,
          },
        },
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(key);
  });

  it('gives every key a key of its own', async () => {
    const first = await issue(cafe, 'Till 1');
    const second = await issue(cafe, 'Till 1');
    expect(first.key).not.toBe(second.key);
    expect(first.device_key.id).not.toBe(second.device_key.id);
  });
});

describe('revoking a key', () => {
  it('marks the key revoked, and the key opens nothing any more', async () => {
    const { key, device_key: row } = await issue(cafe, 'Till 1');
    const response = await revoke(agents.operator, row.id);
    expect(response.statusCode, response.body).toBe(200);
    const revoked = response.json() as Row;
    expect(revoked).toEqual({ ...row, revoked_at: expect.any(String), revoked_by: WORLD.users.operator1 });
    expect(await findDeviceByKey(db.pool, key)).toBeUndefined();
    expect((await list(agents.operator)).json().data).toEqual([revoked]);
  });

  it('is idempotent: a second revocation answers the row as it is and writes nothing more', async () => {
    const { device_key: row } = await issue(cafe, 'Till 1');
    const first = (await revoke(agents.operator, row.id)).json() as Row;
    const again = await revoke(agents.operator, row.id);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first);
    const { rows } = await db.pool.query<{ action: string; detail: { before: Row; after: Row } }>(
      `SELECT action, detail FROM audit_log WHERE entity = 'device_key' ORDER BY id`,
    );
    expect(rows.map((entry) => entry.action)).toEqual(['create', 'update']);
    expect(rows[1]?.detail.before.revoked_at).toBeNull();
    expect(rows[1]?.detail.after.revoked_at).toBe(first.revoked_at);
  });

  it('answers 404 for a key that is not there, of another client, or of an outlet the caller does not see', async () => {
    const { key, device_key: cafeKey } = await issue(cafe, 'Till 1');
    const apexKey = await issue(apexShop, 'Apex till', agents.otherClient, 2);
    expect((await revoke(agents.operator, 999_999)).statusCode).toBe(404);
    // Another client's key, named with the caller's own client.
    const other = await revoke(agents.operator, apexKey.device_key.id);
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe('There is no such device key.');
    expect((await revoke(agents.otherClient, cafeKey.id, 2)).statusCode).toBe(404);
    // The tenant sees Boutique Duo only.
    expect((await revoke(agents.tenant, cafeKey.id)).statusCode).toBe(404);
    expect(await findDeviceByKey(db.pool, key)).toBeDefined();
    expect(await findDeviceByKey(db.pool, apexKey.key)).toBeDefined();
  });
});

describe('the list', () => {
  /** Keys with known times: created a minute apart, two used, one revoked. */
  async function seedKeys() {
    const keys = {
      till1: await issue(cafe, 'till 1'),
      till2: await issue(cafe, 'Till 2'),
      door: await issue(boutique, 'Door scanner'),
      kiosk: await issue(kiosk, 'Kiosk till'),
    };
    const ordered = [keys.till1, keys.till2, keys.door, keys.kiosk];
    for (const [index, { device_key: row }] of ordered.entries()) {
      await db.pool.query(
        `UPDATE device_keys SET created_at = '2026-03-01T00:00:00Z'::timestamptz + $2 * interval '1 minute' WHERE id = $1`,
        [row.id, index],
      );
    }
    await db.pool.query(`UPDATE device_keys SET last_used_at = '2026-03-02T00:00:00Z' WHERE id = $1`, [
      keys.till2.device_key.id,
    ]);
    await db.pool.query(`UPDATE device_keys SET last_used_at = '2026-03-03T00:00:00Z' WHERE id = $1`, [
      keys.door.device_key.id,
    ]);
    await revoke(agents.operator, keys.till1.device_key.id);
    return keys;
  }

  it('lists the keys of the mall’s outlets only, newest first by default', async () => {
    const keys = await seedKeys();
    const response = await list(agents.operator);
    expect(response.statusCode, response.body).toBe(200);
    expect(names(response)).toEqual(['Door scanner', 'Till 2', 'till 1']);
    expect(response.json().total).toBe(3);
    for (const { key } of Object.values(keys)) expect(response.body).not.toContain(key);
    expect(names(await list(agents.operator, '', harbour))).toEqual(['Kiosk till']);
  });

  it('sorts by every column either way, empty values last', async () => {
    await seedKeys();
    const sorted = async (column: string, order: 'asc' | 'desc') =>
      names(await list(agents.operator, `sortColumn=${column}&orderByMethod=${order}`));
    expect(await sorted('name', 'asc')).toEqual(['Door scanner', 'till 1', 'Till 2']);
    expect(await sorted('name', 'desc')).toEqual(['Till 2', 'till 1', 'Door scanner']);
    expect(await sorted('outlet_name', 'asc')).toEqual(['Door scanner', 'till 1', 'Till 2']);
    expect(await sorted('outlet_name', 'desc')).toEqual(['Till 2', 'till 1', 'Door scanner']);
    expect(await sorted('created_at', 'asc')).toEqual(['till 1', 'Till 2', 'Door scanner']);
    expect(await sorted('last_used_at', 'asc')).toEqual(['Till 2', 'Door scanner', 'till 1']);
    expect(await sorted('last_used_at', 'desc')).toEqual(['Door scanner', 'Till 2', 'till 1']);
    expect(await sorted('revoked_at', 'asc')).toEqual(['till 1', 'Till 2', 'Door scanner']);
    expect(await sorted('revoked_by', 'desc')).toEqual(['till 1', 'Door scanner', 'Till 2']);
    expect(await sorted('created_by', 'asc')).toEqual(['till 1', 'Till 2', 'Door scanner']);
    const prefixes = (await list(agents.operator, 'sortColumn=key_prefix&orderByMethod=asc'))
      .json()
      .data.map((row: Row) => row.key_prefix);
    expect(prefixes).toEqual([...prefixes].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('pages, a page past the last answering no rows with the total', async () => {
    await seedKeys();
    for (let index = 0; index < 10; index += 1) await issue(boutique, `Scanner ${index}`);
    const first = await list(agents.operator, 'rowsPerPage=10');
    expect(first.json().data).toHaveLength(10);
    expect(first.json().total).toBe(13);
    const second = await list(agents.operator, 'rowsPerPage=10&page=2');
    expect(second.json().data).toHaveLength(3);
    expect(new Set([...names(first), ...names(second)]).size).toBe(13);
    expect((await list(agents.operator, 'rowsPerPage=10&page=3')).json()).toEqual({ data: [], total: 13 });
  });

  it('searches names, outlet names and prefixes, any case, as plain text', async () => {
    const keys = await seedKeys();
    expect(names(await list(agents.operator, 'search=TILL'))).toEqual(['Till 2', 'till 1']);
    expect(names(await list(agents.operator, 'search=boutique'))).toEqual(['Door scanner']);
    const prefix = keys.till2.device_key.key_prefix;
    expect(names(await list(agents.operator, `search=${encodeURIComponent(` ${prefix} `)}`))).toEqual(['Till 2']);
    expect((await list(agents.operator, 'search=%25')).json()).toEqual({ data: [], total: 0 });
  });

  it('shows a caller limited to some outlets only the keys of theirs', async () => {
    await seedKeys();
    const response = await list(agents.tenant);
    expect(response.statusCode, response.body).toBe(200);
    expect(names(response)).toEqual(['Door scanner']);
  });
});

describe('what the server refuses', () => {
  it('answers 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ client_id: 1, outlet_id: cafe, name: '' }, 'body/name'],
      [{ client_id: 1, outlet_id: cafe, name: '   ' }, 'body/name must not be blank'],
      [{ client_id: 1, outlet_id: cafe, name: 'x'.repeat(101) }, 'body/name'],
      [{ client_id: 1, outlet_id: cafe, name: 'a\nb' }, 'body/name must not contain control characters'],
      [{ client_id: 1, name: 'Till' }, 'body/outlet_id is required'],
      [{ client_id: 1, outlet_id: 0, name: 'Till' }, 'body/outlet_id'],
      [{ client_id: 1, outlet_id: cafe, name: 'Till', key: 'pos_mine' }, 'body/key is not a field of this request'],
    ];
    for (const [body, message] of cases) {
      const response = await create(agents.operator, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toMatch(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
    }
    const queries: [string, string][] = [
      ['rowsPerPage=15', 'querystring/rowsPerPage'],
      ['sortColumn=key', 'querystring/sortColumn'],
      ['orderByMethod=up', 'querystring/orderByMethod'],
      ['page=0', 'querystring/page'],
      [`search=${'x'.repeat(101)}`, 'querystring/search'],
    ];
    for (const [query, field] of queries) {
      const response = await list(agents.operator, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message).toMatch(new RegExp(`^${field} `));
    }
    const missingMall = await agents.operator.get('/api/deviceKeys?client_id=1');
    expect(missingMall.json().message).toBe('querystring/mall_id is required');
    const badId = await agents.operator.request('DELETE', '/api/deviceKeys?client_id=1&id=0');
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toMatch(/^querystring\/id /);
    expect((await db.pool.query('SELECT 1 FROM device_keys')).rowCount).toBe(0);
  });

  it('answers 403 without the permission', async () => {
    const { device_key: row } = await issue(cafe, 'Till 1');
    for (const response of [
      await list(agents.noPermission),
      await create(agents.noPermission, { client_id: 1, outlet_id: cafe, name: 'Till' }),
      await revoke(agents.noPermission, row.id),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('You do not have permission to do this.');
    }
    expect((await list(agents.operator)).json().data[0].revoked_at).toBeNull();
  });

  it('answers 403 for another client’s outlet or mall, or one the caller does not see', async () => {
    const scope = 'You do not have access to this data.';
    const refused = [
      await create(agents.operator, { client_id: 1, outlet_id: apexShop, name: 'Till' }),
      await create(agents.operator, { client_id: 2, outlet_id: apexShop, name: 'Till' }),
      await create(agents.tenant, { client_id: 1, outlet_id: cafe, name: 'Till' }),
      await list(agents.operator, '', apexPlaza),
      await list(agents.operator, '', apexPlaza, 2),
      await list(agents.tenant, '', harbour),
      await list(agents.otherClient),
    ];
    for (const response of refused) {
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json().message).toBe(scope);
    }
    const { device_key: row } = await issue(cafe, 'Till 1');
    expect((await revoke(agents.otherClient, row.id, 1)).statusCode).toBe(403);
    expect((await db.pool.query('SELECT 1 FROM device_keys')).rowCount).toBe(1);
  });

  it('needs the CSRF token to create or revoke', async () => {
    const missing = await create(agents.operator, { client_id: 1, outlet_id: cafe, name: 'Till' }, null);
    expect(missing.statusCode).toBe(403);
    expect(missing.json().message).toBe('Invalid or missing CSRF token.');
    const wrong = await create(agents.operator, { client_id: 1, outlet_id: cafe, name: 'Till' }, 'not-the-token');
    expect(wrong.statusCode).toBe(403);
    expect((await db.pool.query('SELECT 1 FROM device_keys')).rowCount).toBe(0);
    const { device_key: row } = await issue(cafe, 'Till 1');
    const revoking = await agents.operator.request('DELETE', `/api/deviceKeys?client_id=1&id=${row.id}`, {
      csrf: null,
    });
    expect(revoking.statusCode).toBe(403);
    expect((await list(agents.operator)).json().data[0].revoked_at).toBeNull();
  });

  it('answers 401 without a session', async () => {
    const anonymous = new Agent(app);
    await anonymous.fetchCsrf();
    const { device_key: row } = await issue(cafe, 'Till 1');
    for (const response of [
      await list(anonymous),
      await create(anonymous, { client_id: 1, outlet_id: cafe, name: 'Till' }),
      await revoke(anonymous, row.id),
    ]) {
      expect(response.statusCode).toBe(401);
    }
    expect((await db.pool.query('SELECT 1 FROM device_keys WHERE revoked_at IS NULL')).rowCount).toBe(1);
  });
});
