import type { components, operations } from '../../src/api/schema.js';
import type { Queryable } from '../db/pool.js';
import { escapeLike, SqlParams } from '../db/sqlParams.js';
import { writeAudit } from './audit.js';
import { clientOutletCondition, type Visibility } from './lookup.js';

/**
 * Monthly gross turnover (GTO): what tenants declare per day of a month (gto_submission_days, with the month's
 * total, who submitted it and when in gto_submissions), and the review of every outlet's month against the
 * sales captured from its receipts (rollup_outlet_daily: non-void receipts, the outlet's local days; the review reads
 * their month's sum, rollup_outlet_monthly).
 */

type Schemas = components['schemas'];
export type GtoSubmission = Schemas['GtoSubmission'];
export type GtoSummaryRow = Schemas['GtoSummaryRow'];
type SummaryQuery = NonNullable<operations['getGtoSummary']['parameters']['query']>;
export type GtoFilter = NonNullable<SummaryQuery['filterOption']>;
export type GtoSortColumn = NonNullable<SummaryQuery['sortColumn']>;

/** The first day of a month 'YYYY-MM'. */
const firstDay = (month: string) => `${month}-01`;

/** The outlet's today in its mall's time zone, its currency, and whether `month` is open for submissions. */
export interface OutletMonth {
  today: string;
  currency: string;
  /** From the month's first day to the last day of the following month (local). */
  open: boolean;
}

export async function outletMonth(
  db: Queryable,
  clientId: number,
  outletId: number,
  month: string,
): Promise<OutletMonth | undefined> {
  const { rows } = await db.query<OutletMonth>(
    `SELECT to_char(t.today, 'YYYY-MM-DD') AS today, o.currency,
       (t.today >= $3::date AND t.today < ($3::date + interval '2 months')) AS open
     FROM outlets o JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
     CROSS JOIN LATERAL (SELECT (now() AT TIME ZONE m.time_zone)::date AS today) t
     WHERE o.client_id = $1 AND o.id = $2`,
    [clientId, outletId, firstDay(month)],
  );
  return rows[0];
}

/** The days of submission `g` as a JSON array of { date, gto }, oldest first. */
const SUBMISSION_DAYS = `coalesce((SELECT json_agg(json_build_object('date', to_char(d.day, 'YYYY-MM-DD'), 'gto', d.gto::float8)
                                 ORDER BY d.day)
                 FROM gto_submission_days d
                 WHERE d.client_id = g.client_id AND d.outlet_id = g.outlet_id
                   AND d.day >= g.month AND d.day < g.month + interval '1 month'), '[]')`;

/** An outlet's submission for a month (empty and not submitted when there is none). */
export async function getSubmission(
  db: Queryable,
  clientId: number,
  outletId: number,
  month: string,
  state: OutletMonth,
): Promise<GtoSubmission> {
  const { rows } = await db.query<{
    total: number;
    submitted_at: Date;
    updated_at: Date;
    submitted_by: string | null;
    remarks: string | null;
    days: { date: string; gto: number }[];
  }>(
    `SELECT g.gto_amount::float8 AS total, g.submitted_at, g.updated_at, u.email AS submitted_by, g.remarks,
       ${SUBMISSION_DAYS} AS days
     FROM gto_submissions g LEFT JOIN users u ON u.id = g.submitted_by
     WHERE g.client_id = $1 AND g.outlet_id = $2 AND g.month = $3::date`,
    [clientId, outletId, firstDay(month)],
  );
  const row = rows[0];
  const base = {
    outlet_id: outletId,
    searchedMonth: month,
    open: state.open,
    currency: state.currency,
    today: state.today,
  };
  if (!row) {
    return {
      ...base,
      gtoSubmissionData: [],
      total: 0,
      submitted: false,
      submitted_at: null,
      submitted_by: null,
      updated_at: null,
      remarks: null,
    };
  }
  return {
    ...base,
    gtoSubmissionData: row.days,
    total: row.total,
    submitted: true,
    submitted_at: row.submitted_at.toISOString(),
    submitted_by: row.submitted_by,
    updated_at: row.updated_at.toISOString(),
    remarks: row.remarks,
  };
}

export interface SubmissionInput {
  clientId: number;
  outletId: number;
  month: string;
  days: readonly { date: string; gto: number }[];
  remarks: string | null;
  userId: number;
}

/** What an audit entry keeps of a submission: its total, days and remarks. */
interface SubmissionState {
  total: number;
  days: { date: string; gto: number }[];
  remarks: string | null;
}

