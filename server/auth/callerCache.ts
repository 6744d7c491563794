import type { Queryable } from '../db/pool.js';
import type { SessionRow } from '../repositories/sessions.js';
import { findUserById, loadUserGrants, type UserGrants, type UserRow } from '../repositories/users.js';

/**
 * Sessions and their users' grants, kept in memory by session (the SHA-256 of its token), so that a request asks
 * the database only for its own work. The app forgets an entry whenever it changes what the entry holds: a session
 * ended or rotated (logout, sign-in), its one-time code verified, its single sign-on finished, its user's password
 * set; code that changes a user's roles, clients or outlets calls `forgetUser`. Whatever changes them, on any
 * server instance or at the database, notifies every instance when it commits (migration 030; the listener of
 * cacheInvalidation.ts calls the `forget` functions here). CALLER_CACHE_TTL_MS stays the bound for what a lost
 * listener missed.
 */
export const CALLER_CACHE_TTL_MS = 10_000;
const MAX_ENTRIES = 20_000;

export interface CachedUser {
  user: UserRow;
  grants: UserGrants;
}

interface Entry {
  session: SessionRow;
  /** undefined: not loaded yet; null: no such user, or disabled. */
  user?: CachedUser | null;
  cachedAt: number;
}

const entries = new Map<string, Entry>();
/**
 * Counts the forgetting. A load that started before a forget may have read the rows as they were before the change
 * that caused it: such a load answers its request but is not remembered.
 */
let forgets = 0;

function liveEntry(tokenHash: string): Entry | undefined {
  const entry = entries.get(tokenHash);
  if (!entry) return undefined;
  const now = Date.now();
  if (now - entry.cachedAt > CALLER_CACHE_TTL_MS || entry.session.expiresAt.getTime() <= now) {
    entries.delete(tokenHash);
    return undefined;
  }
  return entry;
}

/** The live session of a token hash, from memory or else from `load` (remembered when found). */
export async function cachedSession(
  tokenHash: string,
  load: () => Promise<SessionRow | undefined>,
): Promise<SessionRow | undefined> {
  const entry = liveEntry(tokenHash);
  if (entry) return entry.session;
  const before = forgets;
  const session = await load();
  if (session && session.expiresAt.getTime() > Date.now() && forgets === before) {
    if (entries.size >= MAX_ENTRIES) {
      const oldest = entries.keys().next();
      if (!oldest.done) entries.delete(oldest.value);
    }
    entries.set(tokenHash, { session, cachedAt: Date.now() });
  }
  return session;
}

/** The signed-in user of a session with their grants (null when the user is gone or disabled). */
export async function cachedUserOf(db: Queryable, session: SessionRow): Promise<CachedUser | null> {
  if (session.userId === null) return null;
  const entry = liveEntry(session.tokenHash);
  if (entry?.user !== undefined && entry.session === session) return entry.user;
  const before = forgets;
  const user = await findUserById(db, session.userId);
  const loaded = user && !user.disabled ? { user, grants: await loadUserGrants(db, user.id) } : null;
  // Only for the entry of this very session row, so that a forgotten or replaced entry is not filled again.
  if (entry && entry.session === session && forgets === before) entry.user = loaded;
  return loaded;
}

export function forgetSession(tokenHash: string): void {
  forgets += 1;
  entries.delete(tokenHash);
}

export function forgetUser(userId: number): void {
  forgets += 1;
  for (const [tokenHash, entry] of entries) {
    if (entry.session.userId === userId) entries.delete(tokenHash);
  }
}

/**
 * Forgets the users whose e-mail is of `domain` (its receipts rule changed), and the sessions whose user is not
 * loaded yet, whose e-mail is not known.
 */
export function forgetDomain(domain: string): void {
  forgets += 1;
  const suffix = `@${domain.toLowerCase()}`;
  for (const [tokenHash, entry] of entries) {
    if (entry.user === undefined || entry.user?.user.email.endsWith(suffix)) entries.delete(tokenHash);
  }
}

/** Forgets the super admins (who see every client: a client was made or removed) and the users not loaded yet. */
export function forgetSuperAdmins(): void {
  forgets += 1;
  for (const [tokenHash, entry] of entries) {
    if (entry.user === undefined || entry.user?.grants.isSuperAdmin) entries.delete(tokenHash);
  }
}

export function forgetAllCallers(): void {
  forgets += 1;
  entries.clear();
}
