import type { components } from '../../src/api/schema.js';
import { inTransaction, type Pool, type PoolClient, type Queryable, singleRow } from '../db/pool.js';
import { escapeLike, SqlParams } from '../db/sqlParams.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { type AuditEntry, writeAudit } from './audit.js';
import { forgetMealTiming, recountMealTimings } from './ingestion.js';
import { clientOutletCondition, type Visibility } from './lookup.js';

type Schemas = components['schemas'];

/**
 * The settings of a client (§2, §7): e-mail subscriptions, processing fees, sales targets, categories and
 * subcategories with their SKU assignments, and meal timings. Every change runs in one transaction that locks
 * the rows it changes first (so of two saves of one row the later one wins and neither is half-written) and
 * writes an audit_log row per changed row with the row before and after. The access gate has checked the
 * request's client and outlet ids; every statement still names client_id, so no other client's row is read or
 * written.
 */

/** Who makes a change: the client it is made in and the signed-in user. */
export interface Actor {
  clientId: number;
  userId: number;
}

/** The page size of the assignment dialogs' option lists (§9). */
export const NAME_OPTION_PAGE_SIZE = 20;
/** The most rows a settings list answers at once. */
const MAX_ROWS = 10_000;

const audit = (actor: Actor, entry: Omit<AuditEntry, 'clientId' | 'userId'>): AuditEntry => ({
  clientId: actor.clientId,
  userId: actor.userId,
  ...entry,
});

/* ---------------------------------------------------------------- e-mail subscriptions */

export type EmailSubscription = Schemas['EmailSubscription'];

export async function getEmailSubscription(
  db: Queryable,
  clientId: number,
  userId: number,
  email: string,
): Promise<EmailSubscription> {
  const { rows } = await db.query<{ email_subscribe: boolean; summary_email_subscribe: boolean }>(
    `SELECT email_subscribe, summary_email_subscribe FROM email_subscriptions WHERE client_id = $1 AND user_id = $2`,
    [clientId, userId],
  );
  const row = rows[0] ?? { email_subscribe: false, summary_email_subscribe: false };
  return { client_id: clientId, email, ...row };
}

export async function saveEmailSubscription(
  pool: Pool,
  actor: Actor,
  email: string,
  value: { email_subscribe: boolean; summary_email_subscribe: boolean },
): Promise<EmailSubscription> {
  type Stored = { email_subscribe: boolean; summary_email_subscribe: boolean };
  return inTransaction(pool, async (tx) => {
    const params = [actor.clientId, actor.userId, value.email_subscribe, value.summary_email_subscribe];
    const { rows: created } = await tx.query<Stored>(
      `INSERT INTO email_subscriptions (client_id, user_id, email_subscribe, summary_email_subscribe)
       VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING email_subscribe, summary_email_subscribe`,
      params,
    );
    let before: Stored | null = null;
    let after = created[0];
    if (!after) {
      const { rows: old } = await tx.query<Stored>(
        `SELECT email_subscribe, summary_email_subscribe FROM email_subscriptions
         WHERE client_id = $1 AND user_id = $2 FOR UPDATE`,
        [actor.clientId, actor.userId],
      );
      before = singleRow(old);
      const { rows } = await tx.query<Stored>(
        `UPDATE email_subscriptions SET email_subscribe = $3, summary_email_subscribe = $4
         WHERE client_id = $1 AND user_id = $2 RETURNING email_subscribe, summary_email_subscribe`,
        params,
      );
      after = singleRow(rows);
    }
    await writeAudit(tx, [
      audit(actor, {
        action: before ? 'update' : 'create',
        entity: 'email_subscription',
        entityId: actor.userId,
        before,
        after,
      }),
    ]);
    return { client_id: actor.clientId, email, ...after };
  });
}

/* ---------------------------------------------------------------- processing fees */

export type ProcessingFee = Schemas['ProcessingFee'];

/**
 * Every payment method seen at the outlets on the local days `startDay`..`endDay` (the payment rollup, methods
 * stored normalised) and every method with a stored fee, by name; the fee is 0 and isNewMethod true for a
 * method without one. Over several outlets the highest of their fees is shown.
 */