async function writeDays(db: Queryable, input: SubmissionInput): Promise<void> {
  await db.query(
    `DELETE FROM gto_submission_days WHERE client_id = $1 AND outlet_id = $2
       AND day >= $3::date AND day < $3::date + interval '1 month'`,
    [input.clientId, input.outletId, firstDay(input.month)],
  );
  await db.query(
    `INSERT INTO gto_submission_days (client_id, outlet_id, day, gto)
     SELECT $1, $2, d.day, d.gto FROM unnest($3::date[], $4::numeric[]) AS d(day, gto)`,
    [input.clientId, input.outletId, input.days.map((day) => day.date), input.days.map((day) => day.gto.toFixed(2))],
  );
}

const totalOf = (days: SubmissionInput['days']) =>
  Math.round(days.reduce((sum, day) => sum + Math.round(day.gto * 100), 0)) / 100;

/** Writes the audit entry of a change of a submission, in the change's transaction. */
function audit(
  db: Queryable,
  input: SubmissionInput,
  action: 'create' | 'update',
  before: SubmissionState | null,
  after: SubmissionState,
): Promise<void> {
  const of = (state: SubmissionState | null) => state && { outlet_id: input.outletId, month: input.month, ...state };
  return writeAudit(db, [
    {
      clientId: input.clientId,
      userId: input.userId,
      action,
      entity: 'gto_submission',
      entityId: `${input.outletId}:${input.month}`,
      before: of(before),
      after: of(after),
    },
  ]);
}

/**
 * Stores a first submission with its audit entry (call inside a transaction). False when the month was submitted
 * already (nothing is written).
 */
export async function createSubmission(db: Queryable, input: SubmissionInput): Promise<boolean> {
  const total = totalOf(input.days);
  const { rowCount } = await db.query(
    `INSERT INTO gto_submissions (client_id, outlet_id, month, gto_amount, submitted_by, remarks)
     VALUES ($1, $2, $3::date, $4, $5, $6) ON CONFLICT DO NOTHING`,
    [input.clientId, input.outletId, firstDay(input.month), total.toFixed(2), input.userId, input.remarks],
  );
  if (rowCount === 0) return false;
  await writeDays(db, input);
  await audit(db, input, 'create', null, { total, days: [...input.days], remarks: input.remarks });
  return true;
}

/**
 * Replaces a submitted month's days, total and remarks, with an audit entry of before and after (call inside a
 * transaction: the month's row is locked, so concurrent corrections apply one after the other). False when the
 * month was not submitted.
 */
export async function updateSubmission(db: Queryable, input: SubmissionInput): Promise<boolean> {
  const { rows } = await db.query<SubmissionState>(
    `SELECT g.gto_amount::float8 AS total, g.remarks,
       ${SUBMISSION_DAYS} AS days
     FROM gto_submissions g WHERE g.client_id = $1 AND g.outlet_id = $2 AND g.month = $3::date FOR UPDATE`,
    [input.clientId, input.outletId, firstDay(input.month)],
  );
  const before = rows[0];
  if (!before) return false;
  const total = totalOf(input.days);
  await db.query(
    `UPDATE gto_submissions SET gto_amount = $4, submitted_by = $5, remarks = $6, updated_at = now()
     WHERE client_id = $1 AND outlet_id = $2 AND month = $3::date`,
    [input.clientId, input.outletId, firstDay(input.month), total.toFixed(2), input.userId, input.remarks],
  );
  await writeDays(db, input);
  await audit(db, input, 'update', before, { total, days: [...input.days], remarks: input.remarks });
  return true;
}

/**
 * The GTO review's flag as SQL, the one rule of every page that shows it (the GTO review, the rent statements):
 * the declared sales differ from the captured by more than the threshold (percent of the captured), either way;
 * declared sales against none captured are flagged when above zero; no declaration (NULL) is never flagged.
 * The arguments are SQL expressions: the declared amount, the captured sales (NULL read as none) and the percent.
 */
export const declarationFlaggedSql = (declared: string, captured: string, thresholdPercent: string) =>
  `(${declared} IS NOT NULL AND CASE WHEN coalesce(${captured}, 0) = 0 THEN ${declared} > 0
     ELSE abs(${declared} - ${captured}) / ${captured} * 100 > ${thresholdPercent} END)`;

/** The client's GTO variance threshold in percent (5 when it has none): beyond it a declaration is flagged. */
export async function gtoVarianceThreshold(db: Queryable, clientId: number): Promise<number> {
  const { rows } = await db.query<{ percent: number }>(
    'SELECT gto_variance_threshold::float8 AS percent FROM clients WHERE id = $1',
    [clientId],
  );
  return rows[0]?.percent ?? 5;
}

export interface SummaryScope {
  clientId: number;
  visibility: Visibility;
  mallIds?: readonly number[];
  outletId?: number;
}

