import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Debian's nginx (`apt-get install nginx`; .ci/run installs it) in front of the instances, running the site
 * configuration of deploy/nginx.conf itself: its upstream's servers, its listen lines and its log paths replaced by
 * the test's, wrapped in the main context a non-root, non-daemon nginx needs (its pid, temp folders and logs in a
 * folder of its own).
 */
export const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';
const SITE = path.resolve('deploy/nginx.conf');

export interface Nginx {
  url: string;
  /** The access log's lines so far (deploy/nginx.conf's `mall_analytics` format). */
  accessLog: () => Promise<string[]>;
  /** The site's error log's lines so far (an instance refusing or dropping a connection, each try). */
  errorLog: () => Promise<string[]>;
  stop: () => Promise<void>;
}

/** deploy/nginx.conf with the instances of `upstreams` (host:port) and a listener on 127.0.0.1:`port`. */
export function siteConfig(site: string, options: { upstreams: string[]; port: number; logDir: string }): string {
  const serverLine = /^(\s*)server\s+127\.0\.0\.1:\d+(\s[^;]*)?;\s*$/;
  const lines = site.split('\n');
  const first = lines.findIndex((line) => serverLine.test(line));
  if (first < 0) throw new Error('deploy/nginx.conf has no upstream server line');
  const [, indent = '', parameters = ''] = serverLine.exec(lines[first] ?? '') ?? [];
  const upstream = options.upstreams.map((address) => `${indent}server ${address}${parameters};`);
  const replaced = lines.flatMap((line, i) => {
    if (serverLine.test(line)) return i === first ? upstream : [];
    if (/^\s*listen 80;/.test(line)) return [line.replace('listen 80;', `listen 127.0.0.1:${options.port};`)];
    if (/^\s*listen \[::\]:80;/.test(line)) return [];
    return [line.replaceAll('/var/log/nginx/', `${options.logDir}/`)];
  });
  return replaced.join('\n');
}

export async function startNginx(options: { upstreams: string[]; port: number }): Promise<Nginx> {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is missing: apt-get install nginx (or set NGINX to its binary)`);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mall-nginx-'));
  // Run as root, nginx's workers run as nobody: they must reach the folder and write its temp folders.
  await fs.chmod(dir, 0o755);
  const temp = ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'];
  for (const name of temp) {
    await fs.mkdir(path.join(dir, name));
    await fs.chmod(path.join(dir, name), 0o777);
  }
  const site = siteConfig(await fs.readFile(SITE, 'utf8'), { ...options, logDir: dir });
  const main = [
    'daemon off;',
    'worker_processes 1;',
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log warn;`,
    'events { worker_connections 1024; }',
    'http {',
    ...temp.map((name) => `  ${name === 'body' ? 'client_body' : name}_temp_path ${dir}/${name};`),
    site,
    '}',
    '',
  ].join('\n');
  const conf = path.join(dir, 'nginx.conf');
  await fs.writeFile(conf, main);
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', conf, '-e', `${dir}/error.log`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const url = `http://127.0.0.1:${options.port}`;
  const errorLog = () => fs.readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '');
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${stderr}${await errorLog()}`);
    // /healthz/live of whichever instance nginx picks: the proxy listens and reaches an instance.
    const up = await fetch(`${url}/healthz/live`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not answer: ${stderr}${await errorLog()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const lines = async (file: string) =>
    (await fs.readFile(path.join(dir, file), 'utf8').catch(() => '')).split('\n').filter(Boolean);
  return {
    url,
    accessLog: () => lines('mall-analytics.access.log'),
    errorLog: () => lines('mall-analytics.error.log'),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        // SIGQUIT: nginx's graceful stop.
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGQUIT');
        });
      }
      // CLUSTER_KEEP_LOGS=1 keeps the configuration and the logs for a look after the run.
      if (process.env.CLUSTER_KEEP_LOGS) process.stdout.write(`nginx: its configuration and logs kept in ${dir}\n`);
      else await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
