import type { components } from '../../src/api/schema.js';
import type { AlertScheduleKind, PeriodFigures } from '../../src/domain/alertRules.js';
import type { Queryable } from '../db/pool.js';
import { SqlParams } from '../db/sqlParams.js';
import { writeAudit } from './audit.js';
import { clientOutletCondition, MAX_LOOKUP_ROWS, type Visibility } from './lookup.js';

/**
 * Alert rules and their firings (alert_rules, alert_firings, migration 040; issue 34). A rule is the client's; a
 * caller sees a rule when it sees all of its malls and, limited to some outlets of the client, when the rule names
 * outlets and all are the caller's. Every change writes its audit_log row in the same transaction. The check
 * (server/jobs/alertRules.ts) reads the rules due at its now, the figures of their periods from the rollups (never
 * receipts) and inserts each firing once per rule and period.
 */

type Schemas = components['schemas'];
export type AlertRule = Schemas['AlertRule'];
export type AlertFiring = Schemas['AlertFiring'];
export type AlertRecipient = Schemas['AlertRecipient'];

/** What a new or changed rule holds (checked and trimmed by the route). */
export interface AlertRuleInput {
  name: string;
  metric: AlertRule['metric'];
  mall_ids: number[];
  category: string | null;
  outlet_ids: number[];
  condition_kind: AlertRule['condition_kind'];
  condition_value: number;
  weeks: number;
  schedule_kind: AlertRule['schedule_kind'];
  schedule_time: string;
  recipient_ids: number[];
  active: boolean;
}

const RULE_COLUMNS = `r.id, r.name, r.metric, r.mall_ids, r.category, r.outlet_ids, r.condition_kind,
  r.condition_value::float8 AS condition_value, r.weeks, r.schedule_kind, to_char(r.schedule_time, 'HH24:MI') AS schedule_time,
  r.recipient_ids, r.active,
  (SELECT coalesce(nullif(btrim(u.display_name), ''), u.email) FROM users u WHERE u.id = r.created_by) AS created_by,
  (SELECT m.time_zone FROM malls m WHERE m.client_id = r.client_id AND m.id = r.mall_ids[1]) AS time_zone,
  (SELECT m.currency FROM malls m WHERE m.client_id = r.client_id AND m.id = r.mall_ids[1]) AS currency,
  (SELECT count(*)::int FROM alert_firings f WHERE f.client_id = r.client_id AND f.rule_id = r.id) AS firing_count,
  (SELECT max(f.fired_at) FROM alert_firings f WHERE f.client_id = r.client_id AND f.rule_id = r.id) AS last_fired_at`;

interface RuleRow extends Omit<AlertRule, 'last_fired_at'> {
  last_fired_at: Date | null;
}

const ruleOf = (row: RuleRow): AlertRule => ({ ...row, last_fired_at: row.last_fired_at?.toISOString() ?? null });

/**
 * The condition on an `alert_rules r` row that the caller sees it ($1: client, $2: the caller's outlets of the
 * client, null when not limited): every mall has an outlet the caller sees, and a limited caller's rule names only
 * its outlets.
 */
const SEES_RULE = `NOT EXISTS (
    SELECT 1 FROM unnest(r.mall_ids) AS mall(id)
    WHERE NOT EXISTS (SELECT 1 FROM outlets o WHERE o.client_id = r.client_id AND o.mall_id = mall.id
                      AND ($2::int[] IS NULL OR o.id = ANY($2::int[]))))
  AND ($2::int[] IS NULL OR (cardinality(r.outlet_ids) > 0 AND r.outlet_ids <@ $2::int[]))`;

/** The caller's outlets of `clientId` when limited to some, else null; [] for a client it does not see. */
function outletLimitOf(visibility: Visibility, clientId: number): number[] | null {
  if (!visibility.clientIds.includes(clientId)) return [];
  return visibility.outletLimits.get(clientId) ?? null;
}

/** The rules of `clientId` the caller sees, by name. */
export async function listAlertRules(db: Queryable, visibility: Visibility, clientId: number): Promise<AlertRule[]> {
  const { rows } = await db.query<RuleRow>(
    `SELECT ${RULE_COLUMNS} FROM alert_rules r WHERE r.client_id = $1 AND ${SEES_RULE} ORDER BY lower(r.name), r.id`,
    [clientId, outletLimitOf(visibility, clientId)],
  );
  return rows.map(ruleOf);
}

