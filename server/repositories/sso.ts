import type { Queryable } from '../db/pool.js';
import { findLiveSession, type SessionRow } from './sessions.js';

/** The identity provider of an e-mail domain. */
export interface SsoDomainRow {
  domain: string;
  issuer: string;
  clientId: string;
  clientSecret: string | null;
}

/** What a session remembers while a single sign-on is under way (sessions.sso_pending). */
export interface SsoPending {
  state: string;
  nonce: string;
  codeVerifier: string;
  domain: string;
  /** SHA-256 of the secret in the browser's single sign-on cookie: the callback must come from that browser. */
  bindingHash: string;
  /** When the sign-on started (epoch milliseconds). */
  startedAt: number;
}

/** The domain's provider, when one is fully configured (issuer and client id). */
export async function findSsoDomain(db: Queryable, domain: string): Promise<SsoDomainRow | undefined> {
  const { rows } = await db.query<SsoDomainRow>(
    `SELECT domain, oidc_issuer AS issuer, oidc_client_id AS "clientId", oidc_client_secret AS "clientSecret"
     FROM email_domains
     WHERE domain = $1 AND oidc_issuer IS NOT NULL AND oidc_issuer <> ''
       AND oidc_client_id IS NOT NULL AND oidc_client_id <> ''`,
    [domain],
  );
  return rows[0];
}

/** Sets (or replaces) the identity provider of an e-mail domain. */
export async function saveSsoDomain(db: Queryable, provider: SsoDomainRow): Promise<void> {
  await db.query(
    `INSERT INTO email_domains (domain, oidc_issuer, oidc_client_id, oidc_client_secret) VALUES ($1, $2, $3, $4)
     ON CONFLICT (domain) DO UPDATE
       SET oidc_issuer = excluded.oidc_issuer, oidc_client_id = excluded.oidc_client_id,
           oidc_client_secret = excluded.oidc_client_secret`,
    [provider.domain, provider.issuer, provider.clientId, provider.clientSecret],
  );
}

export async function saveSsoPending(db: Queryable, tokenHash: string, pending: SsoPending): Promise<void> {
  await db.query('UPDATE sessions SET sso_pending = $2 WHERE token_hash = $1', [tokenHash, JSON.stringify(pending)]);
}

function isSsoPending(value: unknown): value is SsoPending {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    ['state', 'nonce', 'codeVerifier', 'domain', 'bindingHash'].every((key) => typeof record[key] === 'string') &&
    typeof record.startedAt === 'number'
  );
}

/**
 * Takes (reads and clears, in one statement, so that it works once) the pending sign-on of the live session whose
 * pending binding hash is given.
 */
export async function takeSsoPending(
  db: Queryable,
  bindingHash: string,
): Promise<{ session: SessionRow; pending: SsoPending } | undefined> {
  const { rows } = await db.query<{ tokenHash: string; pending: unknown }>(
    `WITH taken AS (
       SELECT token_hash, sso_pending FROM sessions
       WHERE sso_pending->>'bindingHash' = $1 AND expires_at > now()
       FOR UPDATE
     )
     UPDATE sessions s SET sso_pending = NULL FROM taken t
     WHERE s.token_hash = t.token_hash
     RETURNING s.token_hash AS "tokenHash", t.sso_pending AS pending`,
    [bindingHash],
  );
  const row = rows[0];
  if (!row || !isSsoPending(row.pending)) return undefined;
  const session = await findLiveSession(db, row.tokenHash);
  return session ? { session, pending: row.pending } : undefined;
}

/** Remembers, on the signed-in session, how to end the provider's session too. */
export async function saveSsoSignIn(
  db: Queryable,
  tokenHash: string,
  signIn: { logoutUrl: string | null; idToken: string | null },
): Promise<void> {
  await db.query('UPDATE sessions SET sso_logout_url = $2, sso_id_token = $3 WHERE token_hash = $1', [
    tokenHash,
    signIn.logoutUrl,
    signIn.idToken,
  ]);
}
