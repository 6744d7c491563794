import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';

/** The error a request's query gets once the request has been stopped: read as a timeout (see errors.ts). */
export class RequestStoppedError extends Error {
  readonly code = '57014';
  constructor() {
    super('The request was stopped before this query ran.');
  }
}

/** The database work of one request: the connections it holds now, and whether it has been stopped. */
export class RequestQueries {
  readonly #clients = new Set<pg.PoolClient>();
  #stopped = false;

  get stopped(): boolean {
    return this.#stopped;
  }

  hold(client: pg.PoolClient): void {
    this.#clients.add(client);
  }

  let(client: pg.PoolClient): void {
    this.#clients.delete(client);
  }

  /** The backend process ids of the connections the request holds. */
  backends(): number[] {
    return [...this.#clients].map((client) => (client as unknown as { processID: number }).processID);
  }

  /** Marks the request stopped, so that its next query fails at once; returns the backends to cancel. */
  stop(): number[] {
    this.#stopped = true;
    return this.backends();
  }
}

const current = new AsyncLocalStorage<RequestQueries>();

/** Runs `work` (and everything it starts) as one request's database work. */
export function runAsRequest<T>(queries: RequestQueries, work: () => T): T {
  return current.run(queries, work);
}

/**
 * Makes the pool remember, for the request that is running, each connection it hands out (to `query` and to
 * `connect`) until it is given back, and refuse new queries of a stopped request. Outside a request the pool
 * works as before. A stopped request's running statements are cancelled with `cancelBackends`.
 */
export function trackRequestQueries(pool: pg.Pool): pg.Pool {
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const tracked = async (): Promise<pg.PoolClient> => {
    const queries = current.getStore();
    if (queries?.stopped) throw new RequestStoppedError();
    const client = await connect();
    if (!queries) return client;
    if (queries.stopped) {
      client.release();
      throw new RequestStoppedError();
    }
    queries.hold(client);
    const release = client.release.bind(client);
    client.release = (error?: Error | boolean) => {
      queries.let(client);
      client.release = release;
      return release(error);
    };
    return client;
  };
  const originalQuery = pool.query as (...args: unknown[]) => unknown;
  const trackedQuery = async (args: unknown[]) => {
    const client = await tracked();
    try {
      return await (client.query as (...a: unknown[]) => Promise<unknown>).apply(client, args);
    } finally {
      client.release();
    }
  };
  Object.assign(pool, {
    // pg-pool's own query() asks for a connection with a callback: that one stays as it was.
    connect: (callback?: unknown) => {
      if (typeof callback === 'function') return (connect as (cb: unknown) => void).call(pool, callback);
      return tracked();
    },
    query: (...args: unknown[]) => {
      if (!current.getStore() || typeof args[args.length - 1] === 'function') return originalQuery.apply(pool, args);
      return trackedQuery(args);
    },
  });
  return pool;
}

/**
 * Asks PostgreSQL to cancel whatever the given backends are running (pg_cancel_backend, on a connection of its
 * own, so a full pool does not hold it up). Never throws: a backend that has finished meanwhile is no harm.
 */
export async function cancelBackends(options: pg.PoolOptions, backends: number[]): Promise<void> {
  if (backends.length === 0) return;
  const client = new pg.Client({ ...options, statement_timeout: 2000 } as pg.ClientConfig);
  try {
    await client.connect();
    await client.query('SELECT pg_cancel_backend(pid) FROM unnest($1::int[]) AS pid', [backends]);
  } catch {
    // The statement ends at statement_timeout instead.
  } finally {
    await client.end().catch(() => {});
  }
}
