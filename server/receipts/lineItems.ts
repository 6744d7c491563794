/**
 * A receipt's line items as stored (receipts.items, migration 023): bytes, each item four variable-length
 * integers (LEB128: 7 bits a byte, low first, the high bit set on every byte but the last): the SKU id, then
 * the quantity, the unit price in cents and the amount in cents, each zigzag-encoded (0, -1, 1, -2 … as
 * 0, 1, 2, 3 …) so that small negative values stay short. No items: no bytes. A typical item takes 6 to 9
 * bytes, against 48 as four numeric(14,2) array elements. The SQL function receipt_line_items (migration 023)
 * reads them back as rows.
 *
 * Cents are the amounts rounded to 2 decimals the way numeric(14,2) rounds the number's decimal text (half away
 * from zero), so the stored items agree with the rollups, which PostgreSQL rounds from the same values.
 */

export interface LineItem {
  skuId: number;
  quantity: number;
  unitPrice: number;
  amount: number;
}

/**
 * `value` in cents, rounded as PostgreSQL rounds `String(value)` to numeric(14,2): half away from zero on the
 * decimal digits. The product with 100 decides unless it lies within a rounding error of a half cent; then the
 * decimal text does.
 */
export function centsOf(value: number): number {
  if (!Number.isFinite(value)) throw new Error(`line items: an amount must be a finite number, got ${value}`);
  const scaled = Math.abs(value) * 100;
  const fraction = scaled - Math.floor(scaled);
  if (Math.abs(fraction - 0.5) > 1e-3) return Math.sign(value) * Math.round(scaled) || 0;
  return centsOfDecimalText(String(value));
}

function centsOfDecimalText(text: string): number {
  const match = /^(-?)(\d+)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text);
  if (!match) throw new Error(`line items: not a decimal number: ${text}`);
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const digits = `${whole}${fraction}`;
  // value = digits × 10^(exponent − fraction digits); in cents, 2 places more
  const shift = Number(exponent) - fraction.length + 2;
  let cents: bigint;
  if (shift >= 0) cents = BigInt(digits) * 10n ** BigInt(shift);
  else {
    const keep = digits.length + shift;
    const kept = keep > 0 ? BigInt(digits.slice(0, keep)) : 0n;
    const next = keep >= 0 ? Number(digits[keep] ?? '0') : 0;
    cents = next >= 5 ? kept + 1n : kept;
  }
  const result = Number(cents);
  return sign === '-' && result !== 0 ? -result : result;
}

const zigzag = (n: number) => (n >= 0 ? n * 2 : -n * 2 - 1);

function pushVarint(out: number[], value: number): void {
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
}

export function encodeLineItems(items: readonly LineItem[]): Buffer {
  const out: number[] = [];
  for (const item of items) {
    if (!Number.isSafeInteger(item.skuId) || item.skuId < 0) throw new Error(`line items: bad SKU id ${item.skuId}`);
    if (!Number.isSafeInteger(item.quantity)) throw new Error(`line items: bad quantity ${item.quantity}`);
    pushVarint(out, item.skuId);
    pushVarint(out, zigzag(item.quantity));
    pushVarint(out, zigzag(centsOf(item.unitPrice)));
    pushVarint(out, zigzag(centsOf(item.amount)));
  }
  return Buffer.from(out);
}
