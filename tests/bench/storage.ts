import type { Pool } from '../../server/db/pool.js';

const say = (message: string) => process.stdout.write(`${message}\n`);
const megabytes = (bytes: number) =>
  `${(bytes / 1024 / 1024).toLocaleString('en-US', { maximumFractionDigits: 0 })} MB`;

/**
 * What the data costs to keep: bytes per receipt over every table with its indexes and TOAST, the largest tables,
 * and the indexes no query has read since the statistics began (pg_stat_user_indexes.idx_scan = 0: after the
 * bench's calls, candidates to drop).
 */
export async function printStorage(pool: Pool): Promise<void> {
  const { rows: totals } = await pool.query<{ receipts: number; bytes: number }>(
    `SELECT (SELECT count(*) FROM receipts)::float8 AS receipts, sum(pg_total_relation_size(c.oid))::float8 AS bytes
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'm')`,
  );
  const total = totals[0];
  if (!total || total.receipts === 0) return;
  say(
    `${megabytes(total.bytes)} in all tables and indexes: ${Math.round(total.bytes / total.receipts).toLocaleString('en-US')} bytes a receipt`,
  );
  // A partitioned table (receipts, by month) is counted as one, its partitions summed.
  const { rows: tables } = await pool.query<{ name: string; bytes: number; indexes: number }>(
    `SELECT coalesce(pg_partition_root(relid), relid)::regclass::text AS name,
       sum(pg_total_relation_size(relid))::float8 AS bytes, sum(pg_indexes_size(relid))::float8 AS indexes
     FROM pg_stat_user_tables GROUP BY 1 ORDER BY 2 DESC LIMIT 8`,
  );
  for (const table of tables) {
    say(`  ${table.name.padEnd(32)} ${megabytes(table.bytes).padStart(10)} (indexes ${megabytes(table.indexes)})`);
  }
  const { rows: unused } = await pool.query<{ name: string; tablename: string; bytes: number }>(
    `SELECT coalesce(pg_partition_root(indexrelid), indexrelid)::regclass::text AS name,
       coalesce(pg_partition_root(relid), relid)::regclass::text AS tablename,
       sum(pg_relation_size(indexrelid))::float8 AS bytes
     FROM pg_stat_user_indexes GROUP BY 1, 2 HAVING sum(idx_scan) = 0 ORDER BY 3 DESC LIMIT 10`,
  );
  say(`indexes never read (${unused.length} largest):`);
  for (const index of unused) {
    say(`  ${`${index.tablename}.${index.name}`.padEnd(60)} ${megabytes(index.bytes).padStart(10)}`);
  }
}