export async function listProcessingFees(
  db: Queryable,
  clientId: number,
  outletIds: number[],
  startDay: string,
  endDay: string,
): Promise<ProcessingFee[]> {
  const { rows } = await db.query<ProcessingFee>(
    `WITH seen AS (
       SELECT DISTINCT p.payment_method AS method FROM rollup_outlet_payment_daily p
       WHERE p.client_id = $1 AND p.outlet_id = ANY($2::int[]) AND p.local_day BETWEEN $3::date AND $4::date
     ), fees AS (
       SELECT pf.payment_method AS method, max(pf.processing_fees) AS fee FROM processing_fees pf
       WHERE pf.client_id = $1 AND pf.outlet_id = ANY($2::int[]) GROUP BY 1
     )
     SELECT coalesce(s.method, f.method) AS payment_method, coalesce(f.fee, 0) AS processing_fees,
       f.method IS NULL AS "isNewMethod"
     FROM seen s FULL JOIN fees f ON f.method = s.method
     ORDER BY 1 LIMIT $5`,
    [clientId, outletIds, startDay, endDay, MAX_ROWS],
  );
  return rows;
}

interface StoredFee {
  outlet_id: number;
  payment_method: string;
  processing_fees: number;
}

/**
 * Stores the fee of each method (normalised, distinct) at each outlet: a new fee or a changed one, whichever the
 * row is (two users saving one new method at once: the later save wins, the earlier one is its before).
 */
export async function saveProcessingFees(
  pool: Pool,
  actor: Actor,
  outletIds: number[],
  fees: readonly { method: string; fee: number }[],
): Promise<void> {
  const sorted = [...fees].sort((a, b) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0));
  const rows = [...outletIds].sort((a, b) => a - b).flatMap((outletId) => sorted.map((row) => ({ outletId, ...row })));
  const params = [
    actor.clientId,
    rows.map((row) => row.outletId),
    rows.map((row) => row.method),
    rows.map((row) => row.fee),
  ];
  const FEES = 'unnest($2::int[], $3::text[], $4::numeric[]) WITH ORDINALITY AS f(outlet_id, method, fee, n)';
  const RETURNED = 'outlet_id, payment_method, processing_fees';
  const key = (row: StoredFee) => `${row.outlet_id}:${row.payment_method}`;
  await inTransaction(pool, async (tx) => {
    const { rows: created } = await tx.query<StoredFee>(
      `INSERT INTO processing_fees (client_id, outlet_id, payment_method, processing_fees)
       SELECT $1, f.outlet_id, f.method, f.fee FROM ${FEES} ORDER BY f.n
       ON CONFLICT DO NOTHING RETURNING ${RETURNED}`,
      params,
    );
    const createdKeys = new Set(created.map(key));
    const { rows: locked } = await tx.query<StoredFee>(
      `SELECT ${RETURNED} FROM processing_fees t
       WHERE t.client_id = $1 AND (t.outlet_id, t.payment_method) IN (SELECT f.outlet_id, f.method FROM ${FEES})
       ORDER BY t.outlet_id, t.payment_method FOR UPDATE`,
      params,
    );
    const before = locked.filter((row) => !createdKeys.has(key(row)));
    const { rows: updated } = await tx.query<StoredFee>(
      `UPDATE processing_fees t SET processing_fees = f.fee FROM ${FEES}
       WHERE t.client_id = $1 AND t.outlet_id = f.outlet_id AND t.payment_method = f.method
       RETURNING t.outlet_id, t.payment_method, t.processing_fees`,
      params,
    );
    const old = new Map(before.map((row) => [key(row), row]));
    const after = updated.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    await writeAudit(
      tx,
      after.map((row) =>
        audit(actor, {
          action: old.has(key(row)) ? 'update' : 'create',
          entity: 'processing_fee',
          entityId: key(row),
          before: old.get(key(row)) ?? null,
          after: row,
        }),
      ),
    );
  });
}

/* ---------------------------------------------------------------- sales targets */

export type SalesTarget = Schemas['SalesTarget'];

