import {
  type DateRange,
  type DateWindow,
  type HourRange,
  isMetric,
  isMonthSelectable,
  isTimeRange,
  isValidDate,
  isValidMonth,
  type Metric,
  type TimeRange,
  validateDateRange,
  validateHourRange,
} from './dateLimits';
import {
  type OutletSelection,
  outletSelectionValue,
  parseIdList,
  parseOutletSelection,
  parsePositiveInt,
} from './filterOptions';

/**
 * The committed filters in the URL query and back, as pure functions (in the manner of Grafana's
 * ad hoc filter `urlParser`): `?client=3&malls=1,2&outlet=all&from=2024-03-01&to=2024-03-07&hours=9-17
 * &time_range=hourly&metric=gmv&month=2024-03`. Only the keys below belong to the filters; a query's
 * other keys are left alone. Reading checks every value against the same rules as the pickers and
 * reports what it rejected, so that the filter header can fall back for those fields.
 */

export const FILTER_QUERY_KEYS = {
  client: 'client',
  malls: 'malls',
  outlet: 'outlet',
  from: 'from',
  to: 'to',
  hours: 'hours',
  timeRange: 'time_range',
  metric: 'metric',
  month: 'month',
} as const;

export type FilterQueryKey = (typeof FILTER_QUERY_KEYS)[keyof typeof FILTER_QUERY_KEYS];

const OWNED_KEYS: readonly string[] = Object.values(FILTER_QUERY_KEYS);

/** The filters a URL can carry; a field left out is not in the URL. */
export interface FilterQuery {
  readonly clientId?: number | undefined;
  readonly mallIds?: readonly number[] | undefined;
  readonly outlet?: OutletSelection | undefined;
  readonly dateRange?: Pick<DateRange, 'start' | 'end'> | undefined;
  readonly hours?: HourRange | undefined;
  readonly timeRange?: TimeRange | undefined;
  readonly metric?: Metric | undefined;
  readonly month?: string | undefined;
}

/* ---------------------------------------------------------------- writing */

/** The filters as query parameters, in a fixed order (so that equal filters give equal URLs). */
export function toFilterParams(filters: FilterQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.clientId !== undefined) params.set(FILTER_QUERY_KEYS.client, String(filters.clientId));
  if (filters.mallIds !== undefined && filters.mallIds.length > 0) {
    params.set(FILTER_QUERY_KEYS.malls, filters.mallIds.join(','));
  }
  if (filters.outlet !== undefined) params.set(FILTER_QUERY_KEYS.outlet, outletSelectionValue(filters.outlet));
  if (filters.dateRange !== undefined) {
    params.set(FILTER_QUERY_KEYS.from, filters.dateRange.start);
    params.set(FILTER_QUERY_KEYS.to, filters.dateRange.end);
  }
  if (filters.hours !== undefined) params.set(FILTER_QUERY_KEYS.hours, `${filters.hours.from}-${filters.hours.to}`);
  if (filters.timeRange !== undefined) params.set(FILTER_QUERY_KEYS.timeRange, filters.timeRange);
  if (filters.metric !== undefined) params.set(FILTER_QUERY_KEYS.metric, filters.metric);
  if (filters.month !== undefined) params.set(FILTER_QUERY_KEYS.month, filters.month);
  return params;
}

/**
 * A query as the app's addresses show it: the commas of id lists left readable (`malls=1,2`, not `malls=1%2C2`).
 * Every writer of the address uses it, so that one writer never rewrites another's query only to change commas.
 */
export function withReadableCommas(search: string): string {
  return search.replace(/%2C/gi, ',');
}

/** `client=3&malls=1%2C2&...` (no leading '?'). */
export function toFilterQuery(filters: FilterQuery): string {
  return toFilterParams(filters).toString();
}

/**
 * The query `search` with its filter keys replaced by `filters` (other keys kept, in their order, before
 * the filter keys). Accepts and returns a query without the leading '?'; '' when nothing is left.
 */
export function withFilterQuery(search: string, filters: FilterQuery): string {
  const current = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const kept = new URLSearchParams();
  current.forEach((value, key) => {
    if (!OWNED_KEYS.includes(key)) kept.append(key, value);
  });
  toFilterParams(filters).forEach((value, key) => {
    kept.append(key, value);
  });
  return kept.toString();
}

/** Whether a query carries any of the filter keys (with or without '?'). */
export function hasFilterQuery(search: string): boolean {
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  return OWNED_KEYS.some((key) => params.has(key));
}

/* ---------------------------------------------------------------- reading */

export type FilterUrlProblem =
  /** Not a positive integer (client), an id list (malls), 'all' or an id (outlet). */
  | 'invalidId'
  /** Not a `YYYY-MM-DD` calendar date, or only one of from/to. */
  | 'invalidDate'
  | 'futureDate'
  | 'startAfterEnd'
  | 'beforeEarliest'
  | 'rangeExceeded'
  /** Not `from-to` with whole numbers. */
  | 'invalidHours'
  | 'hoursOutOfRange'
  | 'hoursOrder'
  /** time_range or metric not one of the known values. */
  | 'unknownValue'
  /** Not a `YYYY-MM` month, or outside the selectable months. */
  | 'invalidMonth';

