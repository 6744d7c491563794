import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { listOperations } from '../../server/openapi.js';
import { NOT_IMPLEMENTED_OPERATIONS } from '../../server/routes/notImplemented.js';
import { createTestDatabase, type TestDatabase } from './helpers.js';

let db: TestDatabase;
let app: FastifyInstance;
let staticDir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  staticDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mall-static-'));
  await fs.writeFile(
    path.join(staticDir, 'index.html'),
    '<!doctype html><title>Mall Analytics</title><div id="root"></div>',
  );
  await fs.writeFile(path.join(staticDir, 'app.js'), 'console.log(1)');
  app = await buildApp({ pool: db.pool, config: { ...loadConfig({}), staticDir } });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.drop();
  await fs.rm(staticDir, { recursive: true, force: true });
});

describe('the server', () => {
  it('answers /healthz', async () => {
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers an unknown API path with a JSON 404 in the error schema', async () => {
    for (const url of ['/api/nope', '/outlets/nope', '/api/mall_report/nope?x=1']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: `No such API route: GET ${url.split('?')[0]}`,
      });
    }
  });

  it('serves the app for browser routes (history fallback) and its files', async () => {
    for (const url of ['/', '/login', '/shopper-connect/mall-home?mall_ids=1', '/tenant-connect/sales-review']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<div id="root">');
    }
    const asset = await app.inject({ method: 'GET', url: '/app.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(1)');
  });

  it('serves the contract as a browsable API reference', async () => {
    const page = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger');
    const json = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(json.statusCode).toBe(200);
    expect(json.json().info.title).toBe('Mall Analytics Dashboard API');
  });

  it('registers a route for every operation of openapi.yaml, and answers 501 only for the listed unbuilt ones', async () => {
    const operations = listOperations();
    expect(operations.length).toBeGreaterThan(60);
    for (const operation of operations) {
      const url = operation.path.replace(/\{(\w+)\}/g, ':$1');
      expect(app.hasRoute({ method: operation.method, url }), `${operation.method} ${operation.path}`).toBe(true);
    }
    // Signed out, a built operation is refused by the access gate (or answers, when public); never 501.
    const built = operations.filter((operation) => !NOT_IMPLEMENTED_OPERATIONS.includes(operation.operationId));
    expect(built.length).toBeGreaterThan(30);
    for (const operation of built) {
      if (operation.method !== 'GET') continue;
      const url = operation.path.replace(/\{(\w+)\}/g, '1');
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, `${operation.method} ${operation.path}`).not.toBe(501);
    }
  });
});