/** The first day of the month of a day 'YYYY-MM-DD'. */
export const monthOf = (day: string): string => `${day.slice(0, 7)}-01`;

/** Every outlet of the client the caller sees, by name, with its target of the month (null when unset). */
export async function listSalesTargets(
  db: Queryable,
  visibility: Visibility,
  clientId: number,
  month: string,
): Promise<SalesTarget[]> {
  const p = new SqlParams(clientId, month);
  const { rows } = await db.query<SalesTarget>(
    `SELECT o.id AS outlet_id, o.name, t.target FROM outlets o
     LEFT JOIN sales_targets t ON t.client_id = o.client_id AND t.outlet_id = o.id AND t.month = $2::date
     WHERE o.client_id = $1 AND ${clientOutletCondition(p, visibility, clientId)}
     ORDER BY lower(o.name), o.id LIMIT ${p.add(MAX_ROWS)}`,
    p.values,
  );
  return rows;
}

interface StoredTarget {
  outlet_id: number;
  month: string;
  target: number;
}

/** Sets the month's target (2 decimals) of each outlet (distinct outlets of the client). */
export async function saveSalesTargets(
  pool: Pool,
  actor: Actor,
  month: string,
  targets: readonly { outlet_id: number; target: number }[],
): Promise<void> {
  const sorted = [...targets].sort((a, b) => a.outlet_id - b.outlet_id);
  const params = [actor.clientId, month, sorted.map((row) => row.outlet_id), sorted.map((row) => row.target)];
  const TARGETS = 'unnest($3::int[], $4::numeric[]) AS t(outlet_id, target)';
  const RETURNED = `outlet_id, to_char(month, 'YYYY-MM-DD') AS month, target`;
  await inTransaction(pool, async (tx) => {
    const { rows: created } = await tx.query<StoredTarget>(
      `INSERT INTO sales_targets (client_id, outlet_id, month, target)
       SELECT $1, t.outlet_id, $2::date, round(t.target, 2) FROM ${TARGETS} ORDER BY t.outlet_id
       ON CONFLICT DO NOTHING RETURNING ${RETURNED}`,
      params,
    );
    const createdIds = new Set(created.map((row) => row.outlet_id));
    const { rows: locked } = await tx.query<StoredTarget>(
      `SELECT ${RETURNED} FROM sales_targets
       WHERE client_id = $1 AND month = $2::date AND outlet_id = ANY($3::int[]) ORDER BY outlet_id FOR UPDATE`,
      params.slice(0, 3),
    );
    const old = new Map(locked.filter((row) => !createdIds.has(row.outlet_id)).map((row) => [row.outlet_id, row]));
    const { rows: updated } = await tx.query<StoredTarget>(
      `UPDATE sales_targets s SET target = round(t.target, 2) FROM ${TARGETS}
       WHERE s.client_id = $1 AND s.month = $2::date AND s.outlet_id = t.outlet_id
       RETURNING s.outlet_id, to_char(s.month, 'YYYY-MM-DD') AS month, s.target`,
      params,
    );
    await writeAudit(
      tx,
      updated
        .sort((a, b) => a.outlet_id - b.outlet_id)
        .map((row) =>
          audit(actor, {
            action: old.has(row.outlet_id) ? 'update' : 'create',
            entity: 'sales_target',
            entityId: `${row.outlet_id}:${row.month}`,
            before: old.get(row.outlet_id) ?? null,
            after: row,
          }),
        ),
    );
  });
}

/* ---------------------------------------------------------------- categories and subcategories */

export type Category = Schemas['Category'];
export type Subcategory = Schemas['Subcategory'];

export interface Paging {
  page: number;
  rowsPerPage: number;
}

export async function listCategories(
  db: Queryable,
  clientId: number,
  paging: Paging,
): Promise<{ data: Category[]; total: number }> {
  const { rows } = await db.query<Category>(
    `SELECT id, name FROM categories WHERE client_id = $1 ORDER BY lower(name), id LIMIT $2 OFFSET $3`,
    [clientId, paging.rowsPerPage, (paging.page - 1) * paging.rowsPerPage],
  );
  const { rows: count } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM categories WHERE client_id = $1',
    [clientId],
  );
  return { data: rows, total: singleRow(count).n };
}

