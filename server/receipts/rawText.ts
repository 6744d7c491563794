import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * The printed text of a receipt as stored (receipts.raw_receipt, migration 022): empty for no text, else a format
 * byte and the text. 0x00: the text in UTF-8 (receipts stored before the migration); 0x01: raw DEFLATE of the
 * UTF-8 text with the dictionary below, which holds what receipts have in common, so that even a short receipt
 * compresses. The dictionary is part of the format: it must never change (a new one would be format 0x02).
 */

const PLAIN = 0x00;
const DEFLATE_V1 = 0x01;

const RULE_LINE = '-'.repeat(40);
const DICTIONARY_V1 = Buffer.from(
  [
    'Tax Invoice GST Reg No. Receipt No: Receipt: Date: Time: Cashier: Table: Pax: TAKE AWAY DINE IN DELIVERY',
    'GrabFood foodpanda Deliveroo Member: points earned *** VOID *** *** FOC *** *** REFUND *** REPRINT',
    'Qty Item Price Amount Subtotal Discount Service Charge GST incl. TOTAL SGD USD IDR MYR Rounding Change',
    'VISA MASTERCARD MASTER AMEX NETS PAYNOW CASH GRABPAY VOUCHER CREDIT DEBIT OTHERS UNPAID Card No: XXXX',
    'Thank you! Please come again. Thank you for shopping with us! Goods sold are not refundable.',
    RULE_LINE,
    '===================================',
    `1 x 2 x 3 x      0.00     1.00     2.50     5.00    10.00\n${RULE_LINE}\nSubtotal\nTOTAL SGD `,
  ].join('\n'),
  'utf8',
);

/** Texts this short are kept plain: DEFLATE's few bytes of framing would gain nothing. */
const SHORTEST_COMPRESSED = 24;

export function encodeRawText(text: string): Buffer {
  if (text === '') return Buffer.alloc(0);
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length >= SHORTEST_COMPRESSED) {
    // The fastest level and a 4 kB window: most of the time of a short text is zlib's set-up, which these keep
    // small; a receipt compresses to about a third all the same.
    const compressed = deflateRawSync(bytes, {
      dictionary: DICTIONARY_V1,
      level: 1,
      memLevel: 4,
      windowBits: 12,
      strategy: constants.Z_DEFAULT_STRATEGY,
    });
    if (compressed.length < bytes.length) return Buffer.concat([Buffer.of(DEFLATE_V1), compressed]);
  }
  return Buffer.concat([Buffer.of(PLAIN), bytes]);
}

export function decodeRawText(stored: Buffer | null | undefined): string {
  if (!stored || stored.length === 0) return '';
  const body = stored.subarray(1);
  switch (stored[0]) {
    case PLAIN:
      return body.toString('utf8');
    case DEFLATE_V1:
      return inflateRawSync(body, { dictionary: DICTIONARY_V1 }).toString('utf8');
    default:
      throw new Error(`raw receipt: unknown format ${stored[0]}`);
  }
}
