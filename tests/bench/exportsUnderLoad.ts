/**
 * Exports under load: while four receipts PDFs are written at once, does the server keep answering everyone else?
 * The server of `npm start` (server/main.ts, its own process) on a database with the demo data; its receipts come in
 * through the real ingestion path (POST /api/ingest/receipts with device keys): one outlet-day of the maximal
 * receipts (500 of 20,000 characters each) and, at another outlet, ordinary 10,000-receipt days. Then, for four
 * maximal PDFs at once and for four ordinary 10,000-receipt PDFs at once, it prints how long each PDF took, the
 * server's peak memory, and the latency of GET /healthz (p99) and of a mall report (p95) asked again and again
 * meanwhile, beside the same figures with nothing else running.
 *
 *   npx tsx tests/bench/exportsUnderLoad.ts      (embedded PostgreSQL in a temp dir unless DATABASE_URL is set)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateDemoData } from '../../server/demo/generate.js';
import { createDeviceKey } from '../../server/repositories/deviceKeys.js';
import { type PosReceipt, posReceipt, postBatch } from '../support/posDevice.js';
import { createDatabase, databaseUrl, dropDatabase, freePort, withPostgres } from '../support/postgres.js';
import { type ServerProcess, startServerProcess } from '../support/serverProcess.js';
import { signIn } from './session.js';
import { percentile } from './stats.js';

const DATABASE = 'bench_exports_under_load';
const say = (message: string) => process.stdout.write(`${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const MAXIMAL_RECEIPTS = 500;
const MAXIMAL_DAY = '2026-11-02';
const ORDINARY_RECEIPTS = 10_000;
const ORDINARY_DAYS = ['2026-11-03', '2026-11-04'];
/** Ingestion's longest printed text (IngestReceipt.raw_receipt). */
const LONGEST_TEXT = 20_000;

/**
 * A receipt printout of 20,000 characters: a heading in Chinese and Malay, then lines of 119 columns (within
 * what a receipt prints, 400 lines of 120: all of it is printed).
 */
function maximalText(n: number): string {
  const lines = [`咖啡店 Kopitiam Receipt M-${n}`];
  for (let i = 0; lines.join('\n').length < LONGEST_TEXT; i += 1) {
    lines.push(
      `${String(i).padStart(3, '0')} ${'Kopi O kosong 1.50 | Teh tarik 2.20 | Roti bakar kaya 3.00 | '.repeat(2)}${n}`.slice(
        0,
        119,
      ),
    );
  }
  return lines.join('\n').slice(0, LONGEST_TEXT);
}

/** A printout of ordinary length (about 600 characters). */
const ordinaryText = (n: number) =>
  [
    'THE DEMO OUTLET',
    `Receipt T-${n}`,
    ...Array.from({ length: 12 }, (_, i) => `${`${i + 1} x Item number ${i + 1}`.padEnd(36, '.')} 12.50`),
    `${'TOTAL'.padEnd(36, ' ')} 150.00`,
    'Thank you, please come again',
  ].join('\n');

/** The server's resident memory now (its worker threads included), in MB. */
function residentMb(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
}

interface Timed {
  times: number[];
  failures: number;
}