export async function listSubcategories(
  db: Queryable,
  clientId: number,
  paging: Paging,
): Promise<{ data: Subcategory[]; total: number }> {
  const { rows } = await db.query<Subcategory>(
    `SELECT id, name, category_id FROM subcategories WHERE client_id = $1 ORDER BY lower(name), id LIMIT $2 OFFSET $3`,
    [clientId, paging.rowsPerPage, (paging.page - 1) * paging.rowsPerPage],
  );
  const { rows: count } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM subcategories WHERE client_id = $1',
    [clientId],
  );
  return { data: rows, total: singleRow(count).n };
}

/** PostgreSQL's unique_violation: two saves of one name at once, the other committed first. */
const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';

/** The kind of a catalogue node, as the table it lives in and the word a message uses. */
const KIND = {
  category: { table: 'categories', word: 'category' },
  subcategory: { table: 'subcategories', word: 'subcategory' },
} as const;
export type CatalogueKind = keyof typeof KIND;

/**
 * Adds a category or subcategory; a name the client already has for one of that kind (whatever its case) is a
 * 400 naming the field.
 */
export async function createCatalogueNode(
  pool: Pool,
  actor: Actor,
  kind: CatalogueKind,
  name: string,
): Promise<Category> {
  const { table, word } = KIND[kind];
  return inTransaction(pool, async (tx) => {
    const duplicate = () => badRequest(`name: a ${word} named "${name}" already exists.`);
    const { rows } = await tx
      .query<Category>(
        `INSERT INTO ${table} (client_id, name) VALUES ($1, $2)
         ON CONFLICT (client_id, lower(name)) DO NOTHING RETURNING id, name`,
        [actor.clientId, name],
      )
      .catch((error: unknown) => {
        throw isUniqueViolation(error) ? duplicate() : error;
      });
    const created = rows[0];
    if (!created) throw duplicate();
    await writeAudit(tx, [
      audit(actor, {
        action: 'create',
        entity: word,
        entityId: created.id,
        before: null,
        after: kind === 'subcategory' ? { ...created, category_id: null } : created,
      }),
    ]);
    return created;
  });
}

/**
 * Deletes a category (its subcategories become unassigned) or a subcategory (its SKUs become unassigned).
 * False when the client has no such row.
 */
export async function deleteCatalogueNode(pool: Pool, actor: Actor, kind: CatalogueKind, id: number): Promise<boolean> {
  return inTransaction(pool, async (tx) => {
    const { table, word } = KIND[kind];
    const { rows } = await tx.query<Record<string, unknown>>(
      `SELECT * FROM ${table} WHERE client_id = $1 AND id = $2 FOR UPDATE`,
      [actor.clientId, id],
    );
    const row = rows[0];
    if (!row) return false;
    const children =
      kind === 'category'
        ? await tx.query<{ id: number }>(
            'SELECT id FROM subcategories WHERE client_id = $1 AND category_id = $2 ORDER BY id FOR UPDATE',
            [actor.clientId, id],
          )
        : await tx.query<{ id: number }>(
            'SELECT id FROM skus WHERE client_id = $1 AND subcategory_id = $2 ORDER BY id FOR UPDATE',
            [actor.clientId, id],
          );
    await tx.query(`DELETE FROM ${table} WHERE client_id = $1 AND id = $2`, [actor.clientId, id]);
    const { client_id: _client, ...before } = row;
    const unassigned = children.rows.map((child) => child.id);
    await writeAudit(tx, [
      audit(actor, {
        action: 'delete',
        entity: word,
        entityId: id,
        before: { ...before, [kind === 'category' ? 'subcategory_ids' : 'sku_ids']: unassigned },
        after: null,
      }),
    ]);
    return true;
  });
}

