import dayjs from 'dayjs';
import { readFilterCookies } from './cookies';
import {
  ALL_DAY,
  BREAKEVEN_MAX_DAYS,
  clampRange,
  DATE_FORMAT,
  type DateRange,
  type DateWindow,
  DEFAULT_METRIC,
  DEFAULT_TIME_RANGE,
  defaultDateRange,
  type HourRange,
  type Metric,
  maxRangeDays,
  monthOf,
  rangeDays,
  selectableWindow,
  type TimeRange,
  validateDateRange,
} from './dateLimits';
import type { TimeRangeChoice } from './datePresets';
import {
  metricLabel,
  type OutletLike,
  type OutletMode,
  type OutletSelection,
  outletIdsOf,
  resolveMallSelection,
  resolveOutletSelection,
  TIME_RANGE_OPTIONS,
  timeRangeLabel,
} from './filterOptions';
import {
  type FilterQuery,
  type FilterUrlReason,
  parseFilterQuery,
  withFilterQuery,
  withReadableCommas,
} from './filterUrl';
import { formatDateRange, formatHourRange, formatMonth } from './format';

/**
 * The rules of the filter header (§2, §4, §5, §9) as pure functions: the page's configuration, the committed
 * filters, the longest range a page allows, what the URL shows, and the context a header starts with
 * (URL → cookies → defaults) or takes after a URL change. The machine (machines/filterHeaderMachine) holds the
 * state and the effects.
 */

/** What a page asks of the filter header (the route table says it per page). */
export interface FilterPageConfig {
  /** 'range': the Date Period picker; 'month': the Month picker (monthly pages); 'none': no date filter. */
  readonly period: 'range' | 'month' | 'none';
  /** Header V2 (mall peak hours, member vs non-member): time range, metric and hour range selects. */
  readonly headerV2: boolean;
  /** The metric select offers Average Transaction Value. */
  readonly averageTransactionValue: boolean;
  /** A breakeven target page: at most 31 days whatever the time range. */
  readonly breakeven: boolean;
  /** How the outlet dropdown works on this page. */
  readonly outletMode: OutletMode;
  /**
   * A monthly page that opens on the last complete month (the one before the malls' today's), not the unfinished
   * current one (GTO review and submission).
   */
  readonly lastCompleteMonth: boolean;
}

export const DEFAULT_FILTER_PAGE: FilterPageConfig = {
  period: 'range',
  headerV2: false,
  averageTransactionValue: false,
  breakeven: false,
  outletMode: 'all',
  lastCompleteMonth: false,
};

export interface CommittedFilters {
  clientId: number | undefined;
  /** Empty until the malls are known; then never empty (all malls by default). */
  mallIds: number[];
  outlet: OutletSelection | undefined;
  dateRange: DateRange;
  hours: HourRange;
  timeRange: TimeRange;
  metric: Metric;
  /** `YYYY-MM` for monthly pages; undefined shows 'Please select a month'. */
  month: string | undefined;
}

export interface FilterHeaderInput {
  /** `YYYY-MM-DD`; default: the browser's today. */
  today?: string;
  /** `location.search` when the header starts. */
  search?: string;
  /** `document.cookie` when the header starts. */
  cookies?: string;
  /** The clients the user may see (user info `clients`); empty or absent: not checked. */
  clientIds?: readonly number[];
  /** The user's default client (user info `client_id`). */
  defaultClientId?: number | null;
  /** `hasDatePickerLimitation(user)` of dateLimits. */
  limited?: boolean;
  /** The earliest selectable date a setting gives, `YYYY-MM-DD`. */
  earliestDate?: string;
  /** Mobile (user agent): the date picker is a dialog of selects. */
  mobile?: boolean;
  page?: Partial<FilterPageConfig>;
}

export interface FilterAlert {
  title: string;
  message: string;
}

/** A mall as the header needs it (the lookup's rows carry more). */
export interface MallLike {
  readonly id: number;
}

