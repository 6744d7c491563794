import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, type TestDatabase } from './helpers.js';

/*
 * GET /api/admin/outbox: the local outbox a page at a time, sorted and searched, for the super admin only.
 *
 * 25 mails, inserted in this order (ids ascending):
 *   ann    ann@fixture.test     'Welcome'               2026-03-01 08:00Z
 *   bob    bob@fixture.test     'Reset your password'   2026-03-03 08:00Z
 *   cat    Cat@fixture.test     'Your code: 100%'       2026-03-02 08:00Z
 *   dan    dan_1@fixture.test   'welcome back'          2026-03-02 08:00Z  (the same instant as cat, a later id)
 *   eve    eve@fixture.test     'Invitation'            2026-03-04 08:00Z
 *   fill01..fill20  fillNN@fixture.test  'Filler NN'    2026-01-NN 00:00Z
 *
 * Newest first: eve, bob, dan, cat, ann, fill20 .. fill01 (dan before cat: ties by id, in the same direction).
 */

let db: TestDatabase;
let app: FastifyInstance;
const agents = {} as Record<'admin' | 'operator' | 'tenant', Agent>;

const SPECIAL = [
  ['ann', 'ann@fixture.test', 'Welcome', '2026-03-01T08:00:00Z'],
  ['bob', 'bob@fixture.test', 'Reset your password', '2026-03-03T08:00:00Z'],
  ['cat', 'Cat@fixture.test', 'Your code: 100%', '2026-03-02T08:00:00Z'],
  ['dan', 'dan_1@fixture.test', 'welcome back', '2026-03-02T08:00:00Z'],
  ['eve', 'eve@fixture.test', 'Invitation', '2026-03-04T08:00:00Z'],
] as const;
const two = (n: number) => String(n).padStart(2, '0');
const FILLERS = Array.from({ length: 20 }, (_, index) => {
  const nn = two(index + 1);
  return [`fill${nn}`, `fill${nn}@fixture.test`, `Filler ${nn}`, `2026-01-${nn}T00:00:00Z`] as const;
});
const MAILS = [...SPECIAL, ...FILLERS];
/** fillNN .. fillMM, counting down (or up when from < to). */
const fills = (from: number, to: number) =>
  Array.from({ length: Math.abs(to - from) + 1 }, (_, index) => `fill${two(from + (to > from ? index : -index))}`);

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  for (const [name, recipient, subject, createdAt] of MAILS) {
    await db.pool.query('INSERT INTO outbox (recipient, subject, text, created_at) VALUES ($1, $2, $3, $4)', [
      recipient,
      subject,
      `Text of ${name}`,
      createdAt,
    ]);
  }
  app = await createTestApp(db.pool);
  for (const [key, email] of [
    ['admin', WORLD.users.admin],
    ['operator', WORLD.users.operator1],
    ['tenant', WORLD.users.tenant],
  ] as const) {
    agents[key] = new Agent(app);
    expect((await agents[key].login(email, PASSWORD)).statusCode).toBe(200);
  }
});
afterAll(async () => {
  await app.close();
  await db.drop();
});

interface Mail {
  id: number;
  recipient: string;
  subject: string;
  text: string;
  created_at: string;
}

/** The query string of `query` ('' for none). */
function queryString(query: Record<string, string | number>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) search.set(key, String(value));
  return search.size > 0 ? `?${search}` : '';
}

async function outbox(query: Record<string, string | number> = {}) {
  const response = await agents.admin.get(`/api/admin/outbox${queryString(query)}`);
  expect(response.statusCode).toBe(200);
  const body = response.json() as { data: Mail[]; total: number };
  return { total: body.total, names: body.data.map((mail) => mail.text.replace('Text of ', '')), data: body.data };
}

