import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/config.js';
import { startEmbeddedPostgres } from '../../server/db/embedded.js';
import { migrate } from '../../server/db/migrate.js';
import { createPool, type Pool } from '../../server/db/pool.js';

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** The URL of database `name` on the server of `serverUrl`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh database `name` (dropped first if it exists), created from `template` or migrated. */
export async function createDatabase(
  serverUrl: string,
  name: string,
  options: { template?: string; max?: number } = {},
): Promise<Pool> {
  const admin = createPool(serverUrl, 1);
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}${options.template ? ` TEMPLATE ${options.template}` : ''}`);
  } finally {
    await admin.end();
  }
  // The tests' queries go through prepared statements as a server's request pool sends them (statementCache.ts).
  const pool = createPool(databaseUrl(serverUrl, name), options.max ?? 4, {
    statementCache: loadConfig({}).databaseStatementCache,
  });
  if (!options.template) await migrate(pool);
  return pool;
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const admin = createPool(serverUrl, 1);
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** Runs `work` against DATABASE_URL, or against an embedded PostgreSQL in a temporary folder that is removed after. */
export async function withPostgres<T>(work: (serverUrl: string) => Promise<T>): Promise<T> {
  if (process.env.DATABASE_URL) return work(process.env.DATABASE_URL);
  const server = await startTemporaryPostgres();
  try {
    return await work(server.url);
  } finally {
    await server.stop();
  }
}

/** An embedded PostgreSQL in a fresh temporary folder, on a free port. */
export async function startTemporaryPostgres(): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mall-pg-'));
  const server = await startEmbeddedPostgres(path.join(dir, 'pg'), await freePort());
  return {
    url: server.url,
    stop: async () => {
      await server.stop();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
