import type { Pool } from '../db/pool.js';
import { dropReceiptMonthsBefore, ensureReceiptMonths } from '../repositories/receiptPartitions.js';

/** The first day (YYYY-MM-DD) of the UTC month `offset` months after the one of `at`. */
function monthStart(at: Date, offset: number): string {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1)).toISOString().slice(0, 10);
}

/**
 * The upkeep of the receipts' monthly partitions: this month's and the next are created ahead (so that storing
 * today's receipts never has to), and, with a retention of N months, the months before the last N (this one
 * included) are dropped. Idempotent: run at start and every few hours.
 */
export async function maintainReceiptPartitions(
  pool: Pool,
  options: { retentionMonths: number; now?: Date },
): Promise<{ dropped: string[] }> {
  const now = options.now ?? new Date();
  await ensureReceiptMonths(pool, [monthStart(now, 0), monthStart(now, 1)]);
  if (options.retentionMonths <= 0) return { dropped: [] };
  return { dropped: await dropReceiptMonthsBefore(pool, monthStart(now, 1 - options.retentionMonths)) };
}
