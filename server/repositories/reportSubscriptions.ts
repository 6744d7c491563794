import type { components } from '../../src/api/schema.js';
import {
  type SubscriptionFormat,
  type SubscriptionFrequency,
  subscribablePage,
} from '../../src/domain/reportSubscriptions.js';
import type { Queryable } from '../db/pool.js';
import { SqlParams } from '../db/sqlParams.js';
import { clientOutletCondition, type Visibility } from './lookup.js';

/**
 * Report subscriptions (migration 041): a report page with its filters, mailed on a schedule in the time zone of
 * its first mall to users of its client, and the deliveries that send each period once.
 */

export type ReportSubscription = components['schemas']['ReportSubscription'];

/** What a subscription is made of, as the contract's body gives it (the malls read from the filters). */
export interface SubscriptionValues {
  clientId: number;
  name: string;
  pagePath: string;
  filters: string;
  mallIds: number[];
  formats: SubscriptionFormat[];
  frequency: SubscriptionFrequency;
  weekday: number | null;
  monthDay: number | null;
  hour: number;
  recipientIds: number[];
  active: boolean;
}

const SELECT = `SELECT s.id::int, s.client_id, s.name, s.page_path, s.filters, s.formats, s.frequency, s.weekday,
    s.month_day, s.hour, s.active, s.created_at, s.mall_ids, s.recipient_ids,
    coalesce((SELECT m.time_zone FROM malls m WHERE m.client_id = s.client_id AND m.id = s.mall_ids[1]), 'UTC')
      AS time_zone,
    (SELECT u.email FROM users u WHERE u.id = s.owner_id) AS owner_email,
    coalesce((SELECT json_agg(json_build_object('id', u.id, 'email', u.email) ORDER BY lower(u.email))
              FROM users u WHERE u.id = ANY(s.recipient_ids)), '[]') AS recipients,
    (SELECT json_build_object('period_key', d.period_key, 'state', d.state, 'error', d.error,
                              'created_at', d.created_at)
     FROM report_subscription_deliveries d
     WHERE d.client_id = s.client_id AND d.subscription_id = s.id ORDER BY d.created_at DESC LIMIT 1) AS last_delivery
  FROM report_subscriptions s`;

interface Row {
  id: number;
  client_id: number;
  name: string;
  page_path: string;
  filters: string;
  formats: SubscriptionFormat[];
  frequency: SubscriptionFrequency;
  weekday: number | null;
  month_day: number | null;
  hour: number;
  active: boolean;
  created_at: Date;
  mall_ids: number[];
  recipient_ids: number[];
  time_zone: string;
  owner_email: string | null;
  recipients: { id: number; email: string }[];
  last_delivery: { period_key: string; state: 'sent' | 'failed'; error: string | null; created_at: string } | null;
}

/** A subscription as its client's users know it, with what the job needs of it. */
export interface StoredSubscription extends ReportSubscription {
  mallIds: number[];
  recipientIds: number[];
  createdAt: Date;
}

function toSubscription(row: Row): StoredSubscription {
  return {
    id: row.id,
    client_id: row.client_id,
    name: row.name,
    page_path: row.page_path,
    page_title: subscribablePage(row.page_path)?.title ?? row.page_path,
    filters: row.filters,
    formats: row.formats,
    frequency: row.frequency,
    weekday: row.weekday,
    month_day: row.month_day,
    hour: row.hour,
    time_zone: row.time_zone,
    recipients: row.recipients,
    active: row.active,
    owner_email: row.owner_email,
    created_at: row.created_at.toISOString(),
    last_delivery: row.last_delivery
      ? { ...row.last_delivery, created_at: new Date(row.last_delivery.created_at).toISOString() }
      : null,
    mallIds: row.mall_ids,
    recipientIds: row.recipient_ids,
    createdAt: row.created_at,
  };
}

/** The contract's view of a stored subscription (what the job keeps to itself left out). */
export function publicSubscription(subscription: StoredSubscription): ReportSubscription {
  const { mallIds: _malls, recipientIds: _recipients, createdAt: _created, ...shown } = subscription;
  return shown;
}

