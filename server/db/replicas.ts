import type pg from 'pg';
import { createPool, type Pool, type PoolLimits } from './pool.js';
import { trackRequestQueries } from './requestQueries.js';

/**
 * Report reads on PostgreSQL hot standbys (DATABASE_READ_URL): a `reads` pool that sends each query to a replica
 * that is up and caught up within the lag bound, in turn, and to the primary otherwise. Writes, sessions, access
 * checks and what a user reads right after writing it never come here: they use the primary's pool.
 *
 * Each replica is checked every `checkEveryMs` on a connection of its own: it must be in recovery (a standby, not
 * a promoted or mistaken primary) and its replay must have reached the primary's WAL position of that moment, or
 * else its last replayed transaction be at most `maxLagMs` old. A replica that fails the check, or whose query
 * fails for want of the server (refused, shut down, a recovery conflict), is skipped until a check passes again;
 * the query that met the failure runs again on the primary, so the page never sees it. Until its first check a
 * replica is skipped. What this keeps in memory is only what each instance has seen of its own connections.
 */

export interface ReplicaStatus {
  url: string;
  /** Whether reads go to it now. */
  usable: boolean;
  /** Seconds its replay is behind the primary (0 when caught up); undefined when it could not be asked. */
  lagSeconds: number | undefined;
  /** Reads it answered since the start. */
  reads: number;
}

export interface ReadPool {
  /** Runs a read on a usable replica, or on the primary. */
  query: pg.Pool['query'];
  status: () => ReplicaStatus[];
  /** Reads the primary answered since the start (no replica usable, or one failing). */
  primaryReads: () => number;
  /** Checks every replica now (the timer does it every checkEveryMs). */
  check: () => Promise<void>;
  end: () => Promise<void>;
}

export interface ReadPoolOptions {
  primary: Pool;
  replicaUrls: readonly string[];
  /** REPLICA_MAX_LAG_SECONDS × 1000. */
  maxLagMs: number;
  /** Connections to each replica. */
  poolSize: number;
  limits?: PoolLimits;
  checkEveryMs?: number;
  log?: { warn: (object: object, message: string) => void; info: (object: object, message: string) => void };
}

interface Replica {
  url: string;
  pool: Pool;
  usable: boolean;
  lagSeconds: number | undefined;
  reads: number;
}

/** SQLSTATEs and errors of a replica that is not there to answer (not of the query): the primary answers instead. */
const UNAVAILABLE = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up)
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
  '40001', // a recovery conflict cancels a standby's query with serialization_failure
]);

function isUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code && (UNAVAILABLE.has(code) || code.startsWith('ECONN') || code === 'ETIMEDOUT')) return true;
  return /Connection terminated|timeout exceeded when trying to connect|not queryable/i.test(message ?? '');
}

/** Hides the password of a connection string for logs and metrics. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://…';
  }
}

export function createReadPool(options: ReadPoolOptions): ReadPool {
  const replicas: Replica[] = options.replicaUrls.map((url) => ({
    url,
    pool: trackRequestQueries(createPool(url, options.poolSize, options.limits)),
    usable: false,
    lagSeconds: undefined,
    reads: 0,
  }));
  let primaryReads = 0;
  let next = 0;
  const pick = (): Replica | undefined => {
    const usable = replicas.filter((replica) => replica.usable);
    if (usable.length === 0) return undefined;
    next = (next + 1) % usable.length;
    return usable[next];
  };
  const setUsable = (replica: Replica, usable: boolean, lagSeconds: number | undefined, why?: string) => {
    if (replica.usable !== usable) {
      const fields = { replica: redactedUrl(replica.url), lagSeconds };
      if (usable) options.log?.info(fields, 'replica takes reads again');
      else options.log?.warn({ ...fields, why }, 'replica skipped: reads go to the primary');
    }
    replica.usable = usable;
    replica.lagSeconds = lagSeconds;
  };

  let checking: Promise<void> | undefined;
  const check = () => {
    checking ??= checkAll().finally(() => {
      checking = undefined;
    });
    return checking;
  };
  const checkAll = async () => {
    let primaryLsn: string | undefined;
    try {
      const { rows } = await options.primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
      primaryLsn = rows[0]?.lsn;
    } catch {
      // Without the primary's position, a replica is judged by the age of its last replayed transaction.
    }
    await Promise.all(
      replicas.map(async (replica) => {
        try {
          const { rows } = await replica.pool.query<{ standby: boolean; caught_up: boolean; age: number | null }>(
            `SELECT pg_is_in_recovery() AS standby,
               coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false) AS caught_up,
               extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8 AS age`,
            [primaryLsn ?? '0/0'],
          );
          const row = rows[0];
          if (!row?.standby) return setUsable(replica, false, undefined, 'not a standby');
          const lag = row.caught_up && primaryLsn ? 0 : (row.age ?? Number.POSITIVE_INFINITY);
          const within = lag * 1000 <= options.maxLagMs;
          setUsable(replica, within, Number.isFinite(lag) ? lag : undefined, within ? undefined : 'behind');
        } catch (error) {
          setUsable(replica, false, undefined, error instanceof Error ? error.message : String(error));
        }
      }),
    );
  };
  const timer = setInterval(() => void check(), options.checkEveryMs ?? 1000);
  timer.unref();
  void check();

  const query = (async (...args: unknown[]) => {
    const run = (pool: Pool) => (pool.query as (...a: unknown[]) => Promise<unknown>)(...args);
    const onPrimary = () => {
      primaryReads += 1;
      return run(options.primary);
    };
    const replica = pick();
    if (!replica) return onPrimary();
    try {
      const result = await run(replica.pool);
      replica.reads += 1;
      return result;
    } catch (error) {
      if (!isUnavailable(error)) throw error;
      setUsable(replica, false, replica.lagSeconds, error instanceof Error ? error.message : String(error));
      return onPrimary();
    }
  }) as unknown as pg.Pool['query'];

  return {
    query,
    check,
    status: () =>
      replicas.map((replica) => ({
        url: redactedUrl(replica.url),
        usable: replica.usable,
        lagSeconds: replica.lagSeconds,
        reads: replica.reads,
      })),
    primaryReads: () => primaryReads,
    end: async () => {
      clearInterval(timer);
      await Promise.all(replicas.map((replica) => replica.pool.end().catch(() => {})));
    },
  };
}