/** Asks `pathAndQuery` again and again, one at a time with a pause, until `running()` is false. */
async function sampleWhile(
  server: ServerProcess,
  cookie: string | undefined,
  pathAndQuery: string,
  running: () => boolean,
): Promise<Timed> {
  const result: Timed = { times: [], failures: 0 };
  while (running()) {
    const started = performance.now();
    const response = await fetch(`${server.url}${pathAndQuery}`, { headers: cookie ? { cookie } : {} });
    await response.arrayBuffer();
    result.times.push(performance.now() - started);
    if (response.status !== 200) result.failures += 1;
    await sleep(20);
  }
  return result;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

function describeLatency(label: string, timed: Timed, p: number): string {
  return (
    `${label}: p50 ${ms(percentile(timed.times, 50))}, p${p} ${ms(percentile(timed.times, p))}, ` +
    `max ${ms(Math.max(...timed.times))} (${timed.times.length} calls, ${timed.failures} not 200)`
  );
}

/** One PDF downloaded whole: its time, size and receipt count. */
async function downloadPdf(server: ServerProcess, cookie: string, pathAndQuery: string) {
  const started = performance.now();
  const response = await fetch(`${server.url}${pathAndQuery}`, { headers: { cookie } });
  const bytes = (await response.arrayBuffer()).byteLength;
  return {
    status: response.status,
    seconds: (performance.now() - started) / 1000,
    bytes,
    receipts: response.headers.get('x-receipt-count'),
  };
}

interface Scene {
  server: ServerProcess;
  /** The four exporters' session cookies (two users, two PDFs each: EXPORTS_PER_USER is 2). */
  exporters: string[];
  /** A third user, who reads a report again and again meanwhile (and asks for a fifth PDF). */
  reader: string;
  report: string;
}

/** Idle figures: /healthz and the report with nothing else running, for `seconds`. */
async function idleFigures(scene: Scene, seconds: number): Promise<void> {
  const until = Date.now() + seconds * 1000;
  const running = () => Date.now() < until;
  const [health, report] = await Promise.all([
    sampleWhile(scene.server, undefined, '/healthz', running),
    sampleWhile(scene.server, scene.reader, scene.report, running),
  ]);
  say(`  ${describeLatency('/healthz', health, 99)}`);
  say(`  ${describeLatency('report', report, 95)}`);
}

/** Four PDFs of `pdfPath` at once; meanwhile /healthz and the report, and a fifth PDF that should be refused. */
async function fourPdfsAtOnce(scene: Scene, pdfPath: string): Promise<void> {
  let done = false;
  const running = () => !done;
  const beforeMb = residentMb(scene.server.child.pid);
  let peakMb = beforeMb;
  const memory = (async () => {
    while (!done) {
      peakMb = Math.max(peakMb, residentMb(scene.server.child.pid));
      await sleep(100);
    }
  })();
  const started = performance.now();
  const pdfs = Promise.all(scene.exporters.map((cookie) => downloadPdf(scene.server, cookie, pdfPath)));
  const samples = Promise.all([
    sampleWhile(scene.server, undefined, '/healthz', running),
    sampleWhile(scene.server, scene.reader, scene.report, running),
  ]);
  await sleep(500);
  const fifth = await fetch(`${scene.server.url}${pdfPath}`, { headers: { cookie: scene.reader } });
  await fifth.arrayBuffer();
  const results = await pdfs;
  const wall = (performance.now() - started) / 1000;
  done = true;
  const [health, report] = await samples;
  await memory;
  for (const [i, result] of results.entries()) {
    say(
      `  PDF ${i + 1}: ${result.status}, ${result.receipts} receipts, ${(result.bytes / 1e6).toFixed(1)} MB in ${result.seconds.toFixed(1)} s`,
    );
  }
  say(
    `  all four in ${wall.toFixed(1)} s; the server's resident memory ${beforeMb.toFixed(0)} MB before, ${peakMb.toFixed(0)} MB at most`,
  );
  say(`  a fifth PDF meanwhile: ${fifth.status}, Retry-After ${fifth.headers.get('retry-after') ?? '-'}`);
  say(`  ${describeLatency('/healthz', health, 99)}`);
  say(`  ${describeLatency('report', report, 95)}`);
}

/** Posts receipts with a device key in batches; throws unless every one is stored. */
async function ingest(server: ServerProcess, key: string, receipts: PosReceipt[], batch: number): Promise<void> {
  for (let start = 0; start < receipts.length; start += batch) {
    const part = receipts.slice(start, start + batch);
    const { status, body } = await postBatch(server.url, key, part);
    if (status !== 200 || body.new + body.already_stored !== part.length) {
      throw new Error(`ingestion answered ${status}: ${JSON.stringify(body).slice(0, 300)}`);
    }
  }
}

export async function benchExportsUnderLoad(serverUrl: string): Promise<void> {
  const pool = await createDatabase(serverUrl, DATABASE);
  let server: ServerProcess | undefined;
  try {
    await generateDemoData(pool, { seed: 20261121, receipts: 20_000, endDate: '2026-10-31' });
    server = await startServerProcess({ databaseUrl: databaseUrl(serverUrl, DATABASE), port: await freePort() });
    const admin = await signIn(server.url, 'admin@demo.mall');
    const operator = await signIn(server.url, 'operator@demo.mall');
    const reader = await signIn(server.url, 'showcase@demo.mall');
    const get = async <T>(cookie: string, pathAndQuery: string): Promise<T> => {
      const response = await fetch(`${server?.url}${pathAndQuery}`, { headers: { cookie } });
      if (response.status !== 200) throw new Error(`${pathAndQuery}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    };
    // Two outlets of a client both exporters see.
    const [client] = await get<{ id: number }[]>(operator, '/clients');
    if (!client) throw new Error('the operator sees no client');
    const outlets = await get<{ id: number }[]>(operator, `/outlets?client_id=${client.id}`);
    const [maximalOutlet, ordinaryOutlet] = outlets;
    if (!maximalOutlet || !ordinaryOutlet) throw new Error(`client ${client.id} has fewer than two outlets`);
    const keyOf = async (outletId: number) =>
      (await createDeviceKey(pool, { clientId: client.id, outletId, name: 'Bench till', createdBy: null })).key;

    const maximal = Array.from({ length: MAXIMAL_RECEIPTS }, (_, n) =>
      posReceipt(n, `${MAXIMAL_DAY}T01:00:00Z`, [], {
        receipt_id: `M-${n}`,
        datetime: new Date(Date.parse(`${MAXIMAL_DAY}T01:00:00Z`) + n * 60_000).toISOString(),
        raw_receipt: maximalText(n),
      }),
    );
    const ordinary = ORDINARY_DAYS.flatMap((day) =>
      Array.from({ length: ORDINARY_RECEIPTS }, (_, n) =>
        posReceipt(n, `${day}T00:30:00Z`, [], {
          receipt_id: `O-${day}-${n}`,
          datetime: new Date(Date.parse(`${day}T00:30:00Z`) + n * 4_000).toISOString(),
          raw_receipt: ordinaryText(n),
        }),
      ),
    );
    let started = performance.now();
    await ingest(server, await keyOf(maximalOutlet.id), maximal, 100);
    say(
      `ingested ${MAXIMAL_RECEIPTS} receipts of ${LONGEST_TEXT.toLocaleString('en-US')} characters for outlet ${maximalOutlet.id} on ${MAXIMAL_DAY} ` +
        `in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    started = performance.now();
    await ingest(server, await keyOf(ordinaryOutlet.id), ordinary, 1000);
    say(
      `ingested ${ORDINARY_DAYS.length} days of ${ORDINARY_RECEIPTS.toLocaleString('en-US')} ordinary receipts for outlet ${ordinaryOutlet.id} ` +
        `in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const malls = await get<{ id: number }[]>(reader, `/malls?client_id=${client.id}`);
    const week = new URLSearchParams({
      client_id: String(client.id),
      start_time: '2026-10-25',
      end_time: '2026-10-31',
    });
    for (const mall of malls) week.append('mall_ids', String(mall.id));
    const scene: Scene = {
      server,
      exporters: [admin, admin, operator, operator],
      reader,
      report: `/api/mall_report/daily?${week}`,
    };
    const pdfOf = (outletId: number, day: string) =>
      `/outlets/transaction/generatepdf?client_id=${client.id}&id=${outletId}&startTime=${day}&endTime=${day}`;
    // The first PDF starts a worker thread and reads the fonts: not part of the figures.
    await downloadPdf(server, admin, pdfOf(maximalOutlet.id, '2026-10-31'));

    say('nothing else running (10 s):');
    await idleFigures(scene, 10);
    say(
      `four maximal PDFs at once (${MAXIMAL_RECEIPTS} receipts of ${LONGEST_TEXT.toLocaleString('en-US')} characters):`,
    );
    await fourPdfsAtOnce(scene, pdfOf(maximalOutlet.id, MAXIMAL_DAY));
    say(`four ordinary PDFs at once (${ORDINARY_RECEIPTS.toLocaleString('en-US')} receipts each):`);
    await fourPdfsAtOnce(scene, pdfOf(ordinaryOutlet.id, ORDINARY_DAYS[0] ?? ''));
  } finally {
    await server?.kill();
    await pool.end();
    await dropDatabase(serverUrl, DATABASE);
  }
}

if (import.meta.url === pathToFileURL(path.resolve(process.argv[1] ?? '')).href) {
  await withPostgres((serverUrl) => benchExportsUnderLoad(serverUrl));
}
