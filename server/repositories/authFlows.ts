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

/** Ends the unused keys of a user (of one purpose, or every one): their links stop working at once. */
export async function revokeValidationKeys(db: Queryable, userId: number, purpose?: KeyPurpose): Promise<void> {
  await db.query(
    `UPDATE validation_keys SET expires_at = now()
     WHERE user_id = $1 AND used_at IS NULL AND expires_at > now() AND ($2::text IS NULL OR purpose = $2)`,
    [userId, purpose ?? null],
  );
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

/**
 * Whether the user belongs to the client (its user or a user of its outlets): the one case in which an invitation
 * may say that the account exists.
 */
export async function isUserOfClient(db: Queryable, userId: number, clientId: number): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM user_clients WHERE user_id = $1 AND client_id = $2
     UNION ALL SELECT 1 FROM user_outlets WHERE user_id = $1 AND client_id = $2
     LIMIT 1`,
    [userId, clientId],
  );
  return rows.length > 0;
}

/** A user id nobody has (the users' own sequence), for an answer that must look like a new account's. */
export async function unusedUserId(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ id: number }>(`SELECT nextval(pg_get_serial_sequence('users', 'id'))::int AS id`);
  return singleRow(rows).id;
}

/**
 * The user's link generation (migration 026): bumped by deactivation, a password change and any change of the
 * user's roles, clients or outlets, so that a download link made before one of them no longer matches.
 */
export async function linkGenerationOf(db: Queryable, userId: number): Promise<number | undefined> {
  const { rows } = await db.query<{ generation: number }>(
    'SELECT link_generation AS generation FROM users WHERE id = $1',
    [userId],
  );
  return rows[0]?.generation;
}

export async function findRoles(db: Queryable, names: string[]) {
  const { rows } = await db.query<{ name: string; isSuperAdmin: boolean }>(
    'SELECT name, is_super_admin AS "isSuperAdmin" FROM roles WHERE name = ANY($1::text[])',
    [names],
  );
  return rows;
}

// Sign-in throttles.

export async function recordLoginAttempt(
  db: Queryable,
  attempt: { username: string; address: string; deviceHash: string | null; succeeded: boolean },
) {
  await db.query('INSERT INTO login_attempts (username, address, device_hash, succeeded) VALUES ($1, $2, $3, $4)', [
    attempt.username,
    attempt.address,
    attempt.deviceHash,
    attempt.succeeded,
  ]);
}

export interface LoginFailureCounts {
  /** Failures for the username from the address within the window. */
  byAddressAccount: number;
  /** Distinct usernames with failures from the address within the window. */
  accountsFromAddress: number;
  /** Failures for the username since its last success or password change (within the account window). */
  byAccount: number;
  /** Seconds since the username's last failure (a large number when there is none). */
  secondsSinceAccountFailure: number;
  /** Failures for the username from this browser since its last success there, within the window. */
  byDevice: number;
}

/** The failed sign-ins that the throttles count, in one round trip. */
export async function countLoginFailures(
  db: Queryable,
  attempt: { username: string; address: string; deviceHash: string | null },
  windows: { windowSeconds: number; accountWindowSeconds: number },
): Promise<LoginFailureCounts> {
  const { rows } = await db.query<LoginFailureCounts>(
    `WITH account_since AS (
       SELECT greatest(
         now() - make_interval(secs => $5),
         coalesce((SELECT max(attempted_at) FROM login_attempts WHERE username = $1 AND succeeded), '-infinity'),
         coalesce((SELECT password_changed_at FROM users WHERE email = $1), '-infinity')
       ) AS since
     ),
     account AS (
       SELECT count(*)::int AS failures, max(attempted_at) AS last_failure
       FROM login_attempts, account_since
       WHERE username = $1 AND NOT succeeded AND attempted_at > account_since.since
     )
     SELECT
       (SELECT count(*)::int FROM login_attempts
         WHERE address = $2 AND username = $1 AND NOT succeeded AND attempted_at > now() - make_interval(secs => $4))
         AS "byAddressAccount",
       (SELECT count(DISTINCT username)::int FROM login_attempts
         WHERE address = $2 AND NOT succeeded AND attempted_at > now() - make_interval(secs => $4))
         AS "accountsFromAddress",
       account.failures AS "byAccount",
       coalesce(extract(epoch FROM now() - account.last_failure)::float8, 1e9) AS "secondsSinceAccountFailure",
       CASE WHEN $3::text IS NULL THEN 0 ELSE
         (SELECT count(*)::int FROM login_attempts
           WHERE username = $1 AND device_hash = $3 AND NOT succeeded
             AND attempted_at > greatest(
               now() - make_interval(secs => $4),
               coalesce((SELECT max(attempted_at) FROM login_attempts
                         WHERE username = $1 AND device_hash = $3 AND succeeded), '-infinity')))
       END AS "byDevice"
     FROM account`,
    [attempt.username, attempt.address, attempt.deviceHash, windows.windowSeconds, windows.accountWindowSeconds],
  );
  return singleRow(rows);
}

export async function isKnownDevice(db: Queryable, tokenHash: string, userId: number): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM known_devices WHERE token_hash = $1 AND user_id = $2', [
    tokenHash,
    userId,
  ]);
  return rows.length > 0;
}

export async function rememberDevice(db: Queryable, tokenHash: string, userId: number) {
  await db.query(
    `INSERT INTO known_devices (token_hash, user_id) VALUES ($1, $2)
     ON CONFLICT (token_hash, user_id) DO UPDATE SET last_seen_at = now()`,
    [tokenHash, userId],
  );
}

export type AuthEventKind = 'otp_sent' | 'otp_failed' | 'otp_verified' | 'reset_requested';

export async function recordAuthEvent(db: Queryable, event: { kind: AuthEventKind; subject: string; address: string }) {
  await db.query('INSERT INTO auth_events (kind, subject, address) VALUES ($1, $2, $3)', [
    event.kind,
    event.subject,
    event.address,
  ]);
}

export interface AuthEventCounts {
  /** Of the subject (after its latest `since` event, when given). */
  bySubject: number;
  /** Of the subject from the address. */
  bySubjectFromAddress: number;
  /** Distinct subjects from the address. */
  subjectsFromAddress: number;
}

/**
 * Events of a kind within the window: for the subject, for the subject from the address, and how many subjects
 * the address has events for; with `since`, the subject's count holds only those after its latest event of that
 * other kind (wrong codes after the last verified one).
 */
export async function countAuthEvents(
  db: Queryable,
  query: { kind: AuthEventKind; subject: string; address: string; windowSeconds: number; since?: AuthEventKind },
): Promise<AuthEventCounts> {
  const { rows } = await db.query<AuthEventCounts>(
    `SELECT
       (SELECT count(*)::int FROM auth_events
         WHERE kind = $1 AND subject = $2 AND happened_at > greatest(
           now() - make_interval(secs => $4),
           coalesce((SELECT max(happened_at) FROM auth_events WHERE kind = $5 AND subject = $2), '-infinity')))
         AS "bySubject",
       (SELECT count(*)::int FROM auth_events
         WHERE kind = $1 AND subject = $2 AND address = $3 AND happened_at > now() - make_interval(secs => $4))
         AS "bySubjectFromAddress",
       (SELECT count(DISTINCT subject)::int FROM auth_events
         WHERE kind = $1 AND address = $3 AND happened_at > now() - make_interval(secs => $4))
         AS "subjectsFromAddress"`,
    [query.kind, query.subject, query.address, query.windowSeconds, query.since ?? null],
  );
  return singleRow(rows);
}

/** Drops throttle records older than any window that reads them, and browsers not seen for `deviceSeconds`. */
export async function deleteOldThrottleRecords(db: Queryable, olderThanSeconds: number, deviceSeconds: number) {
  await db.query('DELETE FROM login_attempts WHERE attempted_at < now() - make_interval(secs => $1)', [
    olderThanSeconds,
  ]);
  await db.query('DELETE FROM auth_events WHERE happened_at < now() - make_interval(secs => $1)', [olderThanSeconds]);
  await db.query('DELETE FROM known_devices WHERE last_seen_at < now() - make_interval(secs => $1)', [deviceSeconds]);
}
