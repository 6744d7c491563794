import type { Queryable } from '../db/pool.js';
import type { MailAttachment } from '../mail/mailer.js';

/**
 * The scheduled e-mails of the Settings subscriptions (migration 020): void alerts and the daily summary, the
 * mails they decide to send (scheduled_mails) and their delivery.
 *
 * Who gets them follows the visibility of the reports (loadUserGrants in users.ts, the outlet condition of
 * lookup.ts): a subscription of a client counts for an active user who sees the client (a member of it in
 * user_clients, or a super admin, who sees every client); a user with user_outlets rows for the client sees only
 * those outlets, any other sees all of the client's outlets; a mall is seen when one of its outlets is.
 */

export type SubscriptionKind = 'void' | 'summary';

/** The subscription column of each kind (email_subscriptions). */
const SUBSCRIPTION_COLUMN: Record<SubscriptionKind, string> = {
  void: 'email_subscribe',
  summary: 'summary_email_subscribe',
};

export interface Subscriber {
  clientId: number;
  clientName: string;
  userId: number;
  email: string;
  /** The outlets of the client the user is limited to; null when the user sees all of them. */
  outletIds: number[] | null;
}

/** Whether `subscriber` sees `outletId` of its client. */
export function subscriberSees(subscriber: Subscriber, outletId: number): boolean {
  return subscriber.outletIds === null || subscriber.outletIds.includes(outletId);
}

/** The active users subscribed to `kind` in any of `clientIds` who see the client, with their outlet limits. */
export async function emailSubscribers(
  db: Queryable,
  clientIds: readonly number[],
  kind: SubscriptionKind,
): Promise<Subscriber[]> {
  if (clientIds.length === 0) return [];
  const { rows } = await db.query<Subscriber>(
    `SELECT s.client_id AS "clientId", c.name AS "clientName", u.id AS "userId", u.email,
       (SELECT array_agg(uo.outlet_id ORDER BY uo.outlet_id) FROM user_outlets uo
        WHERE uo.client_id = s.client_id AND uo.user_id = u.id) AS "outletIds"
     FROM email_subscriptions s
     JOIN clients c ON c.id = s.client_id
     JOIN users u ON u.id = s.user_id AND NOT u.disabled
     WHERE s.client_id = ANY($1::int[]) AND s.${SUBSCRIPTION_COLUMN[kind]}
       AND (EXISTS (SELECT 1 FROM user_clients uc WHERE uc.client_id = s.client_id AND uc.user_id = u.id)
            OR EXISTS (SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id
                       WHERE ur.user_id = u.id AND r.is_super_admin))
     ORDER BY s.client_id, u.email`,
    [clientIds],
  );
  return rows;
}

/* ---------------------------------------------------------------- void alerts */

export interface PendingVoid {
  clientId: number;
  /** receipts.id */
  receiptId: number;
}

/**
 * Takes up to `limit` void receipts waiting for their alert, oldest first, and deletes them, in the caller's
 * transaction: they are gone only if that transaction commits. Rows another transaction holds are skipped.
 */
export async function takePendingVoids(db: Queryable, limit: number): Promise<PendingVoid[]> {
  const { rows } = await db.query<PendingVoid>(
    `WITH taken AS (
       SELECT client_id, receipt_id FROM void_alert_pending
       ORDER BY queued_at, client_id, receipt_id LIMIT $1 FOR UPDATE SKIP LOCKED
     )
     DELETE FROM void_alert_pending p USING taken t
     WHERE p.client_id = t.client_id AND p.receipt_id = t.receipt_id
     RETURNING p.client_id AS "clientId", p.receipt_id AS "receiptId"`,
    [limit],
  );
  return rows;
}

export interface VoidReceipt {
  clientId: number;
  outletId: number;
  outletName: string;
  mallName: string;
  timeZone: string;
  /** The point of sale's receipt id. */
  receiptNo: string;
  /** The receipt's time in the mall's time zone, 'YYYY-MM-DD HH:mm'. */
  localTime: string;
  amount: number;
  /** The outlet's currency (ISO 4217). */
  currency: string;
}

/** The receipts of `pending` made at or after `since`, in time order (those before it get no alert). */
export async function voidReceipts(
  db: Queryable,
  pending: readonly PendingVoid[],
  since: Date,
): Promise<VoidReceipt[]> {
  if (pending.length === 0) return [];
  const { rows } = await db.query<VoidReceipt>(
    `SELECT r.client_id AS "clientId", o.id AS "outletId", o.name AS "outletName", m.name AS "mallName",
       m.time_zone AS "timeZone", r.receipt_id AS "receiptNo",
       to_char(r.datetime AT TIME ZONE m.time_zone, 'YYYY-MM-DD HH24:MI') AS "localTime",
       r.total_amount AS amount, o.currency
     FROM unnest($1::int[], $2::int8[]) AS k(client_id, id)
     JOIN receipts r ON r.client_id = k.client_id AND r.id = k.id
     JOIN outlets o ON o.client_id = r.client_id AND o.id = r.outlet_id
     JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
     WHERE r.void AND r.datetime >= $3::timestamptz
     ORDER BY r.client_id, r.datetime, r.id`,
    [pending.map((row) => row.clientId), pending.map((row) => row.receiptId), since.toISOString()],
  );
  return rows;
}

