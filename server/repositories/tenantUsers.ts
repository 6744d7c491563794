import type { components, operations } from '../../src/api/schema.js';
import type { MailKey, NoticeExistingAccount } from '../auth/validationMail.js';
import { inTransaction, type Pool, type Queryable } from '../db/pool.js';
import { escapeLike, SqlParams } from '../db/sqlParams.js';
import { type AuditEntry, writeAudit } from './audit.js';
import { createInvitedUser, findRoles, isUserOfClient, revokeValidationKeys, unusedUserId } from './authFlows.js';
import { ok, type Result, refuse } from './domainError.js';
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

/** Why the stored data refuses a change of a tenant user, naming the request field at fault. */
export const TENANT_USER_REFUSALS = {
  accountExists: refuse('invalid', 'an account with this e-mail address already exists.', 'email'),
  noSuchUser: (userId: number) => refuse('notFound', `there is no tenant user ${userId} in this client.`, 'user_id'),
  alreadyActivated: (email: string) => refuse('invalid', `${email} has already activated the account.`, 'user_id'),
  deactivated: (email: string) =>
    refuse('invalid', `${email} is deactivated; reactivate the account first.`, 'user_id'),
  ownAccount: refuse('invalid', 'you cannot deactivate your own account.', 'user_id'),
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

/** The tenant user a change is about, locked for the change; refused when the caller manages no such user. */
async function lockTenantUser(db: Queryable, actor: TenantActor, userId: number): Promise<Result<TenantUser>> {
  // The user's row is locked first, so that two changes of one user follow each other.
  await db.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
  const user = await findTenantUser(db, actor.visibility, actor.clientId, userId);
  return user ? ok(user) : TENANT_USER_REFUSALS.noSuchUser(userId);
}

async function reread(db: Queryable, actor: TenantActor, userId: number): Promise<TenantUser> {
  const user = await findTenantUser(db, actor.visibility, actor.clientId, userId);
  if (!user) throw new Error(`tenant user ${userId} is gone within its own change`);
  return user;
}

/** How an invitation reaches its address: the account-creation link, or the notice to an existing account. */
export interface InvitationMail {
  mailKey: MailKey;
  noticeExistingAccount: NoticeExistingAccount;
}

type Invitation = { email: string; name: string; outletIds: readonly number[] };

/**
 * The answer to an invitation of an address whose account belongs to another client, made to look like a new
 * invitation's (a fresh id of the users' sequence, the invitation as asked, now), so that the caller learns
 * nothing of other clients' accounts. Nothing is created and no audit row is written: nothing changed.
 */
async function lookalikeInvitation(db: Queryable, actor: TenantActor, invite: Invitation): Promise<TenantUser> {
  const { rows } = await db.query<{ outlets: { id: number; name: string }[]; at: Date }>(
    `SELECT coalesce(json_agg(json_build_object('id', o.id, 'name', o.name) ORDER BY lower(o.name), o.id), '[]')
              AS outlets,
            now() AS at
     FROM outlets o WHERE o.client_id = $1 AND o.id = ANY($2::int[])`,
    [actor.clientId, invite.outletIds],
  );
  const { outlets, at } = rows[0] ?? { outlets: [], at: new Date() };
  return toTenantUser({
    id: await unusedUserId(db),
    name: invite.name,
    email: invite.email,
    status: 'invited',
    outlets,
    invited_at: at,
    last_sign_in_at: null,
  });
}

/**
 * The account insert of an invitation lost to another invitation of the same address, committed first. It ends
 * the (aborted) transaction and is answered as accountExists once rolled back.
 */
class AddressTaken extends Error {}

/**
 * Creates an account with the tenant role limited to `outletIds` of the client (outlets the access gate has found
 * the client's and visible to the caller) and mails its invitation; the mail is sent last, within the transaction,
 * so that an invitation that could not be sent leaves no account behind. An address that already has an account
 * is refused only when the account belongs to the caller's client; another client's account is answered as a new
 * invitation (see lookalikeInvitation) and its owner gets a notice instead of a link.
 */
export async function inviteTenantUser(
  pool: Pool,
  actor: TenantActor,
  invite: Invitation,
  mail: InvitationMail,
): Promise<Result<TenantUser>> {
  try {
    return await inTransaction(pool, async (tx): Promise<Result<TenantUser>> => {
      if ((await findRoles(tx, [TENANT_ROLE])).length === 0) {
        throw new Error(`The role '${TENANT_ROLE}' does not exist`);
      }
      const existing = await findUserByEmail(tx, invite.email);
      if (existing) {
        if (await isUserOfClient(tx, existing.id, actor.clientId)) return TENANT_USER_REFUSALS.accountExists;
        await mail.noticeExistingAccount(existing);
        return ok(await lookalikeInvitation(tx, actor, invite));
      }
      const userId = await createInvitedUser(tx, {
        email: invite.email,
        displayName: invite.name,
        clientId: actor.clientId,
        roles: [TENANT_ROLE],
      }).catch((error: unknown) => {
        throw isUniqueViolation(error) ? new AddressTaken() : error;
      });
      await tx.query(`INSERT INTO user_outlets (client_id, user_id, outlet_id) SELECT $1, $2, unnest($3::int[])`, [
        actor.clientId,
        userId,
        invite.outletIds,
      ]);
      await mail.mailKey(tx, { id: userId, email: invite.email }, 'activate');
      const user = await reread(tx, actor, userId);
      await writeAudit(tx, [userAudit(actor, null, user)]);
      return ok(user);
    });
  } catch (error) {
    if (error instanceof AddressTaken) return TENANT_USER_REFUSALS.accountExists;
    throw error;
  }
}

/** A new invitation for a user who has not activated: the earlier links stop working. */
export async function resendTenantInvitation(
  pool: Pool,
  actor: TenantActor,
  userId: number,
  mailKey: MailKey,
): Promise<Result<TenantUser>> {
  return inTransaction(pool, async (tx): Promise<Result<TenantUser>> => {
    const found = await lockTenantUser(tx, actor, userId);
    if (!found.ok) return found;
    const before = found.value;
    if (before.status === 'active') return TENANT_USER_REFUSALS.alreadyActivated(before.email);
    if (before.status === 'deactivated') return TENANT_USER_REFUSALS.deactivated(before.email);
    await revokeValidationKeys(tx, userId, 'activate');
    await mailKey(tx, { id: userId, email: before.email }, 'activate');
    const after = await reread(tx, actor, userId);
    await writeAudit(tx, [userAudit(actor, before, after)]);
    return ok(after);
  });
}

/**
 * Deactivates (`active` false) or reactivates a user. Deactivation deletes every session of the user and ends their
 * unused e-mailed links; the caller forgets the user's cached sessions once this has committed. A user who already
 * has the status asked is answered as they are, with no audit row. Nobody deactivates their own account.
 */
export async function setTenantUserActive(
  pool: Pool,
  actor: TenantActor,
  userId: number,
  active: boolean,
): Promise<Result<{ user: TenantUser; changed: boolean }>> {
  return inTransaction(pool, async (tx): Promise<Result<{ user: TenantUser; changed: boolean }>> => {
    const found = await lockTenantUser(tx, actor, userId);
    if (!found.ok) return found;
    const before = found.value;
    if (!active && userId === actor.userId) return TENANT_USER_REFUSALS.ownAccount;
    if ((before.status !== 'deactivated') === active) return ok({ user: before, changed: false });
    await tx.query('UPDATE users SET disabled = $2 WHERE id = $1', [userId, !active]);
    if (!active) {
      await tx.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
      await revokeValidationKeys(tx, userId);
    }
    const after = await reread(tx, actor, userId);
    await writeAudit(tx, [userAudit(actor, before, after)]);
    return ok({ user: after, changed: true });
  });
}
