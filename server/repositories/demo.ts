import { normalisePaymentMethod } from '../../src/domain/paymentMethods.js';
import type { Pool, Queryable } from '../db/pool.js';

/**
 * The SQL of the demo-data generator other than receipt ingestion (server/repositories/ingestion.ts):
 * set-based inserts of the reference data, settings and targets, and the reads it needs.
 * Rows go in as one JSON parameter a batch (jsonb_to_recordset), so every insert is one round trip per
 * few thousand rows, parameterised, with table and column names fixed here.
 */

const JSON_BATCH = 5000;

interface TableSpec {
  table: string;
  /** Column name and the SQL type jsonb_to_recordset reads it as. */
  columns: readonly (readonly [name: string, type: string])[];
}

async function insertJson<R extends Record<string, unknown>>(
  db: Queryable,
  spec: TableSpec,
  rows: readonly object[],
  returning?: string,
): Promise<R[]> {
  const names = spec.columns.map(([name]) => name).join(', ');
  const definition = spec.columns.map(([name, type]) => `${name} ${type}`).join(', ');
  const sql =
    `INSERT INTO ${spec.table} (${names}) SELECT ${names} FROM jsonb_to_recordset($1::jsonb) AS x(${definition})` +
    (returning ? ` RETURNING ${returning}` : '');
  const result: R[] = [];
  for (let start = 0; start < rows.length; start += JSON_BATCH) {
    const { rows: returned } = await db.query<R>(sql, [JSON.stringify(rows.slice(start, start + JSON_BATCH))]);
    result.push(...returned);
  }
  return result;
}

/** True when the database holds no client and no user: the demo data may be generated. */
export async function isDatabaseEmpty(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ empty: boolean }>(
    'SELECT NOT EXISTS (SELECT 1 FROM clients) AND NOT EXISTS (SELECT 1 FROM users) AS empty',
  );
  return rows[0]?.empty ?? true;
}

/** The advisory locks of the demo (migrations hold 727001): its fill (server/demo/fillDemoData.ts) and its SSO issuer. */
const DEMO_FILL_LOCK = 727002;
const DEMO_SSO_LOCK = 727003;

/** Runs `work` while a session of `pool` holds the advisory lock `lock`; `work` is given that session. */
async function whileHoldingLock<T>(pool: Pool, lock: number, work: (session: Queryable) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [lock]);
    const result = await work(client);
    await client.query('SELECT pg_advisory_unlock($1)', [lock]);
    client.release();
    return result;
  } catch (error) {
    // Closing the connection ends its session, and the lock with it.
    client.release(true);
    throw error;
  }
}

/**
 * Runs `work` while this session holds the demo fill's advisory lock: servers starting together on one database wait
 * for the first one's fill (its transaction runs on other connections of the pool), then find the database filled.
 */
export async function whileHoldingDemoFillLock<T>(pool: Pool, work: () => Promise<T>): Promise<T> {
  return whileHoldingLock(pool, DEMO_FILL_LOCK, () => work());
}

/**
 * Runs `work` on a session holding the lock of the demo's SSO issuer (server/demo/ssoIssuer.ts): one instance at a
 * time checks the stored issuer and, when it does not answer, stores its own.
 */
export async function whileHoldingDemoSsoLock<T>(pool: Pool, work: (session: Queryable) => Promise<T>): Promise<T> {
  return whileHoldingLock(pool, DEMO_SSO_LOCK, work);
}

/** Of `emails`, those of accounts that can sign in (not deactivated, with a password), in e-mail order. */
export async function findActiveAccounts(db: Queryable, emails: readonly string[]): Promise<string[]> {
  const { rows } = await db.query<{ email: string }>(
    `SELECT email FROM users
     WHERE email = ANY($1::text[]) AND NOT disabled AND password_hash IS NOT NULL ORDER BY email`,
    [emails],
  );
  return rows.map((row) => row.email);
}

/** Empties every table of the current schema except schema_migrations, restarting identities. */
export async function truncateAll(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT quote_ident(tablename) AS name FROM pg_tables
     WHERE schemaname = current_schema() AND tablename <> 'schema_migrations' ORDER BY tablename`,
  );
  const tables = rows.map((row) => row.name);
  if (tables.length > 0) await db.query(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`);
  return tables;
}

export async function insertClients(
  db: Queryable,
  clients: readonly { name: string; reporting_currency: string }[],
): Promise<Map<string, number>> {
  const rows = await insertJson<{ id: number; name: string }>(
    db,
    {
      table: 'clients',
      columns: [
        ['name', 'text'],
        ['reporting_currency', 'text'],
      ],
    },
    clients,
    'id, name',
  );
  return new Map(rows.map((row) => [row.name, row.id]));
}

