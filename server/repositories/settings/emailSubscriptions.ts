import type { components } from '../../../src/api/schema.js';
import { inTransaction, type Pool, type Queryable, singleRow } from '../../db/pool.js';
import { writeAudit } from '../audit.js';
import { type Actor, auditBy } from './actor.js';

type Schemas = components['schemas'];

/** A user's e-mail subscriptions of a client: void alerts and the daily summary (§2). */
export type EmailSubscription = Schemas['EmailSubscription'];

export async function getEmailSubscription(
  db: Queryable,
  clientId: number,
  userId: number,
  email: string,
): Promise<EmailSubscription> {
  const { rows } = await db.query<{ email_subscribe: boolean; summary_email_subscribe: boolean }>(
    `SELECT email_subscribe, summary_email_subscribe FROM email_subscriptions WHERE client_id = $1 AND user_id = $2`,
    [clientId, userId],
  );
  const row = rows[0] ?? { email_subscribe: false, summary_email_subscribe: false };
  return { client_id: clientId, email, ...row };
}

export async function saveEmailSubscription(
  pool: Pool,
  actor: Actor,
  email: string,
  value: { email_subscribe: boolean; summary_email_subscribe: boolean },
): Promise<EmailSubscription> {
  type Stored = { email_subscribe: boolean; summary_email_subscribe: boolean };
  return inTransaction(pool, async (tx) => {
    const params = [actor.clientId, actor.userId, value.email_subscribe, value.summary_email_subscribe];
    const { rows: created } = await tx.query<Stored>(
      `INSERT INTO email_subscriptions (client_id, user_id, email_subscribe, summary_email_subscribe)
       VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING email_subscribe, summary_email_subscribe`,
      params,
    );
    let before: Stored | null = null;
    let after = created[0];
    if (!after) {
      const { rows: old } = await tx.query<Stored>(
        `SELECT email_subscribe, summary_email_subscribe FROM email_subscriptions
         WHERE client_id = $1 AND user_id = $2 FOR UPDATE`,
        [actor.clientId, actor.userId],
      );
      before = singleRow(old);
      const { rows } = await tx.query<Stored>(
        `UPDATE email_subscriptions SET email_subscribe = $3, summary_email_subscribe = $4
         WHERE client_id = $1 AND user_id = $2 RETURNING email_subscribe, summary_email_subscribe`,
        params,
      );
      after = singleRow(rows);
    }
    await writeAudit(tx, [
      auditBy(actor, {
        action: before ? 'update' : 'create',
        entity: 'email_subscription',
        entityId: actor.userId,
        before,
        after,
      }),
    ]);
    return { client_id: actor.clientId, email, ...after };
  });
}
