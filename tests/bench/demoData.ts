/**
 * Demo-data generation and raw receipt ingestion rates.
 *
 *   npx tsx tests/bench/demoData.ts            (embedded PostgreSQL in a temp dir unless DATABASE_URL is set)
 *   BENCH_RECEIPTS=1000000 npx tsx tests/bench/demoData.ts
 *
 * Generation: generateDemoData into a fresh database (receipts made by the seeded generator while the previous
 * chunk is ingested, one connection, one transaction). Raw ingestion: the same receipts read back into memory
 * and ingested again into fresh databases (with the same outlets) by ingestReceipts alone, once on one
 * connection and once on two connections in parallel (one client each).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createPool, inTransaction, type Pool } from '../../server/db/pool.js';
import { generateDemoData } from '../../server/demo/generate.js';
import type { WorldOptions } from '../../server/demo/world.js';
import { ingestReceipts, type ReceiptInput } from '../../server/repositories/ingestion.js';
import { decodeRawTexts } from '../../server/repositories/receiptTexts.js';
import { createDatabase, dropDatabase, withPostgres } from '../support/postgres.js';

export interface DemoDataBenchResult {
  receipts: number;
  generationSeconds: number;
  ingestSeconds: number;
  parallelIngestSeconds: number;
}

const SEED = 20261121;
const END_DATE = '2026-10-31';
const READ_CHUNK = 50_000;
const INGEST_CALL = 25_000;

interface StoredReceipt {
  client_id: number;
  outlet_id: number;
  receipt_id: string;
  datetime: Date;
  dine_out_time: Date | null;
  total_amount: number;
  discount: number;
  voucher_amount: number;
  refund_amount: number;
  payment_method: string;
  is_member: boolean;
  member_id: string | null;
  name_reason: string | null;
  table_no: string | null;
  take_away: boolean;
  delivery_info: string | null;
  opened_bill: boolean;
  void: boolean;
  closed_bill: boolean;
  foc_bill: boolean;
  foc_reason: string | null;
  redeem_bill: boolean;
  receipt_code: number | null;
  raw_receipt: Buffer;
  payments: { method: string; amount: number }[];
  items: { skuId: number; quantity: number; unitPrice: number; amount: number }[];
}

/** Every receipt of a database (or those with an id above `after`), with payments and items, as ingestion input by client, in id order. */
export async function readReceipts(pool: Pool, after = 0): Promise<Map<number, ReceiptInput[]>> {
  const byClient = new Map<number, ReceiptInput[]>();
  for (;;) {
    const { rows } = await pool.query<StoredReceipt & { id: number }>(
      `SELECT r.id, r.client_id, r.outlet_id, r.receipt_id, r.datetime, r.dine_out_time, r.total_amount, r.discount,
         r.voucher_amount, r.refund_amount, r.payment_method, r.is_member, r.member_id, r.name_reason, r.table_no,
         r.take_away, r.delivery_info, r.opened_bill, r.void, r.closed_bill, r.foc_bill, r.foc_reason, r.redeem_bill,
         r.receipt_code, r.raw_receipt,
         (SELECT coalesce(json_agg(json_build_object('method', p.payment_method, 'amount', p.amount) ORDER BY p.seq), '[]')
          FROM receipt_payments p WHERE p.client_id = r.client_id AND p.receipt_id = r.id) AS payments,
         (SELECT coalesce(json_agg(json_build_object('skuId', i.sku_id, 'quantity', i.quantity, 'unitPrice', i.unit_price,
            'amount', i.amount) ORDER BY i.seq), '[]')
          FROM receipt_items i WHERE i.client_id = r.client_id AND i.receipt_id = r.id) AS items
       FROM receipts r WHERE r.id > $1 ORDER BY r.id LIMIT $2`,
      [after, READ_CHUNK],
    );
    const last = rows.at(-1);
    if (!last) break;
    after = last.id;
    // Each receipt's text with its client's dictionaries.
    const texts = await Promise.all(
      rows.map(async (row) => (await decodeRawTexts(pool, row.client_id, [row.raw_receipt]))[0] ?? ''),
    );
    for (const [k, row] of rows.entries()) {
      let list = byClient.get(row.client_id);
      if (!list) {
        list = [];
        byClient.set(row.client_id, list);
      }
      list.push({
        outletId: row.outlet_id,
        receiptId: row.receipt_id,
        datetime: row.datetime,
        dineOutTime: row.dine_out_time,
        totalAmount: row.total_amount,
        discount: row.discount,
        voucherAmount: row.voucher_amount,
        refundAmount: row.refund_amount,
        paymentMethod: row.payment_method,
        isMember: row.is_member,
        memberId: row.member_id,
        nameReason: row.name_reason,
        tableNo: row.table_no,
        takeAway: row.take_away,
        deliveryInfo: row.delivery_info,
        openedBill: row.opened_bill,
        void: row.void,
        closedBill: row.closed_bill,
        focBill: row.foc_bill,
        focReason: row.foc_reason,
        redeemBill: row.redeem_bill,
        receiptCode: row.receipt_code,
        rawReceipt: texts[k] ?? '',
        payments: row.payments,
        items: row.items,
      });
    }
  }
  return byClient;
}

