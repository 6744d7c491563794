import { type Queryable, singleRow } from '../db/pool.js';

export interface SessionRow {
  tokenHash: string;
  userId: number | null;
  csrfToken: string;
  mfaPending: boolean;
  ssoLogoutUrl: string | null;
  expiresAt: Date;
  /** A session the server opened for its own browser to render a page as the user: it reads, never writes. */
  renderOnly: boolean;
}

const COLUMNS = `token_hash AS "tokenHash", user_id AS "userId", csrf_token AS "csrfToken",
  mfa_pending AS "mfaPending", sso_logout_url AS "ssoLogoutUrl", expires_at AS "expiresAt",
  render_only AS "renderOnly"`;

export async function insertSession(
  db: Queryable,
  session: {
    tokenHash: string;
    userId: number | null;
    csrfToken: string;
    mfaPending: boolean;
    ttlSeconds: number;
    renderOnly?: boolean;
  },
): Promise<SessionRow> {
  const { rows } = await db.query<SessionRow>(
    `INSERT INTO sessions (token_hash, user_id, csrf_token, mfa_pending, expires_at, render_only)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5), $6)
     RETURNING ${COLUMNS}`,
    [
      session.tokenHash,
      session.userId,
      session.csrfToken,
      session.mfaPending,
      session.ttlSeconds,
      session.renderOnly ?? false,
    ],
  );
  return singleRow(rows);
}

export async function findLiveSession(db: Queryable, tokenHash: string): Promise<SessionRow | undefined> {
  const { rows } = await db.query<SessionRow>(
    `SELECT ${COLUMNS} FROM sessions WHERE token_hash = $1 AND expires_at > now()`,
    [tokenHash],
  );
  return rows[0];
}

export async function deleteSession(db: Queryable, tokenHash: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash]);
}

export async function deleteExpiredSessions(db: Queryable): Promise<number> {
  const result = await db.query('DELETE FROM sessions WHERE expires_at <= now()');
  return result.rowCount ?? 0;
}