/** 400 unless the client has the category or subcategory `id` (locked against deletion until the commit). */
async function requireNode(tx: Queryable, clientId: number, kind: CatalogueKind, id: number, field: string) {
  const { table, word } = KIND[kind];
  const { rows } = await tx.query(`SELECT 1 FROM ${table} WHERE client_id = $1 AND id = $2 FOR SHARE`, [clientId, id]);
  if (rows.length === 0) throw badRequest(`${field}: there is no ${word} ${id} in this client.`);
}

const listIds = (ids: readonly number[]) => ids.join(', ');

/** Assigns subcategories of the client to a category of the client (null: unassigns them); the rows changed. */
export async function assignSubcategories(
  pool: Pool,
  actor: Actor,
  categoryId: number | null,
  subcategoryIds: readonly number[],
): Promise<number> {
  const ids = [...new Set(subcategoryIds)].sort((a, b) => a - b);
  return inTransaction(pool, async (tx) => {
    if (categoryId !== null) await requireNode(tx, actor.clientId, 'category', categoryId, 'category_id');
    const { rows: before } = await tx.query<{ id: number; category_id: number | null }>(
      `SELECT id, category_id FROM subcategories WHERE client_id = $1 AND id = ANY($2::int[]) ORDER BY id FOR UPDATE`,
      [actor.clientId, ids],
    );
    const missing = ids.filter((id) => !before.some((row) => row.id === id));
    if (missing.length > 0) {
      throw badRequest(
        `subcategory_ids: ${listIds(missing)} ${missing.length === 1 ? 'is not a subcategory' : 'are not subcategories'} of this client.`,
      );
    }
    const changed = before.filter((row) => row.category_id !== categoryId);
    if (changed.length === 0) return 0;
    await tx.query('UPDATE subcategories SET category_id = $3 WHERE client_id = $1 AND id = ANY($2::int[])', [
      actor.clientId,
      changed.map((row) => row.id),
      categoryId,
    ]);
    await writeAudit(
      tx,
      changed.map((row) =>
        audit(actor, {
          action: 'assign',
          entity: 'subcategory',
          entityId: row.id,
          before: { category_id: row.category_id },
          after: { category_id: categoryId },
        }),
      ),
    );
    return changed.length;
  });
}

/** Assigns SKUs of the client, at outlets the caller sees, to a subcategory (null: unassigns them). */
export async function assignSkus(
  pool: Pool,
  actor: Actor,
  visibility: Visibility,
  subcategoryId: number | null,
  skuIds: readonly number[],
): Promise<number> {
  const ids = [...new Set(skuIds)].sort((a, b) => a - b);
  return inTransaction(pool, async (tx) => {
    if (subcategoryId !== null) await requireNode(tx, actor.clientId, 'subcategory', subcategoryId, 'subcategory_id');
    const { rows: before } = await tx.query<{ id: number; outlet_id: number; subcategory_id: number | null }>(
      `SELECT id, outlet_id, subcategory_id FROM skus WHERE client_id = $1 AND id = ANY($2::int[])
       ORDER BY id FOR UPDATE`,
      [actor.clientId, ids],
    );
    const missing = ids.filter((id) => !before.some((row) => row.id === id));
    if (missing.length > 0) {
      throw badRequest(
        `sku_ids: ${listIds(missing)} ${missing.length === 1 ? 'is not an SKU' : 'are not SKUs'} of this client.`,
      );
    }
    const limit = visibility.outletLimits.get(actor.clientId);
    if (limit && before.some((row) => !limit.includes(row.outlet_id))) {
      throw forbidden('You do not have access to this data.');
    }
    const changed = before.filter((row) => row.subcategory_id !== subcategoryId);
    if (changed.length === 0) return 0;
    await tx.query('UPDATE skus SET subcategory_id = $3 WHERE client_id = $1 AND id = ANY($2::int[])', [
      actor.clientId,
      changed.map((row) => row.id),
      subcategoryId,
    ]);
    await writeAudit(
      tx,
      changed.map((row) =>
        audit(actor, {
          action: 'assign',
          entity: 'sku',
          entityId: row.id,
          before: { subcategory_id: row.subcategory_id },
          after: { subcategory_id: subcategoryId },
        }),
      ),
    );
    return changed.length;
  });
}

