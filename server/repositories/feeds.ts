import type { components } from '../../src/api/schema.js';
import { BASELINE_WEEKS, DEFAULT_SILENCE_MINUTES, type FeedFacts } from '../../src/domain/dataFeeds.js';
import { inTransaction, type Pool, type Queryable, singleRow } from '../db/pool.js';
import { SqlParams } from '../db/sqlParams.js';
import { writeAudit } from './audit.js';
import { runningColumns } from './hourColumns.js';
import { clientOutletCondition, type Visibility } from './lookup.js';

/**
 * The data feeds (issue 34): what the feed check and the Data Feeds page read of each outlet at an instant, and
 * the open silences (feed_silences, migration 034).
 *
 * Each outlet is read in its mall's time zone: its local day and hour at `now`, and of the same weekday of the
 * last BASELINE_WEEKS weeks, from the hour rollup (rollup_outlet_day_hours: transactions_h<k> is the receipts of
 * the hours before k), how many days had receipts in this hour and in the hour of the set time ago, and how many
 * receipts they had by this minute on average. The last receipt is the newest entry of the receipts' identity
 * index of the outlet (one index probe, bounded to the last FEED_LOOKBACK_DAYS: no rollup keeps minutes); its
 * devices' last call is device_keys.last_used_at (kept to the minute by the ingestion call).
 */

/** How far back an outlet's last receipt is looked for: the baseline's weeks and one more. */
export const FEED_LOOKBACK_DAYS = (BASELINE_WEEKS + 1) * 7;

export interface FeedOutlet {
  clientId: number;
  clientName: string;
  mallId: number;
  mallName: string;
  timeZone: string;
  outletId: number;
  outletName: string;
  /** The client's set time, minutes (clients.feed_silence_minutes). */
  silenceMinutes: number;
  /** The mall's day at `now`, 'YYYY-MM-DD'. */
  today: string;
  /** The outlet has opened by today (opened_on). */
  opened: boolean;
  /** Same weekdays of the baseline with receipts in this local hour. */
  usualNow: number;
  /** Same weekdays with receipts in the local hour of the set time ago; 0 when that was another day. */
  usualThen: number;
  /** The baseline's average receipts by this minute of the day, rounded. */
  usualByNow: number;
  /** Today's receipts so far. */
  receiptsToday: number;
  lastReceiptAt: Date | null;
  lastCallAt: Date | null;
  /** The outlet has an active device key (a capture device sends its receipts). */
  hasDevice: boolean;
  nonTrading: boolean;
  /** The open silence's start, null when none is open. */
  silenceSince: Date | null;
}

/** The rule's facts of an outlet read at an instant. */
export function feedFactsOf(outlet: FeedOutlet): FeedFacts {
  return {
    hasDevice: outlet.hasDevice,
    usualNow: outlet.usualNow,
    usualThen: outlet.usualThen,
    nonTrading: outlet.nonTrading,
    opened: outlet.opened,
    lastReceiptMs: outlet.lastReceiptAt?.getTime() ?? null,
    silenceMinutes: outlet.silenceMinutes,
    silenceOpen: outlet.silenceSince !== null,
  };
}

/** Which outlets are read: every client's (the check) or those a caller sees in a client's malls (the page). */
export type FeedScope =
  | { kind: 'all' }
  | { kind: 'caller'; clientId: number; visibility: Visibility; mallIds: readonly number[] };

const TRANSACTIONS = `ARRAY[0, ${runningColumns(['transactions'])
  .map((column) => `d.${column}`)
  .join(', ')}]`;

/**
 * Every outlet of `scope` at `now` (see the top), in client, mall and outlet name order. The check reads every
 * client's outlets at once, joined by client_id (a job's scan of every client).
 */