/** Every subscription of `clientId`, newest first. */
export async function listSubscriptions(db: Queryable, clientId: number): Promise<StoredSubscription[]> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE s.client_id = $1 ORDER BY s.created_at DESC, s.id DESC`, [
    clientId,
  ]);
  return rows.map(toSubscription);
}

/** One subscription of `clientId`; with `lock`, its row locked until the caller's transaction ends. */
export async function findSubscription(
  db: Queryable,
  clientId: number,
  id: number,
  { lock = false }: { lock?: boolean } = {},
): Promise<StoredSubscription | undefined> {
  if (lock) {
    await db.query('SELECT 1 FROM report_subscriptions WHERE client_id = $1 AND id = $2 FOR UPDATE', [clientId, id]);
  }
  const { rows } = await db.query<Row>(`${SELECT} WHERE s.client_id = $1 AND s.id = $2`, [clientId, id]);
  return rows[0] ? toSubscription(rows[0]) : undefined;
}

const VALUE_COLUMNS = [
  'name',
  'page_path',
  'filters',
  'mall_ids',
  'formats',
  'frequency',
  'weekday',
  'month_day',
  'hour',
  'recipient_ids',
  'active',
] as const;

function valuesOf(values: SubscriptionValues): unknown[] {
  return [
    values.name,
    values.pagePath,
    values.filters,
    values.mallIds,
    values.formats,
    values.frequency,
    values.weekday,
    values.monthDay,
    values.hour,
    values.recipientIds,
    values.active,
  ];
}

export async function insertSubscription(
  db: Queryable,
  values: SubscriptionValues,
  ownerId: number,
): Promise<StoredSubscription> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO report_subscriptions (client_id, owner_id, ${VALUE_COLUMNS.join(', ')})
     VALUES ($1, $2, $3, $4, $5, $6::int[], $7::text[], $8, $9, $10, $11, $12::int[], $13)
     RETURNING id::int`,
    [values.clientId, ownerId, ...valuesOf(values)],
  );
  const id = rows[0]?.id;
  const stored = id === undefined ? undefined : await findSubscription(db, values.clientId, id);
  if (!stored) throw new Error('report_subscriptions: the insert returned no row');
  return stored;
}

/** Replaces subscription `id` of the values' client; false when there is none. */
export async function updateSubscription(db: Queryable, id: number, values: SubscriptionValues): Promise<boolean> {
  const sets = VALUE_COLUMNS.map((column, i) => {
    const cast =
      column === 'mall_ids' || column === 'recipient_ids' ? '::int[]' : column === 'formats' ? '::text[]' : '';
    return `${column} = $${i + 3}${cast}`;
  });
  const result = await db.query(
    `UPDATE report_subscriptions SET ${sets.join(', ')}, updated_at = now() WHERE client_id = $1 AND id = $2`,
    [values.clientId, id, ...valuesOf(values)],
  );
  return (result.rowCount ?? 0) > 0;
}

export async function deleteSubscription(db: Queryable, clientId: number, id: number): Promise<void> {
  await db.query('DELETE FROM report_subscriptions WHERE client_id = $1 AND id = $2', [clientId, id]);
}

/**
 * The active users of `clientId` a caller of `visibility` may name as recipients: members of the client; for a
 * caller limited to some of its outlets, only users limited to outlets the caller sees.
 */
export async function recipientOptions(
  db: Queryable,
  clientId: number,
  visibility: Visibility,
): Promise<{ id: number; email: string }[]> {
  const limited = visibility.outletLimits.has(clientId);
  const p = new SqlParams(clientId);
  const narrower = limited
    ? `AND EXISTS (SELECT 1 FROM user_outlets uo WHERE uo.client_id = $1 AND uo.user_id = u.id)
       AND NOT EXISTS (SELECT 1 FROM user_outlets uo JOIN outlets o ON o.client_id = uo.client_id AND o.id = uo.outlet_id
                       WHERE uo.client_id = $1 AND uo.user_id = u.id AND NOT (${clientOutletCondition(p, visibility, clientId)}))`
    : '';
  const { rows } = await db.query<{ id: number; email: string }>(
    `SELECT u.id, u.email FROM users u
     WHERE NOT u.disabled
       AND EXISTS (SELECT 1 FROM user_clients uc WHERE uc.client_id = $1 AND uc.user_id = u.id)
       ${narrower}
     ORDER BY lower(u.email), u.id LIMIT 1000`,
    p.values,
  );
  return rows;
}

/** Every active subscription, for the job to decide which are due. */
export async function activeSubscriptions(db: Queryable): Promise<StoredSubscription[]> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE s.active ORDER BY s.client_id, s.id`);
  return rows.map(toSubscription);
}

/** Whether a delivery of the period is recorded already. */
export async function hasDelivery(
  db: Queryable,
  clientId: number,
  subscriptionId: number,
  periodKey: string,
): Promise<boolean> {
  const { rows } = await db.query(
    'SELECT 1 FROM report_subscription_deliveries WHERE client_id = $1 AND subscription_id = $2 AND period_key = $3',
    [clientId, subscriptionId, periodKey],
  );
  return rows.length > 0;
}

/**
 * Records the delivery of a period in the caller's transaction; false when another transaction recorded it first
 * (that one sends it: this one must send nothing).
 */
export async function claimDelivery(
  db: Queryable,
  delivery: {
    clientId: number;
    subscriptionId: number;
    periodKey: string;
    state: 'sent' | 'failed';
    recipients: number;
    error: string | null;
  },
): Promise<boolean> {
  const result = await db.query(
    `INSERT INTO report_subscription_deliveries (client_id, subscription_id, period_key, state, recipients, error)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
    [
      delivery.clientId,
      delivery.subscriptionId,
      delivery.periodKey,
      delivery.state,
      delivery.recipients,
      delivery.error,
    ],
  );
  return (result.rowCount ?? 0) > 0;
}
