import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../server/db/embedded.js';
import { migrate } from '../../server/db/migrate.js';
import { createPool } from '../../server/db/pool.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

export const TEMPLATE_DATABASE = 'app_template';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** One embedded PostgreSQL for the run, with a migrated template database that each test file copies. */
export default async function setup(project: TestProject) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mall-test-pg-'));
  const server = await startEmbeddedPostgres(path.join(dir, 'pg'), await freePort());
  const admin = createPool(server.url, 2);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  const templateUrl = server.url.replace(/\/postgres$/, `/${TEMPLATE_DATABASE}`);
  const template = createPool(templateUrl, 1);
  await migrate(template);
  await template.end();
  await admin.end();
  project.provide('pgUrl', server.url);
  return async () => {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  };
}