/** The client's rule `id` when the caller sees it (locked for a change with `lock`), undefined otherwise. */
export async function visibleAlertRule(
  db: Queryable,
  visibility: Visibility,
  clientId: number,
  id: number,
  lock = false,
): Promise<AlertRule | undefined> {
  const { rows } = await db.query<RuleRow>(
    `SELECT ${RULE_COLUMNS} FROM alert_rules r WHERE r.client_id = $1 AND r.id = $3 AND ${SEES_RULE}
     ${lock ? 'FOR UPDATE' : ''}`,
    [clientId, outletLimitOf(visibility, clientId), id],
  );
  const row = rows[0];
  return row ? ruleOf(row) : undefined;
}

/** The active users of the client a rule may mail (members of it), by e-mail. */
export async function alertRecipients(db: Queryable, clientId: number): Promise<AlertRecipient[]> {
  const { rows } = await db.query<AlertRecipient>(
    `SELECT u.id, u.email, nullif(btrim(u.display_name), '') AS name
     FROM user_clients uc JOIN users u ON u.id = uc.user_id AND NOT u.disabled
     WHERE uc.client_id = $1 ORDER BY u.email`,
    [clientId],
  );
  return rows;
}

/**
 * The categories a rule may be scoped to: each category of the outlets of the client the caller sees, with the mall
 * it is found in (a category of several malls once a mall), by mall and name.
 */
export async function alertCategories(
  db: Queryable,
  visibility: Visibility,
  clientId: number,
): Promise<{ mall_id: number; name: string }[]> {
  const params = new SqlParams();
  const { rows } = await db.query<{ mall_id: number; name: string }>(
    `SELECT DISTINCT o.mall_id, o.category AS name FROM outlets o
     WHERE ${clientOutletCondition(params, visibility, clientId)} AND o.mall_id IS NOT NULL
       AND nullif(btrim(o.category), '') IS NOT NULL
     ORDER BY o.mall_id, o.category LIMIT ${params.add(MAX_LOOKUP_ROWS)}`,
    params.values,
  );
  return rows;
}

/** What the rules between a rule's fields and the client's data need: the malls' zones and currencies, and more. */
export interface ScopeFacts {
  /** The distinct time zones and currencies of the malls (of the client). */
  timeZones: string[];
  currencies: string[];
  /** How many of the malls are the client's. */
  mallCount: number;
  /** Whether some outlet of the malls has the category (true without one). */
  categoryKnown: boolean;
  /** The named outlets that are of the malls (and the category). */
  outletsInScope: number;
  /** The outlets the scope holds. */
  scopeOutlets: number;
  /** The recipients that are users of the client. */
  recipientsOfClient: number;
}

/** The facts of a rule's scope and recipients in `clientId`. */
export async function scopeFacts(db: Queryable, clientId: number, rule: AlertRuleInput): Promise<ScopeFacts> {
  const { rows } = await db.query<ScopeFacts>(
    `SELECT
       (SELECT coalesce(array_agg(DISTINCT m.time_zone), '{}') FROM malls m
        WHERE m.client_id = $1 AND m.id = ANY($2::int[])) AS "timeZones",
       (SELECT coalesce(array_agg(DISTINCT m.currency), '{}') FROM malls m
        WHERE m.client_id = $1 AND m.id = ANY($2::int[])) AS "currencies",
       (SELECT count(*)::int FROM malls m WHERE m.client_id = $1 AND m.id = ANY($2::int[])) AS "mallCount",
       ($3::text IS NULL OR EXISTS (SELECT 1 FROM outlets o WHERE o.client_id = $1 AND o.mall_id = ANY($2::int[])
                                    AND o.category = $3)) AS "categoryKnown",
       (SELECT count(*)::int FROM outlets o WHERE o.client_id = $1 AND o.id = ANY($4::int[])
          AND o.mall_id = ANY($2::int[]) AND ($3::text IS NULL OR o.category = $3)) AS "outletsInScope",
       (SELECT count(*)::int FROM outlets o WHERE o.client_id = $1 AND o.mall_id = ANY($2::int[])
          AND ($3::text IS NULL OR o.category = $3)
          AND (cardinality($4::int[]) = 0 OR o.id = ANY($4::int[]))) AS "scopeOutlets",
       (SELECT count(*)::int FROM user_clients uc WHERE uc.client_id = $1 AND uc.user_id = ANY($5::int[]))
         AS "recipientsOfClient"`,
    [clientId, rule.mall_ids, rule.category, rule.outlet_ids, rule.recipient_ids],
  );
  const facts = rows[0];
  if (!facts) throw new Error('alert rule scope not read');
  return facts;
}