export interface FilterUrlReason {
  readonly key: FilterQueryKey;
  readonly problem: FilterUrlProblem;
  /** The value as found in the URL. */
  readonly value: string;
  /** The picker's message for the same problem, when there is one (e.g. 'Date Range Exceeded' text). */
  readonly message?: string;
}

export interface FilterQueryRules {
  readonly window: DateWindow;
  /**
   * The longest range allowed for the time range and metric read from the URL (undefined when the URL
   * does not give them: the rules' owner then uses its own values).
   */
  readonly maxDays: (timeRange: TimeRange | undefined, metric: Metric | undefined) => number | undefined;
}

/** The fields that were good (always), and the reasons for the ones dropped (when any). */
export type FilterQueryResult =
  | { readonly ok: true; readonly value: FilterQuery }
  | { readonly ok: false; readonly value: FilterQuery; readonly reasons: readonly FilterUrlReason[] };

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Reads the filter keys of `search` (with or without '?'). Absent keys are simply not in the value. */
export function parseFilterQuery(search: string, rules: FilterQueryRules): FilterQueryResult {
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const value: Mutable<FilterQuery> = {};
  const reasons: FilterUrlReason[] = [];
  const reject = (key: FilterQueryKey, problem: FilterUrlProblem, raw: string, message?: string) => {
    reasons.push(message === undefined ? { key, problem, value: raw } : { key, problem, value: raw, message });
  };
  const get = (key: FilterQueryKey) => params.get(key) ?? undefined;

  const client = get(FILTER_QUERY_KEYS.client);
  if (client !== undefined) {
    const clientId = parsePositiveInt(client);
    if (clientId === undefined) reject(FILTER_QUERY_KEYS.client, 'invalidId', client);
    else value.clientId = clientId;
  }

  const malls = get(FILTER_QUERY_KEYS.malls);
  if (malls !== undefined) {
    const mallIds = parseIdList(malls);
    if (mallIds === undefined) reject(FILTER_QUERY_KEYS.malls, 'invalidId', malls);
    else value.mallIds = mallIds;
  }

  const outlet = get(FILTER_QUERY_KEYS.outlet);
  if (outlet !== undefined) {
    const selection = parseOutletSelection(outlet);
    if (selection === undefined) reject(FILTER_QUERY_KEYS.outlet, 'invalidId', outlet);
    else value.outlet = selection;
  }

  const timeRange = get(FILTER_QUERY_KEYS.timeRange);
  if (timeRange !== undefined) {
    if (isTimeRange(timeRange)) value.timeRange = timeRange;
    else reject(FILTER_QUERY_KEYS.timeRange, 'unknownValue', timeRange);
  }

  const metric = get(FILTER_QUERY_KEYS.metric);
  if (metric !== undefined) {
    if (isMetric(metric)) value.metric = metric;
    else reject(FILTER_QUERY_KEYS.metric, 'unknownValue', metric);
  }

  const from = get(FILTER_QUERY_KEYS.from);
  const to = get(FILTER_QUERY_KEYS.to);
  if (from !== undefined || to !== undefined) {
    if (from === undefined || !isValidDate(from)) reject(FILTER_QUERY_KEYS.from, 'invalidDate', from ?? '');
    else if (to === undefined || !isValidDate(to)) reject(FILTER_QUERY_KEYS.to, 'invalidDate', to ?? '');
    else {
      const range = { start: from, end: to };
      const problem = validateDateRange(range, {
        window: rules.window,
        maxDays: rules.maxDays(value.timeRange, value.metric),
      });
      const raw = `${from}..${to}`;
      if (problem === undefined) value.dateRange = range;
      else if (problem.kind === 'future') reject(FILTER_QUERY_KEYS.to, 'futureDate', raw, problem.message);
      else if (problem.kind === 'startAfterEnd') reject(FILTER_QUERY_KEYS.from, 'startAfterEnd', raw, problem.message);
      else if (problem.kind === 'beforeEarliest')
        reject(FILTER_QUERY_KEYS.from, 'beforeEarliest', raw, problem.message);
      else if (problem.kind === 'exceeded') reject(FILTER_QUERY_KEYS.from, 'rangeExceeded', raw, problem.message);
      else reject(FILTER_QUERY_KEYS.from, 'invalidDate', raw, problem.message);
    }
  }

  const hours = get(FILTER_QUERY_KEYS.hours);
  if (hours !== undefined) {
    const match = /^(\d{1,2})-(\d{1,2})$/.exec(hours);
    if (!match) reject(FILTER_QUERY_KEYS.hours, 'invalidHours', hours);
    else {
      const range = { from: Number(match[1]), to: Number(match[2]) };
      const problem = validateHourRange(range);
      if (problem === 'outOfRange') reject(FILTER_QUERY_KEYS.hours, 'hoursOutOfRange', hours);
      else if (problem === 'fromAfterTo') reject(FILTER_QUERY_KEYS.hours, 'hoursOrder', hours);
      else value.hours = range;
    }
  }

  const month = get(FILTER_QUERY_KEYS.month);
  if (month !== undefined) {
    if (isValidMonth(month) && isMonthSelectable(month, rules.window)) value.month = month;
    else reject(FILTER_QUERY_KEYS.month, 'invalidMonth', month);
  }

  return reasons.length === 0 ? { ok: true, value } : { ok: false, value, reasons };
}
