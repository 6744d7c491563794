import path from 'node:path';
import type { Config } from '../config.js';
import { startEmbeddedPostgres } from './embedded.js';
import { createPool, type Pool, type PoolLimits, pingDatabase } from './pool.js';

export interface Database {
  pool: Pool;
  url: string;
  embedded: boolean;
  close: () => Promise<void>;
}

/**
 * The limits of the pool that serves requests: one slow statement cannot hold a connection for longer than a
 * request may last, and a request does not wait for a connection longer either. Migrations and the demo data
 * run on the database's own pool, without them.
 */
export function requestPoolLimits(config: Config): PoolLimits {
  return { statementTimeoutMs: config.statementTimeoutMs, connectionWaitMs: config.requestTimeoutMs };
}

/** Connects to DATABASE_URL, or starts the embedded PostgreSQL under the data folder. */
export async function openDatabase(config: Config, log: (message: string) => void): Promise<Database> {
  if (config.databaseUrl) {
    const pool = createPool(config.databaseUrl, config.databasePoolSize);
    await pingDatabase(pool);
    return { pool, url: config.databaseUrl, embedded: false, close: () => pool.end() };
  }
  const server = await startEmbeddedPostgres(path.join(config.dataDir, 'pg'), config.embeddedPgPort, log);
  const pool = createPool(server.url, config.databasePoolSize);
  await pingDatabase(pool);
  return {
    pool,
    url: server.url,
    embedded: true,
    close: async () => {
      await pool.end();
      await server.stop();
    },
  };
}
