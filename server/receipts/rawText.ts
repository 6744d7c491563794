import { constants, createDeflateRaw, type DeflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * The printed text of a receipt as stored (receipts.raw_receipt, migrations 022 and 024): empty for no text, else
 * a format byte and the text.
 * - 0x00: the text in UTF-8 (receipts stored before migration 022, and texts too short to gain from compression);
 * - 0x01: raw DEFLATE of the UTF-8 text with DICTIONARY_V1 below, which holds what receipts have in common, so
 *   that even a short receipt compresses. The dictionary is part of the format: it must never change;
 * - 0x02: the id of an outlet's own dictionary (4 bytes, big-endian; receipt_text_dictionaries, migration 024),
 *   then raw DEFLATE of the UTF-8 text with it. An outlet prints the same header, menu lines and footer on every
 *   receipt, so a dictionary made of its own texts leaves little but the receipt number, the time and the
 *   amounts to store: about 75 bytes a receipt, against 190 with the common dictionary.
 */

const PLAIN = 0x00;
const DEFLATE_V1 = 0x01;
const DEFLATE_OUTLET = 0x02;

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

/**
 * An outlet dictionary's window: 4 kB (windowBits 12), of which DEFLATE can refer back to all but 262 bytes.
 * Setting a dictionary up costs time for each of its bytes, for every text: 8 kB would save 5 bytes a receipt
 * for half as much time again.
 */
const OUTLET_WINDOW_BITS = 12;
export const TEXT_DICTIONARY_BYTES = (1 << OUTLET_WINDOW_BITS) - 262;

/** An outlet's dictionary: its id (receipt_text_dictionaries.id) and its bytes. */
export interface TextDictionary {
  id: number;
  bytes: Buffer;
}

/**
 * A dictionary of an outlet's receipt texts: `previous` (its dictionary so far, if any) followed by `texts`, one a
 * line, cut to the last TEXT_DICTIONARY_BYTES (DEFLATE finds what ends a dictionary most cheaply). Texts too
 * short to be compressed are left out. Empty when there is nothing to make it of.
 */
export function buildTextDictionary(previous: Buffer | undefined, texts: readonly string[]): Buffer {
  const parts: Buffer[] = previous && previous.length > 0 ? [previous] : [];
  for (const text of texts) {
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length < SHORTEST_COMPRESSED) continue;
    if (parts.length > 0) parts.push(NEWLINE);
    parts.push(bytes);
  }
  const joined = Buffer.concat(parts);
  return joined.subarray(Math.max(0, joined.length - TEXT_DICTIONARY_BYTES));
}
const NEWLINE = Buffer.from('\n', 'utf8');

/** The stored form of `text`: with the outlet's dictionary when there is one (format 0x02), else 0x01 or 0x00. */
export function encodeRawText(text: string, dictionary?: TextDictionary): Buffer {
  if (text === '') return Buffer.alloc(0);
  const bytes = Buffer.from(text, 'utf8');
  const plain = () => Buffer.concat([Buffer.of(PLAIN), bytes]);
  if (bytes.length < SHORTEST_COMPRESSED) return plain();
  let header: Buffer;
  let compressed: Buffer;
  if (dictionary && dictionary.bytes.length > 0) {
    header = Buffer.alloc(5);
    header[0] = DEFLATE_OUTLET;
    header.writeUInt32BE(dictionary.id, 1);
    compressed = outletCompressor(dictionary).compress(bytes);
  } else {
    // The fastest level and a 4 kB window: most of the time of a short text is zlib's set-up, which these keep
    // small; a receipt compresses to about a third all the same.
    header = Buffer.of(DEFLATE_V1);
    compressed = deflateRawSync(bytes, { dictionary: DICTIONARY_V1, level: 1, memLevel: 4, windowBits: 12 });
  }
  return header.length + compressed.length < bytes.length + 1 ? Buffer.concat([header, compressed]) : plain();
}

const OUTLET_OPTIONS = { level: 6, memLevel: 5, windowBits: OUTLET_WINDOW_BITS } as const;

/** What a DeflateRaw stream holds: zlib's handle, and where a synchronous write leaves the room left. */
interface ZlibInternals {
  _handle?: {
    reset(): void;
    writeSync(
      flush: number,
      input: Buffer,
      inOff: number,
      inLen: number,
      out: Buffer,
      outOff: number,
      outLen: number,
    ): void;
  };
  _writeState?: Uint32Array;
}

