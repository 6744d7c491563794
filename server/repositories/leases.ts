import type { components, operations } from '../../src/api/schema.js';
import { LEASE_MESSAGES, type LeaseTerms, type RentTier } from '../../src/domain/leases.js';
import type { Queryable } from '../db/pool.js';
import { SqlParams } from '../db/sqlParams.js';
import { writeAudit } from './audit.js';
import { ok, type Result, refuse } from './domainError.js';
import { declarationFlaggedSql, gtoVarianceThreshold } from './gto.js';
import { clientOutletCondition, type Visibility } from './lookup.js';
import { monthFiguresSql } from './monthFigures.js';
import { rentDocumentNumbersSql } from './rentInvoices.js';

/**
 * Leases of the client's outlets (leases, migration 031) and what a month's rent is computed from: the lease's
 * terms, the GTO its tenant declared and the sales its receipts captured. The rent itself follows one rule, in
 * src/domain/leases.ts. Every change writes its audit_log row, before and after, in the same transaction.
 */

type Schemas = components['schemas'];
export type Lease = Schemas['Lease'];
type LeaseQuery = NonNullable<operations['getLeases']['parameters']['query']>;
export type LeaseSortColumn = NonNullable<LeaseQuery['sortColumn']>;
export type LeaseStatusFilter = Schemas['LeaseStatusFilter'];

/** What a new or changed lease holds (checked by the route against the rules between fields). */
export interface LeaseInput extends LeaseTerms {
  readonly outlet_id: number;
}

/** The columns of a lease with its outlet `o` and mall `m`, as the contract's Lease. */
const LEASE_COLUMNS = `l.id, l.outlet_id, o.name AS outlet_name, o.outlet_code, o.mall_id, m.name AS mall_name,
  o.currency, m.gst_percent::float8 AS gst_percent,
  to_char(l.start_date, 'YYYY-MM-DD') AS start_date, to_char(l.end_date, 'YYYY-MM-DD') AS end_date,
  l.gla_sqm::float8 AS gla_sqm, l.base_rent::float8 AS base_rent, l.service_charge::float8 AS service_charge,
  jsonb_build_object('model', l.turnover_model, 'tiers', l.turnover_tiers) AS turnover_rent,
  to_char(l.notice_date, 'YYYY-MM-DD') AS notice_date, to_char(l.renewal_date, 'YYYY-MM-DD') AS renewal_date,
  CASE WHEN (now() AT TIME ZONE m.time_zone)::date < l.start_date THEN 'upcoming'
       WHEN (now() AT TIME ZONE m.time_zone)::date > l.end_date THEN 'ended'
       ELSE 'current' END AS status`;

/** The columns of LEASE_COLUMNS, which make a Lease: a query that reads them beside others names them `lease_<name>`. */
const LEASE_FIELDS = [
  'id',
  'outlet_id',
  'outlet_name',
  'outlet_code',
  'mall_id',
  'mall_name',
  'currency',
  'gst_percent',
  'start_date',
  'end_date',
  'gla_sqm',
  'base_rent',
  'service_charge',
  'turnover_rent',
  'notice_date',
  'renewal_date',
  'status',
] as const satisfies readonly (keyof Lease)[];

/**
 * The lease of a row whose LEASE_FIELDS are named `lease_<name>`, and the row's other columns. Cheaper than a lease
 * as one JSON column (to_jsonb of a row costs more than the rest of a statement of 300 outlets).
 */
function withLease<T extends Record<string, unknown>>(row: T): { lease: Lease; rest: Record<string, unknown> } {
  const lease: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  // Copied, not deleted: an object that loses properties turns into a slow dictionary (6 ms for 2,000 rows).
  for (const key of Object.keys(row)) {
    if (key.startsWith('lease_')) lease[key.slice(6)] = row[key];
    else rest[key] = row[key];
  }
  return { lease: lease as Lease, rest };
}

const LEASE_FROM = `leases l JOIN outlets o ON o.client_id = l.client_id AND o.id = l.outlet_id
  JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id`;

const SORT_SQL: Record<LeaseSortColumn, string> = {
  outlet_name: 'lower(o.name)',
  mall_name: 'lower(m.name)',
  gla_sqm: 'l.gla_sqm',
  base_rent: 'l.base_rent',
  model: 'l.turnover_model',
  start_date: 'l.start_date',
  end_date: 'l.end_date',
  notice_date: 'l.notice_date',
};

