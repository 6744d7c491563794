import type { components } from '../../../src/api/schema.js';
import { inTransaction, type Pool, type Queryable } from '../../db/pool.js';
import { escapeLike, SqlParams } from '../../db/sqlParams.js';
import { writeAudit } from '../audit.js';
import { ok, type Result, refuse } from '../domainError.js';
import { clientOutletCondition, type Visibility } from '../lookup.js';
import { type Actor, auditBy, MAX_SETTINGS_ROWS } from './actor.js';
import { missingCatalogueNode } from './categories.js';

type Schemas = components['schemas'];

/**
 * The catalogue's assignments (§7): subcategories to a category, SKUs to a subcategory, and the option lists of
 * the dialogs that make them (20 names a page, §9).
 */

/** The page size of the assignment dialogs' option lists (§9). */
export const NAME_OPTION_PAGE_SIZE = 20;

const listIds = (ids: readonly number[]) => ids.join(', ');

/**
 * Assigns subcategories of the client to a category of the client (null: unassigns them); the rows changed. A
 * category or subcategory the client does not have is refused, naming the field.
 */
export async function assignSubcategories(
  pool: Pool,
  actor: Actor,
  categoryId: number | null,
  subcategoryIds: readonly number[],
): Promise<Result<number>> {
  const ids = [...new Set(subcategoryIds)].sort((a, b) => a - b);
  return inTransaction(pool, async (tx): Promise<Result<number>> => {
    if (categoryId !== null) {
      const missing = await missingCatalogueNode(tx, actor.clientId, 'category', categoryId, 'category_id');
      if (missing) return missing;
    }
    const { rows: before } = await tx.query<{ id: number; category_id: number | null }>(
      `SELECT id, category_id FROM subcategories WHERE client_id = $1 AND id = ANY($2::int[]) ORDER BY id FOR UPDATE`,
      [actor.clientId, ids],
    );
    const missing = ids.filter((id) => !before.some((row) => row.id === id));
    if (missing.length > 0) {
      return refuse(
        'invalid',
        `${listIds(missing)} ${missing.length === 1 ? 'is not a subcategory' : 'are not subcategories'} of this client.`,
        'subcategory_ids',
      );
    }
    const changed = before.filter((row) => row.category_id !== categoryId);
    if (changed.length === 0) return ok(0);
    await tx.query('UPDATE subcategories SET category_id = $3 WHERE client_id = $1 AND id = ANY($2::int[])', [
      actor.clientId,
      changed.map((row) => row.id),
      categoryId,
    ]);
    await writeAudit(
      tx,
      changed.map((row) =>
        auditBy(actor, {
          action: 'assign',
          entity: 'subcategory',
          entityId: row.id,
          before: { category_id: row.category_id },
          after: { category_id: categoryId },
        }),
      ),
    );
    return ok(changed.length);
  });
}

/**
 * Assigns SKUs of the client, at outlets the caller sees, to a subcategory (null: unassigns them); the rows
 * changed. A subcategory or SKU the client does not have is refused naming the field, an SKU of an outlet the
 * caller does not see is forbidden.
 */
export async function assignSkus(
  pool: Pool,
  actor: Actor,
  visibility: Visibility,
  subcategoryId: number | null,
  skuIds: readonly number[],
): Promise<Result<number>> {
  const ids = [...new Set(skuIds)].sort((a, b) => a - b);
  return inTransaction(pool, async (tx): Promise<Result<number>> => {
    if (subcategoryId !== null) {
      const missing = await missingCatalogueNode(tx, actor.clientId, 'subcategory', subcategoryId, 'subcategory_id');
      if (missing) return missing;
    }
    const { rows: before } = await tx.query<{ id: number; outlet_id: number; subcategory_id: number | null }>(
      `SELECT id, outlet_id, subcategory_id FROM skus WHERE client_id = $1 AND id = ANY($2::int[])
       ORDER BY id FOR UPDATE`,
      [actor.clientId, ids],
    );
    const missing = ids.filter((id) => !before.some((row) => row.id === id));
    if (missing.length > 0) {
      return refuse(
        'invalid',
        `${listIds(missing)} ${missing.length === 1 ? 'is not an SKU' : 'are not SKUs'} of this client.`,
        'sku_ids',
      );
    }
    const limit = visibility.outletLimits.get(actor.clientId);
    if (limit && before.some((row) => !limit.includes(row.outlet_id))) {
      return refuse('forbidden', 'You do not have access to this data.');
    }
    const changed = before.filter((row) => row.subcategory_id !== subcategoryId);
    if (changed.length === 0) return ok(0);
    await tx.query('UPDATE skus SET subcategory_id = $3 WHERE client_id = $1 AND id = ANY($2::int[])', [
      actor.clientId,
      changed.map((row) => row.id),
      subcategoryId,
    ]);
    await writeAudit(
      tx,
      changed.map((row) =>
        auditBy(actor, {
          action: 'assign',
          entity: 'sku',
          entityId: row.id,
          before: { subcategory_id: row.subcategory_id },
          after: { subcategory_id: subcategoryId },
        }),
      ),
    );
    return ok(changed.length);
  });
}

export type AssignableOptions = Schemas['AssignableOptionsResponse'];

const searchPattern = (text: string | undefined) => `%${escapeLike(text ?? '')}%`;

/**
 * A page of 20 subcategory names of the client (matching `searchedText`, case-insensitive, by name) and the ids
 * of every subcategory assigned to the category (refused, naming the field, when the client has no such category).
 */
export async function subcategoryNameOptions(
  db: Queryable,
  clientId: number,
  categoryId: number,
  searchedText: string | undefined,
  page: number,
): Promise<Result<AssignableOptions>> {
  const missing = await missingCatalogueNode(db, clientId, 'category', categoryId, 'category_id');
  if (missing) return missing;
  const { rows } = await db.query<Schemas['NameOption']>(
    `SELECT id, name FROM subcategories WHERE client_id = $1 AND name ILIKE $2
     ORDER BY lower(name), id LIMIT $3 OFFSET $4`,
    [clientId, searchPattern(searchedText), NAME_OPTION_PAGE_SIZE, (page - 1) * NAME_OPTION_PAGE_SIZE],
  );
  const { rows: assigned } = await db.query<{ id: number }>(
    'SELECT id FROM subcategories WHERE client_id = $1 AND category_id = $2 ORDER BY id LIMIT $3',
    [clientId, categoryId, MAX_SETTINGS_ROWS],
  );
  return ok({ data: rows, assignedIds: assigned.map((row) => row.id) });
}

/**
 * A page of 20 SKU names of the client's outlets the caller sees (matching `searchedText` in the name or the
 * barcode, case-insensitive, by name) and the ids of those SKUs assigned to the subcategory (refused, naming the
 * field, when the client has no such subcategory).
 */
export async function skuNameOptions(
  db: Queryable,
  visibility: Visibility,
  clientId: number,
  subcategoryId: number,
  searchedText: string | undefined,
  page: number,
): Promise<Result<AssignableOptions>> {
  const missing = await missingCatalogueNode(db, clientId, 'subcategory', subcategoryId, 'subcategory_id');
  if (missing) return missing;
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
     ORDER BY s.id LIMIT ${q.add(MAX_SETTINGS_ROWS)}`,
    q.values,
  );
  return ok({ data: rows, assignedIds: assigned.map((row) => row.id) });
}
