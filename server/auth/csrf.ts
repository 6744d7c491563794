import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { SessionRow } from '../repositories/sessions.js';

export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function needsCsrf(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/** True when the request's X-CSRF-Token header equals the session's token. */
export function hasValidCsrfToken(request: FastifyRequest, session: SessionRow | null): boolean {
  const header = request.headers[CSRF_HEADER];
  if (!session || typeof header !== 'string') return false;
  const given = Buffer.from(header);
  const expected = Buffer.from(session.csrfToken);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
