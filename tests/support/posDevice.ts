import type { components } from '../../src/api/schema.js';

/** What a point-of-sale device sends to POST /api/ingest/receipts, and what it is answered. */
export type PosReceipt = components['schemas']['IngestReceipt'];
export type IngestResult = components['schemas']['IngestResult'];

/**
 * Receipt `n` of a till: a closed sale `n` minutes after `start` (an instant), of `skuIds` (one unit each, 2.50
 * apiece), paid by card, every 7th one void.
 */
export function posReceipt(n: number, start: string, skuIds: readonly number[], extra: Partial<PosReceipt> = {}) {
  const items = skuIds.map((sku_id, i) => ({
    sku_id,
    quantity: 1 + (i % 2),
    unit_price: 2.5,
    amount: 2.5 * (1 + (i % 2)),
  }));
  const total = items.reduce((sum, item) => sum + item.amount, 0) + (n % 10);
  // The fields with a default in the contract may be left out (the server fills them in).
  return {
    receipt_id: `T1-${String(n).padStart(6, '0')}`,
    datetime: new Date(Date.parse(start) + n * 60_000).toISOString(),
    total_amount: total,
    discount: n % 5 === 0 ? 1 : 0,
    payment_method: n % 3 === 0 ? 'cash' : 'visa',
    is_member: n % 4 === 0,
    member_id: n % 4 === 0 ? `M${n % 50}` : null,
    void: n % 7 === 0,
    raw_receipt: `TILL 1\nReceipt T1-${n}\nTotal ${total.toFixed(2)}`,
    payments: [{ method: n % 3 === 0 ? 'cash' : 'visa', amount: total }],
    items,
    ...extra,
  } as PosReceipt;
}

/** Posts one batch with a device key; the answer's status and body. */
export async function postBatch(
  baseUrl: string,
  key: string,
  receipts: readonly unknown[],
): Promise<{ status: number; body: IngestResult }> {
  const response = await fetch(`${baseUrl}/api/ingest/receipts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ receipts }),
  });
  return { status: response.status, body: (await response.json()) as IngestResult };
}
