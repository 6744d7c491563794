import type { components } from '../../src/api/schema.js';
import { defaultOccupancyBand, type OccupancyBand } from '../../src/domain/leases.js';
import type { Queryable } from '../db/pool.js';
import { writeAudit } from './audit.js';

/**
 * The occupancy cost bands of a client's outlet categories (occupancy_bands, migration 033): the client's own, else
 * the published band of the category's kind (src/domain/leases.ts). Every change writes its audit_log row.
 */

export type OccupancyBandRow = components['schemas']['OccupancyBand'];

/** The bands the client set, by category. */
export async function clientBands(db: Queryable, clientId: number): Promise<Map<string, OccupancyBand>> {
  const { rows } = await db.query<{ category: string; low_percent: number; high_percent: number }>(
    `SELECT category, low_percent::float8 AS low_percent, high_percent::float8 AS high_percent
     FROM occupancy_bands WHERE client_id = $1`,
    [clientId],
  );
  return new Map(rows.map((row) => [row.category, { low_percent: row.low_percent, high_percent: row.high_percent }]));
}

/** The band a category has: the client's, else the published one of its kind; undefined when neither. */
export function bandOf(bands: ReadonlyMap<string, OccupancyBand>, category: string): OccupancyBand | undefined {
  return bands.get(category) ?? defaultOccupancyBand(category);
}

/** The band of every category of the client's outlets and of every category it set one for, by category. */
export async function listOccupancyBands(db: Queryable, clientId: number): Promise<OccupancyBandRow[]> {
  const [bands, categories] = await Promise.all([
    clientBands(db, clientId),
    db.query<{ category: string }>('SELECT DISTINCT category FROM outlets WHERE client_id = $1', [clientId]),
  ]);
  const names = [...new Set([...categories.rows.map((row) => row.category), ...bands.keys()])].sort((a, b) =>
    a.localeCompare(b, 'en', { sensitivity: 'base' }),
  );
  return names.map((category) => {
    const own = bands.get(category);
    const band = own ?? defaultOccupancyBand(category);
    return {
      category,
      low_percent: band?.low_percent ?? null,
      high_percent: band?.high_percent ?? null,
      source: own ? 'client' : band ? 'default' : 'none',
    };
  });
}

/** A band to set, or (both bounds null) to remove so the category takes its published band again. */
export interface BandChange {
  category: string;
  low_percent: number | null;
  high_percent: number | null;
}

/** Sets or removes the client's bands with one audit row per changed category (call inside a transaction). */
export async function saveOccupancyBands(
  db: Queryable,
  input: { clientId: number; userId: number; bands: readonly BandChange[] },
): Promise<void> {
  await db.query('SELECT 1 FROM clients WHERE id = $1 FOR UPDATE', [input.clientId]);
  const before = await clientBands(db, input.clientId);
  const entries = [];
  for (const change of input.bands) {
    const old = before.get(change.category) ?? null;
    if (change.low_percent === null || change.high_percent === null) {
      if (!old) continue;
      await db.query('DELETE FROM occupancy_bands WHERE client_id = $1 AND category = $2', [
        input.clientId,
        change.category,
      ]);
      entries.push({ category: change.category, before: old, after: null });
      continue;
    }
    const after = {
      low_percent: Math.round(change.low_percent * 100) / 100,
      high_percent: Math.round(change.high_percent * 100) / 100,
    };
    if (old && old.low_percent === after.low_percent && old.high_percent === after.high_percent) continue;
    await db.query(
      `INSERT INTO occupancy_bands (client_id, category, low_percent, high_percent) VALUES ($1, $2, $3, $4)
       ON CONFLICT (client_id, category)
       DO UPDATE SET low_percent = excluded.low_percent, high_percent = excluded.high_percent, updated_at = now()`,
      [input.clientId, change.category, after.low_percent, after.high_percent],
    );
    entries.push({ category: change.category, before: old, after });
  }
  await writeAudit(
    db,
    entries.map((entry) => ({
      clientId: input.clientId,
      userId: input.userId,
      action: entry.before === null ? 'create' : entry.after === null ? 'delete' : 'update',
      entity: 'occupancy_band',
      entityId: entry.category,
      before: entry.before && { category: entry.category, ...entry.before },
      after: entry.after && { category: entry.category, ...entry.after },
    })),
  );
}
