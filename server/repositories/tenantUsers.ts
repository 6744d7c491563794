import type { components, operations } from '../../src/api/schema.js';
import type { MailKey } from '../auth/validationMail.js';
import { inTransaction, type Pool, type Queryable } from '../db/pool.js';
import { escapeLike, SqlParams } from '../db/sqlParams.js';
import { badRequest, notFound } from '../errors.js';
import { type AuditEntry, writeAudit } from './audit.js';
import { createInvitedUser, findRoles, revokeValidationKeys } from './authFlows.js';
import { clientOutletCondition, type Visibility } from './lookup.js';
import { findUserByEmail } from './users.js';

/**
 * The tenant users of a client: the users with outlets of the client (user_outlets), their invitations and their
 * deactivation. A caller limited to some outlets of the client manages only the users all of whose outlets of the
 * client they see, so that no change reaches an outlet hidden from them. Every change runs in one transaction with
 * its audit_log row (entity 'user', the user as it was and as it became).
 */

export type TenantUser = components['schemas']['TenantUser'];
export type TenantUserStatus = components['schemas']['TenantUserStatus'];
type TenantUsersQuery = NonNullable<operations['getTenantUsers']['parameters']['query']>;
export type TenantUserSortColumn = NonNullable<TenantUsersQuery['sortColumn']>;
export type TenantUsersPage = operations['getTenantUsers']['responses']['200']['content']['application/json'];

/** The role an invited tenant gets (the demo data's role of that name). */
export const TENANT_ROLE = 'tenant';

/** Who makes a change: the client it is made in and the signed-in user, with what that user sees. */
export interface TenantActor {
  clientId: number;
  userId: number;
  visibility: Visibility;
}

export const TENANT_USER_MESSAGES = {
  accountExists: 'email: an account with this e-mail address already exists.',
  blankName: 'name: must not be blank.',
  noSuchUser: (userId: number) => `user_id: there is no tenant user ${userId} in this client.`,
  alreadyActivated: (email: string) => `user_id: ${email} has already activated the account.`,
  deactivated: (email: string) => `user_id: ${email} is deactivated; reactivate the account first.`,
  ownAccount: 'user_id: you cannot deactivate your own account.',
} as const;

const SORT_SQL: Record<TenantUserSortColumn, string> = {
  name: 't.sort_name',
  email: 't.email',
  outlets: 't.outlet_names',
  status: 't.status',
  invited_at: 't.invited_at',
  last_sign_in_at: 't.last_sign_in_at',
};

interface Row {
  id: number;
  name: string;
  email: string;
  status: TenantUserStatus;
  outlets: { id: number; name: string }[];
  invited_at: Date;
  last_sign_in_at: Date | null;
}

/**
 * The client's tenant users the caller manages, one row a user, as the relation `t` (FROM and WHERE of a SELECT):
 * their outlets of the client by name, their status, the latest invitation (else the account's creation) and the
 * latest sign-in still on record (a live or ended session, a successful password check).
 */
function tenantUsersFrom(params: SqlParams, visibility: Visibility, clientId: number): string {
  return `(
    WITH members AS (
      SELECT uo.user_id,
        json_agg(json_build_object('id', o.id, 'name', o.name) ORDER BY lower(o.name), o.id) AS outlets,
        string_agg(lower(o.name), ', ' ORDER BY lower(o.name), o.id) AS outlet_names
      FROM user_outlets uo JOIN outlets o ON o.client_id = uo.client_id AND o.id = uo.outlet_id
      WHERE uo.client_id = ${params.add(clientId, '::int')}
      GROUP BY uo.user_id
      HAVING bool_and(${clientOutletCondition(params, visibility, clientId)})
    )
    SELECT u.id, u.display_name AS name, lower(u.display_name) AS sort_name, u.email,
      CASE WHEN u.disabled THEN 'deactivated' WHEN u.password_hash IS NULL THEN 'invited' ELSE 'active' END AS status,
      m.outlets, m.outlet_names,
      coalesce((SELECT max(k.created_at) FROM validation_keys k WHERE k.user_id = u.id AND k.purpose = 'activate'),
               u.created_at) AS invited_at,
      nullif(greatest(
        coalesce((SELECT max(s.created_at) FROM sessions s WHERE s.user_id = u.id AND NOT s.mfa_pending), '-infinity'),
        coalesce((SELECT max(a.attempted_at) FROM login_attempts a WHERE a.username = u.email AND a.succeeded),
                 '-infinity')
      ), '-infinity') AS last_sign_in_at
    FROM members m JOIN users u ON u.id = m.user_id
  ) t`;
}