export interface ExchangeRateRow {
  client_id: number;
  /** The first day of the month. */
  month: string;
  currency: string;
  rate: number;
}

export async function insertExchangeRates(db: Queryable, rows: readonly ExchangeRateRow[]): Promise<void> {
  await insertJson(
    db,
    {
      table: 'exchange_rates',
      columns: [
        ['client_id', 'int'],
        ['month', 'date'],
        ['currency', 'text'],
        ['rate', 'numeric'],
      ],
    },
    rows,
  );
}

export interface MallRow {
  client_id: number;
  name: string;
  currency: string;
  time_zone: string;
  /** The country's goods and services tax in percent (receipts carry prices with it). */
  gst_percent: number;
}

export async function insertMalls(db: Queryable, malls: readonly MallRow[]): Promise<Map<string, number>> {
  const rows = await insertJson<{ id: number; name: string }>(
    db,
    {
      table: 'malls',
      columns: [
        ['client_id', 'int'],
        ['name', 'text'],
        ['currency', 'text'],
        ['time_zone', 'text'],
        ['gst_percent', 'numeric(5,2)'],
      ],
    },
    malls,
    'id, name',
  );
  return new Map(rows.map((row) => [row.name, row.id]));
}

export interface OutletRow {
  client_id: number;
  mall_id: number;
  name: string;
  outlet_code: string;
  type: 1 | 2;
  currency: string;
  category: string;
  level: string;
  unit_no: string;
  opened_on: string;
}

/** Inserts outlets; returns their ids by outlet code (unique across the demo data). */
export async function insertOutlets(db: Queryable, outlets: readonly OutletRow[]): Promise<Map<string, number>> {
  const rows = await insertJson<{ id: number; outlet_code: string }>(
    db,
    {
      table: 'outlets',
      columns: [
        ['client_id', 'int'],
        ['mall_id', 'int'],
        ['name', 'text'],
        ['outlet_code', 'text'],
        ['type', 'smallint'],
        ['currency', 'text'],
        ['category', 'text'],
        ['level', 'text'],
        ['unit_no', 'text'],
        ['opened_on', 'date'],
      ],
    },
    outlets,
    'id, outlet_code',
  );
  return new Map(rows.map((row) => [row.outlet_code, row.id]));
}

export async function insertCategories(
  db: Queryable,
  clientId: number,
  names: readonly string[],
): Promise<Map<string, number>> {
  const rows = await insertJson<{ id: number; name: string }>(
    db,
    {
      table: 'categories',
      columns: [
        ['client_id', 'int'],
        ['name', 'text'],
      ],
    },
    names.map((name) => ({ client_id: clientId, name })),
    'id, name',
  );
  return new Map(rows.map((row) => [row.name, row.id]));
}

export async function insertSubcategories(
  db: Queryable,
  clientId: number,
  subcategories: readonly { name: string; category_id: number | null }[],
): Promise<Map<string, number>> {
  const rows = await insertJson<{ id: number; name: string }>(
    db,
    {
      table: 'subcategories',
      columns: [
        ['client_id', 'int'],
        ['category_id', 'int'],
        ['name', 'text'],
      ],
    },
    subcategories.map((row) => ({ client_id: clientId, ...row })),
    'id, name',
  );
  return new Map(rows.map((row) => [row.name, row.id]));
}

export interface SkuRow {
  client_id: number;
  outlet_id: number;
  barcode: string;
  item_name: string;
  unit_price: number;
  subcategory_id: number | null;
}

/** Inserts SKUs; returns their ids by barcode (unique across the demo data). */
export async function insertSkus(db: Queryable, skus: readonly SkuRow[]): Promise<Map<string, number>> {
  const rows = await insertJson<{ id: number; barcode: string }>(
    db,
    {
      table: 'skus',
      columns: [
        ['client_id', 'int'],
        ['outlet_id', 'int'],
        ['barcode', 'text'],
        ['item_name', 'text'],
        ['unit_price', 'numeric(14,2)'],
        ['subcategory_id', 'int'],
      ],
    },
    skus,
    'id, barcode',
  );
  return new Map(rows.map((row) => [row.barcode, row.id]));
}

export interface RoleRow {
  name: string;
  is_super_admin: boolean;
  routes: { name: string; subPermissions: string[] }[];
  api: string[];
  components: string[];
}

