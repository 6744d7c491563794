import type { Queryable } from '../db/pool.js';

export async function insertOutboxMail(db: Queryable, mail: { recipient: string; subject: string; text: string }) {
  await db.query('INSERT INTO outbox (recipient, subject, text) VALUES ($1, $2, $3)', [
    mail.recipient,
    mail.subject,
    mail.text,
  ]);
}

export async function listOutboxMails(db: Queryable, limit: number) {
  const { rows } = await db.query<{ id: number; recipient: string; subject: string; text: string; created_at: Date }>(
    'SELECT id, recipient, subject, text, created_at FROM outbox ORDER BY id DESC LIMIT $1',
    [limit],
  );
  return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
}
