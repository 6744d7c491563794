import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/pool.js';

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
  if (row.stale) await db.query('UPDATE device_keys SET last_used_at = now() WHERE id = $1', [row.keyId]);
  return { keyId: row.keyId, clientId: row.clientId, outletId: row.outletId };
}
