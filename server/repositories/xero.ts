import type { components } from '../../src/api/schema.js';
import type { Queryable } from '../db/pool.js';
import { SqlParams } from '../db/sqlParams.js';
import type { OutletDaySales } from '../xero/journal.js';

/** The SQL of the Xero integration (migration 021): connections, authorizations under way and the posting log. */

export interface XeroConnectionRow {
  clientId: number;
  tenantId: string;
  organisationName: string;
  baseCurrency: string | null;
  accessTokenEnc: string;
  refreshTokenEnc: string;
  accessExpiresAt: Date;
  refreshFailedAt: Date | null;
  connectedAt: Date;
  /** The e-mail of the user who connected it (null when the account is gone). */
  connectedBy: string | null;
  salesAccount: string | null;
  taxType: string | null;
  clearingAccount: string | null;
  options: unknown;
  optionsReadAt: Date | null;
}

const CONNECTION_COLUMNS = `c.client_id AS "clientId", c.tenant_id AS "tenantId",
  c.organisation_name AS "organisationName", c.base_currency AS "baseCurrency",
  c.access_token_enc AS "accessTokenEnc", c.refresh_token_enc AS "refreshTokenEnc",
  c.access_expires_at AS "accessExpiresAt", c.refresh_failed_at AS "refreshFailedAt",
  c.connected_at AS "connectedAt", u.email AS "connectedBy", c.sales_account AS "salesAccount",
  c.tax_type AS "taxType", c.clearing_account AS "clearingAccount", c.options, c.options_read_at AS "optionsReadAt"`;

/** The client's connection; `lock` holds its row (FOR UPDATE) until the transaction ends. */
export async function findXeroConnection(
  db: Queryable,
  clientId: number,
  options: { lock?: boolean } = {},
): Promise<XeroConnectionRow | undefined> {
  const { rows } = await db.query<XeroConnectionRow>(
    `SELECT ${CONNECTION_COLUMNS} FROM xero_connections c LEFT JOIN users u ON u.id = c.connected_by
     WHERE c.client_id = $1${options.lock ? ' FOR UPDATE OF c' : ''}`,
    [clientId],
  );
  return rows[0];
}

export interface NewXeroConnection {
  clientId: number;
  tenantId: string;
  organisationName: string;
  baseCurrency: string | null;
  accessTokenEnc: string;
  refreshTokenEnc: string;
  accessExpiresAt: Date;
  scope: string;
  connectedBy: number;
  options: unknown;
}

/**
 * Saves a new connection of the client, replacing any earlier one; the chosen accounts are kept when it is the same
 * organisation again, and cleared for another.
 */
export async function saveXeroConnection(db: Queryable, connection: NewXeroConnection): Promise<void> {
  await db.query(
    `INSERT INTO xero_connections AS x (client_id, tenant_id, organisation_name, base_currency, access_token_enc,
       refresh_token_enc, access_expires_at, scope, connected_by, options, options_read_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now())
     ON CONFLICT (client_id) DO UPDATE SET
       tenant_id = excluded.tenant_id, organisation_name = excluded.organisation_name,
       base_currency = excluded.base_currency, access_token_enc = excluded.access_token_enc,
       refresh_token_enc = excluded.refresh_token_enc, access_expires_at = excluded.access_expires_at,
       refresh_failed_at = NULL, scope = excluded.scope, connected_at = now(), connected_by = excluded.connected_by,
       options = excluded.options, options_read_at = now(), updated_at = now(),
       sales_account = CASE WHEN x.tenant_id = excluded.tenant_id THEN x.sales_account END,
       tax_type = CASE WHEN x.tenant_id = excluded.tenant_id THEN x.tax_type END,
       clearing_account = CASE WHEN x.tenant_id = excluded.tenant_id THEN x.clearing_account END`,
    [
      connection.clientId,
      connection.tenantId,
      connection.organisationName,
      connection.baseCurrency,
      connection.accessTokenEnc,
      connection.refreshTokenEnc,
      connection.accessExpiresAt,
      connection.scope,
      connection.connectedBy,
      JSON.stringify(connection.options),
    ],
  );
}

