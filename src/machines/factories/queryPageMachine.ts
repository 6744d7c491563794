import { and, assign, emit, fromCallback, fromPromise, not, sendTo, setup, spawnChild } from 'xstate';
import { type CurrencyFigures, missingRateRefusalOf } from '../../api/errors';
import { type ComparisonChoice, DEFAULT_COMPARISON } from '../../domain/comparisons';
import type { CsvFile } from '../../domain/csv';
import { formatFileDateRange } from '../../domain/format';
import { type ReportQuery, reportQueryOf } from '../../domain/mallReportViews';
import { errorOccurs, loadFailureNotice, type Notice, TOAST_TIMEOUT } from '../../domain/messages';
import {
  type ComparisonUrlEvent,
  comparisonInUrl,
  followComparisonUrl,
  shownComparison,
  writeComparisonThroughGuard,
} from '../comparisonUrlSync';
import { followHeaderFilters, type HeaderFiltersEvent, lockHeader } from '../headerLink';
import { exportCsvFiles } from '../reportExport';

/**
 * The query page: the one shape of every report page. The page follows the filter header's committed filters
 * (`header.filters`, from the invoked `followHeaderFilters`: on start and after every Apply) and is made of
 * panels (a chart with its table, a row of KPIs), each with its own load. A new report query loads every panel at
 * once; each panel then ends on its own:
 *
 *   panel: loading ── done ─> loaded | empty (nothing to show: 'No Data')
 *                  └ error ─> failed ── report.retry { panel } ─> loading
 *
 * so one failed call fails its own panel, with a retry, and the others keep their figures. Each failure shows the
 * toast '{what} error occurs. Please try again later.' (5 s; the toaster shows one of equal messages).
 *
 *   idle ── header.filters (a query) | report.load ─> active
 *   active: busy (tagged 'loading'; the header is disabled) ── no panel loading ─> settled ── a retry ─> busy
 *   active ── a new query ─> active (re-entered: every pending call is aborted, every panel loads again)
 *
 * `report.export` downloads the page's CSV files for the range shown, one export at a time, not while a panel
 * loads; a failed export toasts '{what} export error occurs. Please try again later.'.
 *
 * A page that offers the comparison controls (`comparisonInUrl`) keeps its choice in the address: the machine
 * starts with the choice the address holds and shows each `report.compare` there (comparisonUrlSync.ts). It follows
 * the address too: back or forward to another choice (`comparison.url`) asks the query shown again with it, and a
 * new query (the header's filters, `report.load`) takes the address's choice, so that a move that changes both the
 * filters and the choice asks once.
 */

/** 'idle': nothing asked yet (no client or malls): drawn as empty. */
export type PanelStatus = 'idle' | 'loading' | 'loaded' | 'empty' | 'failed';

/** What a panel shows: its figures only when loaded (or empty); a skeleton while loading; a retry when failed. */
export interface Panel<T> {
  readonly status: PanelStatus;
  readonly data: T | undefined;
  /** Why a failed panel cannot be shown as asked, when the server said (a 409: no exchange rate for a month). */
  readonly reason?: string;
  /** With that refusal: the figures per currency, each in its own currency, instead of a total. */
  readonly byCurrency?: readonly CurrencyFigures[];
}

export type Panels<TPanels> = { readonly [K in keyof TPanels]: Panel<TPanels[K]> };

export interface PanelLoader<T> {
  /** The panel's calls; `signal` aborts them when the query is superseded or the page goes away. */
  readonly load: (query: ReportQuery, signal: AbortSignal) => Promise<T>;
  /** Nothing to show (default: never). */
  readonly isEmpty?: (data: T) => boolean;
}

export type PanelLoaders<TPanels> = { readonly [K in keyof TPanels]: PanelLoader<TPanels[K]> };

type PanelName<TPanels> = keyof TPanels & string;

/** A panel's answer, sent back by the loads actor. */
export type PanelAnswer =
  | { type: 'panel.done'; panel: string; data: unknown }
  | { type: 'panel.failed'; panel: string; reason?: string; byCurrency?: readonly CurrencyFigures[] };