export interface FilterHeaderContext<TMall extends MallLike = MallLike, TOutlet extends OutletLike = OutletLike> {
  today: string;
  window: DateWindow;
  page: FilterPageConfig;
  mobile: boolean;
  clientIds: readonly number[];
  /** The query of the URL as last read or written (no '?'). */
  search: string;
  filters: CommittedFilters;
  malls: TMall[];
  outlets: TOutlet[];
  /** The client's reporting currency (the figures of malls in several currencies are converted to it). */
  reportingCurrency: string | undefined;
  /** The Malls multi-select's ticks while it is open. */
  mallDraft: number[];
  /** 'Please select a mall' in mallSelect.open.invalid. */
  mallError: string | undefined;
  alert: FilterAlert | undefined;
  /** Page fetches under way (page.loading minus page.loaded). */
  pendingFetches: number;
  /** Why the URL's values were not all used (the last read). */
  urlReasons: readonly FilterUrlReason[];
}

/* ---------------------------------------------------------------- rules */

/** The longest range the page allows for a time range and metric (§9). */
export function maxDaysFor(page: FilterPageConfig, timeRange: TimeRange, metric: Metric): number {
  if (page.breakeven) return BREAKEVEN_MAX_DAYS;
  if (!page.headerV2) return maxRangeDays(DEFAULT_TIME_RANGE, DEFAULT_METRIC);
  return maxRangeDays(timeRange, metric);
}

export function maxDaysOf(context: Pick<FilterHeaderContext, 'page' | 'filters'>): number {
  return maxDaysFor(context.page, context.filters.timeRange, context.filters.metric);
}

/**
 * The time-range select of Header V2 as the date picker's presets need it: the chosen time range and what each
 * offered one allows with the chosen metric; undefined on a page without it.
 */
export function timeRangeChoiceOf(context: Pick<FilterHeaderContext, 'page' | 'filters'>): TimeRangeChoice | undefined {
  if (!context.page.headerV2) return undefined;
  const { timeRange, metric } = context.filters;
  return {
    current: timeRange,
    options: TIME_RANGE_OPTIONS.map((option) => ({
      timeRange: option.value,
      maxDays: maxDaysFor(context.page, option.value, metric),
    })),
  };
}

/** What the URL shows: client, malls and outlet always; the period and Header V2 fields on pages that have them. */
export function filterQueryOf(context: Pick<FilterHeaderContext, 'page' | 'filters'>): FilterQuery {
  const { filters, page } = context;
  return {
    clientId: filters.clientId,
    mallIds: filters.mallIds,
    outlet: filters.outlet,
    dateRange: page.period === 'range' ? { start: filters.dateRange.start, end: filters.dateRange.end } : undefined,
    month: page.period === 'month' ? filters.month : undefined,
    hours: page.headerV2 ? filters.hours : undefined,
    timeRange: page.headerV2 ? filters.timeRange : undefined,
    metric: page.headerV2 ? filters.metric : undefined,
  };
}

/** The outlet ids the pages query with ('' before the outlets are known). */
export function selectedOutletIds(context: Pick<FilterHeaderContext, 'filters' | 'outlets'>): string {
  return outletIdsOf(context.filters.outlet, context.outlets);
}

export function stripQuestionMark(search: string): string {
  return search.startsWith('?') ? search.slice(1) : search;
}

/** The query with the filters (commas left readable). */
export function searchWithFilters(context: Pick<FilterHeaderContext, 'page' | 'filters' | 'search'>): string {
  return withReadableCommas(withFilterQuery(context.search, filterQueryOf(context)));
}

export function isClientAllowed(clientIds: readonly number[], clientId: number | undefined | null): clientId is number {
  if (clientId === undefined || clientId === null) return false;
  return clientIds.length === 0 || clientIds.includes(clientId);
}

export function pageOf(page: Partial<FilterPageConfig> | undefined): FilterPageConfig {
  return { ...DEFAULT_FILTER_PAGE, ...page };
}

/** A metric the page does not offer becomes GMV. */
export function metricFor(page: FilterPageConfig, metric: Metric): Metric {
  return metric === 'average_transaction_value' && !page.averageTransactionValue ? DEFAULT_METRIC : metric;
}

/** Keeps a committed range within the page's maximum and the window (a page change, a URL change). */
export function fitRange(range: DateRange, window: DateWindow, maxDays: number): DateRange {
  const problem = validateDateRange(range, { window, maxDays });
  if (problem === undefined) return range;
  if (problem.kind === 'exceeded' || problem.kind === 'beforeEarliest') return clampRange(range, maxDays, window);
  return defaultDateRange(window, maxDays);
}

export function urlRules(context: Pick<FilterHeaderContext, 'window' | 'page' | 'filters'>) {
  return {
    window: context.window,
    maxDays: (timeRange: TimeRange | undefined, metric: Metric | undefined) =>
      maxDaysFor(context.page, timeRange ?? context.filters.timeRange, metric ?? context.filters.metric),
  };
}