const SORT_SQL: Record<GtoSortColumn, string> = {
  outlet_name: 'lower(outlet_name)',
  mall_name: 'lower(mall_name)',
  gto_amount: 'gto_amount',
  status: 'status',
  submitted_at: 'submitted_at',
  captured_sales: 'captured_sales',
  variance_percent: 'abs(variance_percent)',
  due_on: 'due_on',
  last_reminded_on: 'last_reminded_on',
};

const FILTER_SQL: Record<GtoFilter, string> = {
  all: 'true',
  submitted: "status = 'submitted'",
  notSubmitted: "status = 'notSubmitted'",
  flagged: 'flagged',
  late: 'late',
};

/**
 * One page of the month's rows of every outlet in scope: its submission, the sales captured from its receipts,
 * the variance and the flag; and the number of rows the filter keeps, and the client's threshold.
 */
export async function gtoSummary(
  db: Queryable,
  scope: SummaryScope,
  options: {
    month: string;
    filter: GtoFilter;
    sortColumn: GtoSortColumn;
    order: 'asc' | 'desc';
    page: number;
    rowsPerPage: number;
  },
): Promise<{ data: GtoSummaryRow[]; total: number; threshold_percent: number }> {
  const params = new SqlParams();
  const conditions = [clientOutletCondition(params, scope.visibility, scope.clientId)];
  if (scope.mallIds && scope.mallIds.length > 0) {
    conditions.push(`o.mall_id = ANY(${params.add([...scope.mallIds], '::int[]')})`);
  }
  if (scope.outletId !== undefined) conditions.push(`o.id = ${params.add(scope.outletId, '::int')}`);
  const client = params.add(scope.clientId, '::int');
  const month = params.add(firstDay(options.month), '::date');
  const direction = options.order === 'asc' ? 'ASC' : 'DESC';
  const limit = params.add(options.rowsPerPage, '::int');
  const offset = params.add((options.page - 1) * options.rowsPerPage, '::int');
  const { rows } = await db.query<GtoSummaryRow & { total_rows: number; threshold: number }>(
    `WITH rules AS (
       SELECT gto_variance_threshold::float8 AS percent,
              (${month} + interval '1 month' + (gto_due_day - 1) * interval '1 day')::date AS due_on
       FROM clients WHERE id = ${client}
     ),
     scope AS MATERIALIZED (
       SELECT o.id, o.name, o.mall_id, m.name AS mall_name, o.currency, m.time_zone
       FROM outlets o JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
       WHERE ${conditions.join(' AND ')}
     ),
     threshold AS (SELECT percent FROM rules),
     -- The month's sum of the outlet's days (rollup_outlet_monthly is kept the sum of rollup_outlet_daily's).
     captured AS (
       SELECT r.outlet_id, r.gmv AS sales FROM rollup_outlet_monthly r
       WHERE r.client_id = ${client} AND r.outlet_id = ANY(ARRAY(SELECT id FROM scope)) AND r.month = ${month}
     ),
     rows AS (
       SELECT s.id AS outlet_id, s.name AS outlet_name, s.mall_id, s.mall_name, to_char(${month}, 'YYYY-MM') AS month,
         g.gto_amount::float8 AS gto_amount,
         CASE WHEN g.outlet_id IS NULL THEN 'notSubmitted' ELSE 'submitted' END AS status,
         g.submitted_at, s.currency, coalesce(c.sales, 0)::float8 AS captured_sales,
         (g.gto_amount - coalesce(c.sales, 0))::float8 AS variance_amount,
         round((g.gto_amount - c.sales) / nullif(c.sales, 0) * 100, 2)::float8 AS variance_percent,
         ${declarationFlaggedSql('g.gto_amount', 'c.sales', '(SELECT percent FROM threshold)')} AS flagged,
         to_char(r.due_on, 'YYYY-MM-DD') AS due_on,
         CASE WHEN g.outlet_id IS NULL THEN (now() AT TIME ZONE s.time_zone)::date > r.due_on
              ELSE (g.submitted_at AT TIME ZONE s.time_zone)::date > r.due_on END AS late,
         (SELECT to_char(max(gr.sent_on), 'YYYY-MM-DD') FROM gto_reminders gr
          WHERE gr.client_id = ${client} AND gr.outlet_id = s.id AND gr.month = ${month}) AS last_reminded_on
       FROM scope s CROSS JOIN rules r
       LEFT JOIN gto_submissions g ON g.client_id = ${client} AND g.outlet_id = s.id AND g.month = ${month}
       LEFT JOIN captured c ON c.outlet_id = s.id
     )
     SELECT rows.*, count(*) OVER ()::int AS total_rows, (SELECT percent FROM threshold) AS threshold
     FROM rows WHERE ${FILTER_SQL[options.filter]}
     ORDER BY ${SORT_SQL[options.sortColumn]} ${direction} NULLS LAST, lower(outlet_name), outlet_id
     LIMIT ${limit} OFFSET ${offset}`,
    params.values,
  );
  const threshold = rows[0]?.threshold ?? (await gtoVarianceThreshold(db, scope.clientId));
  return {
    data: rows.map(({ total_rows: _total, threshold: _threshold, ...row }) => row),
    total: rows[0]?.total_rows ?? 0,
    threshold_percent: threshold,
  };
}

