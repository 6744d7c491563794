import { createTestModel, type TestParam } from '@xstate/test';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  type ActorRefFrom,
  type AnyStateMachine,
  assign,
  createActor,
  fromCallback,
  fromPromise,
  type SnapshotFrom,
  setup,
} from 'xstate';
import { ApiError } from '../../src/api/errors';
import { DEFAULT_COMPARISON } from '../../src/domain/comparisons';
import type { CsvFile } from '../../src/domain/csv';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import type { ReportQuery } from '../../src/domain/mallReportViews';
import { errorOccurs, type Notice } from '../../src/domain/messages';
import {
  createQueryPageMachine,
  type PanelAnswer,
  type ReloadPanels,
} from '../../src/machines/factories/queryPageMachine';
import { createMallOutletReportMachine } from '../../src/machines/mallOutletMachine';
import {
  mallGmvReportMachine,
  mallHomeReportMachine,
  memberReportMachine,
  paymentMethodsReportMachine,
  peakHoursReportMachine,
} from '../../src/machines/mallReportMachine';
import { refundsMachine, voucherRedemptionMachine } from '../../src/machines/refundsAndVoucherRedemptionMachine';
import { childOf } from './childOf';
import { fakeNavigation, type NavigationRequest } from './fakeNavigation';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the shared report-page machine (§2, §8): what the page shows (loading, the figures,
 * 'No Data', the empty state after a failure), what the filter header is told (disabled while a fetch is
 * pending) and the failure toast, over every transition of the model. The fetch is a promise the test settles.
 */

type Data = { total: number };
const QUERY_A: ReportQuery = {
  clientId: 1,
  mallIds: [1, 2],
  start: '2026-03-02',
  end: '2026-03-08',
  startHour: 0,
  endHour: 23,
  timeRange: 'daily',
  metric: 'gmv',
  comparison: DEFAULT_COMPARISON,
};
const QUERY_B: ReportQuery = { ...QUERY_A, mallIds: [2] };

interface Deferred {
  query: ReportQuery;
  resolve: (data: Data) => void;
  reject: (error: Error) => void;
  aborted: boolean;
  settled: boolean;
}

/** Panel `a` answers when the test settles it; panel `b` answers { total: 7 } at once. */
type TestPanels = { a: Data; b: Data };
let fetches: Deferred[];
let bLoads: number;

function deferredFetch(query: ReportQuery, signal: AbortSignal): Promise<Data> {
  return new Promise<Data>((resolve, reject) => {
    const deferred: Deferred = {
      query,
      resolve: (data) => {
        deferred.settled = true;
        resolve(data);
      },
      reject: (error) => {
        deferred.settled = true;
        reject(error);
      },
      aborted: false,
      settled: false,
    };
    signal.addEventListener('abort', () => {
      deferred.aborted = true;
    });
    fetches.push(deferred);
  });
}

const testMachine = createQueryPageMachine<TestPanels>({
  id: 'testReport',
  what: 'Mall GMV',
  panels: {
    a: { load: deferredFetch, isEmpty: (data) => data.total === 0 },
    b: {
      load: () => {
        bLoads += 1;
        return Promise.resolve({ total: 7 });
      },
    },
  },
});

let actor: ActorRefFrom<typeof testMachine>;

/** The header's committed filters, with no client yet. */
const NO_CLIENT: CommittedFilters = {
  clientId: undefined,
  mallIds: [],
  outlet: undefined,
  dateRange: { start: '2024-03-01', end: '2024-03-07' },
  hours: { from: 0, to: 23 },
  timeRange: 'daily',
  metric: 'gmv',
  month: undefined,
};

/** A filter header that records what it is told, with no committed client yet. */
const fakeHeader = setup({}).createMachine({
  context: { filters: NO_CLIENT },
  on: { '*': { actions: ({ event }) => headerEvents.push(event.type) } },
});
let headerEvents: string[];
let notices: Notice[];
let lastQuery: ReportQuery;

