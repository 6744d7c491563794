import type { components } from '../../src/api/schema.js';
import { inTransaction, type Pool, type Queryable, singleRow } from '../db/pool.js';
import { writeAudit } from './audit.js';

/**
 * A client's GTO review rules (the variance threshold, the due day of the following month, reminders on or off)
 * and the reminders sent to outlets that have not submitted a month by its due day.
 */

export type GtoSettings = components['schemas']['GtoSettings'];

const SETTINGS_COLUMNS = `gto_variance_threshold::float8 AS variance_threshold, gto_due_day AS due_day,
  gto_reminders AS reminders`;

export async function getGtoSettings(db: Queryable, clientId: number): Promise<GtoSettings | undefined> {
  const { rows } = await db.query<GtoSettings>(`SELECT ${SETTINGS_COLUMNS} FROM clients WHERE id = $1`, [clientId]);
  return rows[0];
}

/** Saves the rules (the row locked first, so of two saves the later wins), audit-logged in the same transaction. */
export async function updateGtoSettings(
  pool: Pool,
  actor: { clientId: number; userId: number | null },
  settings: GtoSettings,
): Promise<GtoSettings | undefined> {
  return inTransaction(pool, async (tx) => {
    const before = (
      await tx.query<GtoSettings>(`SELECT ${SETTINGS_COLUMNS} FROM clients WHERE id = $1 FOR UPDATE`, [actor.clientId])
    ).rows[0];
    if (!before) return undefined;
    const after = singleRow(
      (
        await tx.query<GtoSettings>(
          `UPDATE clients SET gto_variance_threshold = round($2::numeric, 2), gto_due_day = $3, gto_reminders = $4
           WHERE id = $1 RETURNING ${SETTINGS_COLUMNS}`,
          [actor.clientId, settings.variance_threshold, settings.due_day, settings.reminders],
        )
      ).rows,
    );
    await writeAudit(tx, [
      {
        clientId: actor.clientId,
        userId: actor.userId,
        action: 'update',
        entity: 'gto_settings',
        entityId: actor.clientId,
        before,
        after,
      },
    ]);
    return after;
  });
}

/** An outlet whose month is past its due day and not submitted, with the tenants to remind and the mall's today. */
export interface DueReminder {
  clientId: number;
  outletId: number;
  outletName: string;
  mallName: string;
  /** `YYYY-MM-01`: the month not submitted (the month before the mall's today). */
  month: string;
  /** `YYYY-MM-DD`, the mall's today: the day the reminder is for. */
  today: string;
  dueOn: string;
  /** Active tenant users of the outlet (those limited to it), by e-mail. */
  recipients: string[];
}

/**
 * Every outlet of a client with reminders on whose last month is not submitted although the due day (of this month,
 * in the mall's time zone) has come, that has active tenant users and has not been reminded today. The month before
 * the mall's today is the only one due: a month closes at the end of the following month.
 */
export async function dueReminders(db: Queryable, now: Date): Promise<DueReminder[]> {
  const { rows } = await db.query<DueReminder>(
    `WITH local AS (
       SELECT m.client_id, m.id AS mall_id, m.name AS mall_name, c.gto_due_day,
              ($1::timestamptz AT TIME ZONE m.time_zone)::date AS today
       FROM malls m JOIN clients c ON c.id = m.client_id
       WHERE c.gto_reminders
     ),
     due AS (
       SELECT l.*, (date_trunc('month', l.today) - interval '1 month')::date AS month,
              (date_trunc('month', l.today) + (l.gto_due_day - 1) * interval '1 day')::date AS due_on
       FROM local l
     )
     SELECT o.client_id AS "clientId", o.id AS "outletId", o.name AS "outletName", d.mall_name AS "mallName",
            to_char(d.month, 'YYYY-MM-DD') AS month, to_char(d.today, 'YYYY-MM-DD') AS today,
            to_char(d.due_on, 'YYYY-MM-DD') AS "dueOn",
            array_agg(u.email ORDER BY u.email) AS recipients
     FROM due d
     JOIN outlets o ON o.client_id = d.client_id AND o.mall_id = d.mall_id
     JOIN user_outlets uo ON uo.client_id = o.client_id AND uo.outlet_id = o.id
     JOIN users u ON u.id = uo.user_id AND NOT u.disabled AND u.password_hash IS NOT NULL
     WHERE d.today >= d.due_on
       AND NOT EXISTS (SELECT 1 FROM gto_submissions g
                       WHERE g.client_id = o.client_id AND g.outlet_id = o.id AND g.month = d.month)
       AND NOT EXISTS (SELECT 1 FROM gto_reminders r
                       WHERE r.client_id = o.client_id AND r.outlet_id = o.id AND r.month = d.month
                         AND r.sent_on = d.today)
     GROUP BY o.client_id, o.id, o.name, d.mall_name, d.month, d.today, d.due_on
     ORDER BY o.client_id, o.id`,
    [now.toISOString()],
  );
  return rows;
}

/**
 * Records today's reminder of an outlet's month unless one is recorded already or the month has been submitted
 * meanwhile: true when this call recorded it (and so must send it). Run in the transaction that sends the mail,
 * so a reminder that could not be sent is not recorded; a second server waits on the key and then records nothing.
 */
export async function recordReminder(db: Queryable, reminder: DueReminder): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO gto_reminders (client_id, outlet_id, month, sent_on, recipients)
     SELECT $1, $2, $3::date, $4::date, $5
     WHERE NOT EXISTS (SELECT 1 FROM gto_submissions g WHERE g.client_id = $1 AND g.outlet_id = $2 AND g.month = $3::date)
     ON CONFLICT DO NOTHING`,
    [reminder.clientId, reminder.outletId, reminder.month, reminder.today, reminder.recipients.length],
  );
  return rowCount === 1;
}