const COLUMNS = 't.id, t.name, t.email, t.status, t.outlets, t.invited_at, t.last_sign_in_at';

const toTenantUser = (row: Row): TenantUser => ({
  id: row.id,
  name: row.name,
  email: row.email,
  status: row.status,
  outlets: row.outlets,
  invited_at: row.invited_at.toISOString(),
  last_sign_in_at: row.last_sign_in_at?.toISOString() ?? null,
});

export interface TenantUsersPageQuery {
  clientId: number;
  page: number;
  rowsPerPage: number;
  sortColumn: TenantUserSortColumn;
  order: 'asc' | 'desc';
  status: TenantUserStatus | undefined;
  /** A plain substring of the name or the e-mail, any case. */
  search: string | undefined;
}

/** One page of the client's tenant users the caller manages, in the order asked (ties by id), and how many match. */
export async function listTenantUsers(
  db: Queryable,
  visibility: Visibility,
  query: TenantUsersPageQuery,
): Promise<TenantUsersPage> {
  const params = new SqlParams();
  const from = tenantUsersFrom(params, visibility, query.clientId);
  const conditions = ['true'];
  if (query.status) conditions.push(`t.status = ${params.add(query.status)}`);
  if (query.search) {
    const pattern = params.add(`%${escapeLike(query.search)}%`);
    conditions.push(`(t.name ILIKE ${pattern} OR t.email ILIKE ${pattern})`);
  }
  const where = conditions.join(' AND ');
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const limit = params.add(query.rowsPerPage, '::int');
  const offset = params.add((query.page - 1) * query.rowsPerPage, '::int');
  const { rows } = await db.query<Row & { total: number }>(
    `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM ${from}
     WHERE ${where}
     ORDER BY ${SORT_SQL[query.sortColumn]} ${direction} NULLS LAST, t.id ${direction}
     LIMIT ${limit} OFFSET ${offset}`,
    params.values,
  );
  let total = rows[0]?.total;
  if (total === undefined) {
    // A page past the end: the count alone.
    const count = await db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM ${from} WHERE ${where}`,
      params.values.slice(0, -2),
    );
    total = count.rows[0]?.total ?? 0;
  }
  return { data: rows.map(({ total: _total, ...row }) => toTenantUser(row)), total };
}

/** A tenant user of the client whom the caller manages; undefined for anyone else. */
export async function findTenantUser(
  db: Queryable,
  visibility: Visibility,
  clientId: number,
  userId: number,
): Promise<TenantUser | undefined> {
  const params = new SqlParams();
  const from = tenantUsersFrom(params, visibility, clientId);
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM ${from} WHERE t.id = ${params.add(userId, '::int')}`,
    params.values,
  );
  const row = rows[0];
  return row && toTenantUser(row);
}

/** The user as the audit log keeps it. */
const auditedUser = (user: TenantUser) => ({
  email: user.email,
  name: user.name,
  status: user.status,
  outlet_ids: user.outlets.map((outlet) => outlet.id),
  invited_at: user.invited_at,
});

const userAudit = (actor: TenantActor, before: TenantUser | null, after: TenantUser): AuditEntry => ({
  clientId: actor.clientId,
  userId: actor.userId,
  action: before ? 'update' : 'create',
  entity: 'user',
  entityId: after.id,
  before: before && auditedUser(before),
  after: before ? auditedUser(after) : { ...auditedUser(after), role: TENANT_ROLE },
});

/** PostgreSQL's unique_violation: another invitation of the same address committed first. */
const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';