/** Ingests one client's receipts in calls of INGEST_CALL receipts, in one transaction; seconds. */
async function ingestAll(pool: Pool, clientId: number, receipts: ReceiptInput[]): Promise<void> {
  await inTransaction(pool, async (tx) => {
    for (let start = 0; start < receipts.length; start += INGEST_CALL) {
      await ingestReceipts(tx, clientId, receipts.slice(start, start + INGEST_CALL));
    }
  });
}

const say = (message: string) => process.stdout.write(`${message}\n`);
const rate = (count: number, seconds: number) => `${Math.round(count / seconds).toLocaleString('en-US')} receipts/s`;

/**
 * Runs the benchmark on the PostgreSQL server at `url` (a database there in which CREATE DATABASE works);
 * the databases it creates are dropped at the end.
 */
export async function benchDemoData(
  url: string,
  options: { receipts?: number; log?: (message: string) => void } = {},
): Promise<DemoDataBenchResult> {
  const receipts = options.receipts ?? 200_000;
  const log = options.log ?? say;
  const suffix = `${process.pid}_${Date.now()}`;
  const names = { generated: `bench_gen_${suffix}`, raw: `bench_raw_${suffix}`, parallel: `bench_par_${suffix}` };
  try {
    // 1. Generation.
    const generated = await createDatabase(url, names.generated);
    const started = performance.now();
    const result = await generateDemoData(generated, { seed: SEED, receipts, endDate: END_DATE, log: () => {} });
    const generationSeconds = (performance.now() - started) / 1000;
    log(
      `demo data generation: ${receipts.toLocaleString('en-US')} receipts, ${result.outlets} outlets in ` +
        `${generationSeconds.toFixed(1)} s (incl. reference data, targets, VACUUM ANALYZE): ${rate(receipts, generationSeconds)}`,
    );
    const stored = await readReceipts(generated);
    await generated.end();

    // 2. Raw ingestion into databases holding the same outlets and SKUs but no receipts.
    const raw = await createDatabase(url, names.raw);
    const parallel = await createDatabase(url, names.parallel);
    await generateDemoData(raw, { seed: SEED, receipts: 0, endDate: END_DATE });
    await generateDemoData(parallel, { seed: SEED, receipts: 0, endDate: END_DATE });
    const clients = [...stored.entries()];

    let begin = performance.now();
    for (const [clientId, list] of clients) await ingestAll(raw, clientId, list);
    const ingestSeconds = (performance.now() - begin) / 1000;
    log(
      `raw ingestion, 1 connection:  ${receipts.toLocaleString('en-US')} receipts in ${ingestSeconds.toFixed(1)} s: ${rate(receipts, ingestSeconds)}`,
    );

    begin = performance.now();
    await Promise.all(clients.map(([clientId, list]) => ingestAll(parallel, clientId, list)));
    const parallelIngestSeconds = (performance.now() - begin) / 1000;
    log(
      `raw ingestion, ${clients.length} connections (one client each): ${parallelIngestSeconds.toFixed(1)} s: ` +
        rate(receipts, parallelIngestSeconds),
    );
    await raw.end();
    await parallel.end();
    return { receipts, generationSeconds, ingestSeconds, parallelIngestSeconds };
  } finally {
    for (const name of Object.values(names)) await dropDatabase(url, name).catch(() => {});
  }
}

/**
 * Raw ingestion at the density of a generated dataset: its last `count` receipts (by id: the latest days, all
 * outlets) read back and ingested again, by ingestReceipts on one connection in one transaction, into a fresh
 * database on `serverUrl` holding the same world (`seed`, `endDate`, `world`) and no receipts.
 */
export async function benchIngestionOf(
  sourceUrl: string,
  serverUrl: string,
  options: {
    seed: number;
    endDate: string;
    world?: WorldOptions;
    count: number;
    log?: (message: string) => void;
  },
): Promise<number> {
  const log = options.log ?? say;
  const source = createPool(sourceUrl, 1);
  const name = `bench_ingest_${process.pid}_${Date.now()}`;
  try {
    const { rows } = await source.query<{ after: number }>(
      'SELECT coalesce(min(id) - 1, 0)::int8 AS after FROM (SELECT id FROM receipts ORDER BY id DESC LIMIT $1) last',
      [options.count],
    );
    const stored = await readReceipts(source, rows[0]?.after ?? 0);
    const total = [...stored.values()].reduce((sum, list) => sum + list.length, 0);
    const target = await createDatabase(serverUrl, name);
    try {
      await generateDemoData(target, {
        seed: options.seed,
        receipts: 0,
        endDate: options.endDate,
        world: options.world,
      });
      const begin = performance.now();
      for (const [clientId, list] of stored) await ingestAll(target, clientId, list);
      const seconds = (performance.now() - begin) / 1000;
      log(
        `raw ingestion of the last ${total.toLocaleString('en-US')} receipts, 1 connection: ${seconds.toFixed(1)} s: ${rate(total, seconds)}`,
      );
      return total / seconds;
    } finally {
      await target.end();
    }
  } finally {
    await source.end();
    await dropDatabase(serverUrl, name).catch(() => {});
  }
}

async function main(): Promise<void> {
  const receipts = process.env.BENCH_RECEIPTS ? Number(process.env.BENCH_RECEIPTS) : undefined;
  await withPostgres((url) => benchDemoData(url, { receipts }));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
