import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_SUCH_EVENT } from '../../server/routes/mallEvents.js';
import { ACCESS_CALLERS, grantOperatorPermissions, PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { type Agent, createTestApp, createTestDatabase, signInAgents, type TestDatabase } from './helpers.js';

/*
 * The malls' events and the holidays drawn with them, on the fixture world: Zenith has Central Mall (Singapore)
 * and Harbour Mall (New York: no zone of the three countries, so Singapore's calendar); apex has Apex Plaza
 * (Jakarta: Indonesia). The tenant sees an outlet of Central Mall only.
 */
let db: TestDatabase;
let app: FastifyInstance;
let agents: Record<'operator' | 'tenant' | 'otherClient' | 'noPermission', Agent>;
const { central, harbour, apexPlaza } = WORLD.malls;

const PERMISSIONS = [
  '/api/mall_events::Read',
  '/api/mall_events::Create',
  '/api/mall_events::Update',
  '/api/mall_events::Delete',
];

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await grantOperatorPermissions(db.pool, PERMISSIONS);
  await db.pool.query(`UPDATE users SET display_name = 'Olivia Operator' WHERE email = $1`, [WORLD.users.operator1]);
  app = await createTestApp(db.pool);
  agents = await signInAgents(app, ACCESS_CALLERS, PASSWORD);
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const PATH = '/api/mall_events';
const event = (overrides: Record<string, unknown> = {}) => ({
  client_id: 1,
  mall_id: central,
  title: 'Anniversary sale',
  start_date: '2025-01-25',
  end_date: '2025-02-02',
  kind: 'sale',
  ...overrides,
});
const range = (malls: number[], start = '2025-01-01', end = '2025-02-28', client = 1) =>
  `${PATH}?client_id=${client}&${malls.map((id) => `mall_ids=${id}`).join('&')}&start_time=${start}&end_time=${end}`;

interface Answer {
  events: { id: number; mall_id: number; title: string; created_by: string }[];
  holidays: { name: string; start_date: string; festival: string | null; mall_ids: number[]; country: string }[];
}

describe('GET /api/mall_events', () => {
  it("answers the selected malls' events and their countries' holidays overlapping the range", async () => {
    const created = await agents.operator.request('POST', PATH, { body: event() });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({
      mall_id: central,
      title: 'Anniversary sale',
      created_by: 'Olivia Operator',
    });
    await agents.operator.request('POST', PATH, {
      body: event({ mall_id: harbour, title: 'Harbour fair', start_date: '2025-05-01', end_date: '2025-05-03' }),
    });

    const response = await agents.operator.get(range([central, harbour]));
    expect(response.statusCode).toBe(200);
    const answer = response.json() as Answer;
    expect(answer.events.map((row) => row.title)).toEqual(['Anniversary sale']);
    const cny = answer.holidays.find((row) => row.festival === 'chinese_new_year');
    expect(cny).toMatchObject({ start_date: '2025-01-29', country: 'SG', mall_ids: [central, harbour] });
    expect(answer.holidays.every((row) => row.country === 'SG')).toBe(true);
    expect(answer.holidays.map((row) => row.start_date)).toEqual(answer.holidays.map((row) => row.start_date).sort());
  });

  it("gives a mall of Indonesia Indonesia's holidays", async () => {
    const response = await agents.otherClient.get(range([apexPlaza], '2026-02-01', '2026-02-28', 2));
    expect(response.statusCode).toBe(200);
    const { holidays } = response.json() as Answer;
    expect(holidays).toContainEqual(
      expect.objectContaining({
        country: 'ID',
        start_date: '2026-02-17',
        festival: 'chinese_new_year',
        mall_ids: [apexPlaza],
      }),
    );
  });

  it('refuses a mall the caller does not see, and a range past 366 days naming the field', async () => {
    expect((await agents.tenant.get(range([harbour]))).statusCode).toBe(403);
    expect((await agents.tenant.get(range([central]))).statusCode).toBe(200);
    expect((await agents.otherClient.get(range([central]))).statusCode).toBe(403);
    expect((await agents.noPermission.get(range([central]))).statusCode).toBe(403);
    const long = await agents.operator.get(range([central], '2024-01-01', '2025-06-01'));
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toContain('end_time');
  });
});

describe('changes', () => {
  it('changes and removes an event, each with its audit row (before and after)', async () => {
    const created = (
      await agents.operator.request('POST', PATH, { body: event({ title: 'Lantern walk' }) })
    ).json() as {
      id: number;
    };
    const updated = await agents.operator.request('PUT', PATH, {
      body: event({ id: created.id, title: '  Lantern festival  ', kind: 'event' }),
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ id: created.id, title: 'Lantern festival', kind: 'event' });
    const deleted = await agents.operator.request('DELETE', `${PATH}?client_id=1&id=${created.id}`);
    expect(deleted.json()).toEqual({ id: created.id });
    const again = await agents.operator.request('DELETE', `${PATH}?client_id=1&id=${created.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(NO_SUCH_EVENT);

    const { rows } = await db.pool.query<{ action: string; detail: { before: unknown; after: unknown } }>(
      `SELECT action, detail FROM audit_log WHERE entity = 'mall_event' AND entity_id = $1 ORDER BY id`,
      [String(created.id)],
    );
    expect(rows.map((row) => row.action)).toEqual(['create', 'update', 'delete']);
    expect(rows[1]?.detail).toMatchObject({
      before: { title: 'Lantern walk', kind: 'sale' },
      after: { title: 'Lantern festival', kind: 'event' },
    });
  });

  it.each([
    [{ end_date: '2025-01-24' }, 'end_date'],
    [{ end_date: '2025-03-29' }, 'end_date'],
    [{ title: ' ' }, 'title'],
    [{ title: 'x'.repeat(81) }, 'title'],
    [{ kind: 'party' }, 'kind'],
    [{ mall_id: 0 }, 'mall_id'],
  ])('answers 400 naming the field for %j', async (overrides, field) => {
    const response = await agents.operator.request('POST', PATH, { body: event(overrides) });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(field);
  });

  it('refuses a mall or an event the caller does not see', async () => {
    // The tenant sees Central Mall only: Harbour Mall is refused by the gate, its event by the handler (404).
    expect((await agents.tenant.request('POST', PATH, { body: event({ mall_id: harbour }) })).statusCode).toBe(403);
    const harbourEvent = (
      await agents.operator.request('POST', PATH, { body: event({ mall_id: harbour, title: 'Harbour only' }) })
    ).json() as { id: number };
    const moved = await agents.tenant.request('PUT', PATH, { body: event({ id: harbourEvent.id, mall_id: central }) });
    expect(moved.statusCode).toBe(404);
    expect((await agents.tenant.request('DELETE', `${PATH}?client_id=1&id=${harbourEvent.id}`)).statusCode).toBe(404);
    expect((await agents.otherClient.request('DELETE', `${PATH}?client_id=1&id=${harbourEvent.id}`)).statusCode).toBe(
      403,
    );
    expect((await agents.otherClient.request('DELETE', `${PATH}?client_id=2&id=${harbourEvent.id}`)).statusCode).toBe(
      404,
    );
    const { rows } = await db.pool.query('SELECT title FROM mall_events WHERE id = $1', [harbourEvent.id]);
    expect(rows).toEqual([{ title: 'Harbour only' }]);
  });
});