/** What an audit entry keeps of a rule (its definition, not its history). */
const audited = ({ id: _id, firing_count: _count, last_fired_at: _last, created_by: _by, ...rule }: AlertRule) => rule;

const INPUT_VALUES = (rule: AlertRuleInput) => [
  rule.name,
  rule.metric,
  rule.mall_ids,
  rule.category,
  rule.outlet_ids,
  rule.condition_kind,
  rule.condition_value,
  rule.weeks,
  rule.schedule_kind,
  rule.schedule_time,
  rule.recipient_ids,
  rule.active,
];

/** Adds a rule with its audit row (call inside a transaction). */
export async function createAlertRule(
  db: Queryable,
  input: { clientId: number; userId: number; rule: AlertRuleInput },
): Promise<AlertRule> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO alert_rules (client_id, created_by, name, metric, mall_ids, category, outlet_ids, condition_kind,
       condition_value, weeks, schedule_kind, schedule_time, recipient_ids, active)
     VALUES ($1, $2, $3, $4, $5::int[], $6, $7::int[], $8, $9, $10, $11, $12::time, $13::int[], $14)
     RETURNING id`,
    [input.clientId, input.userId, ...INPUT_VALUES(input.rule)],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('alert rule not stored');
  const created = await ruleById(db, input.clientId, id);
  await writeAudit(db, [
    {
      clientId: input.clientId,
      userId: input.userId,
      action: 'create',
      entity: 'alert_rule',
      entityId: id,
      before: null,
      after: audited(created),
    },
  ]);
  return created;
}

async function ruleById(db: Queryable, clientId: number, id: number): Promise<AlertRule> {
  const { rows } = await db.query<RuleRow>(
    `SELECT ${RULE_COLUMNS} FROM alert_rules r WHERE r.client_id = $1 AND r.id = $2`,
    [clientId, id],
  );
  const row = rows[0];
  if (!row) throw new Error(`alert rule ${id} not read`);
  return ruleOf(row);
}

/**
 * Changes a rule with its audit row, before and after (call inside a transaction); undefined when the client has no
 * such rule or the caller does not see it.
 */
export async function updateAlertRule(
  db: Queryable,
  input: { clientId: number; userId: number; visibility: Visibility; id: number; rule: AlertRuleInput },
): Promise<AlertRule | undefined> {
  const before = await visibleAlertRule(db, input.visibility, input.clientId, input.id, true);
  if (!before) return undefined;
  await db.query(
    `UPDATE alert_rules SET name = $3, metric = $4, mall_ids = $5::int[], category = $6, outlet_ids = $7::int[],
       condition_kind = $8, condition_value = $9, weeks = $10, schedule_kind = $11, schedule_time = $12::time,
       recipient_ids = $13::int[], active = $14, updated_at = now()
     WHERE client_id = $1 AND id = $2`,
    [input.clientId, input.id, ...INPUT_VALUES(input.rule)],
  );
  const after = await ruleById(db, input.clientId, input.id);
  await writeAudit(db, [
    {
      clientId: input.clientId,
      userId: input.userId,
      action: 'update',
      entity: 'alert_rule',
      entityId: input.id,
      before: audited(before),
      after: audited(after),
    },
  ]);
  return after;
}

/**
 * Removes a rule and its firings with its audit row (call inside a transaction); undefined when the client has no
 * such rule or the caller does not see it.
 */
export async function deleteAlertRule(
  db: Queryable,
  input: { clientId: number; userId: number; visibility: Visibility; id: number },
): Promise<AlertRule | undefined> {
  const before = await visibleAlertRule(db, input.visibility, input.clientId, input.id, true);
  if (!before) return undefined;
  await db.query('DELETE FROM alert_rules WHERE client_id = $1 AND id = $2', [input.clientId, input.id]);
  await writeAudit(db, [
    {
      clientId: input.clientId,
      userId: input.userId,
      action: 'delete',
      entity: 'alert_rule',
      entityId: input.id,
      before: audited(before),
      after: null,
    },
  ]);
  return before;
}

/* ---------------------------------------------------------------- firings */

const FIRING_COLUMNS = `f.id, f.rule_id, f.period_key, f.period_start, f.period_end, f.value::float8 AS value,
  f.compared_value::float8 AS compared_value, f.compared_start, f.compared_end, f.currency, f.fired_at,
  (SELECT coalesce(nullif(btrim(u.display_name), ''), u.email) FROM users u WHERE u.id = f.acknowledged_by)
    AS acknowledged_by,
  f.acknowledged_at`;

type Instant = Date | null;
interface FiringRow
  extends Omit<
    AlertFiring,
    'period_start' | 'period_end' | 'compared_start' | 'compared_end' | 'fired_at' | 'acknowledged_at'
  > {
  period_start: Date;
  period_end: Date;
  compared_start: Instant;
  compared_end: Instant;
  fired_at: Date;
  acknowledged_at: Instant;
}

const iso = (instant: Instant) => instant?.toISOString() ?? null;
const firingOf = (row: FiringRow): AlertFiring => ({
  ...row,
  period_start: row.period_start.toISOString(),
  period_end: row.period_end.toISOString(),
  compared_start: iso(row.compared_start),
  compared_end: iso(row.compared_end),
  fired_at: row.fired_at.toISOString(),
  acknowledged_at: iso(row.acknowledged_at),
});

/** A rule's firings, the latest period first, at most `limit`. */
export async function listAlertFirings(
  db: Queryable,
  clientId: number,
  ruleId: number,
  limit: number,
): Promise<AlertFiring[]> {
  const { rows } = await db.query<FiringRow>(
    `SELECT ${FIRING_COLUMNS} FROM alert_firings f WHERE f.client_id = $1 AND f.rule_id = $2
     ORDER BY f.period_start DESC, f.id DESC LIMIT $3`,
    [clientId, ruleId, limit],
  );
  return rows.map(firingOf);
}

/**
 * Acknowledges firing `id` of a rule the caller sees (its first acknowledgement kept), with its audit row when it
 * records one (call inside a transaction); undefined when there is no such firing the caller sees.
 */
export async function acknowledgeAlertFiring(
  db: Queryable,
  input: { clientId: number; userId: number; visibility: Visibility; id: number; now: Date },
): Promise<AlertFiring | undefined> {
  const { rows: found } = await db.query<{ rule_id: number }>(
    'SELECT rule_id FROM alert_firings WHERE client_id = $1 AND id = $2 FOR UPDATE',
    [input.clientId, input.id],
  );
  const ruleId = found[0]?.rule_id;
  if (ruleId === undefined) return undefined;
  if (!(await visibleAlertRule(db, input.visibility, input.clientId, ruleId))) return undefined;
  const { rowCount } = await db.query(
    `UPDATE alert_firings SET acknowledged_by = $3, acknowledged_at = $4
     WHERE client_id = $1 AND id = $2 AND acknowledged_at IS NULL`,
    [input.clientId, input.id, input.userId, input.now],
  );
  const { rows } = await db.query<FiringRow>(
    `SELECT ${FIRING_COLUMNS} FROM alert_firings f WHERE f.client_id = $1 AND f.id = $2`,
    [input.clientId, input.id],
  );
  const firing = rows[0] ? firingOf(rows[0]) : undefined;
  if (firing && rowCount === 1) {
    await writeAudit(db, [
      {
        clientId: input.clientId,
        userId: input.userId,
        action: 'update',
        entity: 'alert_firing',
        entityId: input.id,
        before: { acknowledged_at: null },
        after: { acknowledged_at: firing.acknowledged_at },
      },
    ]);
  }
  return firing;
}

/* ---------------------------------------------------------------- the check */

/** An active rule whose period has closed at the check's now and has not fired for it. */
export interface DueAlertRule {
  clientId: number;
  clientName: string;
  id: number;
  name: string;
  metric: AlertRule['metric'];
  mallIds: number[];
  mallNames: string[];
  category: string | null;
  outletIds: number[];
  conditionKind: AlertRule['condition_kind'];
  conditionValue: number;
  weeks: number;
  scheduleKind: AlertScheduleKind;
  recipientIds: number[];
  timeZone: string;
  currency: string;
  /** The period: its key, its first local day (and hour, hourly), its instants (the end excluded). */
  periodKey: string;
  day: string;
  hour: number;
  periodStart: Date;
  periodEnd: Date;
}

/**
 * The active rules whose latest closed period at `now` has not fired, each with that period in its malls' zone
 * (its first mall's: the rules keep their malls in one zone): hourly, the last whole hour; daily, yesterday once
 * the set time has passed today (else the day before); monthly, the last month once the set time of the first
 * has passed (else the month before). A period that ended before the rule was made is not judged.
 */
export async function dueAlertRules(db: Queryable, now: Date): Promise<DueAlertRule[]> {
  const { rows } = await db.query<DueAlertRule>(
    `WITH ruled AS (
       SELECT r.*, m.time_zone, m.currency, c.name AS client_name, $1::timestamptz AT TIME ZONE m.time_zone AS local_ts
       FROM alert_rules r
       JOIN clients c ON c.id = r.client_id
       JOIN malls m ON m.client_id = r.client_id AND m.id = r.mall_ids[1]
       WHERE r.active
     ),
     periods AS (
       SELECT ruled.*,
         CASE schedule_kind
           WHEN 'hourly' THEN date_trunc('hour', local_ts) - interval '1 hour'
           WHEN 'daily' THEN date_trunc('day', local_ts)
             - CASE WHEN local_ts::time >= schedule_time THEN interval '1 day' ELSE interval '2 days' END
           ELSE date_trunc('month', local_ts)
             - CASE WHEN local_ts >= date_trunc('month', local_ts) + schedule_time THEN interval '1 month'
                    ELSE interval '2 months' END
         END AS local_start
       FROM ruled
     ),
     keyed AS (
       SELECT periods.*,
         CASE schedule_kind WHEN 'hourly' THEN to_char(local_start, 'YYYY-MM-DD"T"HH24')
           WHEN 'daily' THEN to_char(local_start, 'YYYY-MM-DD') ELSE to_char(local_start, 'YYYY-MM') END AS period_key,
         local_start + CASE schedule_kind WHEN 'hourly' THEN interval '1 hour' WHEN 'daily' THEN interval '1 day'
           ELSE interval '1 month' END AS local_end
       FROM periods
     )
     SELECT k.client_id AS "clientId", k.client_name AS "clientName", k.id, k.name, k.metric,
       k.mall_ids AS "mallIds",
       ARRAY(SELECT m.name FROM malls m WHERE m.client_id = k.client_id AND m.id = ANY(k.mall_ids) ORDER BY m.name)
         AS "mallNames",
       k.category, k.outlet_ids AS "outletIds", k.condition_kind AS "conditionKind",
       k.condition_value::float8 AS "conditionValue", k.weeks, k.schedule_kind AS "scheduleKind",
       k.recipient_ids AS "recipientIds", k.time_zone AS "timeZone", k.currency, k.period_key AS "periodKey",
       to_char(k.local_start, 'YYYY-MM-DD') AS day, extract(hour FROM k.local_start)::int AS hour,
       k.local_start AT TIME ZONE k.time_zone AS "periodStart", k.local_end AT TIME ZONE k.time_zone AS "periodEnd"
     FROM keyed k
     WHERE k.local_end AT TIME ZONE k.time_zone > k.created_at
       AND NOT EXISTS (SELECT 1 FROM alert_firings f
                       WHERE f.client_id = k.client_id AND f.rule_id = k.id AND f.period_key = k.period_key)
     ORDER BY k.client_id, k.id`,
    [now],
  );
  return rows;
}

/** The outlets of a rule's scope: of its malls, its category when it has one, its outlets when it names them. */
export async function ruleScopeOutlets(
  db: Queryable,
  rule: Pick<DueAlertRule, 'clientId' | 'mallIds' | 'category' | 'outletIds'>,
): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT o.id FROM outlets o
     WHERE o.client_id = $1 AND o.mall_id = ANY($2::int[]) AND ($3::text IS NULL OR o.category = $3)
       AND (cardinality($4::int[]) = 0 OR o.id = ANY($4::int[]))
     ORDER BY o.id`,
    [rule.clientId, rule.mallIds, rule.category, rule.outletIds],
  );
  return rows.map((row) => row.id);
}