describe('the outbox, a page at a time', () => {
  it('answers the first 20 mails, newest first, and the total, by default', async () => {
    const { total, names, data } = await outbox();
    expect(total).toBe(25);
    expect(names).toEqual(['eve', 'bob', 'dan', 'cat', 'ann', ...fills(20, 6)]);
    expect(data[0]).toEqual({
      id: expect.any(Number),
      recipient: 'eve@fixture.test',
      subject: 'Invitation',
      text: 'Text of eve',
      created_at: '2026-03-04T08:00:00.000Z',
      attachments: [],
    });
  });

  it('pages by rowsPerPage: 10, 10 and 5, and nothing past the last page', async () => {
    expect(await outbox({ rowsPerPage: 10 })).toMatchObject({
      total: 25,
      names: ['eve', 'bob', 'dan', 'cat', 'ann', ...fills(20, 16)],
    });
    expect((await outbox({ rowsPerPage: 10, page: 2 })).names).toEqual(fills(15, 6));
    expect((await outbox({ rowsPerPage: 10, page: 3 })).names).toEqual(fills(5, 1));
    expect(await outbox({ rowsPerPage: 10, page: 4 })).toMatchObject({ total: 25, names: [] });
    expect(await outbox({ rowsPerPage: 50 })).toMatchObject({ total: 25, names: expect.any(Array) });
    expect((await outbox({ rowsPerPage: 50 })).names).toHaveLength(25);
  });

  it('sorts by created_at both ways, ties by id in the same direction', async () => {
    expect((await outbox({ rowsPerPage: 10, page: 3, order: 'asc' })).names).toEqual([
      'ann',
      'cat',
      'dan',
      'bob',
      'eve',
    ]);
    expect((await outbox({ rowsPerPage: 10, order: 'asc' })).names).toEqual(fills(1, 10));
  });

  it('sorts by recipient both ways, ignoring case', async () => {
    expect((await outbox({ rowsPerPage: 10, sortColumn: 'recipient', order: 'asc' })).names).toEqual([
      'ann',
      'bob',
      'cat',
      'dan',
      'eve',
      ...fills(1, 5),
    ]);
    expect((await outbox({ rowsPerPage: 10, sortColumn: 'recipient', order: 'desc' })).names).toEqual(fills(20, 11));
    expect((await outbox({ rowsPerPage: 10, page: 3, sortColumn: 'recipient', order: 'desc' })).names).toEqual([
      'eve',
      'dan',
      'cat',
      'bob',
      'ann',
    ]);
  });

  it('sorts by subject both ways, ignoring case', async () => {
    expect((await outbox({ rowsPerPage: 10, page: 3, sortColumn: 'subject', order: 'asc' })).names).toEqual([
      'eve',
      'bob',
      'ann',
      'dan',
      'cat',
    ]);
    expect((await outbox({ rowsPerPage: 10, sortColumn: 'subject', order: 'desc' })).names).toEqual([
      'cat',
      'dan',
      'ann',
      'bob',
      'eve',
      ...fills(20, 16),
    ]);
  });
});

describe('the outbox searched', () => {
  it.each<[string, string[], number]>([
    ['welcome', ['dan', 'ann'], 2],
    ['WELCOME BACK', ['dan'], 1],
    ['cat@', ['cat'], 1],
    ['@FIXTURE.test', ['eve', 'bob', 'dan', 'cat', 'ann', ...fills(20, 6)], 25],
    ['password', ['bob'], 1],
    ['nobody', [], 0],
  ])('matches %j in the recipient or the subject, any case', async (search, names, total) => {
    expect(await outbox({ search })).toEqual({ total, names, data: expect.any(Array) });
  });

  it.each([
    ['%', ['cat']],
    ['100%', ['cat']],
    ['_', ['dan']],
    ['n_1', ['dan']],
    ['n%1', []],
    ['a_n', []],
    ['\\', []],
  ] as const)('matches %j literally: LIKE wildcards are plain characters', async (search, names) => {
    expect(await outbox({ search })).toEqual({ total: names.length, names, data: expect.any(Array) });
  });

  it('pages and sorts what it found, with the total of the search', async () => {
    expect(await outbox({ search: 'filler', rowsPerPage: 10, page: 2 })).toMatchObject({
      total: 20,
      names: fills(10, 1),
    });
    expect(
      await outbox({ search: 'filler', rowsPerPage: 10, page: 2, sortColumn: 'subject', order: 'asc' }),
    ).toMatchObject({ total: 20, names: fills(11, 20) });
  });
});

describe('the outbox refuses what the contract does not allow', () => {
  it.each([
    [{ rowsPerPage: 15 }, /rowsPerPage/],
    [{ rowsPerPage: 100 }, /rowsPerPage/],
    [{ sortColumn: 'text' }, /sortColumn/],
    [{ sortColumn: 'id; DROP TABLE outbox' }, /sortColumn/],
    [{ order: 'up' }, /order/],
    [{ page: 0 }, /page/],
    [{ page: 100001 }, /page/],
    [{ search: 'x'.repeat(201) }, /search/],
    [{ search: 'a\u0000b' }, /search/],
    [{ search: 'line\nbreak' }, /search/],
    [{ search: 'del\u007F' }, /search/],
  ] as const)('answers 400 naming the field for %j', async (query, field) => {
    const response = await agents.admin.get(`/api/admin/outbox${queryString(query)}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(field);
  });

  it('takes the longest search allowed', async () => {
    expect(await outbox({ search: 'x'.repeat(200) })).toMatchObject({ total: 0, names: [] });
  });
});

describe('the outbox is the super admin’s alone', () => {
  it('answers 401 to anonymous callers', async () => {
    const response = await new Agent(app).get('/api/admin/outbox');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });

  it.each(['operator', 'tenant'] as const)('answers 403 to the %s', async (who) => {
    const response = await agents[who].get('/api/admin/outbox?rowsPerPage=10');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
  });
});
