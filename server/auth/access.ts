import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RENDER_ONLY_MESSAGE } from '../../src/domain/messages.js';
import { hasPermission } from '../../src/domain/permissions.js';
import type { Pool } from '../db/pool.js';
import { forbidden, unauthorized } from '../errors.js';
import type { Operation, ScopeKind } from '../openapi.js';
import { type DeviceIdentity, findDeviceByKey } from '../repositories/deviceKeys.js';
import { countVisibleMalls, countVisibleOutlets, type Visibility } from '../repositories/lookup.js';
import type { SessionRow } from '../repositories/sessions.js';
import type { UserGrants, UserRow } from '../repositories/users.js';
import { cachedUserOf } from './callerCache.js';
import { hasValidCsrfToken, needsCsrf } from './csrf.js';
import { readSession } from './sessions.js';

/** The signed-in user behind a request. */
export interface Caller {
  session: SessionRow;
  user: UserRow;
  grants: UserGrants;
}

declare module 'fastify' {
  interface FastifyRequest {
    session: SessionRow | null;
    caller: Caller | null;
    /** The point-of-sale device of a device-key operation (x-access: device). */
    device: DeviceIdentity | null;
  }
  interface FastifyContextConfig {
    operation?: Operation;
  }
}

export const MESSAGES = {
  signIn: 'Please sign in.',
  mfaPending: 'Please enter the one-time code sent to your e-mail.',
  passwordExpired: 'Password expired.',
  csrf: 'Invalid or missing CSRF token.',
  permission: 'You do not have permission to do this.',
  scope: 'You do not have access to this data.',
  deviceKey: 'Invalid or missing device key.',
  renderOnly: RENDER_ONLY_MESSAGE,
} as const;

export function requireCaller(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthorized(MESSAGES.signIn);
  return request.caller;
}

async function loadCaller(pool: Pool, session: SessionRow): Promise<Caller | null> {
  const known = await cachedUserOf(pool, session);
  return known ? { session, ...known } : null;
}

/**
 * The one gate every API operation passes, driven by the operation's x-access, x-scope and x-receipts in
 * openapi.yaml: session (401), CSRF on non-GET calls (403), the caller's path::Action permission (403), receipts
 * hidden from the partner domain (403; not from the super admin, who sees every route), then the ownership of every client, mall and outlet id the request names
 * (403). The session checks come before validation; the ids are checked after it (a preHandler), so that the
 * database is only ever asked about ids the contract allows, and a malformed one is a 400 naming the field.
 */
export function registerAccessControl(app: FastifyInstance, pool: Pool) {
  app.decorateRequest('session', null);
  app.decorateRequest('caller', null);
  app.decorateRequest('device', null);

  app.addHook('onRequest', async (request, reply) => {
    const operation = request.routeOptions.config.operation;
    if (!operation) return;
    // Set first, so that a refusal is not kept either.
    if (isNoStore(operation)) reply.header('cache-control', 'no-store');
    if (operation.access === 'device') {
      // A device's key is its only credential: no session, no CSRF token, no permission list.
      const device = await deviceOf(pool, request);
      if (!device) throw unauthorized(MESSAGES.deviceKey);
      request.device = device;
      return;
    }
    request.session = await readSession(pool, request);
    if (operation.access === 'public') {
      if (needsCsrf(operation.method) && !hasValidCsrfToken(request, request.session)) throw forbidden(MESSAGES.csrf);
      return;
    }
    const caller = request.session ? await loadCaller(pool, request.session) : null;
    if (!caller) throw unauthorized(MESSAGES.signIn);
    if (operation.access !== 'pending' && caller.session.mfaPending) throw unauthorized(MESSAGES.mfaPending);
    // An expired password (after a one-time code) opens nothing but the password change and the pending calls.
    if (operation.access !== 'pending' && caller.user.passwordExpired) throw unauthorized(MESSAGES.passwordExpired);
    if (needsCsrf(operation.method) && !hasValidCsrfToken(request, caller.session)) throw forbidden(MESSAGES.csrf);
    // The server's own browser renders a report as its recipient and reads only (server/auth/renderSessions.ts).
    if (caller.session.renderOnly && operation.method !== 'GET') throw forbidden(MESSAGES.renderOnly);
    if (!mayCall(caller.user, caller.grants, operation)) throw forbidden(MESSAGES.permission);
    request.caller = caller;
  });

  app.addHook('preHandler', async (request) => {
    const operation = request.routeOptions.config.operation;
    if (!operation || !request.caller || Object.keys(operation.scope).length === 0) return;
    if (!(await ownsScope(pool, request, operation, request.caller))) throw forbidden(MESSAGES.scope);
  });
}

/**
 * Whether a signed-in user may call an operation: its path::Action permission (x-access: permission), and the
 * receipts rule of the user's e-mail domain. The super admin sees every route (§6, the first rule); the partner
 * domain's rule narrows the other accounts. The gate asks it of every call, and a receipts PDF link of its creator
 * at each use (server/auth/downloadLinks.ts).
 */