/** New tokens after a refresh (Xero rotates the refresh token too). */
export async function saveXeroTokens(
  db: Queryable,
  clientId: number,
  tokens: { accessTokenEnc: string; refreshTokenEnc: string; accessExpiresAt: Date; scope: string },
): Promise<void> {
  await db.query(
    `UPDATE xero_connections SET access_token_enc = $2, refresh_token_enc = $3, access_expires_at = $4, scope = $5,
       refresh_failed_at = NULL, updated_at = now()
     WHERE client_id = $1`,
    [clientId, tokens.accessTokenEnc, tokens.refreshTokenEnc, tokens.accessExpiresAt, tokens.scope],
  );
}

/** Xero refused the refresh token: the connection must be made again. */
export async function markXeroRefreshFailed(db: Queryable, clientId: number): Promise<void> {
  await db.query('UPDATE xero_connections SET refresh_failed_at = now(), updated_at = now() WHERE client_id = $1', [
    clientId,
  ]);
}

export async function saveXeroOptions(
  db: Queryable,
  clientId: number,
  read: { organisationName: string; baseCurrency: string | null; options: unknown },
): Promise<void> {
  await db.query(
    `UPDATE xero_connections SET organisation_name = $2, base_currency = $3, options = $4, options_read_at = now(),
       updated_at = now()
     WHERE client_id = $1`,
    [clientId, read.organisationName, read.baseCurrency, JSON.stringify(read.options)],
  );
}

export async function saveXeroAccounts(
  db: Queryable,
  clientId: number,
  accounts: { salesAccount: string; taxType: string; clearingAccount: string },
): Promise<boolean> {
  const result = await db.query(
    `UPDATE xero_connections SET sales_account = $2, tax_type = $3, clearing_account = $4, updated_at = now()
     WHERE client_id = $1`,
    [clientId, accounts.salesAccount, accounts.taxType, accounts.clearingAccount],
  );
  return (result.rowCount ?? 0) > 0;
}

/** Forgets the client's connection; answers its encrypted refresh token, to revoke at Xero. */
export async function deleteXeroConnection(db: Queryable, clientId: number): Promise<string | undefined> {
  const { rows } = await db.query<{ refreshTokenEnc: string }>(
    'DELETE FROM xero_connections WHERE client_id = $1 RETURNING refresh_token_enc AS "refreshTokenEnc"',
    [clientId],
  );
  return rows[0]?.refreshTokenEnc;
}

/** The clients whose connection works (Xero has not refused its refresh token), and whether their accounts are chosen. */
export async function workingXeroConnections(db: Queryable): Promise<{ clientId: number; accountsChosen: boolean }[]> {
  const { rows } = await db.query<{ clientId: number; accountsChosen: boolean }>(
    `SELECT client_id AS "clientId",
       (sales_account IS NOT NULL AND tax_type IS NOT NULL AND clearing_account IS NOT NULL) AS "accountsChosen"
     FROM xero_connections WHERE refresh_failed_at IS NULL ORDER BY client_id`,
  );
  return rows;
}

/* ---------------------------------------------------------------- authorizations under way */

export interface XeroAuthorization {
  bindingHash: string;
  sessionTokenHash: string;
  userId: number;
  clientId: number;
  state: string;
  codeVerifier: string;
  startedAt: Date;
}

