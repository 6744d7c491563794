import type { components } from '../../src/api/schema.js';
import { holidaySeed } from '../calendar/holidaySeed.js';
import type { Queryable } from '../db/pool.js';
import { writeAudit } from './audit.js';

/**
 * The client's calendar (calendar_entries, migration 028): the public holidays, festivals and school holidays of a
 * country, each a range of days. Every client starts with server/calendar/holidaySeed.ts and edits its own copy;
 * every change writes its audit_log row in the same transaction.
 */

type Schemas = components['schemas'];
export type CalendarEntry = Schemas['CalendarEntry'];
export type CalendarKind = Schemas['CalendarKind'];
/** A calendar entry with the selected malls of its country (the time charts' annotations). */
export type MallHoliday = Schemas['MallHoliday'];

/** What a new or changed entry holds (checked and trimmed by the route). */
export interface CalendarEntryInput {
  country: string;
  start_date: string;
  end_date: string;
  name: string;
  kind: CalendarKind;
  festival: string | null;
}

const ENTRY_COLUMNS = `id, country, to_char(start_date, 'YYYY-MM-DD') AS start_date,
  to_char(end_date, 'YYYY-MM-DD') AS end_date, name, kind, festival`;

/**
 * The client's entries of `countries` that overlap `start`..`end` (days, both included), by first day, then
 * country and name.
 */
export async function calendarEntries(
  db: Queryable,
  clientId: number,
  countries: string[],
  start: string,
  end: string,
): Promise<CalendarEntry[]> {
  const { rows } = await db.query<CalendarEntry>(
    `SELECT ${ENTRY_COLUMNS} FROM calendar_entries
     WHERE client_id = $1 AND country = ANY($2::text[]) AND start_date <= $4::date AND end_date >= $3::date
     ORDER BY start_date, country, name, id`,
    [clientId, countries, start, end],
  );
  return rows;
}

/** The client's entries of a country that overlap a calendar year. */
export function calendarYear(db: Queryable, clientId: number, country: string, year: number) {
  return calendarEntries(db, clientId, [country], `${year}-01-01`, `${year}-12-31`);
}

/**
 * The client's entries of the countries of `mallIds` that overlap the range, each with those of `mallIds` in its
 * country.
 */
export async function mallHolidays(
  db: Queryable,
  clientId: number,
  mallIds: readonly number[],
  start: string,
  end: string,
): Promise<MallHoliday[]> {
  const { rows } = await db.query<MallHoliday>(
    `SELECT c.id, c.country, to_char(c.start_date, 'YYYY-MM-DD') AS start_date,
       to_char(c.end_date, 'YYYY-MM-DD') AS end_date, c.name, c.kind, c.festival, m.mall_ids
     FROM calendar_entries c
     JOIN (SELECT country, array_agg(id ORDER BY id) AS mall_ids FROM malls
           WHERE client_id = $1 AND id = ANY($2::int[]) GROUP BY country) m ON m.country = c.country
     WHERE c.client_id = $1 AND c.start_date <= $4::date AND c.end_date >= $3::date
     ORDER BY c.start_date, c.country, c.name, c.id`,
    [clientId, mallIds, start, end],
  );
  return rows;
}

/** What an audit entry keeps of an entry. */
const audited = ({ id: _id, ...entry }: CalendarEntry) => entry;

async function entryById(db: Queryable, clientId: number, id: number): Promise<CalendarEntry | undefined> {
  const { rows } = await db.query<CalendarEntry>(
    `SELECT ${ENTRY_COLUMNS} FROM calendar_entries WHERE client_id = $1 AND id = $2 FOR UPDATE`,
    [clientId, id],
  );
  return rows[0];
}

/** Adds an entry with its audit row (call inside a transaction). */
export async function createCalendarEntry(
  db: Queryable,
  input: { clientId: number; userId: number; entry: CalendarEntryInput },
): Promise<CalendarEntry> {
  const { entry } = input;
  const { rows } = await db.query<CalendarEntry>(
    `INSERT INTO calendar_entries (client_id, country, start_date, end_date, name, kind, festival)
     VALUES ($1, $2, $3::date, $4::date, $5, $6, $7)
     RETURNING ${ENTRY_COLUMNS}`,
    [input.clientId, entry.country, entry.start_date, entry.end_date, entry.name, entry.kind, entry.festival],
  );
  const created = rows[0];
  if (!created) throw new Error('calendar entry not stored');
  await writeAudit(db, [
    {
      clientId: input.clientId,
      userId: input.userId,
      action: 'create',
      entity: 'calendar_entry',
      entityId: created.id,
      before: null,
      after: audited(created),
    },
  ]);
  return created;
}

/** Changes an entry with its audit row, before and after (call inside a transaction); undefined when none. */
export async function updateCalendarEntry(
  db: Queryable,
  input: { clientId: number; userId: number; id: number; entry: CalendarEntryInput },
): Promise<CalendarEntry | undefined> {
  const before = await entryById(db, input.clientId, input.id);
  if (!before) return undefined;
  const { entry } = input;
  const { rows } = await db.query<CalendarEntry>(
    `UPDATE calendar_entries SET country = $3, start_date = $4::date, end_date = $5::date, name = $6, kind = $7,
       festival = $8
     WHERE client_id = $1 AND id = $2
     RETURNING ${ENTRY_COLUMNS}`,
    [input.clientId, input.id, entry.country, entry.start_date, entry.end_date, entry.name, entry.kind, entry.festival],
  );
  const after = rows[0];
  if (!after) return undefined;
  await writeAudit(db, [
    {
      clientId: input.clientId,
      userId: input.userId,
      action: 'update',
      entity: 'calendar_entry',
      entityId: input.id,
      before: audited(before),
      after: audited(after),
    },
  ]);
  return after;
}

/** Removes an entry with its audit row (call inside a transaction); undefined when none. */
export async function deleteCalendarEntry(
  db: Queryable,
  input: { clientId: number; userId: number; id: number },
): Promise<CalendarEntry | undefined> {
  const before = await entryById(db, input.clientId, input.id);
  if (!before) return undefined;
  await db.query('DELETE FROM calendar_entries WHERE client_id = $1 AND id = $2', [input.clientId, input.id]);
  await writeAudit(db, [
    {
      clientId: input.clientId,
      userId: input.userId,
      action: 'delete',
      entity: 'calendar_entry',
      entityId: input.id,
      before: audited(before),
      after: null,
    },
  ]);
  return before;
}

/** Gives a client the seed calendar, once: a client that has any entry already is left as it is. */
export async function seedCalendar(db: Queryable, clientId: number): Promise<void> {
  await db.query(
    `INSERT INTO calendar_entries (client_id, country, start_date, end_date, name, kind, festival)
     SELECT $1, country, start_date, end_date, name, kind, festival
     FROM jsonb_to_recordset($2::jsonb)
       AS x(country text, start_date date, end_date date, name text, kind text, festival text)
     WHERE NOT EXISTS (SELECT 1 FROM calendar_entries WHERE client_id = $1)`,
    [clientId, JSON.stringify(holidaySeed())],
  );
}

/** Seeds every client without a calendar (the migration's clients). */
export async function seedEveryCalendar(db: Queryable): Promise<void> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM clients ORDER BY id');
  for (const { id } of rows) await seedCalendar(db, id);
}