/** Name options come 20 a page (§9); a page of fewer is the last. */
export const NAME_OPTION_PAGE_SIZE = 20;

export interface NameOptionQuery {
  /** A case-insensitive substring of the name. */
  search?: string | undefined;
  /** From 1. */
  page: number;
}

/** The name condition and the page's LIMIT / OFFSET of a name-option query. */
function namePage(params: SqlParams, column: string, query: NameOptionQuery): { where: string; page: string } {
  const search = query.search?.trim();
  const where = search ? ` AND ${column} ILIKE ${params.add(`%${escapeLike(search)}%`)}` : '';
  const page = `LIMIT ${params.add(NAME_OPTION_PAGE_SIZE, '::int')} OFFSET ${params.add((query.page - 1) * NAME_OPTION_PAGE_SIZE, '::int')}`;
  return { where, page };
}

/** Malls (of the client) that hold an outlet the caller sees, by name, a page of 20. */
export async function gtoMallOptions(
  db: Queryable,
  visibility: Visibility,
  clientId: number,
  query: NameOptionQuery,
): Promise<Schemas['NameOption'][]> {
  const params = new SqlParams();
  const outlets = clientOutletCondition(params, visibility, clientId);
  const { where, page } = namePage(params, 'm.name', query);
  const { rows } = await db.query<Schemas['NameOption']>(
    `SELECT m.id, m.name FROM malls m
     WHERE EXISTS (SELECT 1 FROM outlets o WHERE o.client_id = m.client_id AND o.mall_id = m.id AND ${outlets})${where}
     ORDER BY lower(m.name), m.id ${page}`,
    params.values,
  );
  return rows;
}

/** Outlets the caller sees in the client (of `mallIds` when given), by name, a page of 20. */
export async function gtoOutletOptions(
  db: Queryable,
  visibility: Visibility,
  clientId: number,
  mallIds: readonly number[] | undefined,
  query: NameOptionQuery,
): Promise<Schemas['NameOption'][]> {
  const params = new SqlParams();
  const conditions = [clientOutletCondition(params, visibility, clientId)];
  if (mallIds && mallIds.length > 0) conditions.push(`o.mall_id = ANY(${params.add([...mallIds], '::int[]')})`);
  const { where, page } = namePage(params, 'o.name', query);
  const { rows } = await db.query<Schemas['NameOption']>(
    `SELECT o.id, o.name FROM outlets o WHERE ${conditions.join(' AND ')}${where}
     ORDER BY lower(o.name), o.id ${page}`,
    params.values,
  );
  return rows;
}

export type GtoOutletMonth = Schemas['GtoOutletMonth'];

/** An outlet's months `from`..`to` ('YYYY-MM', oldest first): declared GTO, captured sales and their difference. */
export async function outletMonths(
  db: Queryable,
  clientId: number,
  outletId: number,
  range: { from: string; to: string },
): Promise<GtoOutletMonth[]> {
  const { rows } = await db.query<GtoOutletMonth>(
    `WITH months AS (
       SELECT m::date AS month FROM generate_series($3::date, $4::date, interval '1 month') m
     ),
     captured AS (
       SELECT date_trunc('month', r.local_day)::date AS month, sum(r.gmv) AS sales
       FROM rollup_outlet_daily r
       WHERE r.client_id = $1 AND r.outlet_id = $2
         AND r.local_day >= $3::date AND r.local_day < $4::date + interval '1 month'
       GROUP BY 1
     )
     SELECT to_char(m.month, 'YYYY-MM') AS month, g.gto_amount::float8 AS declared,
       coalesce(c.sales, 0)::float8 AS captured,
       (g.gto_amount - coalesce(c.sales, 0))::float8 AS difference,
       round((g.gto_amount - c.sales) / nullif(c.sales, 0) * 100, 2)::float8 AS difference_percent,
       g.submitted_at
     FROM months m
     LEFT JOIN gto_submissions g ON g.client_id = $1 AND g.outlet_id = $2 AND g.month = m.month
     LEFT JOIN captured c ON c.month = m.month
     ORDER BY m.month`,
    [clientId, outletId, firstDay(range.from), firstDay(range.to)],
  );
  return rows.map((row) => ({
    ...row,
    submitted_at: row.submitted_at === null ? null : new Date(row.submitted_at).toISOString(),
  }));
}