/** The context a header starts with: the URL's values, else the cookies', else the defaults. */
export function initialFilterHeaderContext<TMall extends MallLike = MallLike, TOutlet extends OutletLike = OutletLike>(
  input: FilterHeaderInput,
): FilterHeaderContext<TMall, TOutlet> {
  const today = input.today ?? dayjs().format(DATE_FORMAT);
  const window = selectableWindow({ today, earliestSetting: input.earliestDate, limited: input.limited ?? false });
  const page = pageOf(input.page);
  const clientIds = input.clientIds ?? [];
  const search = stripQuestionMark(input.search ?? '');
  const defaults: CommittedFilters = {
    clientId: undefined,
    mallIds: [],
    outlet: undefined,
    dateRange: defaultDateRange(window, maxDaysFor(page, DEFAULT_TIME_RANGE, DEFAULT_METRIC)),
    hours: ALL_DAY,
    timeRange: DEFAULT_TIME_RANGE,
    metric: DEFAULT_METRIC,
    month: defaultMonth(page, today),
  };
  const parsed = parseFilterQuery(search, urlRules({ window, page, filters: defaults }));
  const url = parsed.value;
  const cookies = readFilterCookies(input.cookies ?? '');

  const urlClient = isClientAllowed(clientIds, url.clientId) ? url.clientId : undefined;
  const cookieClient = isClientAllowed(clientIds, cookies.clientId) ? cookies.clientId : undefined;
  const fallbackClient = isClientAllowed(clientIds, input.defaultClientId) ? input.defaultClientId : clientIds[0];
  const clientId = urlClient ?? cookieClient ?? fallbackClient;
  // The cookies' malls and outlet belong to the cookies' client.
  const cookiesApply = cookies.clientId !== undefined && cookies.clientId === clientId;

  const timeRange = url.timeRange ?? DEFAULT_TIME_RANGE;
  const metric = metricFor(page, url.metric ?? DEFAULT_METRIC);
  const maxDays = maxDaysFor(page, timeRange, metric);
  const filters: CommittedFilters = {
    clientId,
    mallIds: [...(url.mallIds ?? (cookiesApply ? cookies.mallIds : undefined) ?? [])],
    outlet: url.outlet ?? (cookiesApply ? cookies.outlet : undefined),
    dateRange: url.dateRange ? fitRange(url.dateRange, window, maxDays) : defaultDateRange(window, maxDays),
    hours: url.hours ?? ALL_DAY,
    timeRange,
    metric,
    month: url.month ?? defaultMonth(page, today),
  };
  return {
    today,
    window,
    page,
    mobile: input.mobile ?? false,
    clientIds,
    search,
    filters,
    malls: [],
    outlets: [],
    reportingCurrency: undefined,
    mallDraft: [],
    mallError: undefined,
    alert: undefined,
    pendingFetches: 0,
    urlReasons: parsed.ok ? [] : parsed.reasons,
  };
}

/** The month a monthly page opens on: the malls' current month, or the last complete one (the month before). */
export function defaultMonth(page: Pick<FilterPageConfig, 'lastCompleteMonth'>, today: string): string {
  return page.lastCompleteMonth ? monthOf(dayjs(today).subtract(1, 'month').format(DATE_FORMAT)) : monthOf(today);
}

/**
 * The month on a page reached from another: a page that opens on the last complete month, reached from one that
 * does not, takes it instead of the unfinished current month; any other month stays.
 */
function monthOnPage(
  month: string | undefined,
  from: FilterPageConfig | undefined,
  to: FilterPageConfig,
  today: string,
) {
  if (!to.lastCompleteMonth || from?.lastCompleteMonth) return month;
  return month === undefined || month === monthOf(today) ? defaultMonth(to, today) : month;
}

/**
 * The committed filters as the header settles them on a page of this configuration (a page change): a metric
 * the page does not offer becomes GMV, the range fits the page's maximum, the outlet fits its outlet mode, and a
 * page that opens on the last complete month takes it instead of the unfinished current month.
 */