export async function feedOutlets(db: Queryable, now: Date, scope: FeedScope): Promise<FeedOutlet[]> {
  const params = new SqlParams();
  const at = params.add(now.toISOString(), '::timestamptz');
  const conditions: string[] = [];
  if (scope.kind === 'caller') {
    conditions.push(clientOutletCondition(params, scope.visibility, scope.clientId));
    conditions.push(`o.mall_id = ANY(${params.add([...scope.mallIds], '::int[]')})`);
  }
  const lookback = params.add(FEED_LOOKBACK_DAYS, '::int');
  const weeks = params.add(BASELINE_WEEKS, '::int');
  const { rows } = await db.query<FeedOutlet>(
    `WITH scoped AS MATERIALIZED (
       SELECT o.client_id, o.id, o.name, o.mall_id, o.opened_on, m.name AS mall_name, m.time_zone,
         c.name AS client_name, c.feed_silence_minutes AS minutes,
         ${at} AT TIME ZONE m.time_zone AS local_now,
         (${at} - c.feed_silence_minutes * interval '1 minute') AT TIME ZONE m.time_zone AS local_then
       FROM outlets o
       JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
       JOIN clients c ON c.id = o.client_id
       ${conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''}
     ),
     outlet_now AS (
       SELECT s.*, s.local_now::date AS today, extract(hour FROM s.local_now)::int AS hour,
         extract(minute FROM s.local_now)::int AS minute,
         CASE WHEN s.local_then::date = s.local_now::date THEN extract(hour FROM s.local_then)::int END AS hour_then
       FROM scoped s
     )
     SELECT s.client_id AS "clientId", s.client_name AS "clientName", s.mall_id AS "mallId",
       s.mall_name AS "mallName", s.time_zone AS "timeZone", s.id AS "outletId", s.name AS "outletName",
       s.minutes AS "silenceMinutes", to_char(s.today, 'YYYY-MM-DD') AS today,
       (s.opened_on IS NULL OR s.opened_on <= s.today) AS opened,
       coalesce(b.usual_now, 0)::int AS "usualNow", coalesce(b.usual_then, 0)::int AS "usualThen",
       coalesce(round(b.by_now / ${weeks}), 0)::int AS "usualByNow",
       coalesce((SELECT d.transactions_h24 FROM rollup_outlet_day_hours d
                 WHERE d.client_id = s.client_id AND d.outlet_id = s.id AND d.local_day = s.today), 0)::int
         AS "receiptsToday",
       (SELECT max(r.datetime) FROM receipts r
        WHERE r.client_id = s.client_id AND r.outlet_id = s.id
          AND r.datetime > ${at} - ${lookback} * interval '1 day' AND r.datetime <= ${at}) AS "lastReceiptAt",
       (SELECT max(k.last_used_at) FROM device_keys k
        WHERE k.client_id = s.client_id AND k.outlet_id = s.id) AS "lastCallAt",
       EXISTS (SELECT 1 FROM device_keys k
               WHERE k.client_id = s.client_id AND k.outlet_id = s.id AND k.revoked_at IS NULL) AS "hasDevice",
       EXISTS (SELECT 1 FROM non_trading_days n
               WHERE n.client_id = s.client_id AND n.outlet_id = s.id AND n.day = s.today) AS "nonTrading",
       f.since AS "silenceSince"
     FROM outlet_now s
     LEFT JOIN LATERAL (
       SELECT count(*) FILTER (WHERE (t.h)[s.hour + 2] > (t.h)[s.hour + 1]) AS usual_now,
         count(*) FILTER (WHERE s.hour_then IS NOT NULL AND (t.h)[s.hour_then + 2] > (t.h)[s.hour_then + 1])
           AS usual_then,
         sum((t.h)[s.hour + 1] + ((t.h)[s.hour + 2] - (t.h)[s.hour + 1]) * s.minute / 60.0) AS by_now
       FROM rollup_outlet_day_hours d, LATERAL (SELECT ${TRANSACTIONS} AS h) t
       WHERE d.client_id = s.client_id AND d.outlet_id = s.id
         AND d.local_day = ANY(ARRAY(SELECT s.today - 7 * w FROM generate_series(1, ${weeks}) w))
     ) b ON true
     LEFT JOIN feed_silences f ON f.client_id = s.client_id AND f.outlet_id = s.id
     ORDER BY s.client_id, lower(s.mall_name), s.mall_id, lower(s.name), s.id`,
    params.values,
  );
  return rows;
}

/** A silence to raise: the outlet, its start, its last receipt and its devices' last call. */
export interface NewSilence {
  clientId: number;
  outletId: number;
  since: Date;
  lastReceiptAt: Date | null;
  lastCallAt: Date | null;
}

const ref = (silence: { clientId: number; outletId: number }) => `${silence.clientId}:${silence.outletId}`;

/**
 * Opens `silences` raised at `now` in the caller's transaction and answers those this call opened: an outlet with
 * a silence open already, or one another transaction opens first, is left out (it waits for that one's commit).
 */