export function mayCall(
  user: Pick<UserRow, 'receiptsHidden'>,
  grants: Pick<UserGrants, 'isSuperAdmin' | 'apiPermissions'>,
  operation: Pick<Operation, 'access' | 'path' | 'method' | 'receipts'>,
): boolean {
  if (grants.isSuperAdmin) return true;
  if (operation.access === 'permission' && !hasPermission(grants.apiPermissions, operation.path, operation.method)) {
    return false;
  }
  return !(operation.receipts && user.receiptsHidden);
}

/** Operations whose answers hold the caller's credentials or receipts, besides the receipt calls (x-receipts). */
const NO_STORE_OPERATIONS: ReadonlySet<string> = new Set(['getCredential', 'downloadReceiptsPdf']);

/** Whether an answer must not be kept by the browser or any cache on the way (Cache-Control: no-store). */
export function isNoStore(operation: Pick<Operation, 'operationId' | 'receipts'>): boolean {
  return operation.receipts || NO_STORE_OPERATIONS.has(operation.operationId);
}

const BEARER = /^Bearer ([\x21-\x7e]{1,200})$/;

async function deviceOf(pool: Pool, request: FastifyRequest): Promise<DeviceIdentity | undefined> {
  const key = BEARER.exec(request.headers.authorization ?? '')?.[1];
  return key === undefined ? undefined : findDeviceByKey(pool, key);
}

/** A scope value that cannot be read: its part of the request (the body) is not an object. Refused, never skipped. */
const UNREADABLE: unique symbol = Symbol('unreadable');

function readScopeValue(request: Pick<FastifyRequest, 'body' | 'query' | 'params'>, location: string): unknown {
  const [source, name] = location.split('.');
  const container = source === 'body' ? request.body : source === 'query' ? request.query : request.params;
  if (!name || typeof container !== 'object' || container === null || Array.isArray(container)) return UNREADABLE;
  return Object.hasOwn(container, name) ? (container as Record<string, unknown>)[name] : undefined;
}

/** The largest id (PostgreSQL's integer); the contract's Id and OutletIds say the same. */
export const MAX_ID = 2_147_483_647;

/** One id as the contract's OutletIds pattern writes it: 1 to 10 digits, no leading zero. */
const ID_TEXT = /^[1-9]\d{0,9}$/;

/**
 * Ids from a number, an id's text, a comma-joined list or an array of those; empty when any part is not a whole
 * number from 1 to MAX_ID written as the contract writes it (validation refuses those first, with a 400).
 */
export function parseIds(value: unknown): number[] {
  const parts: unknown[] = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value];
  const ids = parts.map((part) => (typeof part === 'string' && ID_TEXT.test(part) ? Number(part) : part));
  if (!ids.every((id): id is number => typeof id === 'number' && Number.isInteger(id) && id >= 1 && id <= MAX_ID)) {
    return [];
  }
  return [...new Set(ids)];
}

/**
 * The ids a request names where the operation's x-scope says, by kind; undefined when one cannot be read (an id
 * that is not one, or a body that is not an object), which the gate refuses, never skips.
 */
export function scopeIdsOf(
  request: Pick<FastifyRequest, 'body' | 'query' | 'params'>,
  scope: Operation['scope'],
): Map<ScopeKind, number[]> | undefined {
  const values = new Map<ScopeKind, number[]>();
  for (const [kind, location] of Object.entries(scope) as [ScopeKind, string][]) {
    const raw = readScopeValue(request, location);
    if (raw === UNREADABLE) return undefined;
    if (raw === undefined || raw === null || raw === '') continue;
    const ids = parseIds(raw);
    // Validation has refused malformed ids already; one that still cannot be read is refused, never skipped.
    if (ids.length === 0) return undefined;
    values.set(kind, ids);
  }
  return values;
}

async function ownsScope(pool: Pool, request: FastifyRequest, operation: Operation, caller: Caller): Promise<boolean> {
  const values = scopeIdsOf(request, operation.scope);
  if (!values) return false;
  return seesIds(pool, { clientIds: caller.grants.clientIds, outletLimits: caller.grants.outletLimits }, values);
}

/**
 * Whether every id is one the visibility holds: its clients, and its outlets and malls (within the first client
 * when one is given). The gate asks it of a request's ids, and a receipts PDF link of its creator's grants.
 */
export async function seesIds(
  pool: Pool,
  visibility: Visibility,
  values: ReadonlyMap<ScopeKind, readonly number[]>,
): Promise<boolean> {
  const clientIds = values.get('client');
  if (clientIds && !clientIds.every((id) => visibility.clientIds.includes(id))) return false;
  const clientId = clientIds?.[0];
  const outletIds = [...(values.get('outlet') ?? []), ...(values.get('outlets') ?? [])];
  if (outletIds.length > 0) {
    const unique = [...new Set(outletIds)];
    if ((await countVisibleOutlets(pool, visibility, unique, clientId)) !== unique.length) return false;
  }
  const mallIds = [...new Set([...(values.get('mall') ?? []), ...(values.get('malls') ?? [])])];
  if (mallIds.length > 0 && (await countVisibleMalls(pool, visibility, mallIds, clientId)) !== mallIds.length) {
    return false;
  }
  return true;
}
