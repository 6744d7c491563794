import type { Queryable } from '../db/pool.js';

/**
 * Replaces an account's password hash with the same password hashed at the current cost (sign-in, after the
 * password verified). Not a password change: sessions, links and the password's age stay; and only while the hash
 * is still the one verified, so a password changed meanwhile is never overwritten.
 */
export async function upgradePasswordHash(
  db: Queryable,
  userId: number,
  verifiedHash: string,
  newHash: string,
): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2', [
    userId,
    verifiedHash,
    newHash,
  ]);
  return rowCount === 1;
}