/**
 * DEFLATE with one dictionary, its zlib state made once and reset for each text. Setting zlib up for a call
 * (deflateRawSync makes a stream, allocates and clears its tables, then sets the dictionary) costs more than
 * compressing a receipt; a reset (deflateReset, after which Node sets the dictionary again) costs a fraction.
 * Node has no public call for this, so it writes to the stream's zlib handle as Node's own synchronous calls do,
 * and compresses with deflateRawSync, to the same bytes, whenever that handle is not there or the output does
 * not fit.
 */
class DictionaryCompressor {
  private readonly deflate: DeflateRaw;
  private readonly stream: ZlibInternals;
  private readonly out = Buffer.allocUnsafe(32 * 1024);

  constructor(readonly dictionary: Buffer) {
    this.deflate = createDeflateRaw({ ...OUTLET_OPTIONS, dictionary });
    this.stream = this.deflate as unknown as ZlibInternals;
  }

  /** Frees zlib's state. */
  close(): void {
    this.deflate.close();
  }

  compress(input: Buffer): Buffer {
    const handle = this.stream._handle;
    const state = this.stream._writeState;
    if (handle && state && input.length < this.out.length / 2) {
      handle.reset();
      handle.writeSync(constants.Z_FINISH, input, 0, input.length, this.out, 0, this.out.length);
      const [outLeft = 0, inLeft = 1] = state;
      if (inLeft === 0 && outLeft > 0) return Buffer.from(this.out.subarray(0, this.out.length - outLeft));
    }
    return deflateRawSync(input, { ...OUTLET_OPTIONS, dictionary: this.dictionary });
  }
}

/** Compressors of the dictionaries in use, the most recently used last; a few hundred outlets' worth. */
const compressors = new Map<number, DictionaryCompressor>();
const MOST_COMPRESSORS = 256;

function outletCompressor(dictionary: TextDictionary): DictionaryCompressor {
  let compressor = compressors.get(dictionary.id);
  // an id names a dictionary in one database: the bytes decide
  if (compressor && !compressor.dictionary.equals(dictionary.bytes)) {
    compressor.close();
    compressor = undefined;
  }
  if (compressor) compressors.delete(dictionary.id);
  else compressor = new DictionaryCompressor(Buffer.from(dictionary.bytes));
  compressors.set(dictionary.id, compressor);
  if (compressors.size > MOST_COMPRESSORS) {
    const [oldest] = compressors.entries();
    if (oldest) {
      compressors.delete(oldest[0]);
      oldest[1].close();
    }
  }
  return compressor;
}

/** The bytes `text` compresses to with an outlet dictionary of these bytes (for choosing a dictionary). */
export function compressedSize(text: string, dictionary: Buffer): number {
  return deflateRawSync(Buffer.from(text, 'utf8'), { ...OUTLET_OPTIONS, dictionary }).length;
}

/** The id of the outlet dictionary a stored text needs (format 0x02), else undefined. */
export function textDictionaryId(stored: Buffer | null | undefined): number | undefined {
  if (!stored || stored.length < 5 || stored[0] !== DEFLATE_OUTLET) return undefined;
  return stored.readUInt32BE(1);
}

/** The text of `stored`; `dictionary` gives the bytes of an outlet dictionary by id (format 0x02). */
export function decodeRawText(
  stored: Buffer | null | undefined,
  dictionary: (id: number) => Buffer | undefined = () => undefined,
): string {
  if (!stored || stored.length === 0) return '';
  const body = stored.subarray(1);
  switch (stored[0]) {
    case PLAIN:
      return body.toString('utf8');
    case DEFLATE_V1:
      return inflateRawSync(body, { dictionary: DICTIONARY_V1 }).toString('utf8');
    case DEFLATE_OUTLET: {
      const id = textDictionaryId(stored);
      const bytes = id === undefined ? undefined : dictionary(id);
      if (!bytes) throw new Error(`raw receipt: dictionary ${id} is not loaded`);
      return inflateRawSync(stored.subarray(5), { dictionary: bytes, windowBits: OUTLET_WINDOW_BITS }).toString('utf8');
    }
    default:
      throw new Error(`raw receipt: unknown format ${stored[0]}`);
  }
}
