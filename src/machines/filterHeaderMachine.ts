import dayjs from 'dayjs';
import { assign, emit, enqueueActions, fromPromise, raise, sendTo, setup } from 'xstate';
import { getMalls, getOutlets, type Mall, type Outlet } from '../api/lookup';
import { filterCookieStrings, readFilterCookies } from '../domain/cookies';
import {
  ALL_DAY,
  BREAKEVEN_MAX_DAYS,
  clampRange,
  DATE_FORMAT,
  DATE_RANGE_EXCEEDED_TITLE,
  type DateRange,
  type DateWindow,
  DEFAULT_METRIC,
  DEFAULT_TIME_RANGE,
  dateRangeExceededMessage,
  defaultDateRange,
  type HourRange,
  isMonthSelectable,
  type Metric,
  maxRangeDays,
  monthOf,
  rangeDays,
  selectableWindow,
  type TimeRange,
  validateDateRange,
  validateHourRange,
} from '../domain/dateLimits';
import {
  canSelectOutlet,
  MALL_REQUIRED_MESSAGE,
  OPTIONS_FETCH_ERROR_MESSAGE,
  type OutletMode,
  type OutletSelection,
  outletIdsOf,
  resolveMallSelection,
  resolveOutletSelection,
  toggleId,
} from '../domain/filterOptions';
import { type FilterQuery, type FilterUrlReason, parseFilterQuery, withFilterQuery } from '../domain/filterUrl';
import { TOAST_TIMEOUT } from '../domain/messages';
import { dateRangePickerMachine } from './dateRangePickerMachine';
import { hourPickerMachine } from './hourPickerMachine';

/**
 * The filter header (§2, §4, §5): the committed filters every report page reads (client, malls, outlet,
 * date range, hour range, time range, metric, month), the lookups they need (malls and outlets of the
 * client), the Malls multi-select, the outlet dropdown's selection, the 'Date Range Exceeded' alert, and
 * the pickers as invoked children (`dateRangePicker`, `hourPicker`, reached through `snapshot.children`).
 *
 * Parallel regions:
 *   lookups.active.{malls, outlets}: checking ─> idle (no client) | loading ─> loaded | failure ── lookups.retry ─> loading
 *   mallSelect: closed ── malls.open ─> open.editing ── malls.toggle / selectAll / deselectAll ─> open.editing
 *               open ── malls.apply ─> closed (commits) | open.invalid ('Please select a mall');  malls.cancel ─> closed
 *   alert: hidden ── alert.show ─> shown ── alert.dismiss ─> hidden   ('Date Range Exceeded')
 *   activity: idle ── page.loading ─> busy (tag `disabled`; counts pending fetches) ── last page.loaded ─> idle
 *
 * Root events (no state change): client.change (clears malls and outlet, reloads both lookups),
 * dateRange.change / hours.change (from the pickers, validated again), timeRange.change / metric.change
 * (re-validate the range: too long → the alert, the old value stays), month.change, outlet.change,
 * page.change (the page's filter configuration), url.change (back/forward: re-read the URL).
 *
 * Start: URL → cookies → defaults. Every commit writes the URL through the injected action `writeUrl`
 * ({ search, replace }: a new history entry for a user's change; `replace` for the start, lookups, page and
 * URL changes; nothing when the URL already says it) and, for client/outlet/malls, the 14-day cookies
 * through the injected action `writeCookies` ({ cookies }: `document.cookie` assignments).
 * While a page fetch is pending (tag `disabled`) the filters accept no change and the pickers do not open;
 * while a list loads (tags `mallsLoading`, `outletsLoading`) its control does not open. Views ask
 * `state.can(...)`. A failed lookup emits `notify` (a toast).
 *
 * Regions talk through raised events (`alert.show`, `url.write`, `lookups.reload`) rather than
 * transitions across regions, which would re-enter every region of the parallel root.
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
}

export const DEFAULT_FILTER_PAGE: FilterPageConfig = {
  period: 'range',
  headerV2: false,
  averageTransactionValue: false,
  breakeven: false,
  outletMode: 'all',
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

export interface FilterHeaderContext {
  today: string;
  window: DateWindow;
  page: FilterPageConfig;
  mobile: boolean;
  clientIds: readonly number[];
  /** The query of the URL as last read or written (no '?'). */
  search: string;
  filters: CommittedFilters;
  malls: Mall[];
  outlets: Outlet[];
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