const STATUS_SQL: Record<LeaseStatusFilter, string> = {
  all: 'true',
  current: '(now() AT TIME ZONE m.time_zone)::date BETWEEN l.start_date AND l.end_date',
  upcoming: '(now() AT TIME ZONE m.time_zone)::date < l.start_date',
  ended: '(now() AT TIME ZONE m.time_zone)::date > l.end_date',
};

export interface LeaseListScope {
  clientId: number;
  visibility: Visibility;
  mallIds?: readonly number[];
}

export interface LeaseListOptions {
  search?: string;
  status: LeaseStatusFilter;
  expiringWithinMonths?: number;
  sortColumn: LeaseSortColumn;
  order: 'asc' | 'desc';
  page: number;
  rowsPerPage: number;
}

/** `%text%` for ILIKE, its wildcards taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** One page of the leases of the outlets in scope, and how many match. */
export async function listLeases(
  db: Queryable,
  scope: LeaseListScope,
  options: LeaseListOptions,
): Promise<{ data: Lease[]; total: number }> {
  const params = new SqlParams();
  const conditions = [clientOutletCondition(params, scope.visibility, scope.clientId), STATUS_SQL[options.status]];
  if (scope.mallIds && scope.mallIds.length > 0) {
    conditions.push(`o.mall_id = ANY(${params.add([...scope.mallIds], '::int[]')})`);
  }
  if (options.search) {
    const pattern = params.add(containing(options.search), '::text');
    conditions.push(`(o.name ILIKE ${pattern} OR o.outlet_code ILIKE ${pattern})`);
  }
  if (options.expiringWithinMonths !== undefined) {
    const months = params.add(options.expiringWithinMonths, '::int');
    const today = '(now() AT TIME ZONE m.time_zone)::date';
    const until = `(${today} + ${months} * interval '1 month')::date`;
    conditions.push(`(l.end_date BETWEEN ${today} AND ${until} OR l.notice_date BETWEEN ${today} AND ${until})`);
  }
  const direction = options.order === 'asc' ? 'ASC' : 'DESC';
  const limit = params.add(options.rowsPerPage, '::int');
  const offset = params.add((options.page - 1) * options.rowsPerPage, '::int');
  const { rows } = await db.query<Lease & { total_rows: number }>(
    `SELECT ${LEASE_COLUMNS}, count(*) OVER ()::int AS total_rows
     FROM ${LEASE_FROM}
     WHERE l.client_id = ${params.add(scope.clientId, '::int')} AND ${conditions.join(' AND ')}
     ORDER BY ${SORT_SQL[options.sortColumn]} ${direction} NULLS LAST, lower(o.name) ${direction},
       l.start_date ${direction}, l.id
     LIMIT ${limit} OFFSET ${offset}`,
    params.values,
  );
  return { data: rows.map(({ total_rows: _total, ...lease }) => lease), total: rows[0]?.total_rows ?? 0 };
}

/** The client's lease `id` with its outlet and mall; locked for a change when `forUpdate`. */
async function leaseById(db: Queryable, clientId: number, id: number, forUpdate = false): Promise<Lease | undefined> {
  const { rows } = await db.query<Lease>(
    `SELECT ${LEASE_COLUMNS} FROM ${LEASE_FROM} WHERE l.client_id = $1 AND l.id = $2${forUpdate ? ' FOR UPDATE OF l' : ''}`,
    [clientId, id],
  );
  return rows[0];
}

/** Whether the caller sees outlet `outletId` of the client. */
async function outletVisible(db: Queryable, visibility: Visibility, clientId: number, outletId: number) {
  const params = new SqlParams();
  const condition = clientOutletCondition(params, visibility, clientId);
  const { rows } = await db.query(
    `SELECT 1 FROM outlets o WHERE ${condition} AND o.id = ${params.add(outletId, '::int')}`,
    params.values,
  );
  return rows.length === 1;
}

/**
 * Refuses a term that overlaps another lease of the outlet (but `exceptId`). Takes the outlet's row lock first, so
 * that of two saves at once the second sees the first's lease.
 */
async function overlapRefusal(
  db: Queryable,
  clientId: number,
  lease: LeaseInput,
  exceptId: number | null,
): Promise<Result<void>> {
  await db.query('SELECT 1 FROM outlets WHERE client_id = $1 AND id = $2 FOR UPDATE', [clientId, lease.outlet_id]);
  const { rows } = await db.query(
    `SELECT 1 FROM leases WHERE client_id = $1 AND outlet_id = $2 AND id IS DISTINCT FROM $3::int
       AND start_date <= $5::date AND end_date >= $4::date LIMIT 1`,
    [clientId, lease.outlet_id, exceptId, lease.start_date, lease.end_date],
  );
  return rows.length > 0 ? refuse('invalid', LEASE_MESSAGES.overlapping, 'start_date') : ok(undefined);
}

