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

export async function insertOutboxMail(db: Queryable, mail: { recipient: string; subject: string; text: string }) {
  await db.query('INSERT INTO outbox (recipient, subject, text) VALUES ($1, $2, $3)', [
    mail.recipient,
    mail.subject,
    mail.text,
  ]);
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
  const pageSql = `SELECT id, recipient, subject, text, created_at FROM outbox WHERE ${searchWhere(p, query.search)}
    ORDER BY ${SORT_SQL[query.sortColumn]} ${direction}, id ${direction}
    LIMIT ${p.add(query.rowsPerPage)} OFFSET ${p.add((query.page - 1) * query.rowsPerPage)}`;
  const q = new SqlParams();
  const countSql = `SELECT count(*)::int AS total FROM outbox WHERE ${searchWhere(q, query.search)}`;
  const [page, count] = await Promise.all([
    db.query<{ id: number; recipient: string; subject: string; text: string; created_at: Date }>(pageSql, p.values),
    db.query<{ total: number }>(countSql, q.values),
  ]);
  return {
    data: page.rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() })),
    total: count.rows[0]?.total ?? 0,
  };
}