/* ---------------------------------------------------------------- daily summary */

export interface MallDay {
  clientId: number;
  mallId: number;
  /** The mall's local day, 'YYYY-MM-DD'. */
  day: string;
}

/**
 * The mall days whose summary is due at `now` and not decided yet. A mall's day is due from `hour`:00 of the next
 * day in the mall's time zone. A mall with decided days catches up the days after its latest one, at most the
 * last `catchUpDays`; a mall without any starts with yesterday, once it is due.
 */
export async function dueSummaryDays(
  db: Queryable,
  now: Date,
  options: { hour: number; catchUpDays: number },
): Promise<MallDay[]> {
  const { rows } = await db.query<MallDay>(
    `WITH local AS (
       SELECT m.client_id, m.id AS mall_id, $1::timestamptz AT TIME ZONE m.time_zone AS local_ts
       FROM malls m
     ),
     bounds AS (
       SELECT l.client_id, l.mall_id, l.local_ts::date AS today,
         l.local_ts::date - CASE WHEN l.local_ts::time >= make_time($2, 0, 0) THEN 1 ELSE 2 END AS latest,
         (SELECT max(d.day) FROM daily_summary_days d
          WHERE d.client_id = l.client_id AND d.mall_id = l.mall_id) AS last_day
       FROM local l
     )
     SELECT b.client_id AS "clientId", b.mall_id AS "mallId", to_char(g.day, 'YYYY-MM-DD') AS day
     FROM bounds b
     CROSS JOIN LATERAL generate_series(
       (CASE WHEN b.last_day IS NULL THEN b.today - 1
             ELSE greatest(b.last_day + 1, b.latest - ($3::int - 1)) END)::timestamp,
       b.latest::timestamp, interval '1 day') AS g(day)
     ORDER BY g.day, b.client_id, b.mall_id`,
    [now.toISOString(), options.hour, options.catchUpDays],
  );
  return rows;
}

/**
 * Records the summary of `malls` for `day` as decided, in the caller's transaction, and answers the malls this
 * call recorded: a mall day another transaction recorded first is not answered (it waits for that one's commit).
 */
export async function claimSummaryDays(
  db: Queryable,
  day: string,
  malls: readonly { clientId: number; mallId: number }[],
): Promise<{ clientId: number; mallId: number }[]> {
  if (malls.length === 0) return [];
  const { rows } = await db.query<{ clientId: number; mallId: number }>(
    `INSERT INTO daily_summary_days (client_id, mall_id, day)
     SELECT k.client_id, k.mall_id, $3::date FROM unnest($1::int[], $2::int[]) AS k(client_id, mall_id)
     ON CONFLICT DO NOTHING
     RETURNING client_id AS "clientId", mall_id AS "mallId"`,
    [malls.map((mall) => mall.clientId), malls.map((mall) => mall.mallId), day],
  );
  return rows;
}

export interface OutletDayFigures {
  clientId: number;
  mallId: number;
  mallName: string;
  timeZone: string;
  outletId: number;
  outletName: string;
  /** The outlet's currency (ISO 4217): its money is never added to another currency's. */
  currency: string;
  gmv: number;
  transactions: number;
  voids: number;
  voidAmount: number;
}

/**
 * The figures of `day` of every outlet of `malls` open by then, from rollup_outlet_daily (zeros for an outlet
 * without sales), in the order of the mall and outlet names.
 */
export async function summaryFigures(
  db: Queryable,
  day: string,
  malls: readonly { clientId: number; mallId: number }[],
): Promise<OutletDayFigures[]> {
  if (malls.length === 0) return [];
  const { rows } = await db.query<OutletDayFigures>(
    `SELECT m.client_id AS "clientId", m.id AS "mallId", m.name AS "mallName", m.time_zone AS "timeZone",
       o.id AS "outletId", o.name AS "outletName", o.currency,
       coalesce(r.gmv, 0) AS gmv, coalesce(r.transactions, 0) AS transactions,
       coalesce(r.void_count, 0) AS voids, coalesce(r.void_amount, 0) AS "voidAmount"
     FROM unnest($1::int[], $2::int[]) AS k(client_id, mall_id)
     JOIN malls m ON m.client_id = k.client_id AND m.id = k.mall_id
     JOIN outlets o ON o.client_id = m.client_id AND o.mall_id = m.id
     LEFT JOIN rollup_outlet_daily r ON r.client_id = o.client_id AND r.outlet_id = o.id AND r.local_day = $3::date
     WHERE o.opened_on IS NULL OR o.opened_on <= $3::date
     ORDER BY m.client_id, lower(m.name), m.id, lower(o.name), o.id`,
    [malls.map((mall) => mall.clientId), malls.map((mall) => mall.mallId), day],
  );
  return rows;
}