export type FilterHeaderEvent =
  | { type: 'client.change'; clientId: number }
  | { type: 'malls.open' }
  | { type: 'malls.toggle'; mallId: number }
  | { type: 'malls.selectAll' }
  | { type: 'malls.deselectAll' }
  | { type: 'malls.apply' }
  | { type: 'malls.cancel' }
  | { type: 'outlet.change'; outlet: OutletSelection }
  | { type: 'dateRange.change'; range: DateRange }
  | { type: 'hours.change'; hours: HourRange }
  | { type: 'timeRange.change'; timeRange: TimeRange }
  | { type: 'metric.change'; metric: Metric }
  | { type: 'month.change'; month: string }
  | { type: 'alert.show'; title: string; message: string }
  | { type: 'alert.dismiss' }
  | { type: 'page.loading' }
  | { type: 'page.loaded' }
  | { type: 'page.change'; page: Partial<FilterPageConfig> }
  | { type: 'url.change'; search: string }
  | { type: 'lookups.reload' }
  /** Internal (raised after a commit): show the committed filters in the URL if it differs. */
  | { type: 'url.write'; replace: boolean }
  | { type: 'lookups.retry' };

/** Emitted for a toast (`actorRef.on('notify', ...)`), like the auth machine's notices. */
export interface FilterHeaderNotice {
  type: 'notify';
  intent: 'danger';
  message: string;
  timeout: number;
}

/* ---------------------------------------------------------------- pure helpers */

/** The longest range the page allows for a time range and metric (§9). */
export function maxDaysFor(page: FilterPageConfig, timeRange: TimeRange, metric: Metric): number {
  if (page.breakeven) return BREAKEVEN_MAX_DAYS;
  if (!page.headerV2) return maxRangeDays(DEFAULT_TIME_RANGE, DEFAULT_METRIC);
  return maxRangeDays(timeRange, metric);
}

export function maxDaysOf(context: Pick<FilterHeaderContext, 'page' | 'filters'>): number {
  return maxDaysFor(context.page, context.filters.timeRange, context.filters.metric);
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

function stripQuestionMark(search: string): string {
  return search.startsWith('?') ? search.slice(1) : search;
}

/** The query with the filters (commas left readable). */
function searchWithFilters(context: Pick<FilterHeaderContext, 'page' | 'filters' | 'search'>): string {
  return withFilterQuery(context.search, filterQueryOf(context)).replace(/%2C/gi, ',');
}

function isClientAllowed(clientIds: readonly number[], clientId: number | undefined | null): clientId is number {
  if (clientId === undefined || clientId === null) return false;
  return clientIds.length === 0 || clientIds.includes(clientId);
}

function pageOf(page: Partial<FilterPageConfig> | undefined): FilterPageConfig {
  return { ...DEFAULT_FILTER_PAGE, ...page };
}

/** A metric the page does not offer becomes GMV. */
function metricFor(page: FilterPageConfig, metric: Metric): Metric {
  return metric === 'average_transaction_value' && !page.averageTransactionValue ? DEFAULT_METRIC : metric;
}

/** Keeps a committed range within the page's maximum and the window (a page change, a URL change). */
function fitRange(range: DateRange, window: DateWindow, maxDays: number): DateRange {
  const problem = validateDateRange(range, { window, maxDays });
  if (problem === undefined) return range;
  if (problem.kind === 'exceeded' || problem.kind === 'beforeEarliest') return clampRange(range, maxDays, window);
  return defaultDateRange(window, maxDays);
}

function urlRules(context: Pick<FilterHeaderContext, 'window' | 'page' | 'filters'>) {
  return {
    window: context.window,
    maxDays: (timeRange: TimeRange | undefined, metric: Metric | undefined) =>
      maxDaysFor(context.page, timeRange ?? context.filters.timeRange, metric ?? context.filters.metric),
  };
}

/** The context a header starts with: the URL's values, else the cookies', else the defaults. */
export function initialFilterHeaderContext(input: FilterHeaderInput): FilterHeaderContext {
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
    month: monthOf(today),
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
    month: url.month ?? monthOf(today),
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
    mallDraft: [],
    mallError: undefined,
    alert: undefined,
    pendingFetches: 0,
    urlReasons: parsed.ok ? [] : parsed.reasons,
  };
}