/** Inserts roles with their route, API and component permissions; returns role ids by name. */
export async function insertRoles(db: Queryable, roles: readonly RoleRow[]): Promise<Map<string, number>> {
  const inserted = await insertJson<{ id: number; name: string }>(
    db,
    {
      table: 'roles',
      columns: [
        ['name', 'text'],
        ['is_super_admin', 'boolean'],
      ],
    },
    roles.map(({ name, is_super_admin }) => ({ name, is_super_admin })),
    'id, name',
  );
  const ids = new Map(inserted.map((row) => [row.name, row.id]));
  const idOf = (name: string) => {
    const id = ids.get(name);
    if (id === undefined) throw new Error(`role '${name}' was not inserted`);
    return id;
  };
  await insertJson(
    db,
    {
      table: 'role_route_permissions',
      columns: [
        ['role_id', 'int'],
        ['name', 'text'],
        ['sub_permissions', 'text[]'],
      ],
    },
    roles.flatMap((role) =>
      role.routes.map((route) => ({
        role_id: idOf(role.name),
        name: route.name,
        sub_permissions: route.subPermissions,
      })),
    ),
  );
  await insertJson(
    db,
    {
      table: 'role_api_permissions',
      columns: [
        ['role_id', 'int'],
        ['permission', 'text'],
      ],
    },
    roles.flatMap((role) => role.api.map((permission) => ({ role_id: idOf(role.name), permission }))),
  );
  await insertJson(
    db,
    {
      table: 'role_component_permissions',
      columns: [
        ['role_id', 'int'],
        ['component', 'text'],
      ],
    },
    roles.flatMap((role) => role.components.map((component) => ({ role_id: idOf(role.name), component }))),
  );
  return ids;
}

export interface UserRow {
  email: string;
  display_name: string;
  /** null: invited, not activated yet. */
  password_hash: string | null;
  disabled: boolean;
  password_expired: boolean;
  require_mfa: boolean;
  tenant_only: boolean;
  hide_top_bar: boolean;
  default_client_id: number;
}

/** Inserts users; returns their ids by e-mail. */
export async function insertUsers(db: Queryable, users: readonly UserRow[]): Promise<Map<string, number>> {
  const rows = await insertJson<{ id: number; email: string }>(
    db,
    {
      table: 'users',
      columns: [
        ['email', 'text'],
        ['display_name', 'text'],
        ['password_hash', 'text'],
        ['disabled', 'boolean'],
        ['password_expired', 'boolean'],
        ['require_mfa', 'boolean'],
        ['tenant_only', 'boolean'],
        ['hide_top_bar', 'boolean'],
        ['default_client_id', 'int'],
      ],
    },
    users,
    'id, email',
  );
  return new Map(rows.map((row) => [row.email, row.id]));
}

export async function insertUserGrants(
  db: Queryable,
  grants: {
    roles: readonly { user_id: number; role_id: number }[];
    clients: readonly { user_id: number; client_id: number }[];
    outlets: readonly { user_id: number; client_id: number; outlet_id: number }[];
  },
): Promise<void> {
  await insertJson(
    db,
    {
      table: 'user_roles',
      columns: [
        ['user_id', 'int'],
        ['role_id', 'int'],
      ],
    },
    grants.roles,
  );
  await insertJson(
    db,
    {
      table: 'user_clients',
      columns: [
        ['client_id', 'int'],
        ['user_id', 'int'],
      ],
    },
    grants.clients,
  );
  await insertJson(
    db,
    {
      table: 'user_outlets',
      columns: [
        ['client_id', 'int'],
        ['user_id', 'int'],
        ['outlet_id', 'int'],
      ],
    },
    grants.outlets,
  );
}

export async function insertEmailDomains(
  db: Queryable,
  domains: readonly { domain: string; receipts_hidden: boolean }[],
): Promise<void> {
  await insertJson(
    db,
    {
      table: 'email_domains',
      columns: [
        ['domain', 'text'],
        ['receipts_hidden', 'boolean'],
      ],
    },
    domains,
  );
}

export async function insertEmailSubscriptions(
  db: Queryable,
  rows: readonly { client_id: number; user_id: number; email_subscribe: boolean; summary_email_subscribe: boolean }[],
): Promise<void> {
  await insertJson(
    db,
    {
      table: 'email_subscriptions',
      columns: [
        ['client_id', 'int'],
        ['user_id', 'int'],
        ['email_subscribe', 'boolean'],
        ['summary_email_subscribe', 'boolean'],
      ],
    },
    rows,
  );
}

