import { assign, emit, enqueueActions, fromPromise, raise, sendTo, setup } from 'xstate';
import { getClients, getMalls, getOutlets, type Mall, type Outlet } from '../api/lookup';
import { filterCookieStrings } from '../domain/cookies';
import {
  DATE_RANGE_EXCEEDED_TITLE,
  type DateRange,
  dateRangeExceededMessage,
  type HourRange,
  isMonthSelectable,
  type Metric,
  type TimeRange,
  validateDateRange,
  validateHourRange,
} from '../domain/dateLimits';
import {
  type FilterAlert,
  type FilterHeaderInput,
  type FilterPageConfig,
  filtersFromUrl,
  filtersOnPage,
  fitsRange,
  type FilterHeaderContext as HeaderContextOf,
  initialFilterHeaderContext,
  inMallOrder,
  isClientAllowed,
  maxDaysFor,
  maxDaysOf,
  metricFor,
  pageOf,
  requireClientId,
  searchWithFilters,
  stripQuestionMark,
  timeRangeChoiceOf,
} from '../domain/filterHeader';
import {
  canSelectOutlet,
  MALL_REQUIRED_MESSAGE,
  OPTIONS_FETCH_WHAT,
  type OutletSelection,
  resolveMallSelection,
  resolveOutletSelection,
  toggleId,
} from '../domain/filterOptions';
import { loadFailureNotice, type Notice } from '../domain/messages';
import { dateRangePickerMachine } from './dateRangePickerMachine';
import { writeUrlThroughGuard } from './filterUrlSync';
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
 *   line: collapsed ── filters.toggle ─> expanded (tag `filtersExpanded`) ── filters.toggle / page.change ─> collapsed
 *         (a narrow screen shows the filters as one line that opens them; a wider one shows them all, always)
 *
 * Root events (no state change): client.change (clears malls and outlet, reloads both lookups),
 * dateRange.change / hours.change (from the pickers, validated again; a preset of the date picker may ask for a
 * longer time range with its range, `dateRange.change`'s `timeRange`: both are committed together, in one history
 * entry), timeRange.change / metric.change
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

/** The header's context with the lookups' malls and outlets. */
type FilterHeaderContext = HeaderContextOf<Mall, Outlet>;

export type FilterHeaderEvent =
  | { type: 'client.change'; clientId: number }
  | { type: 'malls.open' }
  | { type: 'malls.toggle'; mallId: number }
  | { type: 'malls.selectAll' }
  | { type: 'malls.deselectAll' }
  | { type: 'malls.apply' }
  | { type: 'malls.cancel' }
  | { type: 'outlet.change'; outlet: OutletSelection }
  /** From the date picker; `timeRange`: the one a preset asks for with its range. */
  | { type: 'dateRange.change'; range: DateRange; timeRange?: TimeRange }
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
  | { type: 'lookups.retry' }
  /** The filter line of a narrow screen: opens or closes the filters under it. */
  | { type: 'filters.toggle' }
  /** Internal (raised on a page change): the filters of the next page start under their line. */
  | { type: 'filters.collapse' };

