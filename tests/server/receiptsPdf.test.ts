import { inflateSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, inTransaction, type Pool, type Queryable } from '../../server/db/pool.js';
import { listOperations, loadSpecification, permissionFor } from '../../server/openapi.js';
import { ingestReceipts, type ReceiptInput } from '../../server/repositories/ingestion.js';
import { PDF_BATCH_SIZE, readPdfReceipts, selectPdfReceipts } from '../../server/repositories/receipts.js';
import { sendReceiptsPdf } from '../../server/routes/receipts.js';
import { RECEIPTS_PDF_CAP } from '../../src/domain/receipts.js';
import { grantOperatorPermissions, PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, type TestDatabase } from './helpers.js';

/*
 * The receipts PDF holds every receipt the filters select (not the list's page), in the list's order, up to the
 * cap, and streams: Cafe Uno (outlet 1, Asia/Singapore) has 250 receipts on 1 April 2026, local time, P-001 to
 * P-250 a minute apart, P-n totalling n + 0.5, every fifth one void. 250 is more than a list page (10) and more
 * than two batches of the PDF's reading (PDF_BATCH_SIZE), so the PDF is read in three batches at least.
 */

const COUNT = 250;
const CAFE = WORLD.outlets.cafe;
const SECRET = 'test-download-secret';

function receipt(n: number): ReceiptInput {
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
  };
}
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
  await inTransaction(db.pool, (client) => ingestReceipts(client, 1, range(1, COUNT).map(receipt)));
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

/** The text of a PDF: inflate its streams, then read the strings of TJ/Tj operators (hex or literal). */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const parts: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    const bytes = Buffer.from(match[1] ?? '', 'latin1');
    try {
      parts.push(inflateSync(bytes).toString('latin1'));
    } catch {
      parts.push(bytes.toString('latin1'));
    }
  }
  const text: string[] = [];
  for (const content of parts) {
    for (const array of content.matchAll(/\[(.*?)\]\s*TJ/g)) {
      text.push(
        [...(array[1] ?? '').matchAll(/<([0-9a-fA-F]*)>|\(((?:\\.|[^)])*)\)/g)]
          .map((m) => (m[1] !== undefined ? Buffer.from(m[1], 'hex').toString('latin1') : (m[2] ?? '')))
          .join(''),
      );
    }
  }
  return text.join('\n');
}

/** The receipt ids of the PDF's 'Receipt <id>' headings, in order. */
function headings(pdf: Buffer): string[] {
  return pdfText(pdf)
    .split('\n')
    .flatMap((line) => /^Receipt (\S+)$/.exec(line)?.[1] ?? []);
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
    const inPdf = headings(response.rawPayload);
    expect(inPdf).toHaveLength(COUNT);
    expect(inPdf).toEqual(range(1, COUNT).map(id));
    expect(inPdf).toEqual(await listedIds(params));
    expect(pdfText(response.rawPayload)).toContain('250 receipts');
  });

  it('follows the filters and the sort: void receipts, newest first', async () => {
    const params = { ...APRIL, receiptType: 'voidReceipts' };
    const response = await operator.get(url('/outlets/transaction/generatepdf', params));
    const voids = range(1, COUNT)
      .filter((n) => n % 5 === 0)
      .reverse()
      .map(id);
    expect(response.headers['x-receipt-count']).toBe(String(voids.length));
    expect(headings(response.rawPayload)).toEqual(voids);
    expect(headings(response.rawPayload)).toEqual(await listedIds(params));
  });

  it('says so when no receipt matches', async () => {
    const response = await operator.get(url('/outlets/transaction/generatepdf', { ...APRIL, receiptId: 'nothing' }));
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-receipt-count']).toBe('0');
    expect(pdfText(response.rawPayload)).toContain('No receipts match the filters.');
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
    expect(headings(download.rawPayload)).toEqual(range(1, COUNT).reverse().map(id));
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
        { cap: 7, batchSize: 3, compress: false },
      ),
    );
    try {
      const response = await tiny.inject({ method: 'GET', url: '/pdf' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-receipt-count']).toBe('7');
      expect(headings(response.rawPayload)).toEqual(
        range(COUNT - 6, COUNT)
          .reverse()
          .map(id),
      );
      expect(pdfText(response.rawPayload)).toContain('First 7 of 250 receipts');
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
    const started = Date.now();
    const response = await agent.get(url('/outlets/transaction/generatepdf', APRIL));
    expect(Date.now() - started).toBeGreaterThan(1000);
    expect(response.statusCode).toBe(200);
    expect(headings(response.rawPayload)).toHaveLength(COUNT);
    expect(response.rawPayload.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
    expect((await agent.get(url('/outlets/transaction', APRIL))).statusCode).toBe(200);
  });
});