export async function openSilences(db: Queryable, silences: readonly NewSilence[], now: Date): Promise<NewSilence[]> {
  if (silences.length === 0) return [];
  const { rows } = await db.query<{ clientId: number; outletId: number }>(
    `INSERT INTO feed_silences (client_id, outlet_id, since, last_receipt_at, last_call, raised_at)
     SELECT k.client_id, k.outlet_id, k.since, k.last_receipt_at, k.last_call, $6::timestamptz
     FROM unnest($1::int[], $2::int[], $3::timestamptz[], $4::timestamptz[], $5::timestamptz[])
       AS k(client_id, outlet_id, since, last_receipt_at, last_call)
     ON CONFLICT DO NOTHING
     RETURNING client_id AS "clientId", outlet_id AS "outletId"`,
    [
      silences.map((silence) => silence.clientId),
      silences.map((silence) => silence.outletId),
      silences.map((silence) => silence.since.toISOString()),
      silences.map((silence) => silence.lastReceiptAt?.toISOString() ?? null),
      silences.map((silence) => silence.lastCallAt?.toISOString() ?? null),
      now.toISOString(),
    ],
  );
  const opened = new Set(rows.map(ref));
  return silences.filter((silence) => opened.has(ref(silence)));
}

/** An open silence to close, known by its outlet and its start. */
export interface SilenceRef {
  clientId: number;
  outletId: number;
  since: Date;
}

/**
 * Closes `silences` (deletes them) in the caller's transaction and answers those this call closed: one closed by
 * another transaction first, or opened again since, is left out.
 */
export async function closeSilences(db: Queryable, silences: readonly SilenceRef[]): Promise<SilenceRef[]> {
  if (silences.length === 0) return [];
  const { rows } = await db.query<{ clientId: number; outletId: number }>(
    `DELETE FROM feed_silences f
     USING unnest($1::int[], $2::int[], $3::timestamptz[]) AS k(client_id, outlet_id, since)
     WHERE f.client_id = k.client_id AND f.outlet_id = k.outlet_id AND f.since = k.since
     RETURNING f.client_id AS "clientId", f.outlet_id AS "outletId"`,
    [
      silences.map((silence) => silence.clientId),
      silences.map((silence) => silence.outletId),
      silences.map((silence) => silence.since.toISOString()),
    ],
  );
  const closed = new Set(rows.map(ref));
  return silences.filter((silence) => closed.has(ref(silence)));
}

/** The client's set time without a receipt before an outlet is silent (minutes). */
export async function feedSilenceMinutes(db: Queryable, clientId: number): Promise<number> {
  const { rows } = await db.query<{ minutes: number }>(
    'SELECT feed_silence_minutes AS minutes FROM clients WHERE id = $1',
    [clientId],
  );
  return rows[0]?.minutes ?? DEFAULT_SILENCE_MINUTES;
}

export type FeedAlertSettings = components['schemas']['FeedAlertSettings'];

const ALERT_SETTINGS_COLUMNS = `feed_silence_minutes::int AS silence_minutes,
  unusual_day_threshold::float8 AS unusual_threshold, unusual_day_min_baseline::int AS unusual_min_baseline`;

/** The client's rules of feed alerts and unusual days; undefined for no such client. */
export async function getFeedAlertSettings(db: Queryable, clientId: number): Promise<FeedAlertSettings | undefined> {
  const { rows } = await db.query<FeedAlertSettings>(`SELECT ${ALERT_SETTINGS_COLUMNS} FROM clients WHERE id = $1`, [
    clientId,
  ]);
  return rows[0];
}

/** Saves the rules (the row locked first, so of two saves the later wins), audit-logged in the same transaction. */
export async function updateFeedAlertSettings(
  pool: Pool,
  actor: { clientId: number; userId: number | null },
  settings: FeedAlertSettings,
): Promise<FeedAlertSettings | undefined> {
  return inTransaction(pool, async (tx) => {
    const before = (
      await tx.query<FeedAlertSettings>(`SELECT ${ALERT_SETTINGS_COLUMNS} FROM clients WHERE id = $1 FOR UPDATE`, [
        actor.clientId,
      ])
    ).rows[0];
    if (!before) return undefined;
    const after = singleRow(
      (
        await tx.query<FeedAlertSettings>(
          `UPDATE clients SET feed_silence_minutes = $2, unusual_day_threshold = round($3::numeric, 2),
             unusual_day_min_baseline = $4
           WHERE id = $1 RETURNING ${ALERT_SETTINGS_COLUMNS}`,
          [actor.clientId, settings.silence_minutes, settings.unusual_threshold, settings.unusual_min_baseline],
        )
      ).rows,
    );
    await writeAudit(tx, [
      {
        clientId: actor.clientId,
        userId: actor.userId,
        action: 'update',
        entity: 'feed_alert_settings',
        entityId: actor.clientId,
        before,
        after,
      },
    ]);
    return after;
  });
}