/** The filters after the URL changed (back/forward, a link): its good values win, the rest stay. */
function filtersFromUrl(
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
function fitsRange(context: FilterHeaderContext, timeRange: TimeRange, metric: Metric): boolean {
  return rangeDays(context.filters.dateRange) <= maxDaysFor(context.page, timeRange, metric);
}

function inMallOrder(malls: readonly Mall[], ids: readonly number[]): number[] {
  return malls.map((mall) => mall.id).filter((id) => ids.includes(id));
}

function requireClientId(context: FilterHeaderContext): number {
  if (context.filters.clientId === undefined) throw new Error('No client is selected');
  return context.filters.clientId;
}

/* ---------------------------------------------------------------- the machine */

/** Browser URL with a new query, same path and hash. */
function browserUrlWith(search: string): string {
  const { pathname, hash } = window.location;
  return `${pathname}${search === '' ? '' : `?${search}`}${hash}`;
}

/** Saves client, outlet and malls in the 14-day cookies (an injected effect: `writeCookies`). */
const saveCookies = {
  type: 'writeCookies',
  params: ({ context }: { context: FilterHeaderContext }) => {
    const { clientId, outlet, mallIds } = context.filters;
    return { cookies: filterCookieStrings({ clientId, outlet, mallIds }) };
  },
} as const;

/** No page fetch is pending (the header's filters accept changes). */
function isIdle(context: FilterHeaderContext): boolean {
  return context.pendingFetches === 0;
}

export const filterHeaderMachine = setup({
  types: {
    context: {} as FilterHeaderContext,
    events: {} as FilterHeaderEvent,
    input: {} as FilterHeaderInput,
    emitted: {} as FilterHeaderNotice,
    tags: {} as 'disabled' | 'mallsLoading' | 'outletsLoading',
    children: {} as { dateRangePicker: 'dateRangePicker'; hourPicker: 'hourPicker' },
  },
  actors: {
    fetchMalls: fromPromise<Mall[], { clientId: number }>(({ input, signal }) => getMalls(input.clientId, { signal })),
    fetchOutlets: fromPromise<Outlet[], { clientId: number }>(({ input, signal }) => getOutlets(input.clientId, { signal })),
    dateRangePicker: dateRangePickerMachine,
    hourPicker: hourPickerMachine,
  },
  guards: {
    hasClient: ({ context }) => context.filters.clientId !== undefined,
    canChangeClient: ({ context }, params: { clientId: number }) =>
      params.clientId !== context.filters.clientId && isClientAllowed(context.clientIds, params.clientId),
    isKnownMall: ({ context }, params: { mallId: number }) => context.malls.some((mall) => mall.id === params.mallId),
    isMallDraftEmpty: ({ context }) => context.mallDraft.length === 0,
    canOpenMalls: ({ context }) => isIdle(context) && context.malls.length > 0,
    canSelectOutlet: ({ context }, params: { outlet: OutletSelection }) =>
      isIdle(context) && canSelectOutlet(params.outlet, context.outlets, context.page.outletMode),
    isRangeAllowed: ({ context }, params: { range: DateRange }) =>
      validateDateRange(params.range, { window: context.window, maxDays: maxDaysOf(context) }) === undefined,
    isHourRangeValid: (_, params: { hours: HourRange }) => validateHourRange(params.hours) === undefined,
    /** Header V2 is shown and idle. */
    canChangeTimeRange: ({ context }) => isIdle(context) && context.page.headerV2,
    /** Header V2 is shown, idle, and offers the metric. */
    canChangeMetric: ({ context }, params: { metric: Metric }) =>
      isIdle(context) && context.page.headerV2 && metricFor(context.page, params.metric) === params.metric,
    /** As canChangeTimeRange, and the committed range fits the new time range's maximum. */
    canChangeTimeRangeKeepingRange: ({ context }, params: { timeRange: TimeRange }) =>
      isIdle(context) && context.page.headerV2 && fitsRange(context, params.timeRange, context.filters.metric),
    /** As canChangeMetric, and the committed range fits the new metric's maximum. */
    canChangeMetricKeepingRange: ({ context }, params: { metric: Metric }) =>
      isIdle(context) &&
      context.page.headerV2 &&
      metricFor(context.page, params.metric) === params.metric &&
      fitsRange(context, context.filters.timeRange, params.metric),
    canSelectMonth: ({ context }, params: { month: string }) =>
      isIdle(context) && context.page.period === 'month' && isMonthSelectable(params.month, context.window),
    isFetchPending: ({ context }) => context.pendingFetches > 0,
    isNothingPending: ({ context }) => context.pendingFetches === 0,
    isUrlOutdated: ({ context }) => searchWithFilters(context) !== context.search,
  },
  actions: {
    /* Injected effects: the lead provides wouter's navigate; tests observe them. */
    /** Puts the query in the browser's URL (a new history entry unless `replace`). */
    writeUrl: (_, params: { search: string; replace: boolean }) => {
      if (typeof window === 'undefined') return;
      if (params.replace) window.history.replaceState(window.history.state, '', browserUrlWith(params.search));
      else window.history.pushState(window.history.state, '', browserUrlWith(params.search));
    },
    writeCookies: (_, params: { cookies: readonly string[] }) => {
      if (typeof document === 'undefined') return;
      for (const cookie of params.cookies) document.cookie = cookie;
    },

    /** Asks for the URL to show the committed filters (handled by `url.write`, after this step's assigns). */
    pushFilters: raise({ type: 'url.write' as const, replace: false }),
    replaceFilters: raise({ type: 'url.write' as const, replace: true }),
    setSearch: assign((_, params: { search: string }) => ({ search: params.search })),
    notifyLookupFailure: emit({
      type: 'notify',
      intent: 'danger',
      message: OPTIONS_FETCH_ERROR_MESSAGE,
      timeout: TOAST_TIMEOUT.long,
    } as const),

    setClient: assign(({ context }, params: { clientId: number }) => ({
      filters: { ...context.filters, clientId: params.clientId, mallIds: [], outlet: undefined },
      malls: [],
      outlets: [],
      mallDraft: [],
      mallError: undefined,
    })),
    setMalls: assign(({ context }, params: { malls: Mall[] }) => ({
      malls: params.malls,
      filters: { ...context.filters, mallIds: resolveMallSelection(context.filters.mallIds, params.malls) },
    })),
    setOutlets: assign(({ context }, params: { outlets: Outlet[] }) => ({
      outlets: params.outlets,
      filters: {
        ...context.filters,
        outlet: resolveOutletSelection(context.filters.outlet, params.outlets, context.page.outletMode),
      },
    })),
    resetMalls: assign({ malls: [] }),
    resetOutlets: assign({ outlets: [] }),

    setMallDraftFromCommitted: assign(({ context }) => ({ mallDraft: context.filters.mallIds, mallError: undefined })),
    toggleMallDraft: assign(({ context }, params: { mallId: number }) => {
      const ticked = toggleId(context.mallDraft, params.mallId);
      // In the malls' order, whatever the order of ticking.
      return { mallDraft: inMallOrder(context.malls, ticked), mallError: undefined };
    }),
    setMallDraftAll: assign(({ context }) => ({
      mallDraft: context.malls.map((mall) => mall.id),
      mallError: undefined,
    })),
    setMallDraftNone: assign({ mallDraft: [], mallError: undefined }),
    setMallError: assign({ mallError: MALL_REQUIRED_MESSAGE }),
    setMallsFromDraft: assign(({ context }) => ({
      filters: { ...context.filters, mallIds: inMallOrder(context.malls, context.mallDraft) },
      mallError: undefined,
    })),
    resetMallDraft: assign({ mallDraft: [], mallError: undefined }),

    setOutlet: assign(({ context }, params: { outlet: OutletSelection }) => ({
      filters: { ...context.filters, outlet: params.outlet },
    })),
    setDateRange: assign(({ context }, params: { range: DateRange }) => ({
      filters: { ...context.filters, dateRange: { start: params.range.start, end: params.range.end } },
    })),
    setHours: assign(({ context }, params: { hours: HourRange }) => ({
      filters: { ...context.filters, hours: params.hours },
    })),
    setTimeRange: assign(({ context }, params: { timeRange: TimeRange }) => ({
      filters: { ...context.filters, timeRange: params.timeRange },
    })),
    setMetric: assign(({ context }, params: { metric: Metric }) => ({
      filters: { ...context.filters, metric: params.metric },
    })),
    setMonth: assign(({ context }, params: { month: string }) => ({
      filters: { ...context.filters, month: params.month },
    })),
    setPage: assign(({ context }, params: { page: Partial<FilterPageConfig> }) => {
      const page = pageOf(params.page);
      const metric = metricFor(page, context.filters.metric);
      const maxDays = maxDaysFor(page, context.filters.timeRange, metric);
      return {
        page,
        filters: {
          ...context.filters,
          metric,
          dateRange: fitRange(context.filters.dateRange, context.window, maxDays),
          outlet:
            context.outlets.length > 0
              ? resolveOutletSelection(context.filters.outlet, context.outlets, page.outletMode)
              : context.filters.outlet,
        },
      };
    }),
    setAlert: assign((_, params: FilterAlert) => ({ alert: { title: params.title, message: params.message } })),
    resetAlert: assign({ alert: undefined }),
    /** Shows 'Date Range Exceeded' for the maximum the time range and metric would have. */
    showRangeExceeded: raise((_, params: { maxDays: number }) => ({
      type: 'alert.show' as const,
      title: DATE_RANGE_EXCEEDED_TITLE,
      message: dateRangeExceededMessage(params.maxDays),
    })),
    /** Shows why a range was refused (from a picker or a caller that did not check it). */
    showRangeProblem: enqueueActions(({ context, enqueue }, params: { range: DateRange }) => {
      const problem = validateDateRange(params.range, { window: context.window, maxDays: maxDaysOf(context) });
      if (problem === undefined) return;
      enqueue.raise({
        type: 'alert.show',
        title: problem.kind === 'exceeded' ? problem.title : DATE_RANGE_EXCEEDED_TITLE,
        message: problem.message,
      });
    }),
    addPendingFetch: assign(({ context }) => ({ pendingFetches: context.pendingFetches + 1 })),
    removePendingFetch: assign(({ context }) => ({ pendingFetches: Math.max(0, context.pendingFetches - 1) })),

    /** Tells the pickers the committed values and the current maximum. */
    syncPickers: enqueueActions(({ context, enqueue }) => {
      enqueue.sendTo('dateRangePicker', { type: 'dateRange.configure', maxDays: maxDaysOf(context) });
      enqueue.sendTo('dateRangePicker', { type: 'dateRange.set', range: context.filters.dateRange });
      enqueue.sendTo('hourPicker', { type: 'hours.set', hours: context.filters.hours });
    }),
    configureDatePicker: sendTo('dateRangePicker', ({ context }) => ({
      type: 'dateRange.configure' as const,
      maxDays: maxDaysOf(context),
    })),
    disablePickers: enqueueActions(({ enqueue }) => {
      enqueue.sendTo('dateRangePicker', { type: 'dateRange.disable' });
      enqueue.sendTo('hourPicker', { type: 'hours.disable' });
    }),
    enablePickers: enqueueActions(({ enqueue }) => {
      enqueue.sendTo('dateRangePicker', { type: 'dateRange.enable' });
      enqueue.sendTo('hourPicker', { type: 'hours.enable' });
    }),
    /** Reads the URL again; a different client reloads the lookups. */
    applyUrl: enqueueActions(({ context, enqueue }, params: { search: string }) => {
      const search = stripQuestionMark(params.search);
      const { filters, reasons } = filtersFromUrl(context, search);
      const clientChanged = filters.clientId !== context.filters.clientId;
      enqueue.assign({
        search,
        filters,
        urlReasons: reasons,
        ...(clientChanged && { malls: [], outlets: [], mallDraft: [], mallError: undefined }),
      });
      if (clientChanged) enqueue.raise({ type: 'lookups.reload' });
    }),
  },
}).createMachine({
  id: 'filterHeader',
  type: 'parallel',
  context: ({ input }) => initialFilterHeaderContext(input),
  entry: 'replaceFilters',
  invoke: [
    {
      id: 'dateRangePicker',
      src: 'dateRangePicker',
      input: ({ context, self }) => ({
        range: context.filters.dateRange,
        window: context.window,
        maxDays: maxDaysOf(context),
        variant: context.mobile ? 'mobile' : 'desktop',
        reportTo: self,
      }),
    },
    {
      id: 'hourPicker',
      src: 'hourPicker',
      input: ({ context, self }) => ({ hours: context.filters.hours, reportTo: self }),
    },
  ],
  on: {
    'client.change': {
      guard: { type: 'canChangeClient', params: ({ event }) => ({ clientId: event.clientId }) },
      actions: [
        { type: 'setClient', params: ({ event }) => ({ clientId: event.clientId }) },
        saveCookies,
        'pushFilters',
        raise({ type: 'lookups.reload' }),
      ],
    },
    'outlet.change': {
      guard: { type: 'canSelectOutlet', params: ({ event }) => ({ outlet: event.outlet }) },
      actions: [{ type: 'setOutlet', params: ({ event }) => ({ outlet: event.outlet }) }, saveCookies, 'pushFilters'],
    },
    'dateRange.change': [
      {
        guard: { type: 'isRangeAllowed', params: ({ event }) => ({ range: event.range }) },
        actions: [{ type: 'setDateRange', params: ({ event }) => ({ range: event.range }) }, 'pushFilters'],
      },
      {
        actions: ['syncPickers', { type: 'showRangeProblem', params: ({ event }) => ({ range: event.range }) }],
      },
    ],
    'hours.change': [
      {
        guard: { type: 'isHourRangeValid', params: ({ event }) => ({ hours: event.hours }) },
        actions: [{ type: 'setHours', params: ({ event }) => ({ hours: event.hours }) }, 'pushFilters'],
      },
      { actions: 'syncPickers' },
    ],
    'timeRange.change': [
      {
        guard: { type: 'canChangeTimeRangeKeepingRange', params: ({ event }) => ({ timeRange: event.timeRange }) },
        actions: [
          { type: 'setTimeRange', params: ({ event }) => ({ timeRange: event.timeRange }) },
          'configureDatePicker',
          'pushFilters',
        ],
      },
      {
        guard: 'canChangeTimeRange',
        actions: {
          type: 'showRangeExceeded',
          params: ({ context, event }) => ({
            maxDays: maxDaysFor(context.page, event.timeRange, context.filters.metric),
          }),
        },
      },
    ],
    'metric.change': [
      {
        guard: { type: 'canChangeMetricKeepingRange', params: ({ event }) => ({ metric: event.metric }) },
        actions: [
          { type: 'setMetric', params: ({ event }) => ({ metric: event.metric }) },
          'configureDatePicker',
          'pushFilters',
        ],
      },
      {
        guard: { type: 'canChangeMetric', params: ({ event }) => ({ metric: event.metric }) },
        actions: {
          type: 'showRangeExceeded',
          params: ({ context, event }) => ({
            maxDays: maxDaysFor(context.page, context.filters.timeRange, event.metric),
          }),
        },
      },
    ],
    'month.change': {
      guard: { type: 'canSelectMonth', params: ({ event }) => ({ month: event.month }) },
      actions: [{ type: 'setMonth', params: ({ event }) => ({ month: event.month }) }, 'pushFilters'],
    },
    'page.change': {
      actions: [
        { type: 'setPage', params: ({ event }) => ({ page: event.page }) },
        'syncPickers',
        saveCookies,
        'replaceFilters',
      ],
    },
    'url.write': {
      guard: 'isUrlOutdated',
      actions: [
        { type: 'setSearch', params: ({ context }) => ({ search: searchWithFilters(context) }) },
        { type: 'writeUrl', params: ({ context, event }) => ({ search: context.search, replace: event.replace }) },
      ],
    },
    'url.change': {
      actions: [
        { type: 'applyUrl', params: ({ event }) => ({ search: event.search }) },
        'syncPickers',
        saveCookies,
        'replaceFilters',
      ],
    },
  },
  states: {
    lookups: {
      initial: 'active',
      on: { 'lookups.reload': { target: '.active' } },
      states: {
        active: {
          type: 'parallel',
          states: {
            malls: {
              initial: 'checking',
              states: {
                checking: { always: [{ guard: 'hasClient', target: 'loading' }, { target: 'idle' }] },
                /** No client: nothing to load. */
                idle: {},
                loading: {
                  tags: ['mallsLoading'],
                  invoke: {
                    src: 'fetchMalls',
                    input: ({ context }) => ({ clientId: requireClientId(context) }),
                    onDone: {
                      target: 'loaded',
                      actions: [
                        { type: 'setMalls', params: ({ event }) => ({ malls: event.output }) },
                        saveCookies,
                        'replaceFilters',
                      ],
                    },
                    onError: { target: 'failure', actions: ['resetMalls', 'notifyLookupFailure'] },
                  },
                },
                loaded: {},
                failure: { on: { 'lookups.retry': { target: 'loading' } } },
              },
            },
            outlets: {
              initial: 'checking',
              states: {
                checking: { always: [{ guard: 'hasClient', target: 'loading' }, { target: 'idle' }] },
                idle: {},
                loading: {
                  tags: ['outletsLoading'],
                  invoke: {
                    src: 'fetchOutlets',
                    input: ({ context }) => ({ clientId: requireClientId(context) }),
                    onDone: {
                      target: 'loaded',
                      actions: [
                        { type: 'setOutlets', params: ({ event }) => ({ outlets: event.output }) },
                        saveCookies,
                        'replaceFilters',
                      ],
                    },
                    onError: { target: 'failure', actions: ['resetOutlets', 'notifyLookupFailure'] },
                  },
                },
                loaded: {},
                failure: { on: { 'lookups.retry': { target: 'loading' } } },
              },
            },
          },
        },
      },
    },
    mallSelect: {
      initial: 'closed',
      on: { 'lookups.reload': { target: '.closed', actions: 'resetMallDraft' } },
      states: {
        closed: {
          on: {
            'malls.open': {
              guard: 'canOpenMalls',
              target: 'open',
              actions: 'setMallDraftFromCommitted',
            },
          },
        },
        open: {
          initial: 'editing',
          on: {
            'malls.toggle': {
              guard: { type: 'isKnownMall', params: ({ event }) => ({ mallId: event.mallId }) },
              target: '.editing',
              actions: { type: 'toggleMallDraft', params: ({ event }) => ({ mallId: event.mallId }) },
            },
            'malls.selectAll': { target: '.editing', actions: 'setMallDraftAll' },
            'malls.deselectAll': { target: '.editing', actions: 'setMallDraftNone' },
            'malls.apply': [
              { guard: 'isMallDraftEmpty', target: '.invalid', actions: 'setMallError' },
              {
                target: 'closed',
                actions: ['setMallsFromDraft', saveCookies, 'pushFilters'],
              },
            ],
            'malls.cancel': { target: 'closed', actions: 'resetMallDraft' },
          },
          states: {
            editing: {},
            /** 'Please select a mall' shows. */
            invalid: {},
          },
        },
      },
    },
    alert: {
      initial: 'hidden',
      states: {
        hidden: {
          on: {
            'alert.show': {
              target: 'shown',
              actions: { type: 'setAlert', params: ({ event }) => ({ title: event.title, message: event.message }) },
            },
          },
        },
        /** The 'Date Range Exceeded' alert. */
        shown: {
          on: {
            'alert.show': {
              actions: { type: 'setAlert', params: ({ event }) => ({ title: event.title, message: event.message }) },
            },
            'alert.dismiss': { target: 'hidden', actions: 'resetAlert' },
          },
        },
      },
    },
    activity: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'page.loading': { target: 'busy', actions: 'addPendingFetch' } },
        },
        /** A page fetch is pending: the filters are disabled. */
        busy: {
          tags: ['disabled'],
          entry: 'disablePickers',
          exit: 'enablePickers',
          always: { guard: 'isNothingPending', target: 'idle' },
          on: {
            'page.loading': { actions: 'addPendingFetch' },
            'page.loaded': { guard: 'isFetchPending', actions: 'removePendingFetch' },
          },
        },
      },
    },
  },
});