/** A span of local days, both included. */
export interface DaySpan {
  start: string;
  end: string;
}

interface FigureRow {
  i: number;
  gmv: string;
  transactions: string;
  refunds: string;
  vouchers: string;
}

const figuresOf = (row: FigureRow | undefined): PeriodFigures => ({
  gmvCents: Number(row?.gmv ?? 0),
  transactions: Number(row?.transactions ?? 0),
  refundCents: Number(row?.refunds ?? 0),
  voucherCents: Number(row?.vouchers ?? 0),
});

/** The figures of `outletIds` over each span of days (rollup_outlet_daily), money in cents, in the spans' order. */
export async function figuresOverDaySpans(
  db: Queryable,
  clientId: number,
  outletIds: readonly number[],
  spans: readonly DaySpan[],
): Promise<PeriodFigures[]> {
  const { rows } = await db.query<FigureRow>(
    `SELECT s.i, coalesce(sum(round(d.gmv * 100)), 0)::text AS gmv, coalesce(sum(d.transactions), 0)::text AS transactions,
       coalesce(sum(round(d.refund_amount * 100)), 0)::text AS refunds,
       coalesce(sum(round(d.voucher_amount * 100)), 0)::text AS vouchers
     FROM unnest($3::date[], $4::date[]) WITH ORDINALITY AS s(first_day, last_day, i)
     LEFT JOIN rollup_outlet_daily d ON d.client_id = $1 AND d.outlet_id = ANY($2::int[])
       AND d.local_day BETWEEN s.first_day AND s.last_day
     GROUP BY s.i ORDER BY s.i`,
    [clientId, outletIds, spans.map((span) => span.start), spans.map((span) => span.end)],
  );
  return spans.map((_, index) => figuresOf(rows.find((row) => Number(row.i) === index + 1)));
}

