import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, inTransaction, type Pool, type Queryable } from '../../server/db/pool.js';
import {
  EXPORT_RETRY_AFTER_SECONDS,
  ExportSlots,
  SERVER_EXPORTS_MESSAGE,
  userExportsMessage,
} from '../../server/exports/exportSlots.js';
import { listOperations, loadSpecification, permissionFor } from '../../server/openapi.js';
import { renderReceiptPng } from '../../server/receipts/image.js';
import { printedLines, RECEIPT_MAX_COLUMNS, RECEIPT_MAX_LINES } from '../../server/receipts/printedLines.js';
import { ingestReceipts, type ReceiptInput } from '../../server/repositories/ingestion.js';
import { PDF_BATCH_SIZE, readPdfReceipts, selectPdfReceipts } from '../../server/repositories/receipts.js';
import { PDF_LIMITS, sendReceiptsPdf } from '../../server/routes/receipts.js';
import { RECEIPTS_PDF_CAP } from '../../src/domain/receipts.js';
import { pdfLines, pdfText } from '../support/pdfText.js';
import { grantOperatorPermissions, PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, type TestDatabase } from './helpers.js';

/*
 * The receipts PDF holds every receipt the filters select (not the list's page), in the list's order, up to the
 * cap, and streams: Cafe Uno (outlet 1, Asia/Singapore) has 250 receipts on 1 April 2026, local time, P-001 to
 * P-250 a minute apart, P-n totalling n + 0.5, every fifth one void. 250 is more than a list page (10) and more
 * than two batches of the PDF's reading (PDF_BATCH_SIZE), so the PDF is read in three batches at least.
 * On 2 April it has one receipt printed in Chinese, Malay, Tamil and Thai, and on 3 April one of 20,000
 * characters, more lines and wider ones than a receipt prints.
 */

const COUNT = 250;
const CAFE = WORLD.outlets.cafe;
const SECRET = 'test-download-secret';

function receipt(n: number, overrides: Partial<ReceiptInput> = {}): ReceiptInput {
  const receiptId = `P-${String(n).padStart(3, '0')}`;
  return {
    outletId: CAFE,
    receiptId,
    datetime: new Date(Date.UTC(2026, 2, 31, 16, n)),
    dineOutTime: null,
    totalAmount: n + 0.5,
    discount: 0,
    voucherAmount: 0,
    refundAmount: 0,
    paymentMethod: 'VISA',
    isMember: false,
    nameReason: null,
    tableNo: null,
    takeAway: false,
    deliveryInfo: null,
    openedBill: false,
    void: n % 5 === 0,
    closedBill: n % 5 !== 0,
    focBill: false,
    focReason: null,
    redeemBill: false,
    receiptCode: null,
    rawReceipt: `Receipt: ${receiptId}\nTOTAL ${(n + 0.5).toFixed(2)}`,
    payments: [{ method: 'VISA', amount: n + 0.5 }],
    items: [],
    ...overrides,
  };
}

/** What a kopitiam in Singapore prints: Chinese, Malay (Latin with an accent), Tamil and Thai. */
const MULTILINGUAL = ['咖啡 Kopi é', 'Kopi O kosong   1.50', 'காபி வணக்கம்', 'กาแฟ สวัสดี', 'Terima kasih 谢谢光临'];

/**
 * 20,000 characters: a first line of 300 (wider than a receipt prints), then numbered lines of 19 characters,
 * 1,000 of them (more than a receipt prints).
 */
const LONGEST = [
  'W'.repeat(300),
  ...Array.from({ length: 1000 }, (_, i) => `line ${String(i + 2).padStart(4, '0')} ..........`),
]
  .join('\n')
  .slice(0, 20_000);

const id = (n: number) => `P-${String(n).padStart(3, '0')}`;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

let db: TestDatabase;
let app: FastifyInstance;
let operator: Agent;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  const receiptPermissions = listOperations()
    .filter((operation) => operation.receipts)
    .map(permissionFor);
  await grantOperatorPermissions(db.pool, receiptPermissions);
  await inTransaction(db.pool, (client) =>
    ingestReceipts(
      client,
      1,
      range(1, COUNT).map((n) => receipt(n)),
    ),
  );
  await inTransaction(db.pool, (client) =>
    ingestReceipts(client, 1, [
      receipt(1, { receiptId: 'U-1', datetime: new Date('2026-04-02T04:00:00Z'), rawReceipt: MULTILINGUAL.join('\n') }),
      receipt(2, { receiptId: 'L-1', datetime: new Date('2026-04-03T04:00:00Z'), rawReceipt: LONGEST }),
    ]),
  );
  app = await createTestApp(db.pool, { env: { DOWNLOAD_SECRET: SECRET } });
  operator = new Agent(app);
  expect((await operator.login(WORLD.users.operator1, PASSWORD)).statusCode).toBe(200);
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const APRIL = { client_id: '1', id: String(CAFE), startTime: '2026-04-01', endTime: '2026-04-01' };
function url(path: string, params: Record<string, string>) {
  return `${path}?${new URLSearchParams(params)}`;
}

