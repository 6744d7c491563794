import type { components } from '../../src/api/schema.js';
import type { Queryable } from '../db/pool.js';
import { writeAudit } from './audit.js';
import { countVisibleMalls, type Visibility } from './lookup.js';

/**
 * A mall's own events (mall_events, migration 028): sales, events, closures, each a range of days, drawn on the
 * mall's time charts. Every change writes its audit_log row in the same transaction.
 */

type Schemas = components['schemas'];
export type MallEvent = Schemas['MallEvent'];
export type MallEventKind = Schemas['MallEventKind'];

/** What a new or changed event holds (checked and trimmed by the route). */
export interface MallEventInput {
  mall_id: number;
  title: string;
  start_date: string;
  end_date: string;
  kind: MallEventKind;
}

const EVENT_COLUMNS = `e.id, e.mall_id, e.title, to_char(e.start_date, 'YYYY-MM-DD') AS start_date,
  to_char(e.end_date, 'YYYY-MM-DD') AS end_date, e.kind, e.created_by`;

/** The events of `mallIds` that overlap `start`..`end` (days, both included), by first day, then mall and title. */
export async function listMallEvents(
  db: Queryable,
  clientId: number,
  mallIds: number[],
  start: string,
  end: string,
): Promise<MallEvent[]> {
  const { rows } = await db.query<MallEvent>(
    `SELECT ${EVENT_COLUMNS} FROM mall_events e
     WHERE e.client_id = $1 AND e.mall_id = ANY($2::int[]) AND e.start_date <= $4::date AND e.end_date >= $3::date
     ORDER BY e.start_date, e.mall_id, e.title, e.id`,
    [clientId, mallIds, start, end],
  );
  return rows;
}

/** What an audit entry keeps of an event. */
const audited = ({ id: _id, created_by: _by, ...event }: MallEvent) => event;

/**
 * The client's event `id`, locked for a change, when its mall is one the caller sees; undefined otherwise (the
 * caller is not told of an event it does not see).
 */
async function visibleEvent(
  db: Queryable,
  visibility: Visibility,
  clientId: number,
  id: number,
): Promise<MallEvent | undefined> {
  const { rows } = await db.query<MallEvent>(
    `SELECT ${EVENT_COLUMNS} FROM mall_events e WHERE e.client_id = $1 AND e.id = $2 FOR UPDATE`,
    [clientId, id],
  );
  const event = rows[0];
  if (!event) return undefined;
  return (await countVisibleMalls(db, visibility, [event.mall_id], clientId)) === 1 ? event : undefined;
}

/** Adds an event with its audit row (call inside a transaction); created_by is the user's name, else e-mail. */
export async function createMallEvent(
  db: Queryable,
  input: { clientId: number; userId: number; event: MallEventInput },
): Promise<MallEvent> {
  const { event } = input;
  const { rows } = await db.query<MallEvent>(
    `WITH e AS (
       INSERT INTO mall_events (client_id, mall_id, title, start_date, end_date, kind, created_by, created_by_user)
       SELECT $1, $2, $3, $4::date, $5::date, $6, coalesce(nullif(btrim(u.display_name), ''), u.email), u.id
       FROM users u WHERE u.id = $7
       RETURNING *
     )
     SELECT ${EVENT_COLUMNS} FROM e`,
    [input.clientId, event.mall_id, event.title, event.start_date, event.end_date, event.kind, input.userId],
  );
  const created = rows[0];
  if (!created) throw new Error('mall event not stored');
  await writeAudit(db, [
    {
      clientId: input.clientId,
      userId: input.userId,
      action: 'create',
      entity: 'mall_event',
      entityId: created.id,
      before: null,
      after: audited(created),
    },
  ]);
  return created;
}

/**
 * Changes an event with its audit row, before and after (call inside a transaction); undefined when the client has
 * no such event or the caller does not see its mall.
 */
export async function updateMallEvent(
  db: Queryable,
  input: { clientId: number; userId: number; visibility: Visibility; id: number; event: MallEventInput },
): Promise<MallEvent | undefined> {
  const before = await visibleEvent(db, input.visibility, input.clientId, input.id);
  if (!before) return undefined;
  const { event } = input;
  const { rows } = await db.query<MallEvent>(
    `UPDATE mall_events e SET mall_id = $3, title = $4, start_date = $5::date, end_date = $6::date, kind = $7
     WHERE e.client_id = $1 AND e.id = $2
     RETURNING ${EVENT_COLUMNS}`,
    [input.clientId, input.id, event.mall_id, event.title, event.start_date, event.end_date, event.kind],
  );
  const after = rows[0];
  if (!after) return undefined;
  await writeAudit(db, [
    {
      clientId: input.clientId,
      userId: input.userId,
      action: 'update',
      entity: 'mall_event',
      entityId: input.id,
      before: audited(before),
      after: audited(after),
    },
  ]);
  return after;
}

/**
 * Removes an event with its audit row (call inside a transaction); undefined when the client has no such event or
 * the caller does not see its mall.
 */
export async function deleteMallEvent(
  db: Queryable,
  input: { clientId: number; userId: number; visibility: Visibility; id: number },
): Promise<MallEvent | undefined> {
  const before = await visibleEvent(db, input.visibility, input.clientId, input.id);
  if (!before) return undefined;
  await db.query('DELETE FROM mall_events WHERE client_id = $1 AND id = $2', [input.clientId, input.id]);
  await writeAudit(db, [
    {
      clientId: input.clientId,
      userId: input.userId,
      action: 'delete',
      entity: 'mall_event',
      entityId: input.id,
      before: audited(before),
      after: null,
    },
  ]);
  return before;
}
