import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * Prepared statements kept by a connection of the request pools (DATABASE_STATEMENT_CACHE).
 *
 * A parameterized statement sent without a name is parsed anew on every call (a third of a millisecond for a
 * report's SQL). Named (after a hash of its text), PostgreSQL parses it once a connection. It is still planned for
 * each call's values (plan_cache_mode force_custom_plan, a startup option of the connection: planningEachCall): a
 * generic plan can neither prune the receipts' monthly partitions nor know how long a range is, and the one
 * PostgreSQL chose for cross spending took three times as long. The report SQL has many shapes (the hour filter, the currencies, the months are
 * written into it), so each connection keeps at most `size` of them and deallocates the one used least recently;
 * 0 names none (for a pooler in transaction mode that does not carry prepared statements).
 */
export function cacheStatements(client: pg.PoolClient, size: number): void {
  if (size <= 0) return;
  type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown;
  const target = client as unknown as {
    query: Query;
    // node-postgres's record of the statements this connection has parsed (client.js, query.js).
    connection: { parsedStatements: Record<string, string | undefined> };
  };
  const query = target.query.bind(client) as Query;
  const statements = target.connection.parsedStatements;
  /** Names in order of use, least recent first. */
  const used = new Map<string, true>();
  /** Deallocates a statement, then calls `done`: a query at a time (node-postgres 9 refuses a second on a busy client). */
  const deallocate = (name: string, done: () => void) => {
    const text = statements[name];
    // Never parsed (its Parse failed): nothing to deallocate.
    if (text === undefined) return done();
    delete statements[name];
    // In a transaction that has failed, DEALLOCATE fails too: the statement stays, and so does its record.
    query(`DEALLOCATE ${name}`, (error: Error | null) => {
      if (error) statements[name] = text;
      done();
    });
  };
  target.query = (config, values, callback) => {
    if (typeof config !== 'string' || !Array.isArray(values) || values.length === 0) {
      return query(config, values, callback);
    }
    const named = { name: `s_${createHash('sha1').update(config).digest('hex')}`, text: config, values };
    used.delete(named.name);
    used.set(named.name, true);
    const [oldest] = used.size > size ? used.keys() : [];
    if (oldest === undefined) return query(named, undefined, callback);
    used.delete(oldest);
    if (typeof callback === 'function') {
      deallocate(oldest, () => query(named, undefined, callback));
      return undefined;
    }
    return new Promise<void>((resolve) => deallocate(oldest, resolve)).then(() => query(named));
  };
}

/**
 * A connection string whose connections plan every statement for its values (plan_cache_mode force_custom_plan, a
 * startup option: no query of its own), keeping any options it has.
 */
export function planningEachCall(url: string): string {
  try {
    const parsed = new URL(url);
    const options = parsed.searchParams.get('options');
    parsed.searchParams.set('options', `${options ? `${options} ` : ''}-c plan_cache_mode=force_custom_plan`);
    return parsed.toString();
  } catch {
    return url;
  }
}