export async function insertNonTradingDays(
  db: Queryable,
  rows: readonly {
    client_id: number;
    outlet_id: number;
    day: string;
    reason: string;
    declared_by: 'tenant' | 'mall';
    declared_by_user: number | null;
    declared_at: string;
  }[],
): Promise<void> {
  await insertJson(
    db,
    {
      table: 'non_trading_days',
      columns: [
        ['client_id', 'int'],
        ['outlet_id', 'int'],
        ['day', 'date'],
        ['reason', 'text'],
        ['declared_by', 'text'],
        ['declared_by_user', 'int'],
        ['declared_at', 'timestamptz'],
      ],
    },
    rows,
  );
}

export async function insertMealTimings(
  db: Queryable,
  rows: readonly { client_id: number; outlet_id: number; name: string; start_time: string; end_time: string }[],
): Promise<void> {
  await insertJson(
    db,
    {
      table: 'meal_timings',
      columns: [
        ['client_id', 'int'],
        ['outlet_id', 'int'],
        ['name', 'text'],
        ['start_time', 'time'],
        ['end_time', 'time'],
      ],
    },
    rows,
  );
}

/** Processing fees, each method stored normalised (as receipts store theirs, so that fees match them). */
export async function insertProcessingFees(
  db: Queryable,
  rows: readonly { client_id: number; outlet_id: number; payment_method: string; processing_fees: number }[],
): Promise<void> {
  await insertJson(
    db,
    {
      table: 'processing_fees',
      columns: [
        ['client_id', 'int'],
        ['outlet_id', 'int'],
        ['payment_method', 'text'],
        ['processing_fees', 'numeric(6,2)'],
      ],
    },
    rows.map((row) => ({ ...row, payment_method: normalisePaymentMethod(row.payment_method) })),
  );
}

export async function insertAccountingConnection(
  db: Queryable,
  row: {
    client_id: number;
    provider: string;
    organisation: string;
    access_token: string;
    refresh_token: string;
    token_expires_at: string;
    sales_account: string;
    tax_account: string;
    currency: string;
    connected_at: string;
  },
): Promise<void> {
  await insertJson(
    db,
    {
      table: 'accounting_connections',
      columns: [
        ['client_id', 'int'],
        ['provider', 'text'],
        ['organisation', 'text'],
        ['access_token', 'text'],
        ['refresh_token', 'text'],
        ['token_expires_at', 'timestamptz'],
        ['sales_account', 'text'],
        ['tax_account', 'text'],
        ['currency', 'text'],
        ['connected_at', 'timestamptz'],
      ],
    },
    [row],
  );
}

export async function insertAuditLog(
  db: Queryable,
  rows: readonly {
    client_id: number;
    user_id: number | null;
    action: string;
    entity: string;
    entity_id: string | null;
    detail: Record<string, unknown>;
    created_at: string;
  }[],
): Promise<void> {
  await insertJson(
    db,
    {
      table: 'audit_log',
      columns: [
        ['client_id', 'int'],
        ['user_id', 'int'],
        ['action', 'text'],
        ['entity', 'text'],
        ['entity_id', 'text'],
        ['detail', 'jsonb'],
        ['created_at', 'timestamptz'],
      ],
    },
    rows,
  );
}

export async function insertGtoSubmissions(
  db: Queryable,
  rows: readonly {
    client_id: number;
    outlet_id: number;
    month: string;
    gto_amount: number;
    submitted_by: number | null;
    submitted_at: string;
    updated_at: string;
    remarks: string | null;
  }[],
): Promise<void> {
  await insertJson(
    db,
    {
      table: 'gto_submissions',
      columns: [
        ['client_id', 'int'],
        ['outlet_id', 'int'],
        ['month', 'date'],
        ['gto_amount', 'numeric(14,2)'],
        ['submitted_by', 'int'],
        ['submitted_at', 'timestamptz'],
        ['updated_at', 'timestamptz'],
        ['remarks', 'text'],
      ],
    },
    rows,
  );
  await spreadGtoOverDays(db);
}

/**
 * The days of the demo's GTO submissions: each month's declared total spread over the days the outlet captured
 * sales, in proportion to them (whole units in a currency without minor units); the month's total is then the
 * sum of its days, as a tenant's submission is.
 */
