import type { AuditEntry } from '../audit.js';

/**
 * The settings of a client (§2, §7), one file per area: e-mail subscriptions, processing fees, sales targets,
 * categories and subcategories, their assignments (subcategories to categories, SKUs to subcategories) and meal
 * timings. Every change runs in one transaction that locks the rows it changes first (so of two saves of one row
 * the later one wins and neither is half-written) and writes an audit_log row per changed row with the row before
 * and after. The access gate has checked the request's client and outlet ids; every statement still names
 * client_id, so no other client's row is read or written. What the stored rows refuse is answered as a
 * DomainError (../domainError.ts), which the routes turn into the answer.
 */

/** Who makes a change: the client it is made in and the signed-in user. */
export interface Actor {
  clientId: number;
  userId: number;
}

/** The most rows a settings list answers at once. */
export const MAX_SETTINGS_ROWS = 10_000;

/** The audit row of a change made by `actor`. */
export const auditBy = (actor: Actor, entry: Omit<AuditEntry, 'clientId' | 'userId'>): AuditEntry => ({
  clientId: actor.clientId,
  userId: actor.userId,
  ...entry,
});
