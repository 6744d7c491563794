import type { PoolClient, Queryable } from '../db/pool.js';
import {
  buildTextDictionary,
  compressedSize,
  decodeRawText,
  TEXT_DICTIONARY_BYTES,
  type TextDictionary,
  textDictionaryId,
} from '../receipts/rawText.js';

/**
 * The outlets' dictionaries for their receipt texts (receipt_text_dictionaries, migration 024; the format in
 * server/receipts/rawText.ts), read for every call rather than kept in memory: an id names a dictionary in one
 * database only, and the few kilobytes an outlet are little beside a batch.
 */

/** A dictionary at least this full is kept; a smaller one grows with the next batch's texts. */
const FULL_ENOUGH = (TEXT_DICTIONARY_BYTES * 3) / 4;
/** A new dictionary is made only when it holds at least this much more than the outlet's latest. */
const WORTH_A_NEW_ONE = 512;

/** Texts of a batch held out to judge whether an outlet's dictionary still fits its printouts. */
const SAMPLE_TEXTS = 3;
/** A dictionary that leaves more than this share of a sample's bytes is judged against a new one. */
const STALE_SHARE = 0.25;
/** ... which replaces it when it leaves at most this share of what the old one leaves. */
const BETTER_SHARE = 0.7;

/**
 * The dictionaries to compress the texts of `receipts` with, keyed by outlet id: each outlet's latest, or a new
 * one, made in the caller's transaction (so it is stored with the receipts it compressed, or not at all), when the
 * outlet has none; when its latest is not yet full enough and this batch's texts add to it; or when the outlet's
 * printout has changed (a new header, a new menu): its latest compresses the last texts of the batch poorly and one
 * made of the batch's first texts does much better.
 */
export async function outletTextDictionaries(
  db: Pick<PoolClient, 'query'>,
  clientId: number,
  receipts: readonly { outletId: number; rawReceipt: string }[],
): Promise<Map<number, TextDictionary>> {
  const texts = new Map<number, string[]>();
  for (const receipt of receipts) {
    if (receipt.rawReceipt === '') continue;
    const list = texts.get(receipt.outletId) ?? [];
    list.push(receipt.rawReceipt);
    texts.set(receipt.outletId, list);
  }
  const dictionaries = new Map<number, TextDictionary>();
  if (texts.size === 0) return dictionaries;
  const { rows } = await db.query<{ outlet_id: number; id: number; dictionary: Buffer }>(
    `SELECT DISTINCT ON (outlet_id) outlet_id, id, dictionary FROM receipt_text_dictionaries
     WHERE client_id = $1 AND outlet_id = ANY($2::int[]) ORDER BY outlet_id, id DESC`,
    [clientId, [...texts.keys()]],
  );
  for (const row of rows) dictionaries.set(row.outlet_id, { id: row.id, bytes: row.dictionary });
  const made: { outletId: number; bytes: Buffer }[] = [];
  for (const [outletId, list] of texts) {
    const bytes = nextDictionary(dictionaries.get(outletId)?.bytes, list);
    if (bytes) made.push({ outletId, bytes });
  }
  if (made.length === 0) return dictionaries;
  const inserted = await db.query<{ outlet_id: number; id: number }>(
    `INSERT INTO receipt_text_dictionaries (client_id, outlet_id, dictionary)
     SELECT $1, t.outlet_id, t.dictionary FROM unnest($2::int[], $3::bytea[]) WITH ORDINALITY AS t(outlet_id, dictionary, k)
     ORDER BY t.k
     RETURNING outlet_id, id`,
    [clientId, made.map((dictionary) => dictionary.outletId), made.map((dictionary) => dictionary.bytes)],
  );
  const ids = new Map(inserted.rows.map((row) => [row.outlet_id, row.id]));
  for (const { outletId, bytes } of made) {
    const id = ids.get(outletId);
    if (id === undefined) throw new Error(`receipt texts: no dictionary id returned for outlet ${outletId}`);
    dictionaries.set(outletId, { id, bytes });
  }
  return dictionaries;
}

/**
 * The dictionary an outlet's batch of `texts` makes, or undefined to keep `latest`: a first one; a larger one while
 * `latest` is not full enough and the texts add enough to it; a new one when a full `latest` no longer fits them.
 */
function nextDictionary(latest: Buffer | undefined, texts: readonly string[]): Buffer | undefined {
  if (latest && latest.length >= FULL_ENOUGH) return outgrown(latest, texts);
  const bytes = buildTextDictionary(latest, firstTexts(texts, TEXT_DICTIONARY_BYTES - (latest?.length ?? 0)));
  return bytes.length >= (latest ? latest.length + WORTH_A_NEW_ONE : 1) ? bytes : undefined;
}

/**
 * A new dictionary made of the first of `texts`, when `latest` no longer fits them: judged on the last
 * SAMPLE_TEXTS, which the new one is not made of. Undefined when the batch is too small to judge or `latest`
 * still does.
 */
function outgrown(latest: Buffer, texts: readonly string[]): Buffer | undefined {
  if (texts.length < SAMPLE_TEXTS * 2) return undefined;
  const sample = texts.slice(-SAMPLE_TEXTS);
  const plain = sample.reduce((sum, text) => sum + Buffer.byteLength(text, 'utf8'), 0);
  const now = sample.reduce((sum, text) => sum + compressedSize(text, latest), 0);
  if (now <= plain * STALE_SHARE) return undefined;
  const fresh = buildTextDictionary(undefined, firstTexts(texts.slice(0, -SAMPLE_TEXTS), TEXT_DICTIONARY_BYTES));
  if (fresh.length === 0) return undefined;
  const then = sample.reduce((sum, text) => sum + compressedSize(text, fresh), 0);
  return then <= now * BETTER_SHARE ? fresh : undefined;
}

/** The first of `texts` that fill `room` bytes of a dictionary. */
function firstTexts(texts: readonly string[], room: number): string[] {
  const chosen: string[] = [];
  let size = 0;
  for (const text of texts) {
    if (size >= room) break;
    chosen.push(text);
    size += Buffer.byteLength(text, 'utf8') + 1;
  }
  return chosen;
}

/** The texts of stored raw receipts of one client, in order, with the outlet dictionaries they need read in one query. */
export async function decodeRawTexts(
  db: Queryable,
  clientId: number,
  stored: readonly (Buffer | null)[],
): Promise<string[]> {
  const ids = [...new Set(stored.map(textDictionaryId).filter((id) => id !== undefined))];
  const bytes = new Map<number, Buffer>();
  if (ids.length > 0) {
    const { rows } = await db.query<{ id: number; dictionary: Buffer }>(
      'SELECT id, dictionary FROM receipt_text_dictionaries WHERE client_id = $1 AND id = ANY($2::int[])',
      [clientId, ids],
    );
    for (const row of rows) bytes.set(row.id, row.dictionary);
  }
  return stored.map((text) => decodeRawText(text, (id) => bytes.get(id)));
}