export type AssignableOptions = Schemas['AssignableOptionsResponse'];

const searchPattern = (text: string | undefined) => `%${escapeLike(text ?? '')}%`;

/**
 * A page of 20 subcategory names of the client (matching `searchedText`, case-insensitive, by name) and the ids
 * of every subcategory assigned to the category.
 */
export async function subcategoryNameOptions(
  db: Queryable,
  clientId: number,
  categoryId: number,
  searchedText: string | undefined,
  page: number,
): Promise<AssignableOptions> {
  await requireNode(db, clientId, 'category', categoryId, 'category_id');
  const { rows } = await db.query<Schemas['NameOption']>(
    `SELECT id, name FROM subcategories WHERE client_id = $1 AND name ILIKE $2
     ORDER BY lower(name), id LIMIT $3 OFFSET $4`,
    [clientId, searchPattern(searchedText), NAME_OPTION_PAGE_SIZE, (page - 1) * NAME_OPTION_PAGE_SIZE],
  );
  const { rows: assigned } = await db.query<{ id: number }>(
    'SELECT id FROM subcategories WHERE client_id = $1 AND category_id = $2 ORDER BY id LIMIT $3',
    [clientId, categoryId, MAX_ROWS],
  );
  return { data: rows, assignedIds: assigned.map((row) => row.id) };
}

/**
 * A page of 20 SKU names of the client's outlets the caller sees (matching `searchedText` in the name or the
 * barcode, case-insensitive, by name) and the ids of those SKUs assigned to the subcategory.
 */
export async function skuNameOptions(
  db: Queryable,
  visibility: Visibility,
  clientId: number,
  subcategoryId: number,
  searchedText: string | undefined,
  page: number,
): Promise<AssignableOptions> {
  await requireNode(db, clientId, 'subcategory', subcategoryId, 'subcategory_id');
  const p = new SqlParams(clientId);
  const visible = `EXISTS (SELECT 1 FROM outlets o WHERE o.client_id = s.client_id AND o.id = s.outlet_id
    AND ${clientOutletCondition(p, visibility, clientId)})`;
  const pattern = p.add(searchPattern(searchedText));
  const { rows } = await db.query<Schemas['NameOption']>(
    `SELECT s.id, s.item_name AS name FROM skus s
     WHERE s.client_id = $1 AND ${visible} AND (s.item_name ILIKE ${pattern} OR s.barcode ILIKE ${pattern})
     ORDER BY lower(s.item_name), s.id LIMIT ${p.add(NAME_OPTION_PAGE_SIZE)}
     OFFSET ${p.add((page - 1) * NAME_OPTION_PAGE_SIZE)}`,
    p.values,
  );
  const q = new SqlParams(clientId, subcategoryId);
  const { rows: assigned } = await db.query<{ id: number }>(
    `SELECT s.id FROM skus s WHERE s.client_id = $1 AND s.subcategory_id = $2
       AND EXISTS (SELECT 1 FROM outlets o WHERE o.client_id = s.client_id AND o.id = s.outlet_id
                   AND ${clientOutletCondition(q, visibility, clientId)})
     ORDER BY s.id LIMIT ${q.add(MAX_ROWS)}`,
    q.values,
  );
  return { data: rows, assignedIds: assigned.map((row) => row.id) };
}

/* ---------------------------------------------------------------- meal timings */

export type MealTiming = Schemas['MealTiming'];

interface StoredTiming {
  id: number;
  name: string;
  /** HH:MM:SS */
  start_time: string;
  /** HH:MM:SS */
  end_time: string;
}

const TIMING_COLUMNS = `id, name, to_char(start_time, 'HH24:MI:SS') AS start_time,
  to_char(end_time, 'HH24:MI:SS') AS end_time`;

function shapeTiming(clientId: number, outletId: number, row: StoredTiming): MealTiming {
  return {
    id: row.id,
    outlet_id: outletId,
    client_id: clientId,
    meal_timing: { name: row.name, start_time: row.start_time.slice(0, 5), end_time: row.end_time.slice(0, 5) },
  };
}

