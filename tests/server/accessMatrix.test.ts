import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperations, type Operation, permissionFor } from '../../server/openapi.js';
import { PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, type TestDatabase } from './helpers.js';

/**
 * Every operation of openapi.yaml called as anonymous, as a user without the permission, as a user of the other
 * client, as a tenant limited to one outlet, as a department user and as the super admin.
 */
let db: TestDatabase;
let app: FastifyInstance;
const agents = {} as Record<'admin' | 'noLookup' | 'otherClient' | 'tenant' | 'department' | 'partner', Agent>;
const operations = listOperations();
const DEPARTMENT_PERMISSIONS = [
  '/clients::Read',
  '/malls::Read',
  '/outlets::Read',
  '/api/mall_report/breakeven_target::Read',
];

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  // A role holding every path::Action permission, for the users whose ids (not permissions) must stop them.
  await db.pool.query(`INSERT INTO roles (name) VALUES ('full access'), ('leasing')`);
  await db.pool.query(
    `INSERT INTO role_api_permissions (role_id, permission) SELECT (SELECT id FROM roles WHERE name = 'full access'), unnest($1::text[])`,
    [operations.filter((operation) => operation.access === 'permission').map(permissionFor)],
  );
  await db.pool.query(
    `INSERT INTO role_api_permissions (role_id, permission) SELECT (SELECT id FROM roles WHERE name = 'leasing'), unnest($1::text[])`,
    [DEPARTMENT_PERMISSIONS],
  );
  await db.pool.query(
    `UPDATE user_roles SET role_id = (SELECT id FROM roles WHERE name = 'full access')
     WHERE user_id IN (SELECT id FROM users WHERE email = ANY($1))`,
    [[WORLD.users.operator2, WORLD.users.tenant, WORLD.users.partner]],
  );
  await db.pool.query(
    `UPDATE user_roles SET role_id = (SELECT id FROM roles WHERE name = 'leasing')
     WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
    [WORLD.users.operator1],
  );
  app = await createTestApp(db.pool);
  const logins: [keyof typeof agents, string][] = [
    ['admin', WORLD.users.admin],
    ['noLookup', WORLD.users.noLookup],
    ['otherClient', WORLD.users.operator2],
    ['tenant', WORLD.users.tenant],
    ['department', WORLD.users.operator1],
    ['partner', WORLD.users.partner],
  ];
  for (const [key, email] of logins) {
    agents[key] = new Agent(app);
    expect((await agents[key].login(email, PASSWORD)).statusCode).toBe(200);
  }
});
afterAll(async () => {
  await app.close();
  await db.drop();
});

/** Calls an operation with the given ids at the places its x-scope names. */
function call(agent: Agent, operation: Operation, ids: { client: number; outlet: number; mall: number }) {
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [kind, location] of Object.entries(operation.scope)) {
    const [source, name] = location.split('.') as ['query' | 'body', string];
    const value = kind === 'client' ? ids.client : kind.startsWith('outlet') ? ids.outlet : ids.mall;
    if (source === 'query') query.append(name, String(value));
    else body[name] = kind === 'malls' ? [value] : value;
  }
  const url = `${operation.path.replace(/\{\w+\}/g, '1')}${query.size ? `?${query}` : ''}`;
  return agent.request(operation.method, url, operation.method === 'GET' ? {} : { body });
}

const own = { client: 1, outlet: WORLD.outlets.boutique, mall: WORLD.malls.central };
const label = (operation: Operation) => `${operation.method} ${operation.path}`;
const byAccess = (access: Operation['access']) => operations.filter((operation) => operation.access === access);
const scoped = operations.filter((operation) => Object.keys(operation.scope).length > 0);

describe('anonymous', () => {
  it.each(
    operations
      .filter((operation) => operation.access !== 'public')
      .map((operation) => [label(operation), operation] as const),
  )('%s answers 401', async (_, operation) => {
    const response = await call(new Agent(app), operation, own);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });
});

describe('a user without the permission', () => {
  it.each(byAccess('permission').map((operation) => [label(operation), operation] as const))(
    '%s answers 403',
    async (_, operation) => {
      const response = await call(agents.noLookup, operation, own);
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('You do not have permission to do this.');
    },
  );
});

describe('a user of the other client', () => {
  it.each(scoped.map((operation) => [label(operation), operation] as const))(
    '%s with client 1 ids answers 403',
    async (_, operation) => {
      const response = await call(agents.otherClient, operation, {
        client: 1,
        outlet: WORLD.outlets.cafe,
        mall: WORLD.malls.central,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('You do not have access to this data.');
    },
  );

  it.each(scoped.map((operation) => [label(operation), operation] as const))(
    '%s with its own ids passes the gate',
    async (_, operation) => {
      const response = await call(agents.otherClient, operation, {
        client: 2,
        outlet: WORLD.outlets.apexShop,
        mall: WORLD.malls.apexPlaza,
      });
      expect([401, 403]).not.toContain(response.statusCode);
    },
  );
});

describe('a tenant limited to one outlet', () => {
  const outletScoped = scoped.filter((operation) => operation.scope.outlet || operation.scope.outlets);
  it.each(outletScoped.map((operation) => [label(operation), operation] as const))(
    '%s for another outlet answers 403',
    async (_, operation) => {
      const response = await call(agents.tenant, operation, { ...own, outlet: WORLD.outlets.cafe });
      expect(response.statusCode).toBe(403);
    },
  );
  it.each(outletScoped.map((operation) => [label(operation), operation] as const))(
    '%s for its outlet passes the gate',
    async (_, operation) => {
      const response = await call(agents.tenant, operation, own);
      expect([401, 403]).not.toContain(response.statusCode);
    },
  );
});

describe('a department user', () => {
  it.each(byAccess('permission').map((operation) => [label(operation), operation] as const))(
    '%s follows its permission list',
    async (_, operation) => {
      const response = await call(agents.department, operation, own);
      if (DEPARTMENT_PERMISSIONS.includes(permissionFor(operation)))
        expect([401, 403]).not.toContain(response.statusCode);
      else expect(response.statusCode).toBe(403);
    },
  );
});

describe('the partner e-mail domain', () => {
  it.each(
    operations.filter((operation) => operation.receipts).map((operation) => [label(operation), operation] as const),
  )('%s answers 403', async (_, operation) => {
    expect((await call(agents.partner, operation, own)).statusCode).toBe(403);
  });
  it('still reaches the other calls its role allows', async () => {
    const response = await agents.partner.get('/outlets?client_id=1');
    expect(response.statusCode).toBe(200);
  });
});

describe('the super admin', () => {
  it.each(
    operations
      .filter((operation) => operation.access !== 'public')
      .map((operation) => [label(operation), operation] as const),
  )('%s passes the gate for either client', async (_, operation) => {
    for (const ids of [own, { client: 2, outlet: WORLD.outlets.apexShop, mall: WORLD.malls.apexPlaza }]) {
      // Logging out ends the session the other calls use: it gets a session of its own.
      const agent = operation.operationId === 'logout' ? new Agent(app) : agents.admin;
      if (agent !== agents.admin) await agent.login(WORLD.users.admin, PASSWORD);
      const response = await call(agent, operation, ids);
      expect([401, 403], `${response.statusCode} ${response.body}`).not.toContain(response.statusCode);
    }
  });
});
