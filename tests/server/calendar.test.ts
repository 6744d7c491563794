import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holidaySeed } from '../../server/calendar/holidaySeed.js';
import { calendarEntries, seedCalendar } from '../../server/repositories/calendar.js';
import { NO_SUCH_ENTRY } from '../../server/routes/calendar.js';
import { ACCESS_CALLERS, grantOperatorPermissions, PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { type Agent, createTestApp, createTestDatabase, signInAgents, type TestDatabase } from './helpers.js';

/*
 * The client's calendar on the fixture world: every client starts with the seed (Singapore, Malaysia, Indonesia,
 * 2024-2028); Zenith's operator keeps it, apex's operator cannot touch Zenith's, a user without the permissions
 * is refused.
 */
let db: TestDatabase;
let app: FastifyInstance;
let agents: Record<'operator' | 'tenant' | 'otherClient' | 'noPermission', Agent>;

const PERMISSIONS = ['/api/calendar::Read', '/api/calendar::Create', '/api/calendar::Update', '/api/calendar::Delete'];

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await grantOperatorPermissions(db.pool, PERMISSIONS);
  app = await createTestApp(db.pool);
  agents = await signInAgents(app, ACCESS_CALLERS, PASSWORD);
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const PATH = '/api/calendar';
const entry = (overrides: Record<string, unknown> = {}) => ({
  client_id: 1,
  country: 'SG',
  start_date: '2026-07-01',
  end_date: '2026-07-03',
  name: 'Great Singapore Sale',
  kind: 'festival',
  festival: 'great_singapore_sale',
  ...overrides,
});

describe('the seed', () => {
  it('dates Chinese New Year of 2025 and 2026 right, two days, in every country', () => {
    const cny = holidaySeed().filter((row) => row.festival === 'chinese_new_year');
    for (const country of ['SG', 'MY', 'ID']) {
      const starts = cny.filter((row) => row.country === country).map((row) => [row.start_date, row.end_date]);
      expect(starts).toContainEqual(['2025-01-29', '2025-01-30']);
      expect(starts).toContainEqual(['2026-02-17', '2026-02-18']);
      expect(starts).toHaveLength(5);
    }
  });

  it('keeps every entry within the contract: days in order, at most 62 days, names 1 to 80 characters', () => {
    for (const row of holidaySeed()) {
      expect(row.end_date >= row.start_date, row.name).toBe(true);
      const days = (Date.parse(row.end_date) - Date.parse(row.start_date)) / 86_400_000;
      expect(days, `${row.country} ${row.name} ${row.start_date}`).toBeLessThanOrEqual(62);
      expect(row.name.length).toBeGreaterThan(0);
      expect(row.name.length).toBeLessThanOrEqual(80);
      if (row.kind === 'school_holiday') expect(row.festival).toBeNull();
    }
    expect(holidaySeed().some((row) => row.country === 'ID' && row.festival === 'deepavali')).toBe(false);
  });

  it('is given once to a client (seedCalendar again adds nothing) and read through calendarEntries', async () => {
    const before = await calendarEntries(db.pool, 2, ['SG', 'MY', 'ID'], '2024-01-01', '2028-12-31');
    await seedCalendar(db.pool, 2);
    const after = await calendarEntries(db.pool, 2, ['SG', 'MY', 'ID'], '2024-01-01', '2028-12-31');
    expect(after).toHaveLength(before.length);
    expect(after.length).toBe(holidaySeed().length);
    const festive = await calendarEntries(db.pool, 2, ['MY'], '2025-01-30', '2025-01-30');
    expect(festive).toContainEqual(
      expect.objectContaining({
        country: 'MY',
        start_date: '2025-01-29',
        end_date: '2025-01-30',
        festival: 'chinese_new_year',
      }),
    );
  });
});

describe('GET /api/calendar', () => {
  it("answers the client's entries of a country that overlap the year, by first day", async () => {
    const response = await agents.operator.get(`${PATH}?client_id=1&country=SG&year=2026`);
    expect(response.statusCode).toBe(200);
    const { entries } = response.json() as { entries: { start_date: string; name: string; festival: string | null }[] };
    expect(entries[0]).toMatchObject({ start_date: '2026-01-01', name: "New Year's Day" });
    expect(entries).toContainEqual(
      expect.objectContaining({
        start_date: '2026-02-17',
        end_date: '2026-02-18',
        kind: 'festival',
        festival: 'chinese_new_year',
      }),
    );
    const starts = entries.map((row) => row.start_date);
    expect(starts).toEqual([...starts].sort());
    expect(entries.every((row) => row.start_date <= '2026-12-31')).toBe(true);
  });

  it('answers 400 naming the field for a country that is not two upper-case letters', async () => {
    const response = await agents.operator.get(`${PATH}?client_id=1&country=sg&year=2026`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('country');
  });

  it('refuses another client and a user without the permission', async () => {
    expect((await agents.otherClient.get(`${PATH}?client_id=1&country=SG&year=2026`)).statusCode).toBe(403);
    expect((await agents.noPermission.get(`${PATH}?client_id=1&country=SG&year=2026`)).statusCode).toBe(403);
  });
});

describe('changes', () => {
  it('adds, changes and removes an entry, each with its audit row (before and after)', async () => {
    const created = await agents.operator.request('POST', PATH, { body: entry() });
    expect(created.statusCode).toBe(200);
    const row = created.json() as { id: number };
    expect(row).toMatchObject({
      country: 'SG',
      start_date: '2026-07-01',
      end_date: '2026-07-03',
      festival: 'great_singapore_sale',
    });

    const updated = await agents.operator.request('PUT', PATH, {
      body: entry({ id: row.id, name: '  Mid-year sale  ', kind: 'public_holiday', festival: null }),
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ id: row.id, name: 'Mid-year sale', kind: 'public_holiday', festival: null });

    const deleted = await agents.operator.request('DELETE', `${PATH}?client_id=1&id=${row.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ id: row.id });
    expect((await agents.operator.request('DELETE', `${PATH}?client_id=1&id=${row.id}`)).json().message).toBe(
      NO_SUCH_ENTRY,
    );

    const { rows } = await db.pool.query<{ action: string; detail: { before: unknown; after: unknown } }>(
      `SELECT action, detail FROM audit_log WHERE client_id = 1 AND entity = 'calendar_entry' AND entity_id = $1
       ORDER BY id`,
      [String(row.id)],
    );
    expect(rows.map((audit) => audit.action)).toEqual(['create', 'update', 'delete']);
    expect(rows[1]?.detail).toMatchObject({
      before: { name: 'Great Singapore Sale', kind: 'festival' },
      after: { name: 'Mid-year sale', kind: 'public_holiday' },
    });
    expect(rows[2]?.detail).toMatchObject({ before: { name: 'Mid-year sale' }, after: null });
  });

  it.each([
    [{ end_date: '2026-06-30' }, 'end_date'],
    [{ end_date: '2026-09-02' }, 'end_date'],
    [{ name: '   ' }, 'name'],
    [{ name: 'x'.repeat(81) }, 'name'],
    [{ kind: 'birthday' }, 'kind'],
    [{ festival: 'Chinese New Year' }, 'festival'],
    [{ start_date: '2026-02-30' }, 'start_date'],
  ])('answers 400 naming the field for %j', async (overrides, field) => {
    const response = await agents.operator.request('POST', PATH, { body: entry(overrides) });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(field);
  });

  it('answers 404 for an entry of another client, and leaves it as it was', async () => {
    const { rows } = await db.pool.query<{ id: number }>(
      `SELECT id FROM calendar_entries WHERE client_id = 2 ORDER BY id LIMIT 1`,
    );
    const id = rows[0]?.id;
    const response = await agents.operator.request('PUT', PATH, { body: entry({ id }) });
    expect(response.statusCode).toBe(404);
    expect((await agents.operator.request('DELETE', `${PATH}?client_id=1&id=${id}`)).statusCode).toBe(404);
    const { rows: still } = await db.pool.query('SELECT 1 FROM calendar_entries WHERE id = $1', [id]);
    expect(still).toHaveLength(1);
  });

  it("refuses apex's operator on Zenith's calendar and a write without the CSRF token", async () => {
    expect((await agents.otherClient.request('POST', PATH, { body: entry() })).statusCode).toBe(403);
    expect((await agents.operator.request('POST', PATH, { body: entry(), csrf: null })).statusCode).toBe(403);
  });
});

describe('malls', () => {
  it('carry the country their time zone says in the /malls lookup', async () => {
    const response = await agents.operator.get(`/malls?client_id=1`);
    expect(response.statusCode).toBe(200);
    const malls = response.json() as { id: number; country: string }[];
    expect(malls.find((mall) => mall.id === WORLD.malls.central)?.country).toBe('SG');
    const { rows } = await db.pool.query<{ country: string }>('SELECT country FROM malls WHERE id = $1', [
      WORLD.malls.apexPlaza,
    ]);
    expect(rows[0]?.country).toBe('ID');
  });
});