async function spreadGtoOverDays(db: Queryable): Promise<void> {
  await db.query(`
    INSERT INTO gto_submission_days (client_id, outlet_id, day, gto)
    SELECT g.client_id, g.outlet_id, r.local_day,
      round(g.gto_amount * r.gmv / sum(r.gmv) OVER (PARTITION BY g.client_id, g.outlet_id, g.month),
            CASE WHEN o.currency = 'IDR' THEN 0 ELSE 2 END)
    FROM gto_submissions g
    JOIN outlets o ON o.client_id = g.client_id AND o.id = g.outlet_id
    JOIN rollup_outlet_daily r ON r.client_id = g.client_id AND r.outlet_id = g.outlet_id
      AND r.local_day >= g.month AND r.local_day < g.month + interval '1 month' AND r.gmv > 0
    ON CONFLICT DO NOTHING`);
  await db.query(`
    UPDATE gto_submissions g SET gto_amount = d.total
    FROM (SELECT client_id, outlet_id, date_trunc('month', day)::date AS month, sum(gto) AS total
          FROM gto_submission_days GROUP BY 1, 2, 3) d
    WHERE d.client_id = g.client_id AND d.outlet_id = g.outlet_id AND d.month = g.month
      AND g.gto_amount <> d.total`);
}

export async function insertSalesTargets(
  db: Queryable,
  rows: readonly { client_id: number; outlet_id: number; month: string; target: number }[],
): Promise<void> {
  await insertJson(
    db,
    {
      table: 'sales_targets',
      columns: [
        ['client_id', 'int'],
        ['outlet_id', 'int'],
        ['month', 'date'],
        ['target', 'numeric(14,2)'],
      ],
    },
    rows,
  );
}

export async function insertBreakevenTargets(
  db: Queryable,
  rows: readonly { client_id: number; outlet_id: number; department: string; month: string; target: number }[],
): Promise<void> {
  await insertJson(
    db,
    {
      table: 'breakeven_targets',
      columns: [
        ['client_id', 'int'],
        ['outlet_id', 'int'],
        ['department', 'text'],
        ['month', 'date'],
        ['target', 'numeric(14,2)'],
      ],
    },
    rows,
  );
}

/** The demo's leases (server/demo/leases.ts), their tiers as JSON. */
export async function insertLeases(
  db: Queryable,
  rows: readonly {
    client_id: number;
    outlet_id: number;
    start_date: string;
    end_date: string;
    gla_sqm: number;
    base_rent: number;
    service_charge: number;
    turnover_model: string;
    turnover_tiers: readonly { from: number; rate_percent: number }[];
    notice_date: string | null;
    renewal_date: string | null;
  }[],
): Promise<void> {
  await insertJson(
    db,
    {
      table: 'leases',
      columns: [
        ['client_id', 'int'],
        ['outlet_id', 'int'],
        ['start_date', 'date'],
        ['end_date', 'date'],
        ['gla_sqm', 'numeric(10,2)'],
        ['base_rent', 'numeric(14,2)'],
        ['service_charge', 'numeric(14,2)'],
        ['turnover_model', 'text'],
        ['turnover_tiers', 'jsonb'],
        ['notice_date', 'date'],
        ['renewal_date', 'date'],
      ],
    },
    rows,
  );
}

/** GMV per outlet and local calendar month, from the daily rollup. */
export async function monthlyOutletGmv(
  db: Queryable,
): Promise<{ client_id: number; outlet_id: number; month: string; gmv: number; days: number }[]> {
  const { rows } = await db.query<{ client_id: number; outlet_id: number; month: string; gmv: number; days: number }>(
    `SELECT client_id, outlet_id, date_trunc('month', local_day)::date AS month, sum(gmv) AS gmv,
       count(*)::int AS days
     FROM rollup_outlet_daily GROUP BY client_id, outlet_id, date_trunc('month', local_day)
     ORDER BY client_id, outlet_id, month`,
  );
  return rows;
}

/**
 * Refreshes planner statistics (and the visibility map) of the tables the generator filled, and rewrites the month
 * rollups compact; not in a transaction. The generator writes all its months in one transaction, so none of the
 * versions its batches leave of a month row could be reclaimed as it went (a live server commits each batch, and
 * its month rows' updates stay on their pages: migration 057): 300 outlets' 7,800 month rows took 79 MB.
 */
export async function vacuumAnalyzeDemoTables(db: Queryable): Promise<void> {
  await db.query(
    `VACUUM (ANALYZE) receipts, rollup_outlet_day_hours, rollup_mall_day_hours,
       rollup_mall_payment_day_hours, rollup_outlet_daily,
       rollup_outlet_payment_daily, outlets, skus, gto_submissions, sales_targets, breakeven_targets`,
  );
  await db.query('VACUUM (FULL, ANALYZE) rollup_outlet_month_hours, rollup_outlet_monthly');
}
