import type { TestProject } from 'vitest/node';
import { createDatabase, startTemporaryPostgres } from '../support/postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

export const TEMPLATE_DATABASE = 'app_template';

/** One embedded PostgreSQL for the run, with a migrated template database that each test file copies. */
export default async function setup(project: TestProject) {
  const server = await startTemporaryPostgres();
  const template = await createDatabase(server.url, TEMPLATE_DATABASE, { max: 1 });
  await template.end();
  project.provide('pgUrl', server.url);
  return () => server.stop();
}
