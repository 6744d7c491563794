import type { components } from '../../src/api/schema.js';
import { MESSAGES } from '../auth/access.js';
import { inTransaction } from '../db/pool.js';
import { unauthorized } from '../errors.js';
import { type IngestOutcome, ingestWithinBounds, outletSkuIds, type ReceiptInput } from '../repositories/ingestion.js';
import { componentValidator, fieldError } from '../validation.js';
import type { AreaHandlers, RouteDeps } from './types.js';

/**
 * POST /api/ingest/receipts: a batch of receipts from the point-of-sale device of one outlet (its device key, checked
 * by server/auth/access.ts). Each receipt is checked on its own, so that a bad one is refused with its index and
 * field while the good ones of the batch are stored; the stored ones go through ingestWithinBounds (the one path
 * into the data) in one transaction, committed before the answer, which refuses a receipt that would take the
 * outlet's day past what a day may hold (DAY_BOUNDS) and stores the others.
 */

type IngestReceipt = components['schemas']['IngestReceipt'];
type IngestResult = components['schemas']['IngestResult'];
type Rejection = IngestResult['rejected'][number];

const validReceipt = componentValidator('IngestReceipt');

/** The earliest instant a receipt may have, and how far after now. */
const EARLIEST = Date.parse('2000-01-01T00:00:00Z');
const LATEST_AHEAD_MS = 24 * 60 * 60 * 1000;

/** How often a batch is tried again when PostgreSQL chose it as a deadlock's victim (batches of one outlet at once). */
const DEADLOCK_ATTEMPTS = 3;

function toReceiptInput(outletId: number, receipt: IngestReceipt): ReceiptInput {
  return {
    outletId,
    receiptId: receipt.receipt_id,
    datetime: new Date(receipt.datetime),
    dineOutTime: receipt.dine_out_time ? new Date(receipt.dine_out_time) : null,
    totalAmount: receipt.total_amount,
    discount: receipt.discount ?? 0,
    voucherAmount: receipt.voucher_amount ?? 0,
    refundAmount: receipt.refund_amount ?? 0,
    paymentMethod: receipt.payment_method ?? '',
    isMember: receipt.is_member ?? false,
    memberId: receipt.member_id ?? null,
    nameReason: receipt.name_reason ?? null,
    tableNo: receipt.table_no ?? null,
    takeAway: receipt.take_away ?? false,
    deliveryInfo: receipt.delivery_info ?? null,
    openedBill: receipt.opened_bill ?? false,
    void: receipt.void ?? false,
    closedBill: receipt.closed_bill ?? true,
    focBill: receipt.foc_bill ?? false,
    focReason: receipt.foc_reason ?? null,
    redeemBill: receipt.redeem_bill ?? false,
    receiptCode: receipt.receipt_code ?? null,
    rawReceipt: receipt.raw_receipt ?? '',
    payments: (receipt.payments ?? []).map((payment) => ({ method: payment.method, amount: payment.amount })),
    items: (receipt.items ?? []).map((item) => ({
      skuId: item.sku_id,
      quantity: item.quantity,
      unitPrice: item.unit_price,
      amount: item.amount,
    })),
  };
}

/** The rule of the contract a schema cannot state: the instant is a real one of the product's years. */
function instantError(receipt: IngestReceipt, now: number): Omit<Rejection, 'index' | 'receipt_id'> | undefined {
  const at = Date.parse(receipt.datetime);
  if (!(at >= EARLIEST && at <= now + LATEST_AHEAD_MS)) {
    return { field: 'datetime', message: 'must lie between 2000-01-01 and one day after now' };
  }
  if (receipt.dine_out_time && !(Date.parse(receipt.dine_out_time) >= at)) {
    return { field: 'dine_out_time', message: 'must not be before datetime' };
  }
  return undefined;
}

const isDeadlock = (error: unknown) => (error as { code?: unknown })?.code === '40P01';

export function ingestHandlers({ pool, metrics }: RouteDeps) {
  return {
    async ingestReceipts(request) {
      const device = request.device;
      if (!device) throw unauthorized(MESSAGES.deviceKey);
      const given: unknown[] = request.body.receipts;
      const now = Date.now();
      const rejected: Rejection[] = [];
      const valid: { index: number; receipt: IngestReceipt }[] = [];
      given.forEach((value, index) => {
        const receiptId =
          typeof value === 'object' &&
          value !== null &&
          typeof (value as { receipt_id?: unknown }).receipt_id === 'string'
            ? ((value as { receipt_id: string }).receipt_id as string)
            : null;
        if (!validReceipt(value)) {
          rejected.push({ index, receipt_id: receiptId, ...fieldError(validReceipt.errors) });
          return;
        }
        const receipt = value as IngestReceipt;
        const wrong = instantError(receipt, now);
        if (wrong) rejected.push({ index, receipt_id: receiptId, ...wrong });
        else valid.push({ index, receipt });
      });

      const skuIds = valid.flatMap(({ receipt }) => (receipt.items ?? []).map((item) => item.sku_id));
      const known = await outletSkuIds(pool, device.clientId, device.outletId, skuIds);
      const stored: { index: number; receipt: IngestReceipt }[] = [];
      for (const entry of valid) {
        const unknown = (entry.receipt.items ?? []).findIndex((item) => !known.has(item.sku_id));
        if (unknown >= 0) {
          rejected.push({
            index: entry.index,
            receipt_id: entry.receipt.receipt_id,
            field: `items/${unknown}/sku_id`,
            message: 'is not an SKU of the outlet',
          });
        } else stored.push(entry);
      }

      const inputs = stored.map(({ receipt }) => toReceiptInput(device.outletId, receipt));
      let outcome: IngestOutcome = { inserted: 0, refused: [] };
      for (let attempt = 1; ; attempt += 1) {
        try {
          outcome = await inTransaction(pool, (tx) => ingestWithinBounds(tx, device.clientId, inputs));
          break;
        } catch (error) {
          if (!isDeadlock(error) || attempt >= DEADLOCK_ATTEMPTS) throw error;
        }
      }
      const beyond = new Set(outcome.refused.map(({ position }) => position));
      for (const { position, field, message } of outcome.refused) {
        const entry = stored[position];
        if (entry) rejected.push({ index: entry.index, receipt_id: entry.receipt.receipt_id, field, message });
      }
      const kept = stored.filter((_, position) => !beyond.has(position));
      rejected.sort((a, b) => a.index - b.index);
      // Counted here, once the batch is committed (a batch that fails counts nothing): the ingestion rate.
      metrics.ingestedReceipts.inc({ outcome: 'new' }, outcome.inserted);
      metrics.ingestedReceipts.inc({ outcome: 'already_stored' }, kept.length - outcome.inserted);
      metrics.ingestedReceipts.inc({ outcome: 'rejected' }, rejected.length);
      return {
        received: given.length,
        new: outcome.inserted,
        already_stored: kept.length - outcome.inserted,
        stored: kept.map(({ index }) => index),
        rejected,
      };
    },
  } satisfies AreaHandlers;
}
