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

  /** Marks the request stopped, so that its next query fails at once; returns the connections it holds. */
  stop(): pg.PoolClient[] {
    this.#stopped = true;
    return [...this.#clients];
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
 * works as before. A stopped request's running statements are cancelled with `cancelQueries`.
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

/** What node-postgres keeps of a connection that its types leave out: the running query, and what cancels it. */
interface CancellableClient {
  activeQuery?: unknown;
  connectionParameters: pg.ClientConfig;
}

/**
 * Asks the server of each connection to cancel the statement it runs, by the protocol's cancel request (the
 * connection's own process id and secret key, on a new connection to the same host): the right backend whatever
 * the connection's server (the primary, a replica) and through a pooler, which maps the key to its backend;
 * never pg_cancel_backend by process id, which behind a pooler names another backend. Resolves once each server
 * has taken its request (it closes the connection then), at most after 2 s; never throws: a statement that has
 * finished meanwhile is no harm, and one not cancelled ends at statement_timeout.
 */
export async function cancelQueries(clients: readonly pg.PoolClient[]): Promise<void> {
  await Promise.all(
    clients.map((client) => {
      const held = client as unknown as CancellableClient;
      if (!held.activeQuery) return undefined;
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 2000);
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        try {
          const canceller = new pg.Client(held.connectionParameters) as unknown as {
            cancel: (client: unknown, query: unknown) => void;
            connection: { on: (event: string, listener: () => void) => void };
          };
          canceller.connection.on('end', done);
          canceller.connection.on('error', done);
          canceller.cancel(client, held.activeQuery);
        } catch {
          done();
        }
      });
    }),
  );
}
