import type { operations } from '../../src/api/schema.js';
import type { Queryable } from '../db/pool.js';
import { escapeLike, SqlParams } from '../db/sqlParams.js';

type OutboxQuery = NonNullable<operations['getOutbox']['parameters']['query']>;
export type OutboxPage = operations['getOutbox']['responses']['200']['content']['application/json'];
export type OutboxSortColumn = NonNullable<OutboxQuery['sortColumn']>;

/** The ORDER BY expression of each sort column of the contract: text columns sort case-insensitively. */
const SORT_SQL: Record<OutboxSortColumn, string> = {
  created_at: 'created_at',
  recipient: 'lower(recipient)',
  subject: 'lower(subject)',
};

export interface OutboxPageQuery {
  /** From 1. */
  page: number;
  rowsPerPage: number;
  sortColumn: OutboxSortColumn;
  order: 'asc' | 'desc';
  /** A plain substring of the recipient or the subject, any case; '' matches every mail. */
  search: string;
}

/** A file kept with an outbox mail. */
export interface OutboxAttachment {
  filename: string;
  mediaType: string;
  bytes: Buffer;
}

/** Keeps a mail, and its files in their order (positions from 1), in the outbox. */
export async function insertOutboxMail(
  db: Queryable,
  mail: { recipient: string; subject: string; text: string; attachments?: readonly OutboxAttachment[] },
) {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO outbox (recipient, subject, text) VALUES ($1, $2, $3) RETURNING id',
    [mail.recipient, mail.subject, mail.text],
  );
  const files = mail.attachments ?? [];
  if (files.length === 0) return;
  await db.query(
    `INSERT INTO outbox_attachments (outbox_id, position, filename, media_type, bytes)
     SELECT $1, k.position, k.filename, k.media_type, k.bytes
     FROM unnest($2::int[], $3::text[], $4::text[], $5::bytea[]) AS k(position, filename, media_type, bytes)`,
    [
      rows[0]?.id,
      files.map((_, i) => i + 1),
      files.map((file) => file.filename),
      files.map((file) => file.mediaType),
      files.map((file) => file.bytes),
    ],
  );
}

/** One file of an outbox mail, by the mail's id and the file's position. */
export async function findOutboxAttachment(
  db: Queryable,
  outboxId: number,
  position: number,
): Promise<OutboxAttachment | undefined> {
  const { rows } = await db.query<OutboxAttachment>(
    `SELECT filename, media_type AS "mediaType", bytes FROM outbox_attachments WHERE outbox_id = $1 AND position = $2`,
    [outboxId, position],
  );
  return rows[0];
}

function searchWhere(p: SqlParams, search: string): string {
  if (search === '') return 'true';
  const pattern = p.add(`%${escapeLike(search)}%`);
  return `(recipient ILIKE ${pattern} OR subject ILIKE ${pattern})`;
}

/** One page of the outbox in the order asked (ties by id, the same way), and the number of mails matching. */
export async function listOutboxMails(db: Queryable, query: OutboxPageQuery): Promise<OutboxPage> {
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const p = new SqlParams();
  const pageSql = `SELECT id, recipient, subject, text, created_at,
      coalesce((SELECT json_agg(json_build_object('position', a.position, 'filename', a.filename,
                  'media_type', a.media_type, 'size', octet_length(a.bytes)) ORDER BY a.position)
                FROM outbox_attachments a WHERE a.outbox_id = outbox.id), '[]') AS attachments
    FROM outbox WHERE ${searchWhere(p, query.search)}
    ORDER BY ${SORT_SQL[query.sortColumn]} ${direction}, id ${direction}
    LIMIT ${p.add(query.rowsPerPage)} OFFSET ${p.add((query.page - 1) * query.rowsPerPage)}`;
  const q = new SqlParams();
  const countSql = `SELECT count(*)::int AS total FROM outbox WHERE ${searchWhere(q, query.search)}`;
  const [page, count] = await Promise.all([
    db.query<Omit<OutboxPage['data'][number], 'created_at'> & { created_at: Date }>(pageSql, p.values),
    db.query<{ total: number }>(countSql, q.values),
  ]);
  return {
    data: page.rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() })),
    total: count.rows[0]?.total ?? 0,
  };
}