/** The figures of `outletIds` in each local hour (rollup_outlet_day_hours: GMV and transactions), in slots' order. */
export async function figuresOverHours(
  db: Queryable,
  clientId: number,
  outletIds: readonly number[],
  slots: readonly { day: string; hour: number }[],
): Promise<PeriodFigures[]> {
  const hourColumn = (measure: string, k: number) => (k === 0 ? '0' : `h.${measure}_h${k}`);
  const caseOf = (measure: string) =>
    `CASE s.hour ${Array.from(
      { length: 24 },
      (_, hour) => `WHEN ${hour} THEN ${hourColumn(measure, hour + 1)} - ${hourColumn(measure, hour)}`,
    ).join(' ')} END`;
  const { rows } = await db.query<FigureRow>(
    `SELECT s.i, coalesce(sum(${caseOf('gmv')}), 0)::text AS gmv,
       coalesce(sum(${caseOf('transactions')}), 0)::text AS transactions, '0' AS refunds, '0' AS vouchers
     FROM unnest($3::date[], $4::int[]) WITH ORDINALITY AS s(day, hour, i)
     LEFT JOIN rollup_outlet_day_hours h ON h.client_id = $1 AND h.outlet_id = ANY($2::int[]) AND h.local_day = s.day
     GROUP BY s.i ORDER BY s.i`,
    [clientId, outletIds, slots.map((slot) => slot.day), slots.map((slot) => slot.hour)],
  );
  return slots.map((_, index) => figuresOf(rows.find((row) => Number(row.i) === index + 1)));
}

