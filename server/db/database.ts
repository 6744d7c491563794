import path from 'node:path';
import type { Config } from '../config.js';
import { startEmbeddedPostgres } from './embedded.js';
import { createPool, type Pool, pingDatabase } from './pool.js';

export interface Database {
  pool: Pool;
  url: string;
  embedded: boolean;
  close: () => Promise<void>;
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