export type QueryPageEvent =
  | { type: 'report.load'; query: ReportQuery }
  /** Loads the failed panels again: the one named, or every failed one. */
  | { type: 'report.retry'; panel?: string }
  /** What the growth figures compare with: the query again with the page's new choice. */
  | { type: 'report.compare'; comparison: ComparisonChoice }
  /** The address of the page now holds this choice (back, forward): the query asked again with it, not written. */
  | ComparisonUrlEvent
  /**
   * Loads one panel again in the background, its figures kept meanwhile (what another part of the page changed:
   * Mall Home's annotations after an event is added).
   */
  | { type: 'report.refresh'; panel: string }
  /** Downloads the page's CSV files (`base` names the zip), for the range shown. */
  | { type: 'report.export'; base: string; files: readonly CsvFile[] }
  | HeaderFiltersEvent
  | PanelAnswer;

export interface QueryPageContext<TPanels> {
  readonly query: ReportQuery | undefined;
  /** The page's choice of comparison, carried into every query (the filters do not hold it). */
  readonly comparison: ComparisonChoice;
  readonly panels: Panels<TPanels>;
  /** The CSV files are being made (one export at a time). */
  readonly exporting: boolean;
}

export interface QueryPageOptions<TPanels> {
  readonly id: string;
  /** The '{what}' of the failure toasts. */
  readonly what: string;
  /** Header V2 pages report the header's hours, time range and metric; the others whole days. */
  readonly withHours?: boolean;
  /** An outlet-level page reports the header's one outlet (`query.outletId`): nothing until one is chosen. */
  readonly outletLevel?: boolean;
  /**
   * The page's choice of comparison is read from the address when the page opens, written there on each change and
   * follows it when it moves (the pages that show the comparison controls; the others compare by the default and
   * leave the address alone).
   */
  readonly comparisonInUrl?: boolean;
  readonly panels: PanelLoaders<TPanels>;
}

/** Told to the loads actor: load these panels again. */
export interface ReloadPanels {
  readonly type: 'panels.reload';
  readonly panels: readonly string[];
}