/* ---------------------------------------------------------------- the machine */

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
    emitted: {} as Notice,
    tags: {} as 'disabled' | 'mallsLoading' | 'outletsLoading' | 'filtersExpanded',
    children: {} as { dateRangePicker: 'dateRangePicker'; hourPicker: 'hourPicker' },
  },
  actors: {
    fetchMalls: fromPromise<Mall[], { clientId: number }>(({ input, signal }) => getMalls(input.clientId, { signal })),
    fetchOutlets: fromPromise<Outlet[], { clientId: number }>(({ input, signal }) =>
      getOutlets(input.clientId, { signal }),
    ),
    fetchReportingCurrency: fromPromise<string | undefined, { clientId: number }>(async ({ input, signal }) => {
      const clients = await getClients({ signal });
      return clients.find((client) => client.id === input.clientId)?.reporting_currency;
    }),
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
    /**
     * A preset of the picker asks for another time range with its range: Header V2 is shown and idle, and the
     * range is good for that time range's maximum.
     */
    isRangeAllowedWithTimeRange: ({ context }, params: { range: DateRange; timeRange: TimeRange | undefined }) =>
      params.timeRange !== undefined &&
      params.timeRange !== context.filters.timeRange &&
      isIdle(context) &&
      context.page.headerV2 &&
      validateDateRange(params.range, {
        window: context.window,
        maxDays: maxDaysFor(context.page, params.timeRange, context.filters.metric),
      }) === undefined,
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
    /* Effects (tests replace them to observe them). */
    /** Asks the navigation guard of the app to show the query (a new history entry unless `replace`). */
    writeUrl: ({ self, system }, params: { search: string; replace: boolean }) => {
      writeUrlThroughGuard(self, system, params);
    },
    writeCookies: (_, params: { cookies: readonly string[] }) => {
      if (typeof document === 'undefined') return;
      for (const cookie of params.cookies) {
        // biome-ignore lint/suspicious/noDocumentCookie: the one place that writes the filter cookies
        document.cookie = cookie;
      }
    },

    /** Asks for the URL to show the committed filters (handled by `url.write`, after this step's assigns). */
    pushFilters: raise({ type: 'url.write' as const, replace: false }),
    replaceFilters: raise({ type: 'url.write' as const, replace: true }),
    setSearch: assign((_, params: { search: string }) => ({ search: params.search })),
    notifyLookupFailure: emit(loadFailureNotice(OPTIONS_FETCH_WHAT)),

    setClient: assign(({ context }, params: { clientId: number }) => ({
      filters: { ...context.filters, clientId: params.clientId, mallIds: [], outlet: undefined },
      malls: [],
      outlets: [],
      reportingCurrency: undefined,
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
      return { page, filters: filtersOnPage(context, page) };
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
      enqueue.sendTo('dateRangePicker', {
        type: 'dateRange.configure',
        maxDays: maxDaysOf(context),
        timeRanges: timeRangeChoiceOf(context),
      });
      enqueue.sendTo('dateRangePicker', { type: 'dateRange.set', range: context.filters.dateRange });
      enqueue.sendTo('hourPicker', { type: 'hours.set', hours: context.filters.hours });
    }),
    configureDatePicker: sendTo('dateRangePicker', ({ context }) => ({
      type: 'dateRange.configure' as const,
      maxDays: maxDaysOf(context),
      timeRanges: timeRangeChoiceOf(context),
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
  context: ({ input }) => initialFilterHeaderContext<Mall, Outlet>(input),
  entry: 'replaceFilters',
  invoke: [
    {
      id: 'dateRangePicker',
      src: 'dateRangePicker',
      input: ({ context, self }) => ({
        range: context.filters.dateRange,
        window: context.window,
        maxDays: maxDaysOf(context),
        timeRanges: timeRangeChoiceOf(context),
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
        guard: {
          type: 'isRangeAllowedWithTimeRange',
          params: ({ event }) => ({ range: event.range, timeRange: event.timeRange }),
        },
        actions: [
          {
            type: 'setTimeRange',
            params: ({ context, event }) => ({ timeRange: event.timeRange ?? context.filters.timeRange }),
          },
          { type: 'setDateRange', params: ({ event }) => ({ range: event.range }) },
          'configureDatePicker',
          'pushFilters',
        ],
      },
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
        raise({ type: 'filters.collapse' }),
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
            /**
             * The client's reporting currency, for saying which currency converted figures are in. A failure is
             * quiet: the pages then name no currency for malls of several currencies.
             */
            reportingCurrency: {
              initial: 'checking',
              states: {
                checking: { always: [{ guard: 'hasClient', target: 'loading' }, { target: 'idle' }] },
                idle: {},
                loading: {
                  invoke: {
                    src: 'fetchReportingCurrency',
                    input: ({ context }) => ({ clientId: requireClientId(context) }),
                    onDone: {
                      target: 'idle',
                      actions: assign({ reportingCurrency: ({ event }) => event.output }),
                    },
                    onError: { target: 'idle' },
                  },
                },
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
    line: {
      initial: 'collapsed',
      states: {
        collapsed: { on: { 'filters.toggle': { target: 'expanded' } } },
        /** The filters are open under their line (a narrow screen; a wider one always shows them). */
        expanded: {
          tags: ['filtersExpanded'],
          on: { 'filters.toggle': { target: 'collapsed' }, 'filters.collapse': { target: 'collapsed' } },
        },
      },
    },
  },
});
