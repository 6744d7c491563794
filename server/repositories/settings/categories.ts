import type { components } from '../../../src/api/schema.js';
import { inTransaction, type Pool, type Queryable, singleRow } from '../../db/pool.js';
import { writeAudit } from '../audit.js';
import { ok, type Refusal, type Result, refuse } from '../domainError.js';
import { type Actor, auditBy } from './actor.js';

type Schemas = components['schemas'];

/** Categories and their subcategories (§7): lists a page at a time, added by name, deleted. */

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
 * Adds a category or subcategory; a name the client already has for one of that kind (whatever its case) is
 * refused, naming the field.
 */
export async function createCatalogueNode(
  pool: Pool,
  actor: Actor,
  kind: CatalogueKind,
  name: string,
): Promise<Result<Category>> {
  const { table, word } = KIND[kind];
  const duplicate = refuse('invalid', `a ${word} named "${name}" already exists.`, 'name');
  try {
    return await inTransaction(pool, async (tx): Promise<Result<Category>> => {
      const { rows } = await tx.query<Category>(
        `INSERT INTO ${table} (client_id, name) VALUES ($1, $2)
         ON CONFLICT (client_id, lower(name)) DO NOTHING RETURNING id, name`,
        [actor.clientId, name],
      );
      const created = rows[0];
      if (!created) return duplicate;
      await writeAudit(tx, [
        auditBy(actor, {
          action: 'create',
          entity: word,
          entityId: created.id,
          before: null,
          after: kind === 'subcategory' ? { ...created, category_id: null } : created,
        }),
      ]);
      return ok(created);
    });
  } catch (error) {
    if (isUniqueViolation(error)) return duplicate;
    throw error;
  }
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
      auditBy(actor, {
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

/**
 * Why the client has no category or subcategory `id` (named by the request's `field`), or undefined when it has
 * it: then the row is locked against deletion until the commit.
 */
export async function missingCatalogueNode(
  tx: Queryable,
  clientId: number,
  kind: CatalogueKind,
  id: number,
  field: string,
): Promise<Refusal | undefined> {
  const { table, word } = KIND[kind];
  const { rows } = await tx.query(`SELECT 1 FROM ${table} WHERE client_id = $1 AND id = $2 FOR SHARE`, [clientId, id]);
  return rows.length === 0 ? refuse('invalid', `there is no ${word} ${id} in this client.`, field) : undefined;
}
