import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, type TestDatabase } from './helpers.js';

let db: TestDatabase;
let app: FastifyInstance;
const agents: Record<keyof typeof WORLD.users, Agent> = {} as never;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  app = await createTestApp(db.pool);
  for (const [key, email] of Object.entries(WORLD.users) as [keyof typeof WORLD.users, string][]) {
    agents[key] = new Agent(app);
    if (!['disabled', 'mfa', 'expired'].includes(key))
      expect((await agents[key].login(email, PASSWORD)).statusCode).toBe(200);
  }
});
afterAll(async () => {
  await app.close();
  await db.drop();
});

const names = (response: { json: () => unknown }) => (response.json() as { name: string }[]).map((row) => row.name);

describe('lookup calls without a session', () => {
  it.each(['/clients', '/outlets?client_id=1', '/malls?client_id=1'])('%s answers 401', async (url) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });
});

describe('GET /clients', () => {
  it('lists every client for the super admin, sorted case-insensitively', async () => {
    const response = await agents.admin.get('/clients');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { id: 2, name: 'apex retail', reporting_currency: 'SGD' },
      { id: 1, name: 'Zenith Malls', reporting_currency: 'SGD' },
    ]);
  });

  it('lists only the operator’s own client', async () => {
    expect((await agents.operator1.get('/clients')).json()).toEqual([
      { id: 1, name: 'Zenith Malls', reporting_currency: 'SGD' },
    ]);
    expect((await agents.operator2.get('/clients')).json()).toEqual([
      { id: 2, name: 'apex retail', reporting_currency: 'SGD' },
    ]);
  });

  it('refuses a user without the /clients::Read permission', async () => {
    const response = await agents.noLookup.get('/clients');
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('You do not have permission to do this.');
  });
});

describe('GET /outlets and /malls', () => {
  it('returns the outlets and malls of the client, sorted by name', async () => {
    const outlets = await agents.operator1.get('/outlets?client_id=1');
    expect(outlets.statusCode).toBe(200);
    expect(outlets.json()).toEqual([
      { id: 2, name: 'Boutique Duo', type: 2, currency: 'SGD', mall_id: 1, outlet_code: 'B-02' },
      { id: 1, name: 'Cafe Uno', type: 1, currency: 'SGD', mall_id: 1, outlet_code: 'C-01' },
      { id: 3, name: 'kiosk tres', type: 2, currency: 'USD', mall_id: 2, outlet_code: 'K-03' },
    ]);
    const malls = await agents.operator1.get('/malls?client_id=1');
    expect(malls.json()).toEqual([
      { id: 1, name: 'Central Mall', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
      { id: 2, name: 'Harbour Mall', currency: 'USD', time_zone: 'America/New_York', country: 'SG' },
    ]);
  });

  it('never shows client 1 to the operator of client 2', async () => {
    for (const url of ['/outlets?client_id=1', '/malls?client_id=1']) {
      const response = await agents.operator2.get(url);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        statusCode: 403,
        error: 'Forbidden',
        message: 'You do not have access to this data.',
      });
    }
    expect(names(await agents.operator2.get('/outlets?client_id=2'))).toEqual(['Apex Shop']);
  });

  it('limits a tenant to their outlet and its mall', async () => {
    expect(names(await agents.tenant.get('/outlets?client_id=1'))).toEqual(['Boutique Duo']);
    expect(names(await agents.tenant.get('/malls?client_id=1'))).toEqual(['Central Mall']);
  });

  it('lets the super admin see any client', async () => {
    expect(names(await agents.admin.get('/outlets?client_id=2'))).toEqual(['Apex Shop']);
  });

  it.each([
    ['/outlets', 'client_id'],
    ['/outlets?client_id=abc', 'client_id'],
    ['/outlets?client_id=0', 'client_id'],
    ['/malls?client_id=1.5', 'client_id'],
  ])('%s answers 400 naming %s', async (url, field) => {
    const response = await agents.operator1.get(url);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(response.json().message).toContain(field);
  });
});
