import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed, expiring download links (an e-mailed link works without signing in): the token is
 * base64url(JSON payload) '.' base64url(HMAC-SHA256(secret, payload part)). A forged, altered or expired token
 * is refused.
 */

export const DOWNLOAD_LINK_TTL_SECONDS = 7 * 24 * 3600;

function sign(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('base64url');
}

export function createSignedToken(secret: string, payload: object, expiresAt: Date): string {
  const body = Buffer.from(JSON.stringify({ ...payload, exp: Math.floor(expiresAt.getTime() / 1000) })).toString(
    'base64url',
  );
  return `${body}.${sign(secret, body)}`;
}

export type TokenCheck<T> = { ok: true; payload: T } | { ok: false; reason: 'invalid' | 'expired' };

export function verifySignedToken<T extends object>(
  secret: string,
  token: string,
  now: Date = new Date(),
): TokenCheck<T> {
  const [body, signature, ...rest] = token.split('.');
  if (!body || !signature || rest.length > 0) return { ok: false, reason: 'invalid' };
  const expected = Buffer.from(sign(secret, body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'invalid' };
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (typeof payload !== 'object' || payload === null || typeof (payload as { exp?: unknown }).exp !== 'number') {
    return { ok: false, reason: 'invalid' };
  }
  if ((payload as { exp: number }).exp * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, payload: payload as T };
}
