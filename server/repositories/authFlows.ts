import { type Queryable, singleRow } from '../db/pool.js';

// One-time codes: one live code per pending session.

export async function saveOneTimeCode(db: Queryable, sessionHash: string, codeHash: string, ttlSeconds: number) {
  await db.query(
    `INSERT INTO one_time_codes (session_hash, code_hash, attempts, expires_at)
     VALUES ($1, $2, 0, now() + make_interval(secs => $3))
     ON CONFLICT (session_hash) DO UPDATE
       SET code_hash = excluded.code_hash, attempts = 0, expires_at = excluded.expires_at, created_at = now()`,
    [sessionHash, codeHash, ttlSeconds],
  );
}

/** Counts one try against the session's code and returns it while it is live and has tries left. */
export async function takeOneTimeCodeTry(db: Queryable, sessionHash: string, maxAttempts: number) {
  const { rows } = await db.query<{ codeHash: string }>(
    `UPDATE one_time_codes SET attempts = attempts + 1
     WHERE session_hash = $1 AND expires_at > now() AND attempts < $2
     RETURNING code_hash AS "codeHash"`,
    [sessionHash, maxAttempts],
  );
  return rows[0];
}

export async function completeMfa(db: Queryable, sessionHash: string) {
  await db.query('DELETE FROM one_time_codes WHERE session_hash = $1', [sessionHash]);
  await db.query('UPDATE sessions SET mfa_pending = false WHERE token_hash = $1', [sessionHash]);
}

// Validation keys (password reset and account activation), single-use and expiring.

export type KeyPurpose = 'reset' | 'activate';

export async function insertValidationKey(
  db: Queryable,
  key: { keyHash: string; userId: number; purpose: KeyPurpose; ttlSeconds: number },
) {
  await db.query(
    `INSERT INTO validation_keys (key_hash, user_id, purpose, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [key.keyHash, key.userId, key.purpose, key.ttlSeconds],
  );
}

export async function findLiveValidationKey(db: Queryable, keyHash: string) {
  const { rows } = await db.query<{ userId: number; purpose: KeyPurpose; email: string }>(
    `SELECT k.user_id AS "userId", k.purpose, u.email FROM validation_keys k JOIN users u ON u.id = k.user_id
     WHERE k.key_hash = $1 AND k.used_at IS NULL AND k.expires_at > now() AND NOT u.disabled`,
    [keyHash],
  );
  return rows[0];
}

/** Marks the key used; false when it was already used or has expired (so a key works once, even in a race). */
export async function consumeValidationKey(db: Queryable, keyHash: string): Promise<boolean> {
  const result = await db.query(
    'UPDATE validation_keys SET used_at = now() WHERE key_hash = $1 AND used_at IS NULL AND expires_at > now()',
    [keyHash],
  );
  return result.rowCount === 1;
}

// Passwords and accounts.

/** Sets a new password, clears the expired flag and ends every session of the user. */
export async function setPassword(db: Queryable, userId: number, passwordHash: string) {
  await db.query(
    `UPDATE users SET password_hash = $2, password_changed_at = now(), password_expired = false WHERE id = $1`,
    [userId, passwordHash],
  );
  await db.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
}

export async function createInvitedUser(
  db: Queryable,
  invite: { email: string; displayName: string; clientId: number; roles: string[] },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO users (email, display_name, default_client_id) VALUES ($1, $2, $3) RETURNING id`,
    [invite.email, invite.displayName, invite.clientId],
  );
  const userId = singleRow(rows).id;
  await db.query('INSERT INTO user_clients (client_id, user_id) VALUES ($1, $2)', [invite.clientId, userId]);
  await db.query(`INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE name = ANY($2::text[])`, [
    userId,
    invite.roles,
  ]);
  return userId;
}

export async function findRoles(db: Queryable, names: string[]) {
  const { rows } = await db.query<{ name: string; isSuperAdmin: boolean }>(
    'SELECT name, is_super_admin AS "isSuperAdmin" FROM roles WHERE name = ANY($1::text[])',
    [names],
  );
  return rows;
}

// Login throttling.

export async function recordLoginAttempt(
  db: Queryable,
  attempt: { username: string; address: string; succeeded: boolean },
) {
  await db.query('INSERT INTO login_attempts (username, address, succeeded) VALUES ($1, $2, $3)', [
    attempt.username,
    attempt.address,
    attempt.succeeded,
  ]);
}

/** Failed sign-ins within the window: for the username since its last success, and from the address. */
export async function countRecentFailures(db: Queryable, username: string, address: string, windowSeconds: number) {
  const { rows } = await db.query<{ byUsername: number; byAddress: number }>(
    `SELECT
       (SELECT count(*)::int FROM login_attempts
         WHERE username = $1 AND NOT succeeded AND attempted_at > now() - make_interval(secs => $3)
           AND attempted_at > coalesce((SELECT max(attempted_at) FROM login_attempts
                                        WHERE username = $1 AND succeeded), '-infinity')) AS "byUsername",
       (SELECT count(*)::int FROM login_attempts
         WHERE address = $2 AND NOT succeeded AND attempted_at > now() - make_interval(secs => $3)) AS "byAddress"`,
    [username, address, windowSeconds],
  );
  return singleRow(rows);
}

export async function deleteOldLoginAttempts(db: Queryable, olderThanSeconds: number) {
  await db.query('DELETE FROM login_attempts WHERE attempted_at < now() - make_interval(secs => $1)', [
    olderThanSeconds,
  ]);
}
