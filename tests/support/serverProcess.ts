import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

/**
 * The product's server (server/main.ts) as a process of its own, on a database given by URL, or (no URL) on an
 * embedded PostgreSQL of its own under `.tmp/server-<port>` (port + 1), filled with the demo data.
 */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Ends it at once, as a crash or `kill -9` would: no shutdown of any kind. */
  kill: () => Promise<void>;
  /** Ends it as an operator would (SIGTERM: the server shuts down, and stops its embedded PostgreSQL). */
  stop: () => Promise<void>;
  /** What it wrote on stderr so far (a refusal to start, a crash). */
  stderr: () => string;
}

export async function startServerProcess(options: {
  databaseUrl?: string;
  port: number;
  env?: NodeJS.ProcessEnv;
  /** How long it may take to answer /healthz (default 90 s; generating demo data takes longer). */
  timeoutMs?: number;
}): Promise<ServerProcess> {
  const database: NodeJS.ProcessEnv = options.databaseUrl
    ? { DATABASE_URL: options.databaseUrl }
    : { DATA_DIR: `.tmp/server-${options.port}`, EMBEDDED_PG_PORT: String(options.port + 1) };
  if (!options.databaseUrl) rmSync(`.tmp/server-${options.port}`, { recursive: true, force: true });
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      ...database,
      HOST: '127.0.0.1',
      PORT: String(options.port),
      STATIC_DIR: '/nonexistent',
      // A secret of its own, so that no key is kept in the project's ./data.
      DOWNLOAD_SECRET: 'server-process-test-download-secret-0123456789',
      SSO_DEMO: 'false',
      XERO_DEMO: 'false',
      LOG_LEVEL: 'error',
      GTO_REMINDERS_EVERY_MINUTES: '0',
      ...options.env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const url = `http://127.0.0.1:${options.port}`;
  const end = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  const kill = () => end('SIGKILL');
  const stop = () => end('SIGTERM');
  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${stderr}`);
    const up = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { url, child, kill, stop, stderr: () => stderr };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await kill();
  throw new Error(`the server did not start: ${stderr}`);
}
