import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { createPool, type Pool } from '../../server/db/pool.js';
import { DEMO_ACCOUNT_SPECS, DEMO_PASSWORD } from '../../server/demo/accounts.js';
import { CLIENTS } from '../../server/demo/catalog.js';
import { demoAccountsRefusal } from '../../server/demo/demoAccountsGuard.js';
import { fillDemoDataOnce } from '../../server/demo/fillDemoData.js';
import { DOWNLOAD_SECRET_FILE, keptSecret } from '../../server/keptSecret.js';
import { createTestDatabase, defined, TEST_PASSWORD_HASH_COST, type TestDatabase } from './helpers.js';

const SECRET = 'a-download-secret-of-32-characters-or-more';
const EXPOSED = { HOST: '0.0.0.0', DOWNLOAD_SECRET: SECRET } as const;
/** The demo accounts that can sign in: neither the invited one (no password yet) nor the deactivated one. */
const ACTIVE_DEMO_ACCOUNTS = DEMO_ACCOUNT_SPECS.filter((account) => !account.invited && !account.disabled);

describe('the demo and the settings of a real install', () => {
  it('runs the demo and its stand-ins only for a server this machine alone reaches, unless DEMO_DATA says', () => {
    const only = (env: NodeJS.ProcessEnv) => {
      const { demoData, ssoDemo, xeroDemo, exposedAt } = loadConfig(env);
      return { demoData, ssoDemo, xeroDemo, exposedAt };
    };
    expect(only({})).toEqual({ demoData: true, ssoDemo: true, xeroDemo: true, exposedAt: undefined });
    expect(only({ PUBLIC_URL: 'http://localhost:3000' })).toMatchObject({ demoData: true, exposedAt: undefined });
    expect(only(EXPOSED)).toEqual({ demoData: false, ssoDemo: false, xeroDemo: false, exposedAt: 'HOST 0.0.0.0' });
    // Behind a proxy on this machine: reached at PUBLIC_URL.
    expect(only({ PUBLIC_URL: 'https://mall.example.com' })).toEqual({
      demoData: false,
      ssoDemo: false,
      xeroDemo: false,
      exposedAt: 'PUBLIC_URL https://mall.example.com',
    });
    expect(only({ ...EXPOSED, DEMO_DATA: 'true' })).toMatchObject({ demoData: true, ssoDemo: true, xeroDemo: true });
    expect(only({ DEMO_DATA: 'false' })).toMatchObject({ demoData: false, ssoDemo: false, xeroDemo: false });
    expect(only({ SSO_DEMO: 'false' })).toMatchObject({ demoData: true, ssoDemo: false, xeroDemo: true });
    expect(() => loadConfig({ DEMO_DATA: 'yes' })).toThrow(/DEMO_DATA must be true or false/);
    expect(loadConfig({}).allowDemoAccounts).toBe(false);
    expect(loadConfig({ ALLOW_DEMO_ACCOUNTS: 'true' }).allowDemoAccounts).toBe(true);
  });

  it('requires a DOWNLOAD_SECRET of 32 characters or more beyond loopback', () => {
    expect(() => loadConfig({ HOST: '0.0.0.0' })).toThrow(/DOWNLOAD_SECRET is required/);
    expect(() => loadConfig({ HOST: '0.0.0.0', DOWNLOAD_SECRET: 'short' })).toThrow(/DOWNLOAD_SECRET is required/);
    expect(loadConfig(EXPOSED)).toMatchObject({ downloadSecret: SECRET, downloadSecretGiven: true });
    const local = loadConfig({});
    expect(local.downloadSecretGiven).toBe(false);
    expect(local.downloadSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('keeps the loopback download secret in DATA_DIR, the same after a restart', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mall-secret-'));
    try {
      const first = keptSecret(dataDir, DOWNLOAD_SECRET_FILE);
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(keptSecret(dataDir, DOWNLOAD_SECRET_FILE)).toBe(first);
      const stat = await fs.stat(path.join(dataDir, DOWNLOAD_SECRET_FILE));
      expect(stat.mode & 0o777).toBe(0o600);
      expect(await fs.readdir(dataDir)).toEqual([DOWNLOAD_SECRET_FILE]);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('servers starting together on an empty database', () => {
  let db: TestDatabase;
  let empty: TestDatabase;
  const instances: Pool[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    empty = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(instances.map((pool) => pool.end()));
    await db?.drop();
    await empty?.drop();
  });

  const count = async (table: string) =>
    defined((await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]).n;

  it('fill the demo data once: one fills, the others wait and find it filled', async () => {
    // Three servers: a pool each.
    for (let i = 0; i < 3; i++) instances.push(createPool(db.url, 3));
    const results = await Promise.all(
      instances.map((pool) => fillDemoDataOnce(pool, { seed: 7, receipts: 300, endDate: '2026-03-15' })),
    );
    expect(results.filter((result) => result !== undefined)).toHaveLength(1);
    expect(await count('clients')).toBe(CLIENTS.length);
    expect(await count('users')).toBe(DEMO_ACCOUNT_SPECS.length);
    // A later start finds it filled.
    expect(await fillDemoDataOnce(db.pool, { seed: 7, receipts: 300 })).toBeUndefined();
  }, 120_000);

  it('a server reached from beyond this machine refuses the demo accounts, saying why', async () => {
    const message = await demoAccountsRefusal(db.pool, loadConfig(EXPOSED));
    expect(message).toBe(
      `Refusing to start: the database holds demo accounts (admin@demo.mall and ${ACTIVE_DEMO_ACCOUNTS.length - 1} more) ` +
        `whose password '${DEMO_PASSWORD}' is published, and the server is reached from beyond this machine (HOST 0.0.0.0). ` +
        'Deactivate them or use another database, or set ALLOW_DEMO_ACCOUNTS=true to run the demo there.',
    );
    expect(await demoAccountsRefusal(db.pool, loadConfig({ PUBLIC_URL: 'https://mall.example.com' }))).toContain(
      '(PUBLIC_URL https://mall.example.com)',
    );
    expect(await demoAccountsRefusal(db.pool, loadConfig({ ...EXPOSED, ALLOW_DEMO_ACCOUNTS: 'true' }))).toBeUndefined();
    expect(await demoAccountsRefusal(db.pool, loadConfig({}))).toBeUndefined();
  });

  it('starts once the demo accounts are deactivated', async () => {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('UPDATE users SET disabled = true WHERE email = ANY($1::text[])', [
        DEMO_ACCOUNT_SPECS.map((account) => account.email),
      ]);
      expect(await demoAccountsRefusal(client, loadConfig(EXPOSED))).toBeUndefined();
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('refuses DEMO_DATA=true on an empty database beyond loopback without ALLOW_DEMO_ACCOUNTS', async () => {
    expect(await demoAccountsRefusal(empty.pool, loadConfig({ ...EXPOSED, DEMO_DATA: 'true' }))).toBe(
      `Refusing to start: DEMO_DATA=true would create demo accounts whose password '${DEMO_PASSWORD}' is published, ` +
        'and the server is reached from beyond this machine (HOST 0.0.0.0). Set ALLOW_DEMO_ACCOUNTS=true as well to run the demo there.',
    );
    expect(await demoAccountsRefusal(empty.pool, loadConfig(EXPOSED))).toBeUndefined();
    const allowed = loadConfig({ ...EXPOSED, DEMO_DATA: 'true', ALLOW_DEMO_ACCOUNTS: 'true' });
    expect(await demoAccountsRefusal(empty.pool, allowed)).toBeUndefined();
  });

  it('`tsx server/main.ts` with HOST=0.0.0.0 on that database exits 1 with the reason in one line, listening on nothing', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...EXPOSED,
      DATABASE_URL: db.url,
      PORT: '0',
      STATIC_DIR: '/nonexistent',
      LOG_LEVEL: 'error',
      PASSWORD_HASH_COST: String(TEST_PASSWORD_HASH_COST),
    };
    for (const name of ['ALLOW_DEMO_ACCOUNTS', 'DEMO_DATA', 'PUBLIC_URL', 'XERO_CLIENT_ID', 'SSO_ISSUER'])
      delete env[name];
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += String(chunk);
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('error', reject);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, stderr });
      });
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^Refusing to start: the database holds demo accounts \(admin@demo\.mall and \d+ more\)/,
    );
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  }, 90_000);
});
