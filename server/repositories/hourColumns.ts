/**
 * The running-total columns of the day rollups (migration 006): for a measure m and k = 1..24, column m_h<k>
 * holds the measure over the local hours before k of that day (m_h24 is the whole day), in cents for money.
 * The measure over hours a..b (0 ≤ a ≤ b ≤ 23) of a row is m_h<b+1> − m_h<a> (m_h0 is 0).
 *
 * Column names are built from these constants and from whole hours checked here, never from input text.
 */

/** Measures with running totals in rollup_outlet_day_hours and rollup_mall_day_hours. */
export const SALES_HOUR_MEASURES = ['gmv', 'transactions', 'member_gmv', 'member_transactions'] as const;
/** Measures with running totals in rollup_outlet_payment_daily and rollup_mall_payment_day_hours. */
export const PAYMENT_HOUR_MEASURES = ['amount'] as const;
/** Units sold (line-item quantities), in rollup_outlet_day_hours only (migration 016). */
export const UNIT_HOUR_MEASURES = ['units'] as const;

const BOUNDS = Array.from({ length: 24 }, (_, i) => i + 1);

function checkHour(hour: number): number {
  if (!Number.isInteger(hour) || hour < 0 || hour > 23)
    throw new Error(`hour must be a whole number 0..23, got ${hour}`);
  return hour;
}

/** Every running-total column of `measures`, in table order. */
export function runningColumns(measures: readonly string[]): string[] {
  return measures.flatMap((measure) => BOUNDS.map((k) => `${measure}_h${k}`));
}

/**
 * Aggregates computing the running-total columns (aliased to their names) over rows whose local hour of the
 * day is `hour` (an integer expression), measure m of a row being `value(m)` (a bigint expression).
 */
export function runningTotalsSql(
  measures: readonly string[],
  hour: string,
  value: (measure: string) => string,
): string {
  return measures
    .flatMap((measure) =>
      BOUNDS.map((k) => `coalesce(sum(${value(measure)}) FILTER (WHERE ${hour} < ${k}), 0)::int8 AS ${measure}_h${k}`),
    )
    .join(',\n  ');
}

/** Sums of the running-total columns of rows `alias` (aliased to their names). */
export function sumRunningColumnsSql(measures: readonly string[], alias: string): string {
  return runningColumns(measures)
    .map((column) => `sum(${alias}.${column})::int8 AS ${column}`)
    .join(', ');
}

/** ON CONFLICT ... DO UPDATE SET: the incoming running totals add to the row's. */
export function addRunningColumnsSql(measures: readonly string[], target: string): string {
  return runningColumns(measures)
    .map((column) => `${column} = ${target}.${column} + excluded.${column}`)
    .join(',\n    ');
}

/** Measure `measure` of row `alias` over the local hours startHour..endHour, both included (bigint). */
export function overHoursSql(alias: string, measure: string, startHour: number, endHour: number): string {
  const end = `${alias}.${measure}_h${checkHour(endHour) + 1}`;
  return checkHour(startHour) === 0 ? end : `(${end} - ${alias}.${measure}_h${startHour})`;
}

/**
 * A LATERAL list of one row per local hour startHour..endHour of row `alias`: `hour` and each measure in that
 * hour, under `name` (e.g. `hv(hour, gmv, transactions)`), for series by hour.
 */
export function hourRowsSql(
  alias: string,
  measures: readonly string[],
  startHour: number,
  endHour: number,
  name: string,
): string {
  const rows: string[] = [];
  for (let hour = checkHour(startHour); hour <= checkHour(endHour); hour++) {
    rows.push(`(${hour}, ${measures.map((measure) => overHoursSql(alias, measure, hour, hour)).join(', ')})`);
  }
  return `LATERAL (VALUES ${rows.join(', ')}) AS ${name}(hour, ${measures.join(', ')})`;
}