async function storedTimings(db: Queryable, clientId: number, outletId: number): Promise<StoredTiming[]> {
  const { rows } = await db.query<StoredTiming>(
    `SELECT ${TIMING_COLUMNS} FROM meal_timings WHERE client_id = $1 AND outlet_id = $2 ORDER BY start_time, id`,
    [clientId, outletId],
  );
  return rows;
}

/** The outlet's meal timings in start-time order. */
export async function listMealTimings(db: Queryable, clientId: number, outletId: number): Promise<MealTiming[]> {
  return (await storedTimings(db, clientId, outletId)).map((row) => shapeTiming(clientId, outletId, row));
}

/** Locks the outlet's row: its meal timings are checked and written by one transaction at a time. */
async function lockOutlet(tx: PoolClient, clientId: number, outletId: number): Promise<void> {
  const { rows } = await tx.query('SELECT 1 FROM outlets WHERE client_id = $1 AND id = $2 FOR UPDATE', [
    clientId,
    outletId,
  ]);
  if (rows.length === 0) throw notFound('No such outlet.');
}

const overlaps = (a: StoredTiming, b: StoredTiming) => a.start_time < b.end_time && b.start_time < a.end_time;
const hhmm = (time: string) => time.slice(0, 5);
const timingText = (row: StoredTiming) => `${row.name} (${hhmm(row.start_time)}-${hhmm(row.end_time)})`;

/**
 * Adds a meal timing with a name the outlet has not used ('Meal n') in the first whole hour of the day that no
 * other timing of the outlet overlaps (23:00-23:59 for the last); a 400 when every hour is taken.
 */
export async function createMealTiming(pool: Pool, actor: Actor, outletId: number): Promise<MealTiming> {
  return inTransaction(pool, async (tx) => {
    await lockOutlet(tx, actor.clientId, outletId);
    const existing = await storedTimings(tx, actor.clientId, outletId);
    let slot: StoredTiming | undefined;
    for (let hour = 0; hour < 24 && !slot; hour++) {
      const candidate = {
        id: 0,
        name: '',
        start_time: `${String(hour).padStart(2, '0')}:00:00`,
        end_time: hour === 23 ? '23:59:00' : `${String(hour + 1).padStart(2, '0')}:00:00`,
      };
      if (!existing.some((row) => overlaps(row, candidate))) slot = candidate;
    }
    if (!slot) throw badRequest('outlet_id: every hour of the day already has a meal timing at this outlet.');
    const names = new Set(existing.map((row) => row.name.toLowerCase()));
    let n = existing.length + 1;
    while (names.has(`meal ${n}`)) n++;
    const { rows } = await tx.query<StoredTiming>(
      `INSERT INTO meal_timings (client_id, outlet_id, name, start_time, end_time) VALUES ($1, $2, $3, $4, $5)
       RETURNING ${TIMING_COLUMNS}`,
      [actor.clientId, outletId, `Meal ${n}`, slot.start_time, slot.end_time],
    );
    const created = singleRow(rows);
    await recountMealTimings(tx, actor.clientId, outletId, [created.id]);
    const shaped = shapeTiming(actor.clientId, outletId, created);
    await writeAudit(tx, [
      audit(actor, { action: 'create', entity: 'meal_timing', entityId: created.id, before: null, after: shaped }),
    ]);
    return shaped;
  });
}

export interface TimingChange {
  id: number;
  name: string;
  /** HH:mm */
  start_time: string;
  /** HH:mm */
  end_time: string;
}

/**
 * Renames and retimes meal timings of the outlet. Each id must be a timing of the outlet and given once, each
 * timing must start before it ends, and no two timings of the outlet may overlap afterwards (touching is
 * allowed): else a 400 naming the field. Answers every timing of the outlet after the change.
 */
