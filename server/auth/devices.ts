import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/pool.js';
import { isKnownDevice, rememberDevice } from '../repositories/authFlows.js';
import { hashSecret, newSecret, type SessionOptions, secureCookieFor } from './sessions.js';

/**
 * The device cookie: a random token a browser gets when it signs in, kept for half a year. Only its SHA-256 is
 * stored, with the accounts that signed in from that browser; it opens nothing, it only spares a known browser the
 * account's sign-in backoff (server/auth/throttle.ts).
 */
export const DEVICE_COOKIE = 'did';
export const DEVICE_TTL_SECONDS = 180 * 24 * 60 * 60;

/** The hash of the request's device cookie, when it carries a well-formed one. */
export function deviceHashOf(request: FastifyRequest): string | null {
  const token = request.cookies[DEVICE_COOKIE];
  return token && /^[\w-]{20,100}$/.test(token) ? hashSecret(token) : null;
}

export async function isKnownDeviceOf(db: Queryable, deviceHash: string | null, userId: number): Promise<boolean> {
  return deviceHash !== null && (await isKnownDevice(db, deviceHash, userId));
}

/** Remembers the browser for the account (a new cookie when it has none) after a successful sign-in. */
export async function rememberDeviceOf(
  db: Queryable,
  request: FastifyRequest,
  reply: FastifyReply,
  options: SessionOptions,
  userId: number,
): Promise<void> {
  const existing = request.cookies[DEVICE_COOKIE];
  const token = existing && deviceHashOf(request) ? existing : newSecret();
  await rememberDevice(db, hashSecret(token), userId);
  reply.setCookie(DEVICE_COOKIE, token, {
    path: '/api',
    httpOnly: true,
    sameSite: 'strict',
    secure: secureCookieFor(reply, options),
    maxAge: DEVICE_TTL_SECONDS,
  });
}
