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
  return {
    statementTimeoutMs: config.statementTimeoutMs,
    connectionWaitMs: config.requestTimeoutMs,
    statementCache: config.databaseStatementCache,
  };
}

/**
 * The connections one server instance keeps to PostgreSQL at most: the request pool, the background pool, pg-boss's
 * pool and the caller cache's listener (server/auth/cacheInvalidation.ts). Their sum times the instances must stay
 * below the server's max_connections (100 by default, 3 of them reserved for superusers).
 */
export function connectionsPerInstance(
  config: Pick<
    Config,
    'databasePoolSize' | 'databaseBackgroundPoolSize' | 'jobsPoolSize' | 'databaseReadUrls' | 'databaseReadPoolSize'
  >,
) {
  const counts = {
    requests: config.databasePoolSize,
    background: config.databaseBackgroundPoolSize,
    jobs: config.jobsPoolSize,
    listener: 1,
  };
  const total = counts.requests + counts.background + counts.jobs + counts.listener;
  // Each replica's pool is on its own server: not in the primary's total.
  const replicas = config.databaseReadUrls.length;
  const toReplicas =
    replicas > 0 ? `; and ${config.databaseReadPoolSize} to each of the ${replicas} replicas (DATABASE_READ_URL)` : '';
  return {
    ...counts,
    total,
    text: `connections: requests ${counts.requests} + background ${counts.background} + jobs ${counts.jobs} + listener ${counts.listener} = ${total} an instance to the primary${toReplicas}`,
  };
}

/**
 * Connects to DATABASE_URL, or starts the embedded PostgreSQL under the data folder, with the background pool
 * (DATABASE_BACKGROUND_POOL_SIZE): main.ts opens the request pool apart, with its limits.
 */
export async function openDatabase(config: Config, log: (message: string) => void): Promise<Database> {
  if (config.databaseUrl) {
    const pool = createPool(config.databaseUrl, config.databaseBackgroundPoolSize);
    await pingDatabase(pool);
    return { pool, url: config.databaseUrl, embedded: false, close: () => pool.end() };
  }
  const server = await startEmbeddedPostgres(path.join(config.dataDir, 'pg'), config.embeddedPgPort, log);
  const pool = createPool(server.url, config.databaseBackgroundPoolSize);
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
