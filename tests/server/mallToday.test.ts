import { describe, expect, it } from 'vitest';
import { latestMallToday } from '../../server/repositories/users.js';
import { PASSWORD, seededApp, WORLD } from './fixtures.js';
import { Agent } from './helpers.js';

/*
 * The header's today is the malls', not the browser's: the latest calendar day among the zones of the malls of
 * the user's clients (Zenith: Singapore UTC+8 and New York UTC-5; apex: Jakarta UTC+7), at fixed instants either
 * side of midnight in each zone.
 */

const world = seededApp();

const at = (iso: string) => new Date(iso);

describe('the malls’ today', () => {
  it('turns at midnight in the first of the malls’ zones to reach it (Singapore for Zenith)', async () => {
    const zenith = [WORLD.clients.zenith];
    // 23:59:59 in Singapore, 10:59:59 in New York.
    expect(await latestMallToday(world.db.pool, zenith, at('2026-11-30T15:59:59Z'))).toBe('2026-11-30');
    // Midnight in Singapore: its today is the 1st while New York is still on the 30th.
    expect(await latestMallToday(world.db.pool, zenith, at('2026-11-30T16:00:00Z'))).toBe('2026-12-01');
    // Just before and at midnight in New York: the latest is still Singapore's.
    expect(await latestMallToday(world.db.pool, zenith, at('2026-12-01T04:59:59Z'))).toBe('2026-12-01');
    expect(await latestMallToday(world.db.pool, zenith, at('2026-12-01T05:00:00Z'))).toBe('2026-12-01');
    // Midnight in Singapore again.
    expect(await latestMallToday(world.db.pool, zenith, at('2026-12-01T15:59:59Z'))).toBe('2026-12-01');
    expect(await latestMallToday(world.db.pool, zenith, at('2026-12-01T16:00:00Z'))).toBe('2026-12-02');
  });

  it('is Jakarta’s for a client whose only mall is there', async () => {
    const apex = [WORLD.clients.apex];
    expect(await latestMallToday(world.db.pool, apex, at('2026-11-30T16:59:59Z'))).toBe('2026-11-30');
    expect(await latestMallToday(world.db.pool, apex, at('2026-11-30T17:00:00Z'))).toBe('2026-12-01');
    // A year's end and a leap day in the mall's zone, not UTC's.
    expect(await latestMallToday(world.db.pool, apex, at('2026-12-31T17:00:00Z'))).toBe('2027-01-01');
    expect(await latestMallToday(world.db.pool, apex, at('2028-02-28T17:00:00Z'))).toBe('2028-02-29');
  });

  it('is the latest across every client the user sees, and none without a mall', async () => {
    const both = [WORLD.clients.zenith, WORLD.clients.apex];
    // 16:30 UTC: Singapore on the 1st, Jakarta and New York on the 30th.
    expect(await latestMallToday(world.db.pool, both, at('2026-11-30T16:30:00Z'))).toBe('2026-12-01');
    expect(await latestMallToday(world.db.pool, [], at('2026-11-30T16:30:00Z'))).toBeUndefined();
    expect(await latestMallToday(world.db.pool, [999], at('2026-11-30T16:30:00Z'))).toBeUndefined();
  });

  it('comes with the user info, at sign-in and from /api/credential', async () => {
    const agent = new Agent(world.app);
    const before = await latestMallToday(world.db.pool, [WORLD.clients.apex], new Date());
    const login = await agent.login(WORLD.users.operator2, PASSWORD);
    const credential = await agent.get('/api/credential');
    const after = await latestMallToday(world.db.pool, [WORLD.clients.apex], new Date());
    expect(credential.statusCode).toBe(200);
    const today = credential.json().user.today;
    expect([before, after]).toContain(today);
    expect([before, after]).toContain(login.json().user.today);
  });
});