/** A tier as stored: its threshold and rate to 2 decimals. */
const storedTiers = (tiers: readonly RentTier[]) =>
  JSON.stringify(
    tiers.map((tier) => ({
      from: Math.round(tier.from * 100) / 100,
      rate_percent: Math.round(tier.rate_percent * 100) / 100,
    })),
  );

const termValues = (lease: LeaseInput) => [
  lease.start_date,
  lease.end_date,
  lease.gla_sqm,
  lease.base_rent,
  lease.service_charge,
  lease.turnover_rent.model,
  storedTiers(lease.turnover_rent.tiers),
  lease.notice_date ?? null,
  lease.renewal_date ?? null,
];

/** What an audit entry keeps of a lease: its terms, not the names it is shown with. */
const audited = (lease: Lease) => ({
  outlet_id: lease.outlet_id,
  start_date: lease.start_date,
  end_date: lease.end_date,
  gla_sqm: lease.gla_sqm,
  base_rent: lease.base_rent,
  service_charge: lease.service_charge,
  turnover_model: lease.turnover_rent.model,
  turnover_tiers: lease.turnover_rent.tiers,
  notice_date: lease.notice_date,
  renewal_date: lease.renewal_date,
});

/** Adds a lease with its audit row (call inside a transaction); refused when its term overlaps another. */
export async function createLease(
  db: Queryable,
  input: { clientId: number; userId: number; lease: LeaseInput },
): Promise<Result<Lease>> {
  const overlap = await overlapRefusal(db, input.clientId, input.lease, null);
  if (!overlap.ok) return overlap;
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO leases (client_id, outlet_id, start_date, end_date, gla_sqm, base_rent, service_charge,
       turnover_model, turnover_tiers, notice_date, renewal_date)
     VALUES ($1, $2, $3::date, $4::date, round($5::numeric, 2), round($6::numeric, 2), round($7::numeric, 2), $8,
       $9::jsonb, $10::date, $11::date)
     RETURNING id`,
    [input.clientId, input.lease.outlet_id, ...termValues(input.lease)],
  );
  const created = rows[0] && (await leaseById(db, input.clientId, rows[0].id));
  if (!created) throw new Error('lease not stored');
  await writeAudit(db, [
    {
      clientId: input.clientId,
      userId: input.userId,
      action: 'create',
      entity: 'lease',
      entityId: created.id,
      before: null,
      after: audited(created),
    },
  ]);
  return ok(created);
}

/**
 * Changes a lease with its audit row, before and after (call inside a transaction): not found when the client has
 * no such lease or the caller does not see its outlet; refused when it would move to another outlet or overlap
 * another lease of its outlet.
 */
export async function updateLease(
  db: Queryable,
  input: { clientId: number; userId: number; visibility: Visibility; id: number; lease: LeaseInput },
): Promise<Result<Lease>> {
  const before = await leaseById(db, input.clientId, input.id, true);
  if (!before || !(await outletVisible(db, input.visibility, input.clientId, before.outlet_id))) {
    return refuse('notFound', LEASE_MESSAGES.noSuchLease);
  }
  if (before.outlet_id !== input.lease.outlet_id) return refuse('invalid', LEASE_MESSAGES.otherOutlet, 'outlet_id');
  const overlap = await overlapRefusal(db, input.clientId, input.lease, input.id);
  if (!overlap.ok) return overlap;
  await db.query(
    `UPDATE leases SET start_date = $3::date, end_date = $4::date, gla_sqm = round($5::numeric, 2),
       base_rent = round($6::numeric, 2), service_charge = round($7::numeric, 2), turnover_model = $8,
       turnover_tiers = $9::jsonb, notice_date = $10::date, renewal_date = $11::date, updated_at = now()
     WHERE client_id = $1 AND id = $2`,
    [input.clientId, input.id, ...termValues(input.lease)],
  );
  const after = await leaseById(db, input.clientId, input.id);
  if (!after) throw new Error('lease not stored');
  await writeAudit(db, [
    {
      clientId: input.clientId,
      userId: input.userId,
      action: 'update',
      entity: 'lease',
      entityId: input.id,
      before: audited(before),
      after: audited(after),
    },
  ]);
  return ok(after);
}

/** The currency of the client's outlet `outletId` (the gate has checked the caller sees it). */
export async function outletCurrency(db: Queryable, clientId: number, outletId: number): Promise<string> {
  const { rows } = await db.query<{ currency: string }>(
    'SELECT currency FROM outlets WHERE client_id = $1 AND id = $2',
    [clientId, outletId],
  );
  return rows[0]?.currency ?? '';
}

/** What a month's rent of one lease is computed from. */
export interface RentInputRow {
  lease: Lease;
  category: string;
  level: string;
  /** The mall's today. */
  today: string;
  /** The declared GTO of the month; null without a submission. */
  sales_declared: number | null;
  /** The month's captured sales (non-void receipts) so far. */
  sales_captured: number;
  /** The month's projected captured sales while it is open in the mall's time zone; null once it is over. */
  sales_projected: number | null;
  invoice_number: string | null;
  /** Whether the declaration differs from the captured sales beyond the client's threshold (the GTO review's flag). */
  flagged: boolean;
}

export interface RentInputScope {
  clientId: number;
  visibility: Visibility;
  mallIds?: readonly number[];
  outletId?: number;
}

/**
 * Every lease of an outlet in scope covering part of `month` (YYYY-MM), with the month's declared GTO, captured
 * sales and, while the month is open, the projection of the breakeven page: the complete days so far plus, for
 * each day left (today included), the average of the same weekday over the four weeks before today. Read from
 * the daily rollups, never the receipts. Ordered by outlet name, then the lease's start.
 */
export async function rentInputs(
  db: Queryable,
  scope: RentInputScope,
  month: string,
): Promise<{ rows: RentInputRow[]; thresholdPercent: number }> {
  const params = new SqlParams();
  const conditions = [clientOutletCondition(params, scope.visibility, scope.clientId)];
  if (scope.mallIds && scope.mallIds.length > 0) {
    conditions.push(`o.mall_id = ANY(${params.add([...scope.mallIds], '::int[]')})`);
  }
  if (scope.outletId !== undefined) conditions.push(`o.id = ${params.add(scope.outletId, '::int')}`);
  const client = params.add(scope.clientId, '::int');
  const first = params.add(`${month}-01`, '::date');
  const { rows } = await db.query<Record<string, unknown> & { threshold: number }>(
    `WITH bounds AS (SELECT ${first} AS first, (${first} + interval '1 month' - interval '1 day')::date AS last),
     leased AS MATERIALIZED (
       SELECT ${LEASE_COLUMNS}, o.category, o.level, (now() AT TIME ZONE m.time_zone)::date AS today_date
       FROM ${LEASE_FROM}, bounds b
       WHERE l.client_id = ${client} AND ${conditions.join(' AND ')}
         AND l.start_date <= b.last AND l.end_date >= b.first
     ),
     outlets_today AS MATERIALIZED (SELECT DISTINCT outlet_id, today_date FROM leased),
     open AS MATERIALIZED (
       SELECT t.outlet_id, t.today_date AS today FROM outlets_today t, bounds b
       WHERE t.today_date BETWEEN b.first AND b.last
     ),
     ${monthFiguresSql({
       client,
       month: first,
       closedOutlets: 'SELECT outlet_id FROM outlets_today EXCEPT SELECT outlet_id FROM open',
     })}
     SELECT ${LEASE_FIELDS.map((field) => `l.${field} AS lease_${field}`).join(', ')}, l.category, l.level,
       to_char(l.today_date, 'YYYY-MM-DD') AS today,
       g.gto_amount::float8 AS sales_declared,
       coalesce(f.gto, 0)::float8 AS sales_captured,
       CASE WHEN l.today_date BETWEEN b.first AND b.last
            THEN round(coalesce(f.so_far, 0) + coalesce(f.rest, 0), 2)::float8 END AS sales_projected,
       ${rentDocumentNumbersSql(client, 'l.outlet_id', first)} AS invoice_number,
       ${declarationFlaggedSql('g.gto_amount', 'f.gto', 'c.gto_variance_threshold')} AS flagged,
       c.gto_variance_threshold::float8 AS threshold
     FROM leased l
     JOIN clients c ON c.id = ${client}
     CROSS JOIN bounds b
     LEFT JOIN figures f ON f.outlet_id = l.outlet_id
     LEFT JOIN gto_submissions g ON g.client_id = ${client} AND g.outlet_id = l.outlet_id AND g.month = ${first}
     ORDER BY lower(l.outlet_name), l.outlet_id, l.start_date`,
    params.values,
  );
  const thresholdPercent = rows[0]?.threshold ?? (await gtoVarianceThreshold(db, scope.clientId));
  return {
    rows: rows.map(({ threshold: _threshold, ...row }) => {
      const { lease, rest } = withLease(row);
      return { ...rest, lease } as unknown as RentInputRow;
    }),
    thresholdPercent,
  };
}
