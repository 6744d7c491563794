import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '../../server/db/pool.js';
import { planningEachCall } from '../../server/db/statementCache.js';
import { createTestDatabase, type TestDatabase } from './helpers.js';

let db: TestDatabase;
const pools: Pool[] = [];

beforeAll(async () => {
  db = await createTestDatabase({ empty: true });
});
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await db?.drop();
});

/** A pool of one connection keeping `size` prepared statements. */
function poolKeeping(size: number): Pool {
  const pool = createPool(db.url, 1, { statementCache: size });
  pools.push(pool);
  return pool;
}

/** The statements the pool's one connection has prepared, and how often each was run as a generic plan or not. */
async function prepared(pool: Pool) {
  const { rows } = await pool.query<{ statement: string; plans: number }>(
    `SELECT statement, (generic_plans + custom_plans)::int AS plans FROM pg_prepared_statements ORDER BY statement`,
  );
  return rows;
}

const statement = (n: number) => `SELECT $1::int + ${n} AS sum`;

describe('prepared statements of a request pool', () => {
  it('prepares a parameterized statement once a connection and runs it again without parsing it', async () => {
    const pool = poolKeeping(10);
    for (let i = 0; i < 7; i++) {
      expect((await pool.query<{ sum: number }>(statement(1), [i])).rows).toEqual([{ sum: i + 1 }]);
    }
    expect(await prepared(pool)).toEqual([{ statement: statement(1), plans: 7 }]);
    // Each call planned for its own values, never a generic plan.
    const { rows } = await pool.query<{ generic: number }>(
      'SELECT generic_plans::int AS generic FROM pg_prepared_statements',
    );
    expect(rows).toEqual([{ generic: 0 }]);
  });

  it('keeps at most its size, deallocating the statement used least recently, and prepares it again when asked', async () => {
    const pool = poolKeeping(2);
    await pool.query(statement(1), [1]);
    await pool.query(statement(2), [1]);
    await pool.query(statement(1), [1]);
    // The third statement evicts the second (the first was used since).
    await pool.query(statement(3), [1]);
    expect((await prepared(pool)).map((row) => row.statement)).toEqual([statement(1), statement(3)]);
    expect((await pool.query<{ sum: number }>(statement(2), [5])).rows).toEqual([{ sum: 7 }]);
    expect((await prepared(pool)).map((row) => row.statement)).toEqual([statement(2), statement(3)]);
  });

  it('keeps its record right when a statement is evicted inside a failed transaction', async () => {
    const pool = poolKeeping(2);
    await pool.query(statement(1), [1]);
    await pool.query(statement(2), [1]);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      // A third statement (it evicts statement 1 while the transaction is still sound), failing the transaction.
      await expect(client.query('SELECT 1 / $1::int', [0])).rejects.toThrow(/division by zero/);
      // A fourth evicts statement 2 in the failed transaction: its DEALLOCATE fails, and the statement stays.
      await expect(client.query(statement(3), [1])).rejects.toThrow(/aborted/);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect((await prepared(pool)).map((row) => row.statement)).toContain(statement(2));
    // Statement 2 is still prepared on the server: running it again must not prepare it a second time.
    expect((await pool.query<{ sum: number }>(statement(2), [2])).rows).toEqual([{ sum: 4 }]);
    expect((await pool.query<{ sum: number }>(statement(1), [2])).rows).toEqual([{ sum: 3 }]);
  });

  it('prepares nothing with a size of 0, nor a statement without parameters', async () => {
    const none = poolKeeping(0);
    await none.query(statement(1), [1]);
    expect(await prepared(none)).toEqual([]);
    const some = poolKeeping(10);
    await some.query('SELECT 1 AS one');
    expect(await prepared(some)).toEqual([]);
  });

  it('plans each call by a startup option of the connection, keeping the options a URL has', () => {
    expect(planningEachCall('postgres://u:p%40ss@db.example:5432/mall')).toBe(
      'postgres://u:p%40ss@db.example:5432/mall?options=-c+plan_cache_mode%3Dforce_custom_plan',
    );
    const kept = new URL(planningEachCall('postgres://db/mall?options=-c%20search_path%3Dpublic&sslmode=require'));
    expect(kept.searchParams.get('options')).toBe('-c search_path=public -c plan_cache_mode=force_custom_plan');
    expect(kept.searchParams.get('sslmode')).toBe('require');
  });
});
