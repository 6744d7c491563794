import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/pool.js';
import { deleteSession, findLiveSession, insertSession, type SessionRow } from '../repositories/sessions.js';
import { cachedSession, forgetSession } from './callerCache.js';

export const SESSION_COOKIE = 'sid';
/** An anonymous session only carries the CSRF token for signing in. */
const ANONYMOUS_TTL_SECONDS = 2 * 60 * 60;

export interface SessionOptions {
  ttlHours: number;
  secureCookies: boolean;
}

/** A random secret for cookies, CSRF tokens and e-mailed keys; only its hash is stored. */
export const newSecret = () => randomBytes(32).toString('base64url');
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('base64url');

export async function readSession(db: Queryable, request: FastifyRequest): Promise<SessionRow | null> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token || token.length > 100) return null;
  const tokenHash = hashSecret(token);
  return (await cachedSession(tokenHash, () => findLiveSession(db, tokenHash))) ?? null;
}

/** Secure when configured (COOKIE_SECURE, a non-loopback address) and whenever the request came over TLS. */
export const secureCookieFor = (reply: FastifyReply, options: SessionOptions) =>
  options.secureCookies || reply.request.protocol === 'https';

function setSessionCookie(reply: FastifyReply, token: string, maxAgeSeconds: number, options: SessionOptions) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: secureCookieFor(reply, options),
    maxAge: maxAgeSeconds,
  });
}

export function clearSessionCookie(reply: FastifyReply, options: SessionOptions) {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: secureCookieFor(reply, options),
  });
}

/** Deletes a session and forgets it, so that its cookie opens nothing from now on. */
export async function endStoredSession(db: Queryable, tokenHash: string): Promise<void> {
  await deleteSession(db, tokenHash);
  forgetSession(tokenHash);
}

/** Starts a session (anonymous when userId is null) and sets its cookie; the previous one, if any, ends. */
export async function startSession(
  db: Queryable,
  reply: FastifyReply,
  options: SessionOptions,
  previous: SessionRow | null,
  user: { userId: number | null; mfaPending: boolean },
): Promise<SessionRow> {
  if (previous) await endStoredSession(db, previous.tokenHash);
  const token = newSecret();
  const ttlSeconds = user.userId === null ? ANONYMOUS_TTL_SECONDS : options.ttlHours * 3600;
  const session = await insertSession(db, {
    tokenHash: hashSecret(token),
    userId: user.userId,
    csrfToken: newSecret(),
    mfaPending: user.mfaPending,
    ttlSeconds,
  });
  setSessionCookie(reply, token, ttlSeconds, options);
  return session;
}

export async function endSession(
  db: Queryable,
  reply: FastifyReply,
  options: SessionOptions,
  session: SessionRow | null,
) {
  if (session) await endStoredSession(db, session.tokenHash);
  clearSessionCookie(reply, options);
}