export async function updateMealTimings(
  pool: Pool,
  actor: Actor,
  outletId: number,
  changes: readonly TimingChange[],
): Promise<MealTiming[]> {
  return inTransaction(pool, async (tx) => {
    await lockOutlet(tx, actor.clientId, outletId);
    const existing = await storedTimings(tx, actor.clientId, outletId);
    const byId = new Map(existing.map((row) => [row.id, row]));
    const next = new Map(byId);
    const fieldOf = new Map<number, number>();
    changes.forEach((change, index) => {
      const field = `meal_timing[${index}]`;
      if (!byId.has(change.id)) throw badRequest(`${field}.id: ${change.id} is not a meal timing of this outlet.`);
      if (fieldOf.has(change.id)) throw badRequest(`${field}.id: meal timing ${change.id} is given twice.`);
      const name = change.name.trim();
      if (name === '') throw badRequest(`${field}.name: must not be blank.`);
      if (change.start_time >= change.end_time) {
        throw badRequest(`${field}.end_time: must be after start_time (${change.start_time}).`);
      }
      fieldOf.set(change.id, index);
      next.set(change.id, {
        id: change.id,
        name,
        start_time: `${change.start_time}:00`,
        end_time: `${change.end_time}:00`,
      });
    });
    const rows = [...next.values()];
    for (const [id, index] of fieldOf) {
      const row = next.get(id);
      const other = rows.find((candidate) => row && candidate.id !== id && overlaps(row, candidate));
      if (row && other) {
        throw badRequest(`meal_timing[${index}].start_time: ${timingText(row)} overlaps ${timingText(other)}.`);
      }
    }
    const changed = [...fieldOf.keys()]
      .map((id) => ({ before: byId.get(id), after: next.get(id) }))
      .filter(
        (pair): pair is { before: StoredTiming; after: StoredTiming } =>
          pair.before !== undefined &&
          pair.after !== undefined &&
          (pair.before.name !== pair.after.name ||
            pair.before.start_time !== pair.after.start_time ||
            pair.before.end_time !== pair.after.end_time),
      );
    if (changed.length > 0) {
      const afters = changed.map((pair) => pair.after);
      await tx.query(
        `UPDATE meal_timings m SET name = c.name, start_time = c.start_time::time, end_time = c.end_time::time
         FROM unnest($3::int[], $4::text[], $5::text[], $6::text[]) AS c(id, name, start_time, end_time)
         WHERE m.client_id = $1 AND m.outlet_id = $2 AND m.id = c.id`,
        [
          actor.clientId,
          outletId,
          afters.map((row) => row.id),
          afters.map((row) => row.name),
          afters.map((row) => row.start_time),
          afters.map((row) => row.end_time),
        ],
      );
      const retimed = changed.filter(
        (pair) => pair.before.start_time !== pair.after.start_time || pair.before.end_time !== pair.after.end_time,
      );
      await recountMealTimings(
        tx,
        actor.clientId,
        outletId,
        retimed.map((pair) => pair.after.id),
      );
      await writeAudit(
        tx,
        changed.map((pair) =>
          audit(actor, {
            action: 'update',
            entity: 'meal_timing',
            entityId: pair.after.id,
            before: shapeTiming(actor.clientId, outletId, pair.before),
            after: shapeTiming(actor.clientId, outletId, pair.after),
          }),
        ),
      );
    }
    return (await storedTimings(tx, actor.clientId, outletId)).map((row) => shapeTiming(actor.clientId, outletId, row));
  });
}

/** Deletes one meal timing of the outlet; false when the outlet has no such timing. */
export async function deleteMealTiming(pool: Pool, actor: Actor, outletId: number, id: number): Promise<boolean> {
  return inTransaction(pool, async (tx) => {
    await lockOutlet(tx, actor.clientId, outletId);
    const { rows } = await tx.query<StoredTiming>(
      `DELETE FROM meal_timings WHERE client_id = $1 AND outlet_id = $2 AND id = $3 RETURNING ${TIMING_COLUMNS}`,
      [actor.clientId, outletId, id],
    );
    const deleted = rows[0];
    if (!deleted) return false;
    await forgetMealTiming(tx, actor.clientId, outletId, id);
    await writeAudit(tx, [
      audit(actor, {
        action: 'delete',
        entity: 'meal_timing',
        entityId: id,
        before: shapeTiming(actor.clientId, outletId, deleted),
        after: null,
      }),
    ]);
    return true;
  });
}
