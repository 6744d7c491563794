import { createHash, randomBytes } from 'node:crypto';
import type { components, operations } from '../../src/api/schema.js';
import { inTransaction, type Pool, type Queryable } from '../db/pool.js';
import { escapeLike, SqlParams } from '../db/sqlParams.js';
import { writeAudit } from './audit.js';
import { clientOutletCondition, type Visibility } from './lookup.js';

/**
 * Device keys: how an outlet's point-of-sale capture device authenticates to POST /api/ingest/receipts. A key is
 * 32 random bytes, base64url, after the prefix `pos_`; only its SHA-256 is stored (migration 019), with its first
 * characters for display. A key opens ingestion for its one outlet until it is revoked.
 */

export const DEVICE_KEY_PREFIX = 'pos_';
/** The characters of a key kept in clear, so that staff can tell keys apart in the list. */
const SHOWN_CHARACTERS = 12;

export function newDeviceKey(): string {
  return `${DEVICE_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function deviceKeyHash(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** The device behind a valid, unrevoked key. */
export interface DeviceIdentity {
  keyId: number;
  clientId: number;
  outletId: number;
}

/** A key as issued: its row, and the key itself, which is never stored and shown once. */
export interface IssuedDeviceKey {
  id: number;
  key: string;
  keyPrefix: string;
}

export async function createDeviceKey(
  db: Queryable,
  input: { clientId: number; outletId: number; name: string; createdBy: number | null },
): Promise<IssuedDeviceKey> {
  const key = newDeviceKey();
  const keyPrefix = key.slice(0, SHOWN_CHARACTERS);
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO device_keys (client_id, outlet_id, name, key_hash, key_prefix, created_by)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [input.clientId, input.outletId, input.name, deviceKeyHash(key), keyPrefix, input.createdBy],
  );
  const [row] = rows;
  if (!row) throw new Error('createDeviceKey: no row');
  return { id: row.id, key, keyPrefix };
}

/** Revokes a key of the client; false when there is no such unrevoked key. */
export async function revokeDeviceKey(
  db: Queryable,
  input: { clientId: number; keyId: number; revokedBy: number | null },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE device_keys SET revoked_at = now(), revoked_by = $3
     WHERE client_id = $1 AND id = $2 AND revoked_at IS NULL`,
    [input.clientId, input.keyId, input.revokedBy],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * The device of a key, when the key is known and not revoked. The time it was last used is kept to the minute
 * (a write a minute at most, not one a batch).
 */
export async function findDeviceByKey(db: Queryable, key: string): Promise<DeviceIdentity | undefined> {
  if (!key.startsWith(DEVICE_KEY_PREFIX) || key.length > 100) return undefined;
  const { rows } = await db.query<DeviceIdentity & { stale: boolean }>(
    `SELECT id AS "keyId", client_id AS "clientId", outlet_id AS "outletId",
       last_used_at IS NULL OR last_used_at < now() - interval '1 minute' AS stale
     FROM device_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
    [deviceKeyHash(key)],
  );
  const [row] = rows;
  if (!row) return undefined;
  if (row.stale) {
    await db.query('UPDATE device_keys SET last_used_at = now() WHERE client_id = $1 AND id = $2', [
      row.clientId,
      row.keyId,
    ]);
  }
  return { keyId: row.keyId, clientId: row.clientId, outletId: row.outletId };
}

/* ---------------------------------------------------------------- the staff's management of keys (Settings) */

export type DeviceKeyRow = components['schemas']['DeviceKey'];
type DeviceKeysQuery = NonNullable<operations['getDeviceKeys']['parameters']['query']>;
export type DeviceKeySortColumn = NonNullable<DeviceKeysQuery['sortColumn']>;
export type DeviceKeyPage = operations['getDeviceKeys']['responses']['200']['content']['application/json'];

/** The sort columns of the contract, as SQL: names and e-mails case-insensitive, prefixes byte by byte. */
const SORT_SQL: Record<DeviceKeySortColumn, string> = {
  name: 'lower(k.name)',
  outlet_name: 'lower(o.name)',
  key_prefix: 'k.key_prefix COLLATE "C"',
  created_at: 'k.created_at',
  created_by: 'lower(cu.email)',
  last_used_at: 'k.last_used_at',
  revoked_at: 'k.revoked_at',
  revoked_by: 'lower(ru.email)',
};

/** A key with its outlet and the e-mails of who created and revoked it. */
const ROW_FROM = `FROM device_keys k
  JOIN outlets o ON o.client_id = k.client_id AND o.id = k.outlet_id
  LEFT JOIN users cu ON cu.id = k.created_by
  LEFT JOIN users ru ON ru.id = k.revoked_by`;

const ROW_COLUMNS = `k.id, k.name, k.outlet_id, o.name AS outlet_name, k.key_prefix, k.created_at,
  cu.email AS created_by, k.last_used_at, k.revoked_at, ru.email AS revoked_by`;

interface StoredRow {
  id: number;
  name: string;
  outlet_id: number;
  outlet_name: string;
  key_prefix: string;
  created_at: Date;
  created_by: string | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
  revoked_by: string | null;
}

const rowOf = (row: StoredRow): DeviceKeyRow => ({
  id: row.id,
  name: row.name,
  outlet_id: row.outlet_id,
  outlet_name: row.outlet_name,
  key_prefix: row.key_prefix,
  created_at: row.created_at.toISOString(),
  created_by: row.created_by,
  last_used_at: row.last_used_at?.toISOString() ?? null,
  revoked_at: row.revoked_at?.toISOString() ?? null,
  revoked_by: row.revoked_by,
});

export interface DeviceKeyPageQuery {
  clientId: number;
  mallId: number;
  visibility: Visibility;
  /** A plain substring of the key's name, its outlet's name or its prefix, any case; '' matches every key. */
  search: string;
  sortColumn: DeviceKeySortColumn;
  order: 'asc' | 'desc';
  /** From 1. */
  page: number;
  rowsPerPage: number;
}

/** One page of the keys of the mall's outlets the caller sees, revoked ones included, and how many match. */
export async function listDeviceKeys(db: Queryable, query: DeviceKeyPageQuery): Promise<DeviceKeyPage> {
  const params = new SqlParams();
  const conditions = [
    clientOutletCondition(params, query.visibility, query.clientId),
    `o.mall_id = ${params.add(query.mallId, '::int')}`,
  ];
  if (query.search !== '') {
    const pattern = params.add(`%${escapeLike(query.search)}%`);
    conditions.push(`(k.name ILIKE ${pattern} OR o.name ILIKE ${pattern} OR k.key_prefix ILIKE ${pattern})`);
  }
  const where = conditions.join(' AND ');
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const countValues = [...params.values];
  const limit = params.add(query.rowsPerPage, '::int');
  const offset = params.add((query.page - 1) * query.rowsPerPage, '::int');
  const { rows } = await db.query<StoredRow & { total: number }>(
    `SELECT ${ROW_COLUMNS}, count(*) OVER ()::int AS total
     ${ROW_FROM}
     WHERE ${where}
     ORDER BY ${SORT_SQL[query.sortColumn]} ${direction} NULLS LAST, k.id ${direction}
     LIMIT ${limit} OFFSET ${offset}`,
    params.values,
  );
  let total = rows[0]?.total;
  if (total === undefined) {
    // A page past the end: the count alone.
    const count = await db.query<{ total: number }>(
      `SELECT count(*)::int AS total ${ROW_FROM} WHERE ${where}`,
      countValues,
    );
    total = count.rows[0]?.total ?? 0;
  }
  return { data: rows.map(({ total: _total, ...row }) => rowOf(row)), total };
}

/** The row of a key of the client, when its outlet is one the caller sees; `lock` locks the key's row. */
async function visibleDeviceKey(
  db: Queryable,
  input: { clientId: number; keyId: number; visibility: Visibility; lock?: boolean },
): Promise<DeviceKeyRow | undefined> {
  const params = new SqlParams();
  const condition = clientOutletCondition(params, input.visibility, input.clientId);
  const { rows } = await db.query<StoredRow>(
    `SELECT ${ROW_COLUMNS} ${ROW_FROM}
     WHERE ${condition} AND k.client_id = o.client_id AND k.id = ${params.add(input.keyId, '::int')}
     ${input.lock ? 'FOR UPDATE OF k' : ''}`,
    params.values,
  );
  const [row] = rows;
  return row ? rowOf(row) : undefined;
}

/** The key's row as the audit log keeps it: never the key, nor its hash. */
const auditRowOf = (row: DeviceKeyRow) => ({
  name: row.name,
  outlet_id: row.outlet_id,
  outlet_name: row.outlet_name,
  key_prefix: row.key_prefix,
  revoked_at: row.revoked_at,
});

/**
 * Creates a key for an outlet of the client (one the caller sees: checked before) in one transaction with its
 * audit row, and answers the key, which exists nowhere else from then on, with its row.
 */
export async function issueDeviceKey(
  pool: Pool,
  input: { clientId: number; outletId: number; name: string; userId: number | null; visibility: Visibility },
): Promise<{ key: string; row: DeviceKeyRow }> {
  return inTransaction(pool, async (tx) => {
    const issued = await createDeviceKey(tx, {
      clientId: input.clientId,
      outletId: input.outletId,
      name: input.name,
      createdBy: input.userId,
    });
    const row = await visibleDeviceKey(tx, {
      clientId: input.clientId,
      keyId: issued.id,
      visibility: input.visibility,
    });
    if (!row) throw new Error('issueDeviceKey: the new key is not visible');
    await writeAudit(tx, [
      {
        clientId: input.clientId,
        userId: input.userId,
        action: 'create',
        entity: 'device_key',
        entityId: row.id,
        before: null,
        after: auditRowOf(row),
      },
    ]);
    return { key: issued.key, row };
  });
}

/**
 * Revokes a key of the client whose outlet the caller sees, in one transaction with its audit row. Undefined when
 * there is no such key; a key revoked before is answered as it is, and nothing is written.
 */
export async function revokeVisibleDeviceKey(
  pool: Pool,
  input: { clientId: number; keyId: number; userId: number | null; visibility: Visibility },
): Promise<DeviceKeyRow | undefined> {
  return inTransaction(pool, async (tx) => {
    const before = await visibleDeviceKey(tx, { ...input, lock: true });
    if (!before || before.revoked_at !== null) return before;
    await revokeDeviceKey(tx, { clientId: input.clientId, keyId: input.keyId, revokedBy: input.userId });
    const after = await visibleDeviceKey(tx, input);
    if (!after) throw new Error('revokeVisibleDeviceKey: the key went away');
    await writeAudit(tx, [
      {
        clientId: input.clientId,
        userId: input.userId,
        action: 'update',
        entity: 'device_key',
        entityId: after.id,
        before: auditRowOf(before),
        after: auditRowOf(after),
      },
    ]);
    return after;
  });
}