function start(): void {
  headerEvents = [];
  notices = [];
  fetches = [];
  bLoads = 0;
  const machine = testMachine;
  // The page runs in a system with a filter header (one that has no client yet, so nothing loads on its own).
  const app = createActor(
    setup({ actors: { header: fakeHeader, report: machine } }).createMachine({
      invoke: [
        { id: 'header', systemId: 'filterHeader', src: 'header' },
        { id: 'report', src: 'report' },
      ],
    }),
  ).start();
  actor = childOf(app.getSnapshot(), 'report');
  actor.on('notify', (notice) => notices.push(notice));
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const snapshot = () => actor.getSnapshot();
const pendingAtHeader = () =>
  headerEvents.filter((type) => type === 'page.loading').length -
  headerEvents.filter((type) => type === 'page.loaded').length;

type ModelEvent = { type: 'load' | 'reload' | 'resolve' | 'resolveEmpty' | 'reject' | 'retry' };

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'reportModel',
    initial: 'idle',
    states: {
      idle: { on: { load: 'loading' } },
      loading: { on: { resolve: 'loaded', resolveEmpty: 'empty', reject: 'failure', reload: 'loading' } },
      loaded: { on: { reload: 'loading' } },
      empty: { on: { reload: 'loading' } },
      failure: { on: { retry: 'loading', reload: 'loading' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

const panelA = () => snapshot().context.panels.a;

const settledChecks = () => {
  expect(snapshot().hasTag('loading')).toBe(false);
  // The other panel keeps its figures whatever became of this one.
  expect(snapshot().context.panels.b).toEqual({ status: 'loaded', data: { total: 7 } });
  // The header is enabled again: every page.loading was followed by page.loaded.
  expect(pendingAtHeader()).toBe(0);
};

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    idle: () => {
      expect(snapshot().matches('idle')).toBe(true);
      expect(headerEvents).toEqual([]);
      expect(panelA()).toEqual({ status: 'idle', data: undefined });
    },
    loading: () => {
      expect(snapshot().matches({ active: 'busy' })).toBe(true);
      expect(panelA()).toEqual({ status: 'loading', data: undefined });
      expect(snapshot().hasTag('loading')).toBe(true);
      // The header is disabled while the one current fetch is pending.
      expect(pendingAtHeader()).toBe(1);
      expect(fetches.at(-1)?.query).toEqual(lastQuery);
      expect(snapshot().context.query).toEqual(lastQuery);
      // A fetch replaced by newer filters was aborted.
      for (const stale of fetches.slice(0, -1)) expect(stale.aborted || stale.settled).toBe(true);
      expect(fetches.at(-1)?.aborted).toBe(false);
    },
    loaded: () => {
      expect(snapshot().matches({ active: 'settled' })).toBe(true);
      expect(panelA()).toEqual({ status: 'loaded', data: { total: 42 } });
      settledChecks();
    },
    empty: () => {
      expect(snapshot().matches({ active: 'settled' })).toBe(true);
      expect(panelA()).toEqual({ status: 'empty', data: { total: 0 } });
      settledChecks();
    },
    failure: () => {
      expect(snapshot().matches({ active: 'settled' })).toBe(true);
      expect(panelA()).toEqual({ status: 'failed', data: undefined });
      expect(notices.at(-1)).toEqual({
        type: 'notify',
        intent: 'danger',
        message: 'Mall GMV error occurs. Please try again later.',
        timeout: 5000,
      });
      settledChecks();
    },
  },
  events: {
    load: () => {
      lastQuery = QUERY_A;
      actor.send({ type: 'report.load', query: QUERY_A });
    },
    reload: () => {
      lastQuery = snapshot().context.query === QUERY_A ? QUERY_B : QUERY_A;
      actor.send({ type: 'report.load', query: lastQuery });
    },
    resolve: async () => {
      fetches.at(-1)?.resolve({ total: 42 });
      await flush();
    },
    resolveEmpty: async () => {
      fetches.at(-1)?.resolve({ total: 0 });
      await flush();
    },
    reject: async () => {
      fetches.at(-1)?.reject(new Error('500'));
      await flush();
    },
    retry: () => {
      const before = bLoads;
      actor.send({ type: 'report.retry', panel: 'a' });
      // Only the failed panel loads again.
      expect(bLoads).toBe(before);
    },
  },
};

describe('query page machine (model)', () => {
  beforeEach(() => start());
  describeModelCoverage(model, params, { states: ['idle', 'loading', 'loaded', 'empty', 'failure'], transitions: 9 });
});

/** The toasts a page's machine shows when one of its panels fails. */
async function failureToastsOf<TPanels extends object>(
  machine: ReturnType<typeof createQueryPageMachine<TPanels>>,
): Promise<string[]> {
  const failing = machine.provide({
    actors: {
      loadPanels: fromCallback<ReloadPanels, { query: ReportQuery }, PanelAnswer>(({ sendBack }) => {
        sendBack({ type: 'panel.failed', panel: 'whichever' });
      }),
    },
  });
  const page = createActor(failing).start();
  const seen: string[] = [];
  page.on('notify', (notice) => seen.push(notice.message));
  page.send({ type: 'report.load', query: QUERY_A });
  await flush();
  page.stop();
  return seen;
}

describe('query page machine details', () => {
  it('asks the query again with a new comparison, keeps it for the next query, and ignores the same one', async () => {
    start();
    const { comparison: _none, ...withoutComparison } = QUERY_A;
    actor.send({ type: 'report.load', query: withoutComparison });
    expect(fetches.at(-1)?.query.comparison).toEqual(DEFAULT_COMPARISON);
    fetches.at(-1)?.resolve({ total: 1 });
    await flush();
    const festival = { rule: 'festival_aligned', likeForLike: true } as const;
    const before = fetches.length;
    actor.send({ type: 'report.compare', comparison: festival });
    expect(snapshot().context.comparison).toEqual(festival);
    expect(panelA().status).toBe('loading');
    expect(fetches.at(-1)?.query).toEqual({ ...QUERY_A, comparison: festival });
    expect(fetches.length).toBeGreaterThan(before);
    fetches.at(-1)?.resolve({ total: 2 });
    await flush();
    const asked = fetches.length;
    actor.send({ type: 'report.compare', comparison: festival });
    expect(fetches.length).toBe(asked);
    // The next query (new filters) keeps the choice.
    actor.send({ type: 'report.load', query: { ...withoutComparison, mallIds: [2] } });
    expect(fetches.at(-1)?.query.comparison).toEqual(festival);
  });

  it('ignores retry before anything was asked, and for a panel that has not failed', async () => {
    start();
    expect(snapshot().can({ type: 'report.retry' })).toBe(false);
    actor.send({ type: 'report.load', query: QUERY_A });
    fetches.at(-1)?.resolve({ total: 1 });
    await flush();
    expect(snapshot().can({ type: 'report.retry', panel: 'a' })).toBe(false);
    expect(snapshot().can({ type: 'report.retry' })).toBe(false);
  });

  it('keeps the server’s reason for refusing a panel (409: no exchange rate) and its figures per currency, and drops them on retry', async () => {
    start();
    actor.send({ type: 'report.load', query: QUERY_A });
    const reason = 'No exchange rate to SGD for MYR in November 2026.';
    const byCurrency = [
      { currency: 'MYR', gmv: 1200.5, transactions: 30 },
      { currency: 'SGD', gmv: 980, transactions: 21 },
    ];
    fetches.at(-1)?.reject(new ApiError(409, reason, { statusCode: 409, message: reason, by_currency: byCurrency }));
    await flush();
    expect(panelA()).toEqual({ status: 'failed', data: undefined, reason, byCurrency });
    actor.send({ type: 'report.retry', panel: 'a' });
    expect(panelA()).toEqual({ status: 'loading', data: undefined });
    fetches.at(-1)?.reject(new ApiError(500, 'boom'));
    await flush();
    expect(panelA()).toEqual({ status: 'failed', data: undefined });
  });

  it('keeps the header disabled until the last panel has answered', async () => {
    start();
    actor.send({ type: 'report.load', query: QUERY_A });
    await flush();
    expect(snapshot().context.panels.b.status).toBe('loaded');
    expect(snapshot().hasTag('loading')).toBe(true);
    expect(pendingAtHeader()).toBe(1);
    fetches.at(-1)?.resolve({ total: 1 });
    await flush();
    expect(pendingAtHeader()).toBe(0);
  });

  it('de-duplicates nothing itself: the same message each failure (the toaster keys on it)', async () => {
    start();
    actor.send({ type: 'report.load', query: QUERY_A });
    fetches.at(-1)?.reject(new Error('x'));
    await flush();
    actor.send({ type: 'report.retry' });
    fetches.at(-1)?.reject(new Error('x'));
    await flush();
    expect(notices.map((notice) => notice.message)).toEqual([errorOccurs('Mall GMV'), errorOccurs('Mall GMV')]);
  });

  it('gives each page its own failure toast', async () => {
    expect(await failureToastsOf(mallHomeReportMachine)).toEqual(['Mall home error occurs. Please try again later.']);
    expect(await failureToastsOf(mallGmvReportMachine)).toEqual(['Mall GMV error occurs. Please try again later.']);
    expect(await failureToastsOf(peakHoursReportMachine)).toEqual(['Peak hours error occurs. Please try again later.']);
    expect(await failureToastsOf(paymentMethodsReportMachine)).toEqual([
      'Payment methods error occurs. Please try again later.',
    ]);
    expect(await failureToastsOf(memberReportMachine)).toEqual([
      'Member vs non-member error occurs. Please try again later.',
    ]);
  });
});

describe('query page machine: the comparison in the address', () => {
  const urlMachine = createQueryPageMachine<TestPanels>({
    id: 'testReport',
    what: 'Mall home',
    comparisonInUrl: true,
    panels: { a: { load: deferredFetch }, b: { load: () => Promise.resolve({ total: 7 }) } },
  });

  /** A filter header with a client and malls chosen: the page asks its report at once. */
  const headerWithMalls = setup({}).createMachine({
    context: {
      filters: { ...NO_CLIENT, clientId: 1, mallIds: [1, 2] },
      outlets: [],
      today: '2024-03-07',
    },
  });

  /** The page beside a filter header (no client yet, or `header`) and a navigation guard showing `href`. */
  function open(machine: typeof testMachine, href: string, header: AnyStateMachine = fakeHeader) {
    fetches = [];
    headerEvents = [];
    const requests: NavigationRequest[] = [];
    const app = createActor(
      setup({
        actors: { header, guard: fakeNavigation(href, requests), report: machine },
      }).createMachine({
        invoke: [
          { id: 'header', systemId: 'filterHeader', src: 'header' },
          { id: 'guard', systemId: 'navigation', src: 'guard' },
          { id: 'report', src: 'report' },
        ],
      }),
    ).start();
    return { app, page: childOf(app.getSnapshot(), 'report'), requests };
  }

  it("starts with the choice the address holds, and the header's first filters are asked with it", async () => {
    const href = '/shopper-connect/mall-home?client=1&malls=1,2&compare=festival_aligned&like_for_like=1';
    const { app, page } = open(urlMachine, href, headerWithMalls);
    const festival = { rule: 'festival_aligned', likeForLike: true };
    expect(page.getSnapshot().context.comparison).toEqual(festival);
    await flush();
    expect(fetches).toHaveLength(1);
    expect(fetches[0]?.query).toMatchObject({ clientId: 1, mallIds: [1, 2], comparison: festival });
    app.stop();
  });

  it('falls back to the default for an address that names no known comparison', () => {
    const { app, page } = open(urlMachine, '/shopper-connect/mall-home?compare=yesterday&like_for_like=true');
    expect(page.getSnapshot().context.comparison).toEqual(DEFAULT_COMPARISON);
    app.stop();
  });

  it("writes the user's choice into the address in place, its other keys kept, and nothing it already says", () => {
    const { app, page, requests } = open(urlMachine, '/shopper-connect/mall-home?client=1&malls=1,2');
    page.send({ type: 'report.load', query: QUERY_A });
    page.send({ type: 'report.compare', comparison: { rule: 'same_weekday_last_year', likeForLike: false } });
    expect(requests).toEqual([
      { href: '/shopper-connect/mall-home?compare=same_weekday_last_year&client=1&malls=1,2', replace: true },
    ]);
    page.send({ type: 'report.compare', comparison: { rule: 'same_weekday_last_year', likeForLike: true } });
    expect(requests.at(-1)).toEqual({
      href: '/shopper-connect/mall-home?compare=same_weekday_last_year&like_for_like=1&client=1&malls=1,2',
      replace: true,
    });
    // The same choice again: the address already says it.
    page.send({ type: 'report.compare', comparison: { rule: 'same_weekday_last_year', likeForLike: true } });
    expect(requests).toHaveLength(2);
    // Back to the default: the address says nothing of it.
    page.send({ type: 'report.compare', comparison: DEFAULT_COMPARISON });
    expect(requests.at(-1)).toEqual({ href: '/shopper-connect/mall-home?client=1&malls=1,2', replace: true });
    app.stop();
  });

  it('writes the choice made before any query too', () => {
    const { app, page, requests } = open(urlMachine, '/shopper-connect/refunds');
    page.send({ type: 'report.compare', comparison: { rule: 'festival_aligned', likeForLike: false } });
    expect(requests).toEqual([{ href: '/shopper-connect/refunds?compare=festival_aligned', replace: true }]);
    app.stop();
  });

  it('is kept in the address by the pages that offer the comparison controls', () => {
    const href = '/shopper-connect/mall-home?compare=same_weekday_last_year&like_for_like=1';
    for (const machine of [
      mallHomeReportMachine,
      refundsMachine,
      voucherRedemptionMachine,
      createMallOutletReportMachine(),
    ] as AnyStateMachine[]) {
      const { app, page } = open(machine as typeof testMachine, href);
      expect(page.getSnapshot().context.comparison).toEqual({ rule: 'same_weekday_last_year', likeForLike: true });
      app.stop();
    }
  });

  it('follows the address back and forward: the query shown asked again with its choice, nothing written', async () => {
    const href = '/shopper-connect/mall-home?client=1&malls=1,2';
    const { app, page, requests } = open(urlMachine, href, headerWithMalls);
    const guard = app.system.get('navigation');
    await flush();
    expect(fetches).toHaveLength(1);
    const festival = { rule: 'festival_aligned', likeForLike: false } as const;

    // Forward to the entry with festival-aligned: the same days asked again with it, the pending call aborted.
    guard.send({ type: 'location.change', href: `${href}&compare=festival_aligned` });
    expect(page.getSnapshot().context.comparison).toEqual(festival);
    expect(fetches).toHaveLength(2);
    expect(fetches[0]?.aborted).toBe(true);
    expect(fetches[1]?.query).toMatchObject({ clientId: 1, mallIds: [1, 2], comparison: festival });
    // Back: the default again.
    guard.send({ type: 'location.change', href });
    expect(page.getSnapshot().context.comparison).toEqual(DEFAULT_COMPARISON);
    expect(fetches).toHaveLength(3);
    expect(fetches[2]?.query.comparison).toEqual(DEFAULT_COMPARISON);
    // A move that keeps the choice (another key of the address) asks nothing.
    guard.send({ type: 'location.change', href: `${href}&view=1` });
    expect(fetches).toHaveLength(3);
    expect(requests).toEqual([]);

    // The user's own choice is asked once: the address it writes says what the page has.
    page.send({ type: 'report.compare', comparison: festival });
    expect(requests).toHaveLength(1);
    expect(fetches).toHaveLength(4);
    expect(fetches[3]?.query.comparison).toEqual(festival);
    // Another page's address: this page is being left, it asks nothing.
    guard.send({ type: 'location.change', href: '/shopper-connect/refunds' });
    expect(page.getSnapshot().context.comparison).toEqual(festival);
    expect(fetches).toHaveLength(4);
    app.stop();
  });

  it('keeps the choice of an address that moves before the first query, for that query', async () => {
    const { app, page } = open(urlMachine, '/shopper-connect/mall-home');
    app.system.get('navigation').send({ type: 'location.change', href: '/shopper-connect/mall-home?like_for_like=1' });
    expect(page.getSnapshot().context.comparison).toEqual({ rule: DEFAULT_COMPARISON.rule, likeForLike: true });
    await flush();
    expect(fetches).toEqual([]);
    const { comparison: _none, ...withoutComparison } = QUERY_A;
    page.send({ type: 'report.load', query: withoutComparison });
    expect(fetches[0]?.query.comparison).toEqual({ rule: DEFAULT_COMPARISON.rule, likeForLike: true });
    app.stop();
  });

  it('asks once when back or forward changes the filters and the choice together (the header told first)', async () => {
    /*
     * As in the app, the header learns of the new address before the page does (it follows the guard since before
     * the page opened) and tells the page its filters first: their query already carries the address's choice.
     */
    const followingHeader = setup({
      types: { context: {} as { filters: CommittedFilters; outlets: never[]; today: string } },
      actors: {
        address: fromCallback<{ type: 'url.change'; search: string }>(({ system, sendBack }) => {
          const guard = system.get('navigation') as ActorRefFrom<ReturnType<typeof fakeNavigation>>;
          const subscription = guard.subscribe(({ context }) =>
            sendBack({ type: 'url.change', search: context.location.search }),
          );
          return () => subscription.unsubscribe();
        }),
      },
    }).createMachine({
      context: { filters: { ...NO_CLIENT, clientId: 1, mallIds: [1, 2] }, outlets: [], today: '2024-03-07' },
      invoke: { src: 'address' },
      on: {
        'url.change': {
          actions: assign(({ context, event }) => ({
            filters: { ...context.filters, mallIds: event.search.includes('malls=1,2') ? [1, 2] : [1] },
          })),
        },
      },
    });
    const requests: NavigationRequest[] = [];
    const href = '/shopper-connect/mall-home?client=1&malls=1,2';
    fetches = [];
    const app = createActor(
      setup({
        actors: { header: followingHeader, guard: fakeNavigation(href, requests), report: urlMachine },
      }).createMachine({
        invoke: [
          { id: 'guard', systemId: 'navigation', src: 'guard' },
          { id: 'header', systemId: 'filterHeader', src: 'header' },
          { id: 'report', src: 'report' },
        ],
      }),
    ).start();
    const page = childOf(app.getSnapshot(), 'report');
    await flush();
    const before = fetches.length;
    expect(fetches.at(-1)?.query).toMatchObject({ mallIds: [1, 2], comparison: DEFAULT_COMPARISON });

    app.system.get('navigation').send({
      type: 'location.change',
      href: '/shopper-connect/mall-home?compare=festival_aligned&client=1&malls=1',
    });
    const festival = { rule: 'festival_aligned', likeForLike: false };
    expect(fetches).toHaveLength(before + 1);
    expect(fetches.at(-1)?.query).toMatchObject({ mallIds: [1], comparison: festival });
    expect(page.getSnapshot().context.comparison).toEqual(festival);
    expect(requests).toEqual([]);
    app.stop();
  });

  it('leaves the address alone on a page that does not keep its comparison there', () => {
    const { app, page, requests } = open(testMachine, '/shopper-connect/mall-gmv?compare=festival_aligned');
    expect(page.getSnapshot().context.comparison).toEqual(DEFAULT_COMPARISON);
    page.send({ type: 'report.compare', comparison: { rule: 'same_weekday_last_year', likeForLike: true } });
    expect(requests).toEqual([]);
    app.stop();
  });
});

describe('query page machine export', () => {
  type ExportInput = { base: string; suffix: string; files: readonly CsvFile[] };
  const FILES: CsvFile[] = [{ name: 'daily', keys: ['date'], rows: [{ date: '2026-03-02' }] }];

  function exporter(answer: () => Promise<void>) {
    const exports: ExportInput[] = [];
    fetches = [];
    bLoads = 0;
    const page = createActor(
      testMachine.provide({
        actors: {
          exportFiles: fromPromise<void, ExportInput>(({ input }) => {
            exports.push(input);
            return answer();
          }),
        },
      }),
    ).start();
    const seen: string[] = [];
    page.on('notify', (notice) => seen.push(notice.message));
    return {
      page,
      exports,
      seen,
      load: () => page.send({ type: 'report.load', query: QUERY_A }),
      answer: async () => {
        fetches.at(-1)?.resolve({ total: 3 });
        await flush();
      },
    };
  }

  const exportEvent = { type: 'report.export', base: 'mall_gmv', files: FILES } as const;

  it('exports the files of the range shown, one export at a time, never before a range nor while loading', async () => {
    const run = exporter(() => Promise.resolve());
    expect(run.page.getSnapshot().can(exportEvent)).toBe(false);
    run.load();
    expect(run.page.getSnapshot().can(exportEvent)).toBe(false);
    await run.answer();
    expect(run.page.getSnapshot().can(exportEvent)).toBe(true);
    run.page.send(exportEvent);
    expect(run.page.getSnapshot().context.exporting).toBe(true);
    expect(run.page.getSnapshot().can(exportEvent)).toBe(false);
    await flush();
    expect(run.exports).toEqual([{ base: 'mall_gmv', suffix: `${QUERY_A.start}_${QUERY_A.end}`, files: FILES }]);
    expect(run.page.getSnapshot().context.exporting).toBe(false);
    expect(run.seen).toEqual([]);
    run.page.stop();
  });

  it("says when an export fails, naming the page's export", async () => {
    const run = exporter(() => Promise.reject(new Error('no space')));
    run.load();
    await run.answer();
    run.page.send(exportEvent);
    await flush();
    expect(run.seen).toEqual(['Mall GMV export error occurs. Please try again later.']);
    expect(run.page.getSnapshot().context.exporting).toBe(false);
    expect(run.page.getSnapshot().matches({ active: 'settled' })).toBe(true);
    run.page.stop();
  });
});
