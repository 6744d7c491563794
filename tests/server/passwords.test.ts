import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_PASSWORD_HASH_COST,
  dummyPasswordHash,
  hashPassword,
  needsRehash,
  setPasswordHashCost,
  verifyPassword,
} from '../../server/auth/passwords.js';
import { loadConfig } from '../../server/config.js';
import { PASSWORD, seededApp, WORLD } from './fixtures.js';
import { Agent, defined, TEST_PASSWORD_HASH_COST } from './helpers.js';

/** PASSWORD as the code before issue 29 hashed it: scrypt N=2^14, r=8, p=1 (salt 0123…cdef twice). */
const LEGACY_HASH =
  'scrypt$16384$8$1$ASNFZ4mrze8BI0VniavN7w==$flEVZjtk7nWEzlvNkBJcrFAiVhB5OnBgWjKkZT/XFehfLgwI9e3rS/3Lk05OkgNZe6GjRKQ45dCCoq5PSBfWdw==';
const OWASP_PREFIX = 'scrypt$131072$8$1$';

afterEach(() => setPasswordHashCost(TEST_PASSWORD_HASH_COST));

describe('password hashes', () => {
  it('are made at N=2^17, r=8, p=1 by default (OWASP), with the parameters in the stored value', async () => {
    expect(DEFAULT_PASSWORD_HASH_COST).toBe(17);
    expect(loadConfig({}).passwordHashCost).toBe(17);
    const hash = await hashPassword(PASSWORD, DEFAULT_PASSWORD_HASH_COST);
    expect(hash.startsWith(OWASP_PREFIX)).toBe(true);
    expect(await verifyPassword(PASSWORD, hash)).toBe(true);
    expect(await verifyPassword(`${PASSWORD}x`, hash)).toBe(false);
    setPasswordHashCost(DEFAULT_PASSWORD_HASH_COST);
    expect(needsRehash(hash)).toBe(false);
    expect(dummyPasswordHash().startsWith(OWASP_PREFIX)).toBe(true);
  });

  it('made by the old parameters still verify, and are due to be made again', async () => {
    expect(await verifyPassword(PASSWORD, LEGACY_HASH)).toBe(true);
    expect(await verifyPassword('another-password-1', LEGACY_HASH)).toBe(false);
    setPasswordHashCost(DEFAULT_PASSWORD_HASH_COST);
    expect(needsRehash(LEGACY_HASH)).toBe(true);
  });

  it('verify nothing when malformed or beyond what the server makes, and are never due to be made again', async () => {
    for (const stored of [
      null,
      '',
      'bcrypt$2b$10$abc',
      'scrypt$16385$8$1$AAAA$AAAA',
      `scrypt$${2 ** 24}$8$1$AAAA$AAAA`,
      'scrypt$16384$8$1$AAAA',
      'scrypt$16384$0$1$AAAA$AAAA',
    ]) {
      expect(await verifyPassword(PASSWORD, stored)).toBe(false);
      expect(needsRehash(stored)).toBe(false);
    }
  });

  it('take a cost from PASSWORD_HASH_COST within 10 to 18', () => {
    expect(loadConfig({ PASSWORD_HASH_COST: '14' }).passwordHashCost).toBe(14);
    expect(() => loadConfig({ PASSWORD_HASH_COST: '9' })).toThrow(/PASSWORD_HASH_COST/);
    expect(() => loadConfig({ PASSWORD_HASH_COST: '19' })).toThrow(/PASSWORD_HASH_COST/);
    expect(() => setPasswordHashCost(20)).toThrow(/password hash cost/);
  });
});

describe('signing in with a hash of the old parameters', () => {
  const world = seededApp();

  const storedOf = async (email: string) => {
    const { rows } = await world.db.pool.query<{ password_hash: string; password_changed_at: Date }>(
      'SELECT password_hash, password_changed_at FROM users WHERE email = $1',
      [email],
    );
    return defined(rows[0], email);
  };

  it('rehashes the password at the current cost, keeping the sessions and the password age', async () => {
    const email = WORLD.users.operator1;
    await world.db.pool.query('UPDATE users SET password_hash = $2 WHERE email = $1', [email, LEGACY_HASH]);
    const before = await storedOf(email);
    setPasswordHashCost(DEFAULT_PASSWORD_HASH_COST);

    // A wrong password changes nothing.
    expect((await new Agent(world.app).login(email, 'wrong-password-1')).statusCode).toBe(401);
    expect((await storedOf(email)).password_hash).toBe(LEGACY_HASH);

    const first = new Agent(world.app);
    expect((await first.login(email, PASSWORD)).statusCode).toBe(200);
    const after = await storedOf(email);
    expect(after.password_hash.startsWith(OWASP_PREFIX)).toBe(true);
    expect(after.password_changed_at).toEqual(before.password_changed_at);
    expect(await verifyPassword(PASSWORD, after.password_hash)).toBe(true);

    // Not a password change: the session just opened goes on, and the new hash opens the next one.
    expect((await first.get('/api/credential')).statusCode).toBe(200);
    expect((await new Agent(world.app).login(email, PASSWORD)).statusCode).toBe(200);
    expect((await storedOf(email)).password_hash).toBe(after.password_hash);
  });

  it('keeps a hash of the current cost as it is', async () => {
    const email = WORLD.users.operator2;
    const before = await storedOf(email);
    expect(before.password_hash.startsWith(`scrypt$${2 ** TEST_PASSWORD_HASH_COST}$8$1$`)).toBe(true);
    expect((await new Agent(world.app).login(email, PASSWORD)).statusCode).toBe(200);
    expect((await storedOf(email)).password_hash).toBe(before.password_hash);
  });
});
