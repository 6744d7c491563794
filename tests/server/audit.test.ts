import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, signInAgents, type TestDatabase } from './helpers.js';

/*
 * The audit log of the fixture world:
 *
 *   id  client  who         when (UTC)            action  entity          entity_id
 *   1   1       operator1   2026-03-01 09:00      update  sales_target    2:2026-03
 *   2   1       tenant      2026-03-02 10:00      create  gto_submission  2:2026-02
 *   3   1       operator1   2026-03-03 11:00      update  processing_fee  1:VISA
 *   4   1       (none)      2026-03-04 12:00      login   session         null
 *   5   2       operator2   2026-03-02 10:00      update  sales_target    4:2026-03
 */
let db: TestDatabase;
let app: FastifyInstance;
let agents: Record<'operator' | 'tenant' | 'otherClient', Agent>;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await db.pool.query(`INSERT INTO role_api_permissions (role_id, permission) VALUES (2, '/api/auditLogs::Read')`);
  await db.pool.query(
    `INSERT INTO audit_log (client_id, id, user_id, action, entity, entity_id, detail, created_at)
     SELECT v.client_id, v.id, (SELECT id FROM users WHERE email = v.email), v.action, v.entity, v.entity_id,
       v.detail::jsonb, v.created_at::timestamptz
     FROM (VALUES
       (1, 1, $1, 'update', 'sales_target', '2:2026-03', '{"before": {"target": 1000}, "after": {"target": 1200}}', '2026-03-01T09:00:00Z'),
       (1, 2, $2, 'create', 'gto_submission', '2:2026-02', '{"before": null, "after": {"total": 250}}', '2026-03-02T10:00:00Z'),
       (1, 3, $1, 'update', 'processing_fee', '1:VISA', '{"before": {"fee": 2.5}, "after": {"fee": 1.75}}', '2026-03-03T11:00:00Z'),
       (1, 4, NULL, 'login', 'session', NULL, '{"ip": "10.0.0.1"}', '2026-03-04T12:00:00Z'),
       (2, 5, $3, 'update', 'sales_target', '4:2026-03', '{"before": null, "after": {"target": 5}}', '2026-03-02T10:00:00Z')
     ) AS v(client_id, id, email, action, entity, entity_id, detail, created_at)`,
    [WORLD.users.operator1, WORLD.users.tenant, WORLD.users.operator2],
  );
  app = await createTestApp(db.pool);
  agents = await signInAgents(
    app,
    {
      operator: WORLD.users.operator1,
      tenant: WORLD.users.tenant,
      otherClient: WORLD.users.operator2,
    },
    PASSWORD,
  );
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

async function ids(agent: Agent, query: string): Promise<number[]> {
  const response = await agent.get(`/api/auditLogs?client_id=1${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.map((entry: { id: number }) => entry.id);
}

describe('the audit log', () => {
  it('lists the client’s changes newest first: when, who, what, before and after', async () => {
    const response = await agents.operator.get('/api/auditLogs?client_id=1');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.total).toBe(4);
    expect(body.data.map((entry: { id: number }) => entry.id)).toEqual([4, 3, 2, 1]);
    expect(body.data[1]).toEqual({
      id: 3,
      created_at: '2026-03-03T11:00:00.000Z',
      user_email: WORLD.users.operator1,
      action: 'update',
      entity: 'processing_fee',
      entity_id: '1:VISA',
      detail: { before: { fee: 2.5 }, after: { fee: 1.75 } },
    });
    expect(body.data[0]).toMatchObject({ user_email: null, entity_id: null, detail: { ip: '10.0.0.1' } });
  });

  it('sorts by any column, ties by id, and pages', async () => {
    expect(await ids(agents.operator, '&sortColumn=user_email&orderByMethod=asc')).toEqual([1, 3, 2, 4]);
    expect(await ids(agents.operator, '&sortColumn=entity&orderByMethod=asc')).toEqual([2, 3, 1, 4]);
    expect(await ids(agents.operator, '&sortColumn=created_at&orderByMethod=asc')).toEqual([1, 2, 3, 4]);
    const second = (await agents.operator.get('/api/auditLogs?client_id=1&rowsPerPage=10&page=2')).json();
    expect(second).toEqual({ data: [], total: 4 });
  });

  it('filters by kind of row, by who or which row, and by days', async () => {
    expect(await ids(agents.operator, '&entity=sales_target')).toEqual([1]);
    expect(await ids(agents.operator, '&search=TENANT@')).toEqual([2]);
    expect(await ids(agents.operator, '&search=visa')).toEqual([3]);
    expect(await ids(agents.operator, '&from=2026-03-02&to=2026-03-03')).toEqual([3, 2]);
    expect(await ids(agents.operator, '&search=100%25')).toEqual([]);
  });

  it('refuses days out of order or too many of them, naming the field', async () => {
    const reversed = await agents.operator.get('/api/auditLogs?client_id=1&from=2026-03-03&to=2026-03-02');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toMatch(/^from must not be after to/);
    const long = await agents.operator.get('/api/auditLogs?client_id=1&from=2025-01-01&to=2026-03-02');
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/^to: /);
    const unknown = await agents.operator.get('/api/auditLogs?client_id=1&entity=passwords');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/entity/);
  });

  it('shows a caller limited to some outlets only the changes they made', async () => {
    expect(await ids(agents.tenant, '')).toEqual([2]);
  });

  it('refuses another client’s caller and a caller without a session', async () => {
    expect((await agents.otherClient.get('/api/auditLogs?client_id=1')).statusCode).toBe(403);
    expect((await new Agent(app).get('/api/auditLogs?client_id=1')).statusCode).toBe(401);
    const own = (await agents.otherClient.get('/api/auditLogs?client_id=2')).json();
    expect(own.data.map((entry: { id: number }) => entry.id)).toEqual([5]);
  });
});
