import type { components } from '../../../src/api/schema.js';
import { inTransaction, type Pool, type PoolClient, type Queryable, singleRow } from '../../db/pool.js';
import { writeAudit } from '../audit.js';
import { ok, type Refusal, type Result, refuse } from '../domainError.js';
import { forgetMealTiming, recountMealTimings } from '../ingestion.js';
import { type Actor, auditBy } from './actor.js';

type Schemas = components['schemas'];

/**
 * An outlet's meal timings (§7): named spans of the day, to the minute, that never overlap. A timing added,
 * retimed or deleted is counted again in the meal rollup (server/repositories/ingestion.ts) in the same
 * transaction, under the outlet's row lock.
 */
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

/**
 * Locks the outlet's row: its meal timings are checked and written by one transaction at a time. Refused when
 * the client has no such outlet.
 */
async function lockOutlet(tx: PoolClient, clientId: number, outletId: number): Promise<Refusal | undefined> {
  const { rows } = await tx.query('SELECT 1 FROM outlets WHERE client_id = $1 AND id = $2 FOR UPDATE', [
    clientId,
    outletId,
  ]);
  return rows.length === 0 ? refuse('notFound', 'No such outlet.') : undefined;
}

const overlaps = (a: StoredTiming, b: StoredTiming) => a.start_time < b.end_time && b.start_time < a.end_time;
const hhmm = (time: string) => time.slice(0, 5);
const timingText = (row: StoredTiming) => `${row.name} (${hhmm(row.start_time)}-${hhmm(row.end_time)})`;

/**
 * Adds a meal timing with a name the outlet has not used ('Meal n') in the first whole hour of the day that no
 * other timing of the outlet overlaps (23:00-23:59 for the last); refused, naming the outlet, when every hour is
 * taken.
 */
export async function createMealTiming(pool: Pool, actor: Actor, outletId: number): Promise<Result<MealTiming>> {
  return inTransaction(pool, async (tx): Promise<Result<MealTiming>> => {
    const noOutlet = await lockOutlet(tx, actor.clientId, outletId);
    if (noOutlet) return noOutlet;
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
    if (!slot) return refuse('invalid', 'every hour of the day already has a meal timing at this outlet.', 'outlet_id');
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
      auditBy(actor, { action: 'create', entity: 'meal_timing', entityId: created.id, before: null, after: shaped }),
    ]);
    return ok(shaped);
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
 * Renames and retimes meal timings of the outlet. The changes keep the request's rules (rules.ts: each id once,
 * a name not blank once trimmed, each timing starting before it ends); each id must be a timing of the outlet and
 * no two timings of the outlet may overlap afterwards (touching is allowed): else refused, naming the field.
 * Answers every timing of the outlet after the change.
 */
export async function updateMealTimings(
  pool: Pool,
  actor: Actor,
  outletId: number,
  changes: readonly TimingChange[],
): Promise<Result<MealTiming[]>> {
  return inTransaction(pool, async (tx): Promise<Result<MealTiming[]>> => {
    const noOutlet = await lockOutlet(tx, actor.clientId, outletId);
    if (noOutlet) return noOutlet;
    const existing = await storedTimings(tx, actor.clientId, outletId);
    const byId = new Map(existing.map((row) => [row.id, row]));
    const next = new Map(byId);
    const fieldOf = new Map<number, number>();
    for (const [index, change] of changes.entries()) {
      if (!byId.has(change.id)) {
        return refuse('invalid', `${change.id} is not a meal timing of this outlet.`, `meal_timing[${index}].id`);
      }
      fieldOf.set(change.id, index);
      next.set(change.id, {
        id: change.id,
        name: change.name,
        start_time: `${change.start_time}:00`,
        end_time: `${change.end_time}:00`,
      });
    }
    const rows = [...next.values()];
    for (const [id, index] of fieldOf) {
      const row = next.get(id);
      const other = rows.find((candidate) => row && candidate.id !== id && overlaps(row, candidate));
      if (row && other) {
        return refuse(
          'invalid',
          `${timingText(row)} overlaps ${timingText(other)}.`,
          `meal_timing[${index}].start_time`,
        );
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
          auditBy(actor, {
            action: 'update',
            entity: 'meal_timing',
            entityId: pair.after.id,
            before: shapeTiming(actor.clientId, outletId, pair.before),
            after: shapeTiming(actor.clientId, outletId, pair.after),
          }),
        ),
      );
    }
    return ok(
      (await storedTimings(tx, actor.clientId, outletId)).map((row) => shapeTiming(actor.clientId, outletId, row)),
    );
  });
}

/**
 * Deletes one meal timing of the outlet; false when the outlet has no such timing, refused when the client has
 * no such outlet.
 */
export async function deleteMealTiming(
  pool: Pool,
  actor: Actor,
  outletId: number,
  id: number,
): Promise<Result<boolean>> {
  return inTransaction(pool, async (tx): Promise<Result<boolean>> => {
    const noOutlet = await lockOutlet(tx, actor.clientId, outletId);
    if (noOutlet) return noOutlet;
    const { rows } = await tx.query<StoredTiming>(
      `DELETE FROM meal_timings WHERE client_id = $1 AND outlet_id = $2 AND id = $3 RETURNING ${TIMING_COLUMNS}`,
      [actor.clientId, outletId, id],
    );
    const deleted = rows[0];
    if (!deleted) return ok(false);
    await forgetMealTiming(tx, actor.clientId, outletId, id);
    await writeAudit(tx, [
      auditBy(actor, {
        action: 'delete',
        entity: 'meal_timing',
        entityId: id,
        before: shapeTiming(actor.clientId, outletId, deleted),
        after: null,
      }),
    ]);
    return ok(true);
  });
}