/** The instant a local day and hour of `timeZone` starts. */
export async function localInstants(db: Queryable, timeZone: string, locals: readonly string[]): Promise<Date[]> {
  if (locals.length === 0) return [];
  const { rows } = await db.query<{ at: Date }>(
    `SELECT (l.local::timestamp AT TIME ZONE $1) AS at FROM unnest($2::text[]) WITH ORDINALITY AS l(local, i) ORDER BY l.i`,
    [timeZone, locals],
  );
  return rows.map((row) => row.at);
}

/** A firing to record. */
export interface NewFiring {
  clientId: number;
  ruleId: number;
  periodKey: string;
  periodStart: Date;
  periodEnd: Date;
  value: number;
  comparedValue: number;
  comparedStart: Date | null;
  comparedEnd: Date | null;
  currency: string | null;
  firedAt: Date;
}

/** Inserts a firing unless its rule has fired for the period; answers its id, undefined when it had. */
export async function insertFiring(db: Queryable, firing: NewFiring): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO alert_firings (client_id, rule_id, period_key, period_start, period_end, value, compared_value,
       compared_start, compared_end, currency, fired_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (client_id, rule_id, period_key) DO NOTHING
     RETURNING id`,
    [
      firing.clientId,
      firing.ruleId,
      firing.periodKey,
      firing.periodStart,
      firing.periodEnd,
      firing.value,
      firing.comparedValue,
      firing.comparedStart,
      firing.comparedEnd,
      firing.currency,
      firing.firedAt,
    ],
  );
  return rows[0]?.id;
}
