import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { HSTS_HEADER } from '../../server/securityHeaders.js';
import { createTestDatabase, type TestDatabase } from './helpers.js';

let db: TestDatabase;
let staticDir: string;
const apps: FastifyInstance[] = [];

async function appWith(env: NodeJS.ProcessEnv): Promise<FastifyInstance> {
  const app = await buildApp({ pool: db.pool, config: { ...loadConfig(env), staticDir } });
  await app.ready();
  apps.push(app);
  return app;
}

beforeAll(async () => {
  db = await createTestDatabase();
  staticDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mall-static-'));
  await fs.writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>Mall Analytics</title>');
  await fs.writeFile(path.join(staticDir, 'app.js'), 'console.log(1)');
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await db.drop();
  await fs.rm(staticDir, { recursive: true, force: true });
});

function directives(response: LightMyRequestResponse): Map<string, string> {
  const header = String(response.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name = '', ...values] = part.split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
  );
}

function expectSecurityHeaders(response: LightMyRequestResponse) {
  const csp = directives(response);
  expect(csp.get('script-src')).toBe("'self'");
  expect(csp.get('frame-ancestors')).toBe("'none'");
  expect(csp.get('object-src')).toBe("'none'");
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(response.headers['x-frame-options']).toBe('DENY');
}

describe('security headers', () => {
  it('are on the app, its files, API calls, errors and unknown paths; no HSTS over plain HTTP', async () => {
    const app = await appWith({});
    for (const url of ['/', '/login', '/app.js', '/healthz', '/api/getcsrftoken', '/clients', '/api/nope']) {
      const response = await app.inject({ method: 'GET', url });
      expectSecurityHeaders(response);
      expect(response.headers['strict-transport-security'], url).toBeUndefined();
    }
    // Scripts come only from the app's files: never inline, never eval.
    const csp = directives(await app.inject({ method: 'GET', url: '/' }));
    expect(csp.get('script-src')).not.toContain('unsafe');
    expect(csp.get('default-src')).toBe("'self'");
  });

  it('keep the API reference working with its own policy, never framed', async () => {
    const app = await appWith({});
    const page = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    const csp = directives(page);
    expect(csp.get('frame-ancestors')).toBe("'none'");
    // swagger-ui's static policy: its scripts are files of its own, no inline script.
    expect(csp.get('script-src')).toBe("'self'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('add HSTS and Secure cookies when the request came over TLS through a trusted proxy', async () => {
    const app = await appWith({ TRUST_PROXY: '127.0.0.1' });
    const overTls = await app.inject({
      method: 'GET',
      url: '/api/getcsrftoken',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(overTls.headers['strict-transport-security']).toBe(HSTS_HEADER);
    expect(overTls.cookies.find((cookie) => cookie.name === 'sid')?.secure).toBe(true);

    const plain = await app.inject({ method: 'GET', url: '/api/getcsrftoken' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    expect(plain.cookies.find((cookie) => cookie.name === 'sid')?.secure).toBeFalsy();
  });

  it('ignore X-Forwarded-Proto when no proxy is trusted', async () => {
    const app = await appWith({});
    const response = await app.inject({
      method: 'GET',
      url: '/api/getcsrftoken',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(response.cookies.find((cookie) => cookie.name === 'sid')?.secure).toBeFalsy();
  });

  it('keep COOKIE_SECURE forcing the Secure flag over plain HTTP', async () => {
    const app = await appWith({ COOKIE_SECURE: 'true' });
    const response = await app.inject({ method: 'GET', url: '/api/getcsrftoken' });
    expect(response.cookies.find((cookie) => cookie.name === 'sid')?.secure).toBe(true);
  });

  it('refuse a TRUST_PROXY that is neither a switch nor addresses', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({}).trustProxy).toBe(false);
  });
});
