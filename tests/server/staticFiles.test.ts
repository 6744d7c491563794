import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDirectory } from '../../scripts/precompress.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { createTestDatabase, type TestDatabase } from './helpers.js';

/** Files as rsbuild writes them: index.html at the root, the rest under static/ with a hash of the content in the name. */
const SCRIPT = 'static/js/index.0123abcd89.js';
const STYLE = 'static/css/index.fedcba9876.css';
const scriptText = `${'export const label = "Mall Analytics";\n'.repeat(200)}console.log(label);\n`;
const styleText = `${'.bp6-button { color: #1c2127; }\n'.repeat(100)}`;
const indexHtml = `<!doctype html><html lang="en"><head><script defer src="/${SCRIPT}"></script></head><body><div id="root"></div>${'<!-- -->'.repeat(200)}</body></html>`;

let db: TestDatabase;
let app: FastifyInstance;
let staticDir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  staticDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mall-dist-'));
  await fs.mkdir(path.join(staticDir, 'static/js'), { recursive: true });
  await fs.mkdir(path.join(staticDir, 'static/css'), { recursive: true });
  await fs.writeFile(path.join(staticDir, 'index.html'), indexHtml);
  await fs.writeFile(path.join(staticDir, SCRIPT), scriptText);
  await fs.writeFile(path.join(staticDir, STYLE), styleText);
  // What `npm run build` does after rsbuild (rsbuild.config.ts).
  await precompressDirectory(staticDir);
  app = await buildApp({ pool: db.pool, config: { ...loadConfig({}), staticDir } });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
  await fs.rm(staticDir, { recursive: true, force: true });
});

describe('the built app', () => {
  it('is precompressed at build: a brotli and a gzip copy beside each file', async () => {
    const files = (await fs.readdir(path.join(staticDir, 'static/js'))).sort();
    expect(files).toEqual(['index.0123abcd89.js', 'index.0123abcd89.js.br', 'index.0123abcd89.js.gz']);
    const br = await fs.readFile(path.join(staticDir, `${SCRIPT}.br`));
    expect(zlib.brotliDecompressSync(br).toString()).toBe(scriptText);
  });

  it('sends a hashed file brotli-compressed to a browser that accepts it, cached for a year as immutable', async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/${SCRIPT}`,
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toContain('javascript');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers.vary).toContain('accept-encoding');
    expect(zlib.brotliDecompressSync(response.rawPayload).toString()).toBe(scriptText);
  });

  it('sends gzip to a browser without brotli, and the file as it is to one that accepts neither', async () => {
    const gzip = await app.inject({ method: 'GET', url: `/${STYLE}`, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['content-type']).toContain('text/css');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(styleText);
    expect(gzip.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const plain = await app.inject({ method: 'GET', url: `/${STYLE}`, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(styleText);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('never lets a cache keep the page itself: every route and /index.html are asked again (no-cache)', async () => {
    for (const url of ['/', '/login', '/shopper-connect/mall-home', '/index.html']) {
      const response = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-encoding']).toBe('br');
      expect(zlib.brotliDecompressSync(response.rawPayload).toString()).toBe(indexHtml);
    }
  });
});
