import { type ChildProcess, spawn } from 'node:child_process';

/** The product's server (server/main.ts) as a process of its own, on a database given by URL. */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Ends it at once, as a crash or `kill -9` would: no shutdown of any kind. */
  kill: () => Promise<void>;
}

export async function startServerProcess(options: {
  databaseUrl: string;
  port: number;
  env?: NodeJS.ProcessEnv;
}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
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
  const kill = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${stderr}`);
    const up = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { url, child, kill };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await kill();
  throw new Error(`the server did not start: ${stderr}`);
}
