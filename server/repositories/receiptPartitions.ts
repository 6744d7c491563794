import type { Queryable } from '../db/pool.js';

/**
 * The monthly partitions of receipts (migration 022): `receipts_YYYY_MM`, each the receipts whose instant falls in
 * that month (UTC), with their tenders, line items and printed text.
 */

/** The advisory lock partitions are made under (migrations hold 727001, the demo 727002 and 727003). */
const RECEIPT_MONTHS_LOCK = 727004;

/**
 * Creates the partitions of the months of `days` (YYYY-MM-DD) that do not exist yet. Instances starting together
 * make them one at a time: the statement first takes a transaction-level advisory lock (a one-time filter, evaluated
 * before any row), so the second finds the first's partitions instead of failing to create them again.
 */
export async function ensureReceiptMonths(db: Queryable, days: readonly string[]): Promise<void> {
  await db.query(
    `SELECT receipts_month_partition(day) FROM unnest($1::date[]) AS day
     WHERE (SELECT pg_advisory_xact_lock($2)::text) IS NOT NULL`,
    [[...days], RECEIPT_MONTHS_LOCK],
  );
}

export interface ReceiptMonth {
  name: string;
  /** The first day of the month, YYYY-MM-DD. */
  month: string;
}

/** The partitions, oldest first. */
export async function listReceiptMonths(db: Queryable): Promise<ReceiptMonth[]> {
  const { rows } = await db.query<ReceiptMonth>(
    `SELECT c.relname AS name, to_char(to_date(substr(c.relname, 10), 'YYYY_MM'), 'YYYY-MM-DD') AS month
     FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'receipts'::regclass AND c.relname ~ '^receipts_[0-9]{4}_[0-9]{2}$'
     ORDER BY c.relname`,
  );
  return rows;
}

/**
 * Drops the partitions of the months before `firstKept` (YYYY-MM-01), each in one statement: their receipts, tenders,
 * items and printed texts go; the rollups, and so every report, keep their figures. Answers the months dropped.
 */
export async function dropReceiptMonthsBefore(db: Queryable, firstKept: string): Promise<string[]> {
  const dropped: string[] = [];
  for (const partition of await listReceiptMonths(db)) {
    if (partition.month >= firstKept) break;
    // The name comes from the catalogue and matches receipts_YYYY_MM: nothing else reaches the statement.
    await db.query(`DROP TABLE IF EXISTS "${partition.name}"`);
    dropped.push(partition.month);
  }
  return dropped;
}