/** The receipt ids of the PDF's 'Receipt <id>' headings, in order. */
async function headings(pdf: Buffer): Promise<string[]> {
  return (await pdfLines(pdf)).flatMap((line) => /^Receipt (\S+)$/.exec(line)?.[1] ?? []);
}

/** The receipt ids of every page of the list for the same filters, in the list's order. */
async function listedIds(params: Record<string, string>): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const response = await operator.get(
      url('/outlets/transaction', { ...params, page: String(page), rowsPerPage: '100' }),
    );
    const rows = (response.json() as { data: { receipt_id: string }[] }).data;
    ids.push(...rows.map((row) => row.receipt_id));
    if (rows.length < 100) return ids;
  }
}

describe('GET /outlets/transaction/generatepdf', () => {
  it('holds every receipt the filters select, in the list order, not only a page, and counts them in X-Receipt-Count', async () => {
    const params = { ...APRIL, sortColumn: 'total_amount', orderByMethod: 'asc' };
    const response = await operator.get(url('/outlets/transaction/generatepdf', { ...params, rowsPerPage: '10' }));
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe('attachment; filename="receipts_2026-04-01_2026-04-01.pdf"');
    expect(response.headers['x-receipt-count']).toBe(String(COUNT));
    expect(response.headers['content-length']).toBeUndefined();
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(response.rawPayload.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
    const inPdf = await headings(response.rawPayload);
    expect(inPdf).toHaveLength(COUNT);
    expect(inPdf).toEqual(range(1, COUNT).map(id));
    expect(inPdf).toEqual(await listedIds(params));
    expect(await pdfText(response.rawPayload)).toContain('250 receipts');
  });

  it('follows the filters and the sort: void receipts, newest first', async () => {
    const params = { ...APRIL, receiptType: 'voidReceipts' };
    const response = await operator.get(url('/outlets/transaction/generatepdf', params));
    const voids = range(1, COUNT)
      .filter((n) => n % 5 === 0)
      .reverse()
      .map(id);
    expect(response.headers['x-receipt-count']).toBe(String(voids.length));
    const inPdf = await headings(response.rawPayload);
    expect(inPdf).toEqual(voids);
    expect(inPdf).toEqual(await listedIds(params));
  });

  it('says so when no receipt matches', async () => {
    const response = await operator.get(url('/outlets/transaction/generatepdf', { ...APRIL, receiptId: 'nothing' }));
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-receipt-count']).toBe('0');
    expect(await pdfText(response.rawPayload)).toContain('No receipts match the filters.');
  });

  it('the signed link carries the filters without paging and its PDF holds every receipt', async () => {
    const minted = await operator.get(url('/outlets/transaction/pdfLink', { ...APRIL, page: '3', rowsPerPage: '10' }));
    expect(minted.statusCode).toBe(200);
    const link = (minted.json() as { url: string }).url;
    const token = new URL(link, 'http://x').searchParams.get('token') ?? '';
    const payload = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()) as {
      f: Record<string, unknown>;
    };
    expect(payload.f).not.toHaveProperty('page');
    expect(payload.f).not.toHaveProperty('rowsPerPage');
    const download = await new Agent(app).get(link);
    expect(download.statusCode).toBe(200);
    expect(download.headers['x-receipt-count']).toBe(String(COUNT));
    expect(await headings(download.rawPayload)).toEqual(range(1, COUNT).reverse().map(id));
  });

  it('states the cap of 10,000 in the contract, which takes no paging for the PDF', () => {
    expect(RECEIPTS_PDF_CAP).toBe(10_000);
    const paths = (loadSpecification() as { paths: Record<string, { get: { description: string } }> }).paths;
    for (const path of ['/outlets/transaction/generatepdf', '/outlets/transaction/pdfLink']) {
      const operation = paths[path]?.get;
      expect(operation?.description).toContain('every receipt the filters select, up to 10,000');
      expect(JSON.stringify(operation)).not.toMatch(/parameters\/(Page|RowsPerPage)"/);
    }
  });
});

describe('the cap and the batches', () => {
  it('holds the first `cap` receipts of the list order, and its heading says of how many', async () => {
    const tiny = Fastify();
    tiny.get('/pdf', (_request, reply) =>
      sendReceiptsPdf(
        db.pool,
        reply,
        {
          clientId: 1,
          outletIds: [CAFE],
          startTime: '2026-04-01',
          endTime: '2026-04-01',
          sortColumn: 'total_amount',
          orderByMethod: 'desc',
        },
        { ...PDF_LIMITS, cap: 7, batchSize: 3, compress: false },
      ),
    );
    try {
      const response = await tiny.inject({ method: 'GET', url: '/pdf' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-receipt-count']).toBe('7');
      expect(await headings(response.rawPayload)).toEqual(
        range(COUNT - 6, COUNT)
          .reverse()
          .map(id),
      );
      expect(await pdfText(response.rawPayload)).toContain('First 7 of 250 receipts');
    } finally {
      await tiny.close();
    }
  });

  it('selects the ids up to the cap and reads the receipts a batch at a time, each batch when asked for', async () => {
    const statements: string[] = [];
    const counting: Queryable = {
      query: ((text: string, values: unknown[]) => {
        statements.push(text);
        return db.pool.query(text, values);
      }) as Queryable['query'],
    };
    const selection = await selectPdfReceipts(
      counting,
      { clientId: 1, outletIds: [CAFE], startTime: '2026-04-01', endTime: '2026-04-01' },
      10,
    );
    expect(selection).toEqual({ total: COUNT, ids: expect.any(Array) });
    expect(selection.ids).toHaveLength(10);
    statements.length = 0;
    const batches = readPdfReceipts(counting, 1, selection.ids, 4);
    // each batch: its receipts, then the dictionaries of their printed texts
    const first = await batches.next();
    expect(statements).toHaveLength(2);
    expect(statements[1]).toContain('receipt_text_dictionaries');
    const firstIds = first.done ? [] : first.value.map((row) => row.receipt_id);
    expect(firstIds).toHaveLength(4);
    const rest: string[][] = [];
    for await (const batch of batches) rest.push(batch.map((row) => row.receipt_id));
    expect(statements).toHaveLength(6);
    expect(rest.map((batch) => batch.length)).toEqual([4, 2]);
    expect([...firstIds, ...rest.flat()]).toEqual(
      range(COUNT - 9, COUNT)
        .reverse()
        .map(id),
    );
    expect(PDF_BATCH_SIZE * 2).toBeLessThan(COUNT);
  });
});

describe('a PDF that streams past the request timeout', () => {
  let slowPool: Pool;
  let slowApp: FastifyInstance;

  beforeAll(async () => {
    slowPool = createPool(db.url, 3);
    slowApp = await createTestApp(slowPool, { env: { REQUEST_TIMEOUT_MS: '500' } });
    // Each batch of receipt texts takes 350 ms: the PDF's batches (three) take longer than the request timeout.
    const query = slowPool.query.bind(slowPool) as (...args: unknown[]) => Promise<unknown>;
    Object.assign(slowPool, {
      query: async (...args: unknown[]) => {
        if (String(args[0]).includes('WITH ORDINALITY')) await new Promise((resolve) => setTimeout(resolve, 350));
        return query(...args);
      },
    });
  });
  afterAll(async () => {
    await slowApp?.close();
    await slowPool?.end();
  });

  it('is not cut once it has begun: every receipt arrives, and the server answers the next request', async () => {
    // The operator's session (signing in takes longer than this app's request timeout).
    const agent = new Agent(slowApp);
    agent.cookie = operator.cookie;
    // A PDF without receipts first: a PDF worker has started (which takes about as long as this timeout) and waits.
    expect(
      (await agent.get(url('/outlets/transaction/generatepdf', { ...APRIL, receiptId: 'nothing' }))).statusCode,
    ).toBe(200);
    const started = Date.now();
    const response = await agent.get(url('/outlets/transaction/generatepdf', APRIL));
    expect(Date.now() - started).toBeGreaterThan(1000);
    expect(response.statusCode).toBe(200);
    expect(await headings(response.rawPayload)).toHaveLength(COUNT);
    expect(response.rawPayload.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
    expect((await agent.get(url('/outlets/transaction', APRIL))).statusCode).toBe(200);
  });
});

describe('the text of every script the malls print', () => {
  it('embeds Noto fonts cut to the glyphs it prints, so Chinese, Malay, Tamil and Thai come back out of the PDF', async () => {
    const day = { ...APRIL, startTime: '2026-04-02', endTime: '2026-04-02' };
    const response = await operator.get(url('/outlets/transaction/generatepdf', day));
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.headers['x-receipt-count']).toBe('1');
    const lines = await pdfLines(response.rawPayload);
    for (const line of MULTILINGUAL) expect(lines).toContain(line);
    const text = lines.join('\n');
    expect(text).toContain('咖啡 Kopi é');
    expect(text).toContain('காபி');
    expect(text).toContain('กาแฟ');
    // Embedded subsets (a six-letter tag before the name), none of the Latin-only built-in fonts.
    const raw = response.rawPayload.toString('latin1');
    for (const font of ['NotoSansMono', 'NotoSansSC', 'NotoSansTamil', 'NotoSansThai']) {
      expect(raw).toMatch(new RegExp(`/BaseFont /[A-Z]{6}\\+${font}`));
    }
    expect(raw).not.toMatch(/\/BaseFont \/(Helvetica|Courier)/);
    // The Chinese font alone is megabytes; the subsets of one receipt's characters are a few kilobytes.
    expect(response.rawPayload.length).toBeLessThan(100_000);
  });
});

describe('what one receipt prints', () => {
  it(`prints at most ${RECEIPT_MAX_LINES} lines of ${RECEIPT_MAX_COLUMNS} characters of a 20,000-character text`, async () => {
    expect(LONGEST).toHaveLength(20_000);
    const day = { ...APRIL, startTime: '2026-04-03', endTime: '2026-04-03' };
    const response = await operator.get(url('/outlets/transaction/generatepdf', day));
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    const lines = await pdfLines(response.rawPayload);
    const first = lines.findIndex((line) => line.startsWith('W'));
    const printed = lines.slice(first);
    expect(printed[0]).toBe('W'.repeat(RECEIPT_MAX_COLUMNS));
    expect(printed.every((line) => line.length <= RECEIPT_MAX_COLUMNS)).toBe(true);
    // The first line and the numbered ones up to the bound: line 0400 is the last printed.
    expect(printed).toHaveLength(RECEIPT_MAX_LINES);
    expect(printed.at(-1)).toBe('line 0400 ..........');
    expect(lines.join('\n')).not.toContain('line 0401');
  });

  it('is the bound of the receipt image too: one function cuts both', () => {
    const lines = printedLines(LONGEST);
    expect(lines).toHaveLength(RECEIPT_MAX_LINES);
    expect(Math.max(...lines.map((line) => [...line].length))).toBe(RECEIPT_MAX_COLUMNS);
    expect(printedLines(`${'咖'.repeat(200)}\r\nb\tc`)).toEqual(['咖'.repeat(RECEIPT_MAX_COLUMNS), 'b    c']);
    // The image is as tall as its lines: 400 lines of 18 px and 16 px of padding above and below.
    const png = renderReceiptPng(LONGEST);
    expect(png.readUInt32BE(20)).toBe(RECEIPT_MAX_LINES * 18 + 32);
  });
});

describe('how many exports run at once', () => {
  const LIMITED_SECRET = 'limited-download-secret';
  let limitedPool: Pool;
  let limited: FastifyInstance;
  const agents: Record<'operator' | 'admin' | 'other', Agent> = {} as never;
  /** The PDF of 1 April, whose receipts are read after the answer has begun. */
  const APRIL_PDF = url('/outlets/transaction/generatepdf', APRIL);

  beforeAll(async () => {
    limitedPool = createPool(db.url, 12);
    limited = await createTestApp(limitedPool, {
      env: { DOWNLOAD_SECRET: LIMITED_SECRET, EXPORTS_PER_USER: '1', EXPORTS_MAX: '2' },
    });
    const users = { operator: WORLD.users.operator1, admin: WORLD.users.admin, other: WORLD.users.operator2 };
    for (const [name, email] of Object.entries(users) as [keyof typeof users, string][]) {
      agents[name] = new Agent(limited);
      expect((await agents[name].login(email, PASSWORD)).statusCode).toBe(200);
    }
  });
  afterAll(async () => {
    await limited?.close();
    await limitedPool?.end();
  });

  /**
   * Holds every PDF that reads receipt texts: a transaction of the test locks their dictionaries, so each PDF's
   * first batch waits (its answer begun, its export slot taken) until `release`.
   */
  async function holdPdfs() {
    const client = await db.pool.connect();
    await client.query('BEGIN');
    await client.query('LOCK TABLE receipt_text_dictionaries IN ACCESS EXCLUSIVE MODE');
    return {
      /** Waits until `count` PDFs wait for the lock (a loop that ends when they do, not a timed check). */
      async waitingPdfs(count: number): Promise<void> {
        for (;;) {
          const { rows } = await db.pool.query<{ waiting: number }>(
            `SELECT count(*)::int AS waiting FROM pg_locks
             WHERE database = (SELECT oid FROM pg_database WHERE datname = current_database())
               AND relation = 'receipt_text_dictionaries'::regclass AND NOT granted`,
          );
          if ((rows[0]?.waiting ?? 0) >= count) return;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      },
      async release(): Promise<void> {
        await client.query('ROLLBACK');
        client.release();
      },
    };
  }

  function expectTooMany(
    response: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
    message: string,
  ) {
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe(String(EXPORT_RETRY_AFTER_SECONDS));
    expect(response.json()).toEqual({ statusCode: 429, error: 'Too Many Requests', message });
  }

  it('answers 429 with Retry-After beyond a user’s exports, a link counting as its maker’s, and beyond all', async () => {
    const minted = await agents.operator.get(url('/outlets/transaction/pdfLink', APRIL));
    expect(minted.statusCode).toBe(200);
    const operatorLink = (minted.json() as { url: string }).url;
    const hold = await holdPdfs();
    let first: Promise<{ statusCode: number; rawPayload: Buffer }> | undefined;
    let second: Promise<{ statusCode: number; rawPayload: Buffer }> | undefined;
    try {
      first = agents.operator.get(APRIL_PDF);
      await hold.waitingPdfs(1);
      // The operator's one export runs: a second one, or their link opened by anyone, waits its turn.
      expectTooMany(await agents.operator.get(APRIL_PDF), userExportsMessage(1));
      expectTooMany(await new Agent(limited).get(operatorLink), userExportsMessage(1));
      // Another user still may, up to the server's two.
      second = agents.admin.get(APRIL_PDF);
      await hold.waitingPdfs(2);
      const otherDay = url('/outlets/transaction/generatepdf', {
        client_id: '2',
        id: String(WORLD.outlets.apexShop),
        startTime: '2026-04-01',
        endTime: '2026-04-01',
      });
      expectTooMany(await agents.other.get(otherDay), SERVER_EXPORTS_MESSAGE);
    } finally {
      await hold.release();
    }
    // The held ones end whole, and their slots are free again.
    for (const held of [first, second]) {
      const response = await held;
      expect(response?.statusCode).toBe(200);
      expect(response ? await headings(response.rawPayload) : []).toHaveLength(COUNT);
    }
    const again = await agents.operator.get(APRIL_PDF);
    expect(again.statusCode).toBe(200);
    expect((await new Agent(limited).get(operatorLink)).statusCode).toBe(200);
  });

  it('declares the 429 for both ways to a PDF in the contract', () => {
    const paths = (loadSpecification() as { paths: Record<string, { get: { responses: Record<string, unknown> } }> })
      .paths;
    for (const path of ['/outlets/transaction/generatepdf', '/download/receipts/pdf']) {
      expect(paths[path]?.get.responses).toHaveProperty('429');
    }
  });

  it('gives a slot back when the client goes away in the middle of the answer', async () => {
    const slots = new ExportSlots({ perUser: 1, max: 1 });
    const body = new Readable({ read() {} });
    const tiny = Fastify();
    tiny.get('/export', (_request, reply) => {
      slots.take('user:1', reply);
      body.push('%PDF-');
      return reply.type('application/pdf').send(body);
    });
    const address = await tiny.listen({ host: '127.0.0.1', port: 0 });
    try {
      await new Promise<void>((resolve, reject) => {
        const request = httpRequest(`${address}/export`, (response) => {
          response.once('data', () => {
            expect(slots.count('user:1')).toBe(1);
            request.destroy();
            resolve();
          });
        });
        request.on('error', (error) => {
          if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
        });
        request.end();
      });
      while (slots.count() > 0) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(slots.count('user:1')).toBe(0);
    } finally {
      body.destroy();
      await tiny.close();
    }
  });
});
