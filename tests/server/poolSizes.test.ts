import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { connectionsPerInstance } from '../../server/db/database.js';

/*
 * Each pool of an instance has its own setting, and their sum, with the caller cache's listener, is what one
 * instance may hold of PostgreSQL's max_connections (100 by default): three instances fit with the defaults.
 */
describe('the pool sizes', () => {
  it('are 20 for requests, 4 for the background work and 4 for pg-boss by default: 29 an instance', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ databasePoolSize: 20, databaseBackgroundPoolSize: 4, jobsPoolSize: 4 });
    const connections = connectionsPerInstance(config);
    expect(connections).toMatchObject({ requests: 20, background: 4, jobs: 4, listener: 1, total: 29 });
    expect(connections.text).toBe(
      'connections: requests 20 + background 4 + jobs 4 + listener 1 = 29 an instance to the primary',
    );
    // Three instances and PostgreSQL's 3 connections reserved for superusers within the default 100.
    expect(3 * connections.total + 3).toBeLessThanOrEqual(100);
  });

  it('are read from DATABASE_POOL_SIZE, DATABASE_BACKGROUND_POOL_SIZE and JOBS_POOL_SIZE', () => {
    const config = loadConfig({ DATABASE_POOL_SIZE: '12', DATABASE_BACKGROUND_POOL_SIZE: '3', JOBS_POOL_SIZE: '2' });
    expect(config).toMatchObject({ databasePoolSize: 12, databaseBackgroundPoolSize: 3, jobsPoolSize: 2 });
    expect(connectionsPerInstance(config).text).toBe(
      'connections: requests 12 + background 3 + jobs 2 + listener 1 = 18 an instance to the primary',
    );
  });

  it('counts the replicas’ pools apart, on their own servers', () => {
    const config = loadConfig({
      DATABASE_READ_URL: 'postgres://r1.example/mall, postgres://r2.example/mall',
      DATABASE_READ_POOL_SIZE: '8',
    });
    expect(config.databaseReadUrls).toEqual(['postgres://r1.example/mall', 'postgres://r2.example/mall']);
    expect(connectionsPerInstance(config).text).toBe(
      'connections: requests 20 + background 4 + jobs 4 + listener 1 = 29 an instance to the primary; and 8 to each of the 2 replicas (DATABASE_READ_URL)',
    );
    expect(() => loadConfig({ DATABASE_READ_URL: 'mysql://r1/mall' })).toThrow(/DATABASE_READ_URL must be postgres/);
  });

  it('refuses a size that is not a whole number in range, naming the setting', () => {
    for (const [name, value] of [
      ['DATABASE_POOL_SIZE', '0'],
      ['DATABASE_POOL_SIZE', '501'],
      ['DATABASE_BACKGROUND_POOL_SIZE', '1'],
      ['DATABASE_BACKGROUND_POOL_SIZE', '101'],
      ['DATABASE_BACKGROUND_POOL_SIZE', 'four'],
      ['JOBS_POOL_SIZE', '1'],
      ['JOBS_POOL_SIZE', '2.5'],
      ['JOBS_POOL_SIZE', '101'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(
        new RegExp(`^${name} must be a whole number from \\d+ to \\d+, got '${value}'$`),
      );
    }
  });
});
