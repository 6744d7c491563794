import { spawn } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../server/auth/passwords.js';
import { CREATE_ADMIN_MESSAGES, createAdmin } from '../../server/createAdmin.js';
import { demoRoles } from '../../server/demo/roles.js';
import {
  Agent,
  createTestApp,
  createTestDatabase,
  defined,
  TEST_PASSWORD_HASH_COST,
  type TestDatabase,
} from './helpers.js';

const EMAIL = 'it-lead@mall.example';
const PASSWORD = 'first-admin-password-7';

let db: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  // A real install: every migration applied, no data at all.
  db = await createTestDatabase();
  app = await createTestApp(db.pool);
});
afterAll(async () => {
  await app.close();
  await db.drop();
});

const countOf = async (table: string) =>
  defined((await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]).n;

describe('createAdmin', () => {
  it('refuses a password the policy refuses, or a value that is no e-mail address, and writes nothing', async () => {
    expect(await createAdmin(db.pool, { email: EMAIL, password: 'short1' })).toEqual({
      created: false,
      problem: 'The new password must be at least 10 characters long.',
    });
    expect(await createAdmin(db.pool, { email: EMAIL, password: 'only-letters-here' })).toEqual({
      created: false,
      problem: 'The new password must contain at least one letter and one digit.',
    });
    expect(await createAdmin(db.pool, { email: EMAIL, password: 'it-lead-password-1' })).toEqual({
      created: false,
      problem: 'The new password must not contain your e-mail address.',
    });
    expect(await createAdmin(db.pool, { email: 'it-lead', password: PASSWORD })).toEqual({
      created: false,
      problem: CREATE_ADMIN_MESSAGES.notAnEmail('it-lead'),
    });
    expect(await countOf('users')).toBe(0);
    expect(await countOf('roles')).toBe(0);
  });

  it("creates the first super admin with the product's roles, who signs in and sees every route", async () => {
    const outcome = await createAdmin(db.pool, { email: ` ${EMAIL.toUpperCase()} `, password: PASSWORD });
    expect(outcome).toMatchObject({ created: true, email: EMAIL });
    expect(outcome.created && outcome.rolesAdded).toEqual(demoRoles().map((role) => role.name));

    const { rows } = await db.pool.query<{ password_hash: string; display_name: string; default_client_id: null }>(
      'SELECT password_hash, display_name, default_client_id FROM users WHERE email = $1',
      [EMAIL],
    );
    const user = defined(rows[0], 'the admin');
    expect(user.password_hash.startsWith(`scrypt$${2 ** TEST_PASSWORD_HASH_COST}$8$1$`)).toBe(true);
    expect(await verifyPassword(PASSWORD, user.password_hash)).toBe(true);
    expect(user.display_name).toBe('it-lead');

    const agent = new Agent(app);
    const login = await agent.login(EMAIL, PASSWORD);
    expect(login.statusCode).toBe(200);
    expect(login.json().user).toMatchObject({ username: EMAIL, roles: ['super admin'], permissionsList: ['*::*'] });
  });

  it('refuses an e-mail that has an account, and adds no role twice', async () => {
    const roles = await countOf('roles');
    expect(await createAdmin(db.pool, { email: EMAIL, password: 'another-password-2' })).toEqual({
      created: false,
      problem: CREATE_ADMIN_MESSAGES.accountExists,
    });
    const second = await createAdmin(db.pool, { email: 'deputy@mall.example', password: PASSWORD });
    expect(second).toMatchObject({ created: true, rolesAdded: [] });
    expect(await countOf('roles')).toBe(roles);
    expect(await countOf('users')).toBe(2);
  });
});

/** `npm run admin -- <args>` with `input` on its standard input: exit code and what it wrote. */
function runAdminCommand(
  args: string[],
  input: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/admin.ts', ...args], {
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        HOST: '127.0.0.1',
        PASSWORD_HASH_COST: String(TEST_PASSWORD_HASH_COST),
        LOG_LEVEL: 'error',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

describe('npm run admin -- create-admin', () => {
  it('reads the password from standard input and creates the super admin', async () => {
    const result = await runAdminCommand(['create-admin', '--email', 'ops@mall.example'], `${PASSWORD}\n`);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Created the super admin ops@mall.example');
    expect((await new Agent(app).login('ops@mall.example', PASSWORD)).statusCode).toBe(200);
  }, 60_000);

  it('says why in one line and exits 1 when the password is refused', async () => {
    const result = await runAdminCommand(['create-admin', '--email', 'weak@mall.example'], 'weak\n');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('The new password must be at least 10 characters long.\n');
    expect(await countOf('users')).toBe(3);
  }, 60_000);
});