/* ---------------------------------------------------------------- the mails and their delivery */

export type ScheduledMailKind =
  | 'void_alert'
  | 'daily_summary'
  | 'feed_alert'
  | 'feed_recovery'
  | 'alert_rule'
  | 'report_subscription';

export interface NewScheduledMail {
  clientId: number;
  kind: ScheduledMailKind;
  userId: number | null;
  recipient: string;
  subject: string;
  text: string;
  messageId: string;
  /** The day a daily summary reports. */
  summaryDay?: string;
  /** Files sent with it (a report subscription's PDF and workbook), kept with it until it is pruned. */
  attachments?: readonly MailAttachment[];
}

export interface ScheduledMailRef {
  clientId: number;
  mailId: number;
}

export async function insertScheduledMail(db: Queryable, mail: NewScheduledMail): Promise<ScheduledMailRef> {
  const { rows } = await db.query<ScheduledMailRef>(
    `INSERT INTO scheduled_mails (client_id, kind, user_id, recipient, subject, text, message_id, summary_day)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::date)
     RETURNING client_id AS "clientId", id AS "mailId"`,
    [
      mail.clientId,
      mail.kind,
      mail.userId,
      mail.recipient,
      mail.subject,
      mail.text,
      mail.messageId,
      mail.summaryDay ?? null,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error('scheduled_mails: the insert returned no row');
  const files = mail.attachments ?? [];
  if (files.length > 0) {
    await db.query(
      `INSERT INTO scheduled_mail_attachments (client_id, mail_id, position, filename, media_type, bytes)
       SELECT $1, $2, k.position, k.filename, k.media_type, k.bytes
       FROM unnest($3::int[], $4::text[], $5::text[], $6::bytea[]) AS k(position, filename, media_type, bytes)`,
      [
        row.clientId,
        row.mailId,
        files.map((_, i) => i + 1),
        files.map((file) => file.filename),
        files.map((file) => file.mediaType),
        files.map((file) => file.bytes),
      ],
    );
  }
  return row;
}

export interface ScheduledMail {
  recipient: string;
  subject: string;
  text: string;
  messageId: string;
  delivered: boolean;
  attachments: MailAttachment[];
}

/**
 * A scheduled mail, its row locked until the caller's transaction ends, so two deliveries of one mail run one
 * after the other and the second sees the first's.
 */
export async function lockScheduledMail(db: Queryable, ref: ScheduledMailRef): Promise<ScheduledMail | undefined> {
  const { rows } = await db.query<ScheduledMail>(
    `SELECT recipient, subject, text, message_id AS "messageId", delivered_at IS NOT NULL AS delivered,
       coalesce((SELECT array_agg(a.position ORDER BY a.position) FROM scheduled_mail_attachments a
                 WHERE a.client_id = m.client_id AND a.mail_id = m.id), '{}') AS attachments
     FROM scheduled_mails m WHERE client_id = $1 AND id = $2 FOR UPDATE`,
    [ref.clientId, ref.mailId],
  );
  const mail = rows[0] as (Omit<ScheduledMail, 'attachments'> & { attachments: number[] }) | undefined;
  if (!mail) return undefined;
  if (mail.delivered || mail.attachments.length === 0) return { ...mail, attachments: [] };
  const files = await db.query<MailAttachment>(
    `SELECT filename, media_type AS "mediaType", bytes FROM scheduled_mail_attachments
     WHERE client_id = $1 AND mail_id = $2 ORDER BY position`,
    [ref.clientId, ref.mailId],
  );
  return { ...mail, attachments: files.rows };
}

export async function markScheduledMailDelivered(db: Queryable, ref: ScheduledMailRef): Promise<void> {
  await db.query('UPDATE scheduled_mails SET delivered_at = now() WHERE client_id = $1 AND id = $2', [
    ref.clientId,
    ref.mailId,
  ]);
}

/**
 * Forgets delivered mails and decided summary days older than `before`, keeping each mall's latest day (where
 * catching up starts).
 */
export async function pruneScheduledMail(db: Queryable, before: Date): Promise<void> {
  await db.query('DELETE FROM scheduled_mails WHERE delivered_at IS NOT NULL AND created_at < $1', [
    before.toISOString(),
  ]);
  await db.query(
    `DELETE FROM daily_summary_days d
     WHERE d.summarised_at < $1
       AND d.day < (SELECT max(l.day) FROM daily_summary_days l WHERE l.client_id = d.client_id AND l.mall_id = d.mall_id)`,
    [before.toISOString()],
  );
}