export async function saveXeroAuthorization(db: Queryable, attempt: Omit<XeroAuthorization, 'startedAt'>) {
  await db.query(
    `INSERT INTO xero_authorizations (binding_hash, session_token_hash, user_id, client_id, state, code_verifier)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      attempt.bindingHash,
      attempt.sessionTokenHash,
      attempt.userId,
      attempt.clientId,
      attempt.state,
      attempt.codeVerifier,
    ],
  );
}

/** The attempt of a callback cookie, taken (deleted) so that it is used once. */
export async function takeXeroAuthorization(
  db: Queryable,
  bindingHash: string,
): Promise<XeroAuthorization | undefined> {
  const { rows } = await db.query<XeroAuthorization>(
    `DELETE FROM xero_authorizations WHERE binding_hash = $1
     RETURNING binding_hash AS "bindingHash", session_token_hash AS "sessionTokenHash", user_id AS "userId",
       client_id AS "clientId", state, code_verifier AS "codeVerifier", started_at AS "startedAt"`,
    [bindingHash],
  );
  return rows[0];
}

export async function deleteOldXeroAuthorizations(db: Queryable, olderThanSeconds: number): Promise<void> {
  await db.query(`DELETE FROM xero_authorizations WHERE started_at < now() - make_interval(secs => $1)`, [
    olderThanSeconds,
  ]);
}

/* ---------------------------------------------------------------- daily sales and the posting log */

/**
 * The day's sales of each outlet of the client that had any (rollup_outlet_daily, in the outlet's currency), for
 * the outlets whose mall's local day has ended.
 */
export async function outletDaySales(db: Queryable, clientId: number, day: string): Promise<OutletDaySales[]> {
  const { rows } = await db.query<OutletDaySales>(
    `SELECT o.id AS "outletId", o.name AS "outletName", nullif(o.outlet_code, '') AS "outletCode",
       m.name AS "mallName", o.currency, r.local_day::text AS day, r.gmv::float8 AS amount
     FROM rollup_outlet_daily r
     JOIN outlets o ON o.client_id = r.client_id AND o.id = r.outlet_id
     JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
     WHERE r.client_id = $1 AND r.local_day = $2::date AND r.gmv > 0
       AND r.local_day < (now() AT TIME ZONE m.time_zone)::date
     ORDER BY o.id`,
    [clientId, day],
  );
  return rows;
}

/** The earliest local today among the client's malls: the days before it have ended in every mall. */
export async function earliestMallToday(db: Queryable, clientId: number): Promise<string | undefined> {
  const { rows } = await db.query<{ today: string | null }>(
    'SELECT min((now() AT TIME ZONE time_zone)::date)::text AS today FROM malls WHERE client_id = $1',
    [clientId],
  );
  return rows[0]?.today ?? undefined;
}

export interface PostingKey {
  clientId: number;
  outletId: number;
  day: string;
}

/**
 * Decides an outlet's day, in the caller's transaction: claims its row ('posting', locked until the transaction
 * ends) unless it is posted. A second run waits on the lock, then finds it posted and gets undefined. Answers the
 * key generation to send.
 */
export async function claimXeroPosting(
  db: Queryable,
  posting: PostingKey & { tenantId: string; amount: number; currency: string },
): Promise<{ generation: number } | undefined> {
  const { rows } = await db.query<{ generation: number }>(
    `INSERT INTO xero_postings AS p (client_id, outlet_id, day, tenant_id, status, amount, currency)
     VALUES ($1, $2, $3::date, $4, 'posting', $5, $6)
     ON CONFLICT (client_id, outlet_id, day) DO UPDATE SET
       status = 'posting', tenant_id = excluded.tenant_id, amount = excluded.amount, currency = excluded.currency,
       attempts = p.attempts + 1, updated_at = now()
     WHERE p.status <> 'posted'
     RETURNING key_generation AS generation`,
    [posting.clientId, posting.outletId, posting.day, posting.tenantId, posting.amount, posting.currency],
  );
  return rows[0];
}

/** How a claimed day ended: posted with its journal, failed (the next run tries again), or skipped. */
export type PostingOutcome =
  | { status: 'posted'; journalId: string }
  | { status: 'failed'; message: string; newKey: boolean }
  | { status: 'skipped'; message: string };

export async function finishXeroPosting(db: Queryable, key: PostingKey, outcome: PostingOutcome): Promise<void> {
  await db.query(
    `UPDATE xero_postings SET status = $4, journal_id = $5, message = $6,
       key_generation = key_generation + $7, posted_at = CASE WHEN $4 = 'posted' THEN now() END, updated_at = now()
     WHERE client_id = $1 AND outlet_id = $2 AND day = $3::date`,
    [
      key.clientId,
      key.outletId,
      key.day,
      outcome.status,
      outcome.status === 'posted' ? outcome.journalId : null,
      outcome.status === 'posted' ? null : outcome.message,
      outcome.status === 'failed' && outcome.newKey ? 1 : 0,
    ],
  );
}

export type XeroPosting = components['schemas']['XeroPosting'];
export type XeroPostingSort = 'day' | 'outlet_name' | 'amount' | 'status' | 'posted_at';

const SORT_EXPRESSIONS: Record<XeroPostingSort, string> = {
  day: 'p.day',
  outlet_name: 'lower(o.name)',
  amount: 'p.amount',
  status: 'p.status',
  posted_at: 'p.posted_at',
};

const POSTING_COLUMNS = `p.day::text AS day, p.outlet_id, o.name AS outlet_name, p.currency, p.amount::float8 AS amount,
  p.status, p.journal_id, p.message,
  to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`;

/** The outlets a caller limited to some outlets of the client sees: their condition, none when not limited. */
function outletCondition(params: SqlParams, outletIds: readonly number[] | undefined): string {
  return outletIds === undefined ? '' : ` AND p.outlet_id = ANY(${params.add(outletIds, '::int[]')})`;
}

/** A page of the client's posting log (rows still being decided are not shown). */
export async function listXeroPostings(
  db: Queryable,
  query: {
    clientId: number;
    outletIds: readonly number[] | undefined;
    page: number;
    rowsPerPage: number;
    sortColumn: XeroPostingSort;
    order: 'asc' | 'desc';
  },
): Promise<{ data: XeroPosting[]; total: number }> {
  const params = new SqlParams(query.clientId);
  const where = `p.client_id = $1 AND p.status <> 'posting'${outletCondition(params, query.outletIds)}`;
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const limit = params.add(query.rowsPerPage);
  const offset = params.add((query.page - 1) * query.rowsPerPage);
  const { rows } = await db.query<XeroPosting & { total: number }>(
    `SELECT ${POSTING_COLUMNS}, count(*) OVER ()::int AS total
     FROM xero_postings p JOIN outlets o ON o.client_id = p.client_id AND o.id = p.outlet_id
     WHERE ${where}
     ORDER BY ${SORT_EXPRESSIONS[query.sortColumn]} ${direction} NULLS LAST, p.day ${direction}, p.outlet_id ${direction}
     LIMIT ${limit} OFFSET ${offset}`,
    params.values,
  );
  if (rows.length === 0 && query.page > 1) {
    const { rows: counted } = await db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM xero_postings p WHERE ${where}`,
      params.values.slice(0, params.values.length - 2),
    );
    return { data: [], total: counted[0]?.total ?? 0 };
  }
  return { data: rows.map(({ total: _, ...row }) => row), total: rows[0]?.total ?? 0 };
}

/** The log's rows of one day. */
export async function dayXeroPostings(
  db: Queryable,
  clientId: number,
  day: string,
  outletIds: readonly number[] | undefined,
): Promise<XeroPosting[]> {
  const params = new SqlParams(clientId, day);
  const { rows } = await db.query<XeroPosting>(
    `SELECT ${POSTING_COLUMNS}
     FROM xero_postings p JOIN outlets o ON o.client_id = p.client_id AND o.id = p.outlet_id
     WHERE p.client_id = $1 AND p.day = $2::date AND p.status <> 'posting'${outletCondition(params, outletIds)}
     ORDER BY p.outlet_id`,
    params.values,
  );
  return rows;
}
