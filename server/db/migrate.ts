import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { seedEveryCalendar } from '../repositories/calendar.js';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * What a migration does after its SQL, in its transaction, where the data lives in TypeScript: the calendar seed
 * of migration 028 (server/calendar/holidaySeed.ts) for the clients that exist when it runs.
 */
const AFTER_SQL: Readonly<Record<string, (db: pg.PoolClient) => Promise<void>>> = {
  '028_calendar_and_events.sql': seedEveryCalendar,
};

/** The migration files of this server, in order. */
async function migrationFiles(): Promise<string[]> {
  return (await fs.readdir(MIGRATIONS_DIR)).filter((file) => /^\d{3}_[\w-]+\.sql$/.test(file)).sort();
}

/** The migrations of this server that the database has not recorded (all of them before the first migrate). */
export async function pendingMigrations(db: Pick<pg.Pool, 'query'>): Promise<string[]> {
  const { rows: tables } = await db.query<{ present: boolean }>(
    `SELECT to_regclass('schema_migrations') IS NOT NULL AS present`,
  );
  const { rows } = tables[0]?.present
    ? await db.query<{ name: string }>('SELECT name FROM schema_migrations')
    : { rows: [] };
  const done = new Set(rows.map((row) => row.name));
  return (await migrationFiles()).filter((file) => !done.has(file));
}

/**
 * Applies every migrations/NNN_name.sql not yet recorded in schema_migrations (up to and including `until`
 * when given), each in its own transaction.
 */
export async function migrate(pool: pg.Pool, options: { until?: string } = {}): Promise<string[]> {
  const client = await pool.connect();
  try {
    // One migrator at a time, even with several servers starting on one database.
    await client.query('SELECT pg_advisory_lock(727001)');
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ name: string }>('SELECT name FROM schema_migrations');
    const done = new Set(rows.map((row) => row.name));
    const files = await migrationFiles();
    const applied: string[] = [];
    for (const file of files) {
      if (options.until !== undefined && file > options.until) break;
      if (done.has(file)) continue;
      const sql = await fs.readFile(path.join(MIGRATIONS_DIR, file), 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await AFTER_SQL[file]?.(client);
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${file} failed: ${(error as Error).message}`);
      }
      applied.push(file);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock(727001)').catch(() => {});
    client.release();
  }
}