async function requireTenantUser(db: Queryable, actor: TenantActor, userId: number): Promise<TenantUser> {
  // The user's row is locked first, so that two changes of one user follow each other.
  await db.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
  const user = await findTenantUser(db, actor.visibility, actor.clientId, userId);
  if (!user) throw notFound(TENANT_USER_MESSAGES.noSuchUser(userId));
  return user;
}

async function reread(db: Queryable, actor: TenantActor, userId: number): Promise<TenantUser> {
  const user = await findTenantUser(db, actor.visibility, actor.clientId, userId);
  if (!user) throw new Error(`tenant user ${userId} is gone within its own change`);
  return user;
}

/**
 * Creates an account with the tenant role limited to `outletIds` of the client (outlets the access gate has found
 * the client's and visible to the caller) and mails its invitation; the mail is sent last, within the transaction,
 * so that an invitation that could not be sent leaves no account behind.
 */
export async function inviteTenantUser(
  pool: Pool,
  actor: TenantActor,
  invite: { email: string; name: string; outletIds: readonly number[] },
  mailKey: MailKey,
): Promise<TenantUser> {
  return inTransaction(pool, async (tx) => {
    if ((await findRoles(tx, [TENANT_ROLE])).length === 0) throw new Error(`The role '${TENANT_ROLE}' does not exist`);
    if (await findUserByEmail(tx, invite.email)) throw badRequest(TENANT_USER_MESSAGES.accountExists);
    const userId = await createInvitedUser(tx, {
      email: invite.email,
      displayName: invite.name,
      clientId: actor.clientId,
      roles: [TENANT_ROLE],
    }).catch((error: unknown) => {
      throw isUniqueViolation(error) ? badRequest(TENANT_USER_MESSAGES.accountExists) : error;
    });
    await tx.query(`INSERT INTO user_outlets (client_id, user_id, outlet_id) SELECT $1, $2, unnest($3::int[])`, [
      actor.clientId,
      userId,
      invite.outletIds,
    ]);
    await mailKey(tx, { id: userId, email: invite.email }, 'activate');
    const user = await reread(tx, actor, userId);
    await writeAudit(tx, [userAudit(actor, null, user)]);
    return user;
  });
}

/** A new invitation for a user who has not activated: the earlier links stop working. */
export async function resendTenantInvitation(
  pool: Pool,
  actor: TenantActor,
  userId: number,
  mailKey: MailKey,
): Promise<TenantUser> {
  return inTransaction(pool, async (tx) => {
    const before = await requireTenantUser(tx, actor, userId);
    if (before.status === 'active') throw badRequest(TENANT_USER_MESSAGES.alreadyActivated(before.email));
    if (before.status === 'deactivated') throw badRequest(TENANT_USER_MESSAGES.deactivated(before.email));
    await revokeValidationKeys(tx, userId, 'activate');
    await mailKey(tx, { id: userId, email: before.email }, 'activate');
    const after = await reread(tx, actor, userId);
    await writeAudit(tx, [userAudit(actor, before, after)]);
    return after;
  });
}

/**
 * Deactivates (`active` false) or reactivates a user. Deactivation deletes every session of the user and ends their
 * unused e-mailed links; the caller forgets the user's cached sessions once this has committed. A user who already
 * has the status asked is answered as they are, with no audit row.
 */
export async function setTenantUserActive(
  pool: Pool,
  actor: TenantActor,
  userId: number,
  active: boolean,
): Promise<{ user: TenantUser; changed: boolean }> {
  return inTransaction(pool, async (tx) => {
    const before = await requireTenantUser(tx, actor, userId);
    if (!active && userId === actor.userId) throw badRequest(TENANT_USER_MESSAGES.ownAccount);
    if ((before.status !== 'deactivated') === active) return { user: before, changed: false };
    await tx.query('UPDATE users SET disabled = $2 WHERE id = $1', [userId, !active]);
    if (!active) {
      await tx.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
      await revokeValidationKeys(tx, userId);
    }
    const after = await reread(tx, actor, userId);
    await writeAudit(tx, [userAudit(actor, before, after)]);
    return { user: after, changed: true };
  });
}