export function filtersOnPage<TMall extends MallLike, TOutlet extends OutletLike>(
  context: Pick<FilterHeaderContext<TMall, TOutlet>, 'filters' | 'window' | 'outlets'> & {
    readonly page?: FilterPageConfig;
  },
  page: FilterPageConfig,
): CommittedFilters {
  const metric = metricFor(page, context.filters.metric);
  const maxDays = maxDaysFor(page, context.filters.timeRange, metric);
  return {
    ...context.filters,
    month: monthOnPage(context.filters.month, context.page, page, context.window.latest),
    metric,
    dateRange: fitRange(context.filters.dateRange, context.window, maxDays),
    outlet:
      context.outlets.length > 0
        ? resolveOutletSelection(context.filters.outlet, context.outlets, page.outletMode)
        : context.filters.outlet,
  };
}

/**
 * The query of a link to a page of this configuration (no '?'; '' without filters): the current filters as
 * that page will show them in its URL, so that following the link keeps them and a reload restores them.
 */
export function filterLinkSearch<TMall extends MallLike, TOutlet extends OutletLike>(
  context: Pick<FilterHeaderContext<TMall, TOutlet>, 'filters' | 'window' | 'outlets'> & {
    readonly page?: FilterPageConfig;
  },
  page: FilterPageConfig,
): string {
  return searchWithFilters({ page, filters: filtersOnPage(context, page), search: '' });
}

/** The filters after the URL changed (back/forward, a link): its good values win, the rest stay. */
export function filtersFromUrl(
  context: FilterHeaderContext,
  search: string,
): {
  filters: CommittedFilters;
  reasons: readonly FilterUrlReason[];
} {
  const parsed = parseFilterQuery(search, urlRules(context));
  const url = parsed.value;
  const current = context.filters;
  const clientId = isClientAllowed(context.clientIds, url.clientId) ? url.clientId : current.clientId;
  const clientChanged = clientId !== current.clientId;
  const timeRange = url.timeRange ?? current.timeRange;
  const metric = metricFor(context.page, url.metric ?? current.metric);
  const maxDays = maxDaysFor(context.page, timeRange, metric);
  let mallIds = url.mallIds ? [...url.mallIds] : clientChanged ? [] : current.mallIds;
  if (!clientChanged && context.malls.length > 0) mallIds = resolveMallSelection(mallIds, context.malls);
  let outlet = url.outlet ?? (clientChanged ? undefined : current.outlet);
  if (!clientChanged && context.outlets.length > 0) {
    outlet = resolveOutletSelection(outlet, context.outlets, context.page.outletMode);
  }
  return {
    filters: {
      clientId,
      mallIds,
      outlet,
      dateRange: fitRange(url.dateRange ?? current.dateRange, context.window, maxDays),
      hours: url.hours ?? current.hours,
      timeRange,
      metric,
      month: url.month ?? current.month,
    },
    reasons: parsed.ok ? [] : parsed.reasons,
  };
}

/** The committed range is no longer than the maximum for this time range and metric. */
export function fitsRange(context: FilterHeaderContext, timeRange: TimeRange, metric: Metric): boolean {
  return rangeDays(context.filters.dateRange) <= maxDaysFor(context.page, timeRange, metric);
}

export function inMallOrder(malls: readonly MallLike[], ids: readonly number[]): number[] {
  return malls.map((mall) => mall.id).filter((id) => ids.includes(id));
}

export function requireClientId(context: FilterHeaderContext): number {
  if (context.filters.clientId === undefined) throw new Error('No client is selected');
  return context.filters.clientId;
}

/**
 * The filter line a narrow screen shows in place of the filters (one line that opens them): the malls chosen, the
 * period, and on Header V2 pages the hours, time range and metric, each as the header's controls write them.
 */
export function filterLineText(
  context: Pick<FilterHeaderContext<MallLike & { readonly name: string }>, 'page' | 'filters' | 'malls' | 'window'>,
): string {
  const { page, filters, malls } = context;
  const chosen = malls.filter((mall) => filters.mallIds.includes(mall.id)).map((mall) => mall.name);
  const parts = [chosen.length === 0 ? 'No mall' : chosen.join(', ')];
  if (page.period === 'range') {
    parts.push(formatDateRange(filters.dateRange.start, filters.dateRange.end, context.window.latest));
  }
  if (page.period === 'month' && filters.month !== undefined) parts.push(formatMonth(filters.month));
  if (page.headerV2) {
    parts.push(formatHourRange(filters.hours), timeRangeLabel(filters.timeRange), metricLabel(filters.metric));
  }
  return parts.join(' · ');
}
