import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';

/*
 * deploy/: the systemd unit is one systemd accepts (systemd-analyze verify: every directive known, the command
 * there), it runs what `npm run serve` runs, and stops within the server's shutdown time; the shared settings file
 * holds only settings the server reads and the README lists, and they load as a deployed instance's: no demo, the
 * proxy trusted, report reads on the replica.
 */

const UNIT = fs.readFileSync('deploy/mall-analytics@.service', 'utf8');
const SETTINGS = fs.readFileSync('deploy/mall-analytics.env.example', 'utf8');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mall-unit-'));

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The unit's `Key=value` lines (one key may repeat). */
function directives(unit: string): [string, string][] {
  return unit
    .split('\n')
    .filter((line) => /^[A-Za-z]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]);
}

/** The settings file's `KEY=value` lines, set (`#` commented out: `set` false) or offered. */
function settings(text: string): { key: string; value: string; set: boolean }[] {
  return text
    .split('\n')
    .map((line) => /^(# )?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ key: match[2] ?? '', value: match[3] ?? '', set: match[1] === undefined }));
}

describe('the systemd unit', () => {
  it('is a unit systemd accepts, for an instance named by its port', () => {
    // An instance of the template, as `systemctl enable mall-analytics@8081` makes it.
    fs.writeFileSync(path.join(dir, 'mall-analytics@.service'), UNIT);
    fs.symlinkSync('mall-analytics@.service', path.join(dir, 'mall-analytics@8081.service'));
    const verify = spawnSync('systemd-analyze', ['verify', '--man=no', './mall-analytics@8081.service'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(verify.error, 'systemd-analyze (Debian package systemd) runs').toBeUndefined();
    expect(verify.stderr.trim(), 'systemd-analyze verify finds nothing to say').toBe('');
    expect(verify.status).toBe(0);
  });

  it('runs what npm run serve runs, on the port of its name, and stops within the shutdown time', () => {
    const unit = directives(UNIT);
    const value = (key: string) => unit.filter(([name]) => name === key).map(([, given]) => given);
    const serve = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts
      .serve;
    expect(value('ExecStart')).toEqual([`/usr/bin/node --import ${serve}`]);
    expect(value('Environment')).toContain('PORT=%i');
    expect(value('KillSignal')).toEqual(['SIGTERM']);
    const stopSeconds = Number(value('TimeoutStopSec')[0]);
    const shutdownSeconds = loadConfig({}).shutdownTimeoutSeconds;
    expect(stopSeconds, 'systemd waits longer than the server takes to stop').toBeGreaterThan(shutdownSeconds);
    // The settings file the unit reads is the one deploy/ offers.
    expect(value('EnvironmentFile')[0]).toBe('/etc/mall-analytics/mall-analytics.env');
  });
});

describe('the settings file every instance shares', () => {
  const readme = fs.readFileSync('README.md', 'utf8');
  const configSource = fs.readFileSync('server/config.ts', 'utf8');

  it('offers only settings the server reads and the README lists, and never PORT (the unit sets it)', () => {
    const offered = settings(SETTINGS);
    expect(offered.length).toBeGreaterThan(10);
    for (const { key } of offered) {
      expect(configSource, `server/config.ts reads ${key}`).toMatch(new RegExp(`\\b${key}\\b`));
      expect(readme, `README lists ${key}`).toContain(`\`${key}\``);
    }
    expect(offered.filter((entry) => entry.set).map((entry) => entry.key)).not.toContain('PORT');
  });

  it('loads as a deployed instance: no demo data, the proxy trusted, report reads on the replica', () => {
    const env: NodeJS.ProcessEnv = { PORT: '8081' };
    for (const { key, value, set } of settings(SETTINGS)) if (set) env[key] = value;
    // The secret the operator writes in (openssl rand -base64 32).
    env.DOWNLOAD_SECRET = 'a-deployed-download-secret-of-32-bytes-or-more';
    const config = loadConfig(env);
    expect(config.demoData).toBe(false);
    expect(config.ssoDemo).toBe(false);
    expect(config.xeroDemo).toBe(false);
    expect(config.trustProxy).toBe('127.0.0.1');
    expect(config.databaseReadUrls).toHaveLength(1);
    expect(config.port).toBe(8081);
    expect(config.publicUrl).toBe('https://analytics.example.com');
  });
});
