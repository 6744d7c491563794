import pg from 'pg';
import { cacheStatements, planningEachCall } from './statementCache.js';

// numeric (money) and bigint come back as JavaScript numbers; money fits comfortably in a double.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
// Dates stay 'YYYY-MM-DD' strings: they are calendar days in a mall's time zone, not instants.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (value) => value);

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

export interface PoolLimits {
  /** PostgreSQL cancels a statement that runs longer (statement_timeout); none when absent. */
  statementTimeoutMs?: number;
  /** How long a query waits for a free connection before it fails; forever when absent. */
  connectionWaitMs?: number;
  /** Prepared statements each connection keeps (statementCache.ts); none when absent or 0. */
  statementCache?: number;
}

export function createPool(url: string, max = 10, limits: PoolLimits = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: limits.statementCache ? planningEachCall(url) : url,
    max,
    ...(limits.statementTimeoutMs === undefined ? {} : { statement_timeout: limits.statementTimeoutMs }),
    ...(limits.connectionWaitMs === undefined ? {} : { connectionTimeoutMillis: limits.connectionWaitMs }),
  });
  // An idle connection that the server closes (a restart, or Ctrl-C reaching PostgreSQL first) is dropped from
  // the pool; the next query opens a new one. Without a listener the pool's 'error' event would end the process.
  pool.on('error', () => {});
  // A connection the server ends while the pool has lent it out between two queries (a replica stopping: 57P01)
  // emits 'error' on the client itself, which without a listener would end the process; the pool drops the client
  // when it comes back, and the next query of its holder fails as a connection error.
  pool.on('connect', (client) => {
    client.on('error', () => {});
    cacheStatements(client, limits.statementCache ?? 0);
  });
  return pool;
}

/** Runs `work` in one transaction on one connection, rolling back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Fails unless the database answers (start-up and the health check). */
export async function pingDatabase(db: Queryable): Promise<void> {
  await db.query('SELECT 1');
}

/** The one row a statement always returns (INSERT ... RETURNING, an aggregate): an error, never undefined. */
export function singleRow<T>(rows: readonly T[]): T {
  const row = rows[0];
  if (row === undefined) throw new Error('The statement returned no row');
  return row;
}