function sameQuery(a: ReportQuery | undefined, b: ReportQuery | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function mapPanels<TPanels>(
  names: readonly PanelName<TPanels>[],
  panel: (name: PanelName<TPanels>) => Panel<unknown>,
): Panels<TPanels> {
  return Object.fromEntries(names.map((name) => [name, panel(name)])) as Panels<TPanels>;
}

/** A report page's machine: the shape above, with the page's panels. */
export function createQueryPageMachine<TPanels extends object>(options: QueryPageOptions<TPanels>) {
  const names = Object.keys(options.panels) as PanelName<TPanels>[];
  const withHours = options.withHours ?? false;
  const loaderOf = <K extends PanelName<TPanels>>(name: K): PanelLoader<TPanels[K]> => options.panels[name];
  const allLoading = () => mapPanels<TPanels>(names, () => ({ status: 'loading', data: undefined }));
  /** The panel's own emptiness test, given the answer of the panel's own loader. */
  const isEmptyAnswer = (name: PanelName<TPanels>, data: unknown): boolean =>
    (loaderOf(name).isEmpty as ((answer: unknown) => boolean) | undefined)?.(data) ?? false;
  const isPanel = (name: string): name is PanelName<TPanels> => (names as readonly string[]).includes(name);
  const failedOf = (panels: Panels<TPanels>, panel: string | undefined) =>
    names.filter((name) => panels[name].status === 'failed' && (panel === undefined || panel === name));
  /**
   * The report query of the header's committed filters (an outlet-level page's with its one outlet), with the
   * page's comparison.
   */
  const queryOf = (event: HeaderFiltersEvent, comparison: ComparisonChoice): ReportQuery | undefined => {
    const filtered = reportQueryOf(event.filters, withHours, event.today);
    const query = filtered && { ...filtered, comparison };
    if (!options.outletLevel || query === undefined) return query;
    const { outlet } = event.filters;
    return typeof outlet === 'number' ? { ...query, outletId: outlet } : undefined;
  };

  /**
   * Loads the panels of one query: all at start, then those it is told to reload. Each panel's answer is sent back
   * unless superseded; stopping the actor (a new query, the page closed) aborts every call still pending.
   */
  const loadPanels = fromCallback<ReloadPanels, { query: ReportQuery }, PanelAnswer>(({ input, sendBack, receive }) => {
    const controllers = new Map<PanelName<TPanels>, AbortController>();
    const run = (name: PanelName<TPanels>) => {
      controllers.get(name)?.abort();
      const controller = new AbortController();
      controllers.set(name, controller);
      loaderOf(name)
        .load(input.query, controller.signal)
        .then(
          (data) => {
            if (!controller.signal.aborted) sendBack({ type: 'panel.done', panel: name, data });
          },
          (error: unknown) => {
            if (controller.signal.aborted) return;
            // A 409 (no exchange rate for a month): the server's reason, which a retry alone would not change, and
            // the figures per currency it gives instead.
            const refusal = missingRateRefusalOf(error);
            sendBack({
              type: 'panel.failed',
              panel: name,
              ...(refusal?.reason === undefined ? {} : { reason: refusal.reason }),
              ...(refusal ? { byCurrency: refusal.byCurrency } : {}),
            });
          },
        );
    };
    for (const name of names) run(name);
    receive((event) => {
      for (const name of event.panels) if (isPanel(name)) run(name);
    });
    return () => {
      for (const controller of controllers.values()) controller.abort();
    };
  });

  /** The shown query with another comparison. */
  const recompared = ({
    context,
    event,
  }: {
    context: QueryPageContext<TPanels>;
    event: { comparison: ComparisonChoice };
  }) => ({
    query: context.query && { ...context.query, comparison: event.comparison },
  });
  /**
   * A new comparison (the user's `report.compare`, or the address's `comparison.url`): kept for the next filters,
   * and the query shown asked again with it; `also` the user's choice is written to the address.
   */
  const recompare = <const TAlso extends readonly 'writeComparisonUrl'[]>(also: TAlso) => [
    {
      guard: { type: 'isNewQuery' as const, params: recompared },
      target: '.active' as const,
      reenter: true,
      actions: ['setComparison' as const, ...also, { type: 'startQuery' as const, params: recompared }],
    },
    { actions: ['setComparison' as const, ...also] },
  ];

  return setup({
    types: {
      context: {} as QueryPageContext<TPanels>,
      events: {} as QueryPageEvent,
      emitted: {} as Notice,
      tags: {} as 'loading',
      children: {} as { loads: 'loadPanels'; export: 'exportFiles' },
    },
    actors: {
      loadPanels,
      followHeaderFilters,
      followComparisonUrl,
      lockHeader,
      exportFiles: fromPromise<void, { base: string; suffix: string; files: readonly CsvFile[] }>(({ input }) =>
        exportCsvFiles(input.base, input.suffix, input.files),
      ),
    },
    guards: {
      hasQuery: ({ context }) => context.query !== undefined,
      notExporting: ({ context }) => !context.exporting,
      /** The committed filters make a report query other than the one shown. */
      isNewQuery: ({ context }, params: { query: ReportQuery | undefined }) =>
        params.query !== undefined && !sameQuery(params.query, context.query),
      someLoading: ({ context }) => names.some((name) => context.panels[name].status === 'loading'),
      isPanelNamed: ({ event }) => event.type === 'report.refresh' && isPanel(event.panel),
      hasFailed: ({ context, event }) =>
        event.type === 'report.retry' && failedOf(context.panels, event.panel).length > 0,
    },
    actions: {
      startQuery: assign((_, params: { query: ReportQuery | undefined }) => ({
        query: params.query,
        panels: allLoading(),
      })),
      setComparison: assign(({ event }) =>
        event.type === 'report.compare' || event.type === 'comparison.url' ? { comparison: event.comparison } : {},
      ),
      /** The choice the address holds, when the page keeps it there. */
      readComparisonUrl: assign(({ system }) =>
        options.comparisonInUrl ? { comparison: comparisonInUrl(system) } : {},
      ),
      /**
       * A new query takes the choice the address shows, when the page keeps it there: the header's filters of a move
       * back or forward come before the address's choice (`comparison.url`), which then finds it taken.
       */
      followShownComparison: assign(({ context, system }) =>
        options.comparisonInUrl ? { comparison: shownComparison(system) ?? context.comparison } : {},
      ),
      /** Shows the user's choice in the address (in place of the entry), when the page keeps it there. */
      writeComparisonUrl: ({ event, system }) => {
        if (options.comparisonInUrl && event.type === 'report.compare') {
          writeComparisonThroughGuard(system, event.comparison);
        }
      },
      settlePanel: assign(({ context, event }) => {
        if (!('panel' in event) || event.panel === undefined || !isPanel(event.panel)) return {};
        if (event.type === 'panel.done') {
          const empty = isEmptyAnswer(event.panel, event.data);
          return {
            panels: { ...context.panels, [event.panel]: { status: empty ? 'empty' : 'loaded', data: event.data } },
          };
        }
        if (event.type === 'panel.failed') {
          const failed: Panel<unknown> = {
            status: 'failed',
            data: undefined,
            ...(event.reason === undefined ? {} : { reason: event.reason }),
            ...(event.byCurrency === undefined ? {} : { byCurrency: event.byCurrency }),
          };
          return { panels: { ...context.panels, [event.panel]: failed } };
        }
        return {};
      }),
      notifyFailure: emit(loadFailureNotice(options.what)),
      reloadFailed: sendTo('loads', ({ context, event }) => ({
        type: 'panels.reload',
        panels: event.type === 'report.retry' ? failedOf(context.panels, event.panel) : [],
      })),
      markFailedLoading: assign(({ context, event }) => {
        if (event.type !== 'report.retry') return {};
        const retried = failedOf(context.panels, event.panel);
        return {
          panels: mapPanels<TPanels>(names, (name) =>
            retried.includes(name) ? { status: 'loading', data: undefined } : context.panels[name],
          ),
        };
      }),
      notifyExportFailure: emit({
        type: 'notify',
        intent: 'danger',
        message: errorOccurs(`${options.what} export`),
        timeout: TOAST_TIMEOUT.long,
      } as const),
      exportFiles: spawnChild('exportFiles', {
        id: 'export',
        input: ({ context, event }) => {
          if (event.type !== 'report.export' || !context.query) throw new Error('report: export without a range');
          const { start, end } = context.query;
          return { base: event.base, suffix: formatFileDateRange(start, end), files: event.files };
        },
      }),
    },
  }).createMachine({
    id: options.id,
    context: {
      query: undefined,
      comparison: DEFAULT_COMPARISON,
      panels: mapPanels<TPanels>(names, () => ({ status: 'idle', data: undefined })),
      exporting: false,
    },
    // Before the header's filters come (the invoked actor's first event): their first query carries the choice.
    entry: 'readComparisonUrl',
    invoke: options.comparisonInUrl
      ? [{ src: 'followHeaderFilters' }, { src: 'followComparisonUrl' }]
      : { src: 'followHeaderFilters' },
    initial: 'idle',
    on: {
      'report.load': {
        target: '.active',
        reenter: true,
        actions: [
          'followShownComparison',
          {
            type: 'startQuery',
            params: ({ context, event }) => ({
              query: { ...event.query, comparison: event.query.comparison ?? context.comparison },
            }),
          },
        ],
      },
      'header.filters': {
        guard: {
          type: 'isNewQuery',
          params: ({ context, event }) => ({ query: queryOf(event, context.comparison) }),
        },
        target: '.active',
        reenter: true,
        actions: [
          'followShownComparison',
          {
            type: 'startQuery',
            params: ({ context, event }) => ({ query: queryOf(event, context.comparison) }),
          },
        ],
      },
      'report.compare': recompare(['writeComparisonUrl']),
      'comparison.url': recompare([]),
      'xstate.done.actor.export': { actions: assign({ exporting: false }) },
      'xstate.error.actor.export': { actions: ['notifyExportFailure', assign({ exporting: false })] },
    },
    states: {
      /** No filters yet (no client or malls). */
      idle: {},
      active: {
        invoke: {
          id: 'loads',
          src: 'loadPanels',
          input: ({ context }) => {
            if (!context.query) throw new Error('report: loading without a query');
            return { query: context.query };
          },
        },
        on: {
          'panel.done': { actions: 'settlePanel' },
          'panel.failed': { actions: ['settlePanel', 'notifyFailure'] },
          'report.retry': { guard: 'hasFailed', target: '.busy', actions: ['reloadFailed', 'markFailedLoading'] },
          'report.refresh': {
            guard: 'isPanelNamed',
            actions: sendTo('loads', ({ event }) => ({ type: 'panels.reload' as const, panels: [event.panel] })),
          },
        },
        initial: 'busy',
        states: {
          /** Some panel loads: the header is disabled meanwhile. */
          busy: {
            tags: ['loading'],
            invoke: { src: 'lockHeader' },
            always: { guard: not('someLoading'), target: 'settled' },
          },
          settled: {
            on: {
              /** The CSV files of what is shown; not while a panel loads, nor before there is a range. */
              'report.export': {
                guard: and(['hasQuery', 'notExporting']),
                actions: ['exportFiles', assign({ exporting: true })],
              },
            },
          },
        },
      },
    },
  });
}
