import type { Pool } from '../db/pool.js';
import { forbidden, type HttpError } from '../errors.js';
import { listOperations, type Operation, type ScopeKind } from '../openapi.js';
import { createSignedToken, verifySignedToken } from '../receipts/signedLink.js';
import { linkGenerationOf } from '../repositories/authFlows.js';
import type { PdfFilters } from '../repositories/receipts.js';
import { findUserById, loadUserGrants } from '../repositories/users.js';
import { type Caller, mayCall, seesIds } from './access.js';

/**
 * Receipts PDF links (GET /download/receipts/pdf?token=), opened without a session. A link carries its filters,
 * the id of the user who made it and that user's link generation, signed (server/receipts/signedLink.ts). At each
 * use the link is checked against its creator as they are now, in PostgreSQL, so that every server instance agrees:
 * still active, the generation unchanged (deactivation, a password change or a change of the user's roles, clients
 * or outlets bumps it: migration 026), still holding the permission of the operation that made the link, and still
 * seeing the link's client and outlets (the access gate's own rules, server/auth/access.ts).
 */

/** Why a link is refused, in plain words (the link is opened in a browser tab: the 403's message says it). */
export const DOWNLOAD_LINK_MESSAGES = {
  invalid: 'This download link is invalid.',
  expired: 'This download link has expired.',
  deactivated: 'This download link no longer works: the account that made it has been deactivated.',
  changed:
    'This download link no longer works: the password or the permissions of the account that made it have changed since. Please make a new link.',
  noAccess: 'This download link no longer works: the account that made it may no longer see these receipts.',
} as const;

/** The operation whose permission a link needs, at its making and at each use. */
export const LINK_OPERATION_ID = 'createTransactionsPdfLink';

/** What a link's token carries: the filters, its creator's id and link generation (and `exp`, added on signing). */
interface LinkPayload {
  f: PdfFilters;
  u: number;
  g: number;
}

let linkOperation: Operation | undefined;
function operationOfLinks(): Operation {
  linkOperation ??= listOperations().find((operation) => operation.operationId === LINK_OPERATION_ID);
  if (!linkOperation) throw new Error(`openapi.yaml has no ${LINK_OPERATION_ID}`);
  return linkOperation;
}

/** A signed token for the caller's PDF of `filters` (ids the access gate has checked), valid until `expiresAt`. */
export async function signDownloadLink(
  pool: Pool,
  secret: string,
  caller: Caller,
  filters: PdfFilters,
  expiresAt: Date,
): Promise<string> {
  const generation = await linkGenerationOf(pool, caller.user.id);
  if (generation === undefined) throw new Error(`user ${caller.user.id} is gone while making a link`);
  const payload: LinkPayload = { f: filters, u: caller.user.id, g: generation };
  return createSignedToken(secret, payload, expiresAt);
}

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);

function isLinkPayload(value: object): value is LinkPayload {
  const { f, u, g } = value as Partial<Record<keyof LinkPayload, unknown>>;
  if (!isId(u) || !isId(g) || typeof f !== 'object' || f === null) return false;
  const { clientId, outletIds } = f as Partial<Record<keyof PdfFilters, unknown>>;
  return isId(clientId) && Array.isArray(outletIds) && outletIds.length > 0 && outletIds.every(isId);
}

/** The filters of a link that may be used now, and who made it; else the refusal (403) that says why. */
export async function openDownloadLink(
  pool: Pool,
  secret: string,
  token: string,
): Promise<{ ok: true; filters: PdfFilters; creatorId: number } | { ok: false; error: HttpError }> {
  const refuse = (reason: keyof typeof DOWNLOAD_LINK_MESSAGES) => ({
    ok: false as const,
    error: forbidden(DOWNLOAD_LINK_MESSAGES[reason]),
  });
  const check = verifySignedToken<object>(secret, token);
  if (!check.ok) return refuse(check.reason);
  // A link signed before links named their creator is refused as invalid.
  if (!isLinkPayload(check.payload)) return refuse('invalid');
  const { f: filters, u: userId, g: generation } = check.payload;
  const user = await findUserById(pool, userId);
  if (!user || user.disabled) return refuse('deactivated');
  if ((await linkGenerationOf(pool, userId)) !== generation) return refuse('changed');
  const grants = await loadUserGrants(pool, userId);
  if (!mayCall(user, grants, operationOfLinks())) return refuse('changed');
  const visibility = { clientIds: grants.clientIds, outletLimits: grants.outletLimits };
  const ids = new Map<ScopeKind, readonly number[]>([
    ['client', [filters.clientId]],
    ['outlets', filters.outletIds],
  ]);
  if (!(await seesIds(pool, visibility, ids))) return refuse('noAccess');
  return { ok: true, filters, creatorId: userId };
}
