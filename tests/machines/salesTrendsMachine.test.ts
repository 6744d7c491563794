import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type Actor,
  type AnyActorRef,
  type AnyStateMachine,
  createActor,
  fromCallback,
  fromPromise,
  type SnapshotFrom,
  setup,
} from 'xstate';
import { createApiClient } from '../../src/api/client';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { CsvFile } from '../../src/domain/csv';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import { withFilterQuery } from '../../src/domain/filterUrl';
import type { Notice } from '../../src/domain/messages';
import { salesTrendsCsv, withYearQuery } from '../../src/domain/salesTrends';
import type { HeaderFiltersEvent } from '../../src/machines/headerLink';
import {
  createSalesTrendsPageMachine,
  createSalesTrendsReportMachine,
  yearShown,
} from '../../src/machines/salesTrendsMachine';
import { installPendingFetch, jsonResponse, type PendingCall } from '../support/pendingFetch';
import { childOf } from './childOf';
import { fakeNavigation, type NavigationRequest } from './fakeNavigation';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the sales trends page (the page machine holding the year, its report a query page) with the
 * app's api wrappers on a client whose network the test answers. Today is Sunday 15 March 2026 in client 1's malls:
 * 2026 is shown against 2025 by default, March partial (figures to the 15th, growth over 1–14 March against 1–14
 * March 2025); 2025 against 2024 once chosen. Nothing is asked before the header knows a client and malls; a failed
 * call fails the panel with the toast and a retry (§8); a 409 gives the server's reason and the figures per currency.
 */

const TODAY = '2026-03-15';
const ERROR_TEXT = 'Sales trends error occurs. Please try again later.';

let calls: PendingCall[];

function installNetwork(): void {
  calls = installPendingFetch();
}

const json = jsonResponse;

const client = createApiClient((request) => globalThis.fetch(request), { baseUrl: 'http://trends.test' });

let exports: { base: string; suffix: string; files: readonly CsvFile[] }[];

const reportMachine = createSalesTrendsReportMachine(client).provide({
  actors: {
    lockHeader: fromCallback(() => () => undefined),
    exportFiles: fromPromise<void, { base: string; suffix: string; files: readonly CsvFile[] }>(async ({ input }) => {
      exports.push(input);
    }),
  },
});
const testMachine = createSalesTrendsPageMachine(client).provide({
  actors: { followHeaderFilters: fromCallback(() => undefined), report: reportMachine },
});

function headerEvent(mallIds: number[]): HeaderFiltersEvent {
  const filters: CommittedFilters = {
    clientId: mallIds.length === 0 ? undefined : 1,
    mallIds,
    outlet: undefined,
    dateRange: { start: '2026-03-09', end: TODAY },
    hours: { from: 0, to: 23 },
    timeRange: 'daily',
    metric: 'gmv',
    month: undefined,
  };
  return { type: 'header.filters', filters, outlets: [], today: TODAY };
}

/* ---------------------------------------------------------------- the server's answers */

const month = (year: number, index: number) => `${year}-${String(index).padStart(2, '0')}`;

/** The monthly report of a whole year or of 2026 to the 15th of March: GMV 1000 × month, 10 × month transactions. */
function monthlyRows(start: string, end: string, scale: number) {
  const year = Number(start.slice(0, 4));
  const last = Number(end.slice(5, 7));
  const first = Number(start.slice(5, 7));
  return Array.from({ length: last - first + 1 }, (_, offset) => {
    const index = first + offset;
    return { month: month(year, index), gmv: 1000 * index * scale, transactions: 10 * index * scale };
  });
}

/**
 * 2026 sells 1.5 times what 2025 did, month by month; the year before 2025 (2024) half of it. March's complete days:
 * 1–14 March 2026 GMV 2100, 28 transactions; 1–14 March 2025 GMV 1400, 35 transactions.
 */
function answerOf(url: URL, nothing: boolean): unknown {
  const start = url.searchParams.get('start_time') ?? '';
  const end = url.searchParams.get('end_time') ?? '';
  if (nothing) return { data: monthlyRows(start, end, 0) };
  if (start === '2026-03-01' && end === '2026-03-14')
    return { data: [{ month: '2026-03', gmv: 2100, transactions: 28 }] };
  if (start === '2025-03-01' && end === '2025-03-14')
    return { data: [{ month: '2025-03', gmv: 1400, transactions: 35 }] };
  const scale = { 2026: 1.5, 2025: 1, 2024: 0.5 }[Number(start.slice(0, 4))] ?? 0;
  return { data: monthlyRows(start, end, scale) };
}

const pending = () => calls.filter((call) => !call.settled);

async function answerAll(nothing = false): Promise<void> {
  for (const call of pending()) {
    call.settled = true;
    call.answer.resolve(json(200, answerOf(call.url, nothing)));
  }
  await flush();
}

/* ---------------------------------------------------------------- the actor */

let actor: Actor<typeof testMachine>;
let notices: Notice[];
const report = () => childOf(actor.getSnapshot(), 'report');
const panel = () => report().getSnapshot().context.panels.trends;

function start(): void {
  installNetwork();
  setPermissionsList(['*::*']);
  notices = [];
  exports = [];
  actor = createActor(testMachine).start();
  report().on('notify', (notice) => notices.push(notice));
}

afterEach(() => {
  actor.stop();
  vi.unstubAllGlobals();
  clearSession();
});

const flush = async () => {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
};

/** The periods asked, as 'start..end', in order. */
const periodsOf = (list: readonly PendingCall[]) =>
  list.map((call) => `${call.url.searchParams.get('start_time')}..${call.url.searchParams.get('end_time')}`).sort();

const YEAR_PERIODS: Record<number, string[]> = {
  2026: ['2025-01-01..2025-12-31', '2025-03-01..2025-03-14', '2026-01-01..2026-03-15', '2026-03-01..2026-03-14'],
  2025: ['2024-01-01..2024-12-31', '2025-01-01..2025-12-31'],
};

/* ---------------------------------------------------------------- the model */

type ModelEvent = {
  type: 'malls' | 'answer' | 'answerNothing' | 'fail' | 'refuse' | 'retry' | 'otherYear' | 'otherMalls' | 'export';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'salesTrendsModel',
    initial: 'waiting',
    states: {
      /** The header knows no client and malls yet. */
      waiting: { on: { malls: 'loading' } },
      loading: { on: { answer: 'loaded', answerNothing: 'empty', fail: 'failed', refuse: 'refused' } },
      loaded: { on: { export: 'loaded', otherYear: 'loading', otherMalls: 'loading' } },
      empty: { on: { otherYear: 'loading' } },
      failed: { on: { retry: 'loading' } },
      refused: { on: { otherMalls: 'loading' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;
let year: number;
let mallIds: number[];
/** Calls made before the current load. */
let before: number;

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    waiting: () => {
      expect(calls).toEqual([]);
      expect(actor.getSnapshot().context.query).toBeUndefined();
      expect(panel().status).toBe('idle');
    },
    loading: () => {
      expect(report().getSnapshot().hasTag('loading')).toBe(true);
      expect(panel()).toEqual({ status: 'loading', data: undefined });
      const asked = calls.slice(before);
      expect(asked.every((call) => call.url.pathname === '/api/mall_report/monthly')).toBe(true);
      expect(periodsOf(asked)).toEqual(YEAR_PERIODS[year]);
      for (const call of asked) {
        expect(call.url.searchParams.get('client_id')).toBe('1');
        expect(call.url.searchParams.getAll('mall_ids')).toEqual(mallIds.map(String));
      }
      // Each call spans at most a year.
      expect(report().getSnapshot().context.query?.start).toBe(`${year - 1}-01-01`);
    },
    loaded: () => {
      const trends = panel().data;
      expect(panel().status).toBe('loaded');
      expect(trends?.year).toBe(year);
      expect(trends?.months.map((row) => row.label)).toEqual(
        year === 2026
          ? ['Jan', 'Feb', 'Mar (so far)', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
          : ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
      );
      if (year === 2026) {
        // Jan: 1500 against 1000 = 50.00%; March so far 4500 shown, its growth 2100 against 1400 = 50.00% and
        // 28 against 35 transactions = -20.00%; April not begun.
        expect(trends?.months[0]).toMatchObject({
          thisYear: { gmv: 1500, transactions: 15 },
          lastYear: { gmv: 1000, transactions: 10 },
          growth: { gmv: 50, transactions: 50 },
        });
        expect(trends?.months[2]).toMatchObject({
          thisYear: { gmv: 4500, transactions: 45 },
          lastYear: { gmv: 3000, transactions: 30 },
          partial: true,
          growth: { gmv: 50, transactions: -20 },
        });
        expect(trends?.months[3]).toMatchObject({ thisYear: undefined, lastYear: { gmv: 4000 }, growth: undefined });
      } else {
        // 2025 against 2024 (half of it): every month +100.00%.
        expect(trends?.months.every((row) => row.growth?.gmv === 100 && !row.partial)).toBe(true);
        expect(trends?.months[11]).toMatchObject({ thisYear: { gmv: 12000 }, lastYear: { gmv: 6000 } });
      }
      expect(report().getSnapshot().can({ type: 'report.export', base: 'sales_trends', files: [] })).toBe(true);
    },
    empty: () => {
      expect(panel().status).toBe('empty');
      expect(report().getSnapshot().hasTag('loading')).toBe(false);
    },
    failed: () => {
      expect(panel().status).toBe('failed');
      expect(panel().data).toBeUndefined();
      expect(notices.at(-1)).toEqual({ type: 'notify', intent: 'danger', message: ERROR_TEXT, timeout: 5000 });
      expect(report().getSnapshot().can({ type: 'report.retry', panel: 'trends' })).toBe(true);
    },
    refused: () => {
      // Never a total across currencies: the server's reason and its figures per currency.
      expect(panel()).toEqual({
        status: 'failed',
        data: undefined,
        reason: 'No exchange rate to SGD for USD in February 2025.',
        byCurrency: [
          { currency: 'SGD', gmv: 100, transactions: 2 },
          { currency: 'USD', gmv: 50, transactions: 1 },
        ],
      });
    },
  },
  events: {
    malls: async () => {
      actor.send(headerEvent(mallIds));
      await flush();
    },
    answer: () => answerAll(),
    answerNothing: () => answerAll(true),
    fail: async () => {
      const [first, ...rest] = pending();
      if (first) {
        first.settled = true;
        first.answer.resolve(json(500, { statusCode: 500, error: 'Internal Server Error', message: 'boom' }));
      }
      await flush();
      // The other calls of the panel are aborted or answered: nothing is left pending.
      for (const call of rest) call.settled = true;
    },
    refuse: async () => {
      const [first, ...rest] = pending();
      if (first) {
        first.settled = true;
        first.answer.resolve(
          json(409, {
            statusCode: 409,
            error: 'Conflict',
            message: 'No exchange rate to SGD for USD in February 2025.',
            by_currency: [
              { currency: 'SGD', gmv: 100, transactions: 2 },
              { currency: 'USD', gmv: 50, transactions: 1 },
            ],
          }),
        );
      }
      await flush();
      for (const call of rest) call.settled = true;
    },
    retry: async () => {
      before = calls.length;
      report().send({ type: 'report.retry', panel: 'trends' });
      await flush();
    },
    otherYear: async () => {
      before = calls.length;
      year = year === 2026 ? 2025 : 2026;
      actor.send({ type: 'year.change', year });
      await flush();
    },
    otherMalls: async () => {
      before = calls.length;
      mallIds = mallIds.length === 2 ? [1] : [1, 2];
      actor.send(headerEvent(mallIds));
      await flush();
    },
    export: async () => {
      const file = salesTrendsCsv(panel().data);
      report().send({ type: 'report.export', base: 'sales_trends', files: [file] });
      await flush();
      expect(exports.at(-1)).toEqual({
        base: 'sales_trends',
        suffix: year === 2026 ? '2025-01-01_2026-03-15' : '2024-01-01_2025-12-31',
        files: [file],
      });
    },
  },
};

describe('salesTrendsPageMachine (model)', () => {
  beforeEach(() => {
    year = 2026;
    mallIds = [1, 2];
    before = 0;
    start();
    // The header starts with no client: nothing is asked.
    actor.send(headerEvent([]));
  });
  describeModelCoverage(model, params, {
    states: ['waiting', 'loading', 'loaded', 'empty', 'failed', 'refused'],
    transitions: 11,
  });
});

/* ---------------------------------------------------------------- details */

describe('salesTrendsPageMachine details', () => {
  beforeEach(() => start());

  it('offers this year and the four before it, and asks again only for another year or other malls', async () => {
    actor.send(headerEvent([1]));
    await flush();
    expect(calls).toHaveLength(4);
    await answerAll();
    // The year shown, a year not offered and the same filters change nothing.
    for (const event of [
      { type: 'year.change', year: 2026 },
      { type: 'year.change', year: 2021 },
      { type: 'year.change', year: 2027 },
    ] as const) {
      expect(actor.getSnapshot().can(event)).toBe(false);
    }
    actor.send(headerEvent([1]));
    await flush();
    expect(calls).toHaveLength(4);
    expect(actor.getSnapshot().can({ type: 'year.change', year: 2022 })).toBe(true);
    actor.send({ type: 'year.change', year: 2022 });
    await flush();
    expect(periodsOf(calls.slice(4))).toEqual(['2021-01-01..2021-12-31', '2022-01-01..2022-12-31']);
  });

  it('aborts the calls of a year left for another', async () => {
    actor.send(headerEvent([1]));
    await flush();
    const first = [...calls];
    actor.send({ type: 'year.change', year: 2025 });
    await flush();
    for (const call of first) {
      call.settled = true;
      call.answer.resolve(json(200, answerOf(call.url, true)));
    }
    await answerAll();
    expect(panel().status).toBe('loaded');
    expect(panel().data?.year).toBe(2025);
  });
});

/**
 * The page beside a navigation guard showing `href`, the header's filters told (mall 1 and 2 of client 1): the app
 * holding both, the page, and the requests the page made of the guard.
 */
async function openBesideGuard(href: string) {
  installNetwork();
  setPermissionsList(['*::*']);
  const requests: NavigationRequest[] = [];
  const app: Actor<AnyStateMachine> = createActor(
    setup({ actors: { guard: fakeNavigation(href, requests), page: testMachine } }).createMachine({
      invoke: [
        { id: 'guard', systemId: 'navigation', src: 'guard' },
        { id: 'page', src: 'page' },
      ],
    }),
  ).start();
  const page = app.getSnapshot().children.page as Actor<typeof testMachine>;
  page.send(headerEvent([1, 2]));
  await flush();
  return { app, page, requests };
}

/* ---------------------------------------------------------------- the comparison */

describe('salesTrendsPageMachine: the comparison', () => {
  const PATH = '/shopper-connect/sales-trends';
  const FILTERS = 'client=1&malls=1,2';
  let app: Actor<AnyStateMachine>;
  let requests: NavigationRequest[];

  async function openAt(href: string): Promise<Actor<typeof testMachine>> {
    const opened = await openBesideGuard(href);
    ({ app, requests } = opened);
    return opened.page;
  }

  afterEach(() => {
    app.stop();
  });

  const growthCalls = (list: readonly PendingCall[]) =>
    list.filter((call) => call.url.pathname === '/api/mall_report/growth');

  /** A growth answer for a call's days: 100 a day against 80 a day, one outlet left out with like-for-like. */
  function growthAnswer(url: URL): unknown {
    const start = url.searchParams.get('start_time') ?? '';
    const end = url.searchParams.get('end_time') ?? '';
    const side = (from: string, to: string, gmv: number) => ({
      start_time: from,
      end_time: to,
      days: 0,
      has_data: true,
      gmv,
      transactions: gmv / 10,
      average_transaction_value: 10,
      member_gmv: 0,
    });
    return {
      compare: url.searchParams.get('compare'),
      current: side(start, end, 1000),
      compared: side(
        `${Number(start.slice(0, 4)) - 1}${start.slice(4)}`,
        `${Number(end.slice(0, 4)) - 1}${end.slice(4)}`,
        800,
      ),
      aligned: [],
      like_for_like: url.searchParams.get('like_for_like') === 'true' ? { kept: 5, left_out: 1 } : null,
    };
  }

  async function answerEvery(): Promise<void> {
    for (const call of pending()) {
      call.settled = true;
      const body = call.url.pathname === '/api/mall_report/growth' ? growthAnswer(call.url) : answerOf(call.url, false);
      call.answer.resolve(json(200, body));
    }
    await flush();
  }

  const reportOf = (page: AnyActorRef) => childOf(page.getSnapshot(), 'report') as ReturnType<typeof report>;

  it('starts with the choice the address holds, and asks each month’s growth by it', async () => {
    const page = await openAt(`${PATH}?compare=festival_aligned&like_for_like=1&${FILTERS}`);
    expect(page.getSnapshot().context.comparison).toEqual({ rule: 'festival_aligned', likeForLike: true });
    // The two years' months, and one growth call for each month begun: January, February, March's 14 complete days.
    expect(
      calls
        .filter((call) => call.url.pathname === '/api/mall_report/monthly')
        .map((call) => call.url.searchParams.get('start_time'))
        .sort(),
    ).toEqual(['2025-01-01', '2026-01-01']);
    const growth = growthCalls(calls);
    expect(periodsOf(growth)).toEqual(['2026-01-01..2026-01-31', '2026-02-01..2026-02-28', '2026-03-01..2026-03-14']);
    for (const call of growth) {
      expect(call.url.searchParams.get('compare')).toBe('festival_aligned');
      expect(call.url.searchParams.get('like_for_like')).toBe('true');
      expect(call.url.searchParams.getAll('mall_ids')).toEqual(['1', '2']);
    }
    // Nothing written: the address already says it.
    expect(requests).toEqual([]);
  });

  it('loads again by the rule chosen and writes it into the address in place; the default says nothing', async () => {
    const page = await openAt(`${PATH}?${FILTERS}`);
    expect(page.getSnapshot().context.comparison).toEqual({ rule: 'same_month_last_year', likeForLike: false });
    expect(growthCalls(calls)).toEqual([]);
    await answerEvery();
    const first = calls.length;

    page.send({ type: 'comparison.change', comparison: { rule: 'previous', likeForLike: true } });
    await flush();
    // The previous period is not this page's default: the address says it.
    expect(requests).toEqual([{ href: `${PATH}?compare=previous&like_for_like=1&${FILTERS}`, replace: true }]);
    const asked = calls.slice(first);
    expect(asked).toHaveLength(5);
    expect(growthCalls(asked).every((call) => call.url.searchParams.get('compare') === 'previous')).toBe(true);
    expect(growthCalls(asked).every((call) => call.url.searchParams.get('like_for_like') === 'true')).toBe(true);
    expect(reportOf(page).getSnapshot().context.panels.trends.status).toBe('loading');
    await answerEvery();
    const trends = reportOf(page).getSnapshot().context.panels.trends.data;
    // Each month's growth is the call's: 1,000 against 800, +25.00%; the year before's column stays the monthly's.
    expect(trends?.months[1]).toMatchObject({
      thisYear: { gmv: 3000 },
      lastYear: { gmv: 2000 },
      growth: { gmv: 25, transactions: 25 },
      compared: { rule: 'previous', likeForLike: { kept: 5, left_out: 1 } },
    });

    // The same choice again changes nothing.
    expect(
      page.getSnapshot().can({ type: 'comparison.change', comparison: { rule: 'previous', likeForLike: true } }),
    ).toBe(false);
    // Back to the same month last year, like-for-like: each month's growth is the growth call's by the same dates a
    // year before, like-for-like (the monthly report counts every outlet); the address says like-for-like only.
    let before = calls.length;
    page.send({ type: 'comparison.change', comparison: { rule: 'same_month_last_year', likeForLike: true } });
    await flush();
    expect(page.getSnapshot().context.comparison).toEqual({ rule: 'same_month_last_year', likeForLike: true });
    expect(requests.at(-1)).toEqual({ href: `${PATH}?like_for_like=1&${FILTERS}`, replace: true });
    const sameDates = growthCalls(calls.slice(before));
    expect(sameDates.length).toBeGreaterThan(0);
    expect(sameDates.every((call) => call.url.searchParams.get('compare') === 'same_date_last_year')).toBe(true);
    expect(sameDates.every((call) => call.url.searchParams.get('like_for_like') === 'true')).toBe(true);
    await answerEvery();
    // Like-for-like off: the monthly report's months alone, no growth call.
    before = calls.length;
    page.send({ type: 'comparison.change', comparison: { rule: 'same_month_last_year', likeForLike: false } });
    await flush();
    expect(requests.at(-1)).toEqual({ href: `${PATH}?${FILTERS}`, replace: true });
    expect(periodsOf(calls.slice(before))).toEqual(YEAR_PERIODS[2026]);
    expect(growthCalls(calls.slice(before))).toEqual([]);
  });

  it('follows the address back and forward: shown and asked again, never written back', async () => {
    const page = await openAt(`${PATH}?compare=festival_aligned&${FILTERS}`);
    await answerEvery();
    const guard = app.getSnapshot().children.guard as AnyActorRef;
    // Back to the page's plain address: the same month last year, the monthly report's months and no growth call.
    let before = calls.length;
    guard.send({ type: 'location.change', href: `${PATH}?${FILTERS}` });
    await flush();
    expect(page.getSnapshot().context.comparison).toEqual({ rule: 'same_month_last_year', likeForLike: false });
    expect(growthCalls(calls.slice(before))).toEqual([]);
    expect(periodsOf(calls.slice(before))).toEqual(YEAR_PERIODS[2026]);
    await answerEvery();
    // Forward again: festival-aligned, each month's growth asked by it.
    before = calls.length;
    guard.send({ type: 'location.change', href: `${PATH}?compare=festival_aligned&${FILTERS}` });
    await flush();
    expect(page.getSnapshot().context.comparison).toEqual({ rule: 'festival_aligned', likeForLike: false });
    expect(growthCalls(calls.slice(before))).toHaveLength(3);
    expect(requests).toEqual([]);
  });

  it('keeps the choice for another year', async () => {
    const page = await openAt(`${PATH}?compare=same_weekday_last_year&${FILTERS}`);
    await answerEvery();
    const before = calls.length;
    page.send({ type: 'year.change', year: 2025 });
    await flush();
    const growth = growthCalls(calls.slice(before));
    expect(growth).toHaveLength(12);
    expect(growth.every((call) => call.url.searchParams.get('compare') === 'same_weekday_last_year')).toBe(true);
  });
});

/* ---------------------------------------------------------------- the year in the address */

describe('salesTrendsPageMachine: the year in the address', () => {
  const PATH = '/shopper-connect/sales-trends';
  const FILTERS = 'client=1&malls=1,2';
  let app: Actor<AnyStateMachine>;
  let requests: NavigationRequest[];

  async function openAt(href: string): Promise<Actor<typeof testMachine>> {
    const opened = await openBesideGuard(href);
    ({ app, requests } = opened);
    return opened.page;
  }

  afterEach(() => {
    app.stop();
  });

  const shown = (page: Actor<typeof testMachine>) => yearShown(page.getSnapshot().context);

  it('shows the year the address says when it is offered, and asks its months', async () => {
    const page = await openAt(`${PATH}?year=2025&${FILTERS}`);
    expect(shown(page)).toBe(2025);
    expect(periodsOf(calls)).toEqual(YEAR_PERIODS[2025]);
    // Nothing written: the address already says it.
    expect(requests).toEqual([]);
  });

  it('shows this year for a year the address says that is not offered, or not a year', async () => {
    for (const said of ['2021', '2027', '25', 'last']) {
      const page = await openAt(`${PATH}?year=${said}&${FILTERS}`);
      expect(shown(page)).toBe(2026);
      expect(page.getSnapshot().context.year).toBeUndefined();
      expect(periodsOf(calls)).toEqual(YEAR_PERIODS[2026]);
      expect(requests).toEqual([]);
      app.stop();
    }
  });

  it('waits for the header’s today before it takes the address’s year', async () => {
    const page = await openAt(`${PATH}?year=2024&${FILTERS}`);
    expect(shown(page)).toBe(2024);
    // Told again without today: the year is kept.
    page.send({ ...headerEvent([1]), today: undefined });
    await flush();
    expect(page.getSnapshot().context.year).toBe(2024);
  });

  it('writes the year chosen into the address in place, before the filters’ keys, this year’s too', async () => {
    const page = await openAt(`${PATH}?compare=festival_aligned&${FILTERS}`);
    expect(shown(page)).toBe(2026);
    await answerAll();
    const before = calls.length;
    page.send({ type: 'year.change', year: 2025 });
    await flush();
    expect(requests).toEqual([{ href: `${PATH}?compare=festival_aligned&year=2025&${FILTERS}`, replace: true }]);
    // Asked once: the page's own write, come back as the address's year, asks nothing again.
    const monthly = calls.slice(before).filter((call) => call.url.pathname === '/api/mall_report/monthly');
    expect(periodsOf(monthly)).toEqual(YEAR_PERIODS[2025]);
    page.send({ type: 'year.change', year: 2026 });
    await flush();
    expect(shown(page)).toBe(2026);
    expect(requests.at(-1)).toEqual({ href: `${PATH}?compare=festival_aligned&year=2026&${FILTERS}`, replace: true });
    expect(requests).toHaveLength(2);
  });

  it('follows the address back and forward to another year, never writing it back', async () => {
    const page = await openAt(`${PATH}?year=2025&${FILTERS}`);
    await answerAll();
    const guard = app.getSnapshot().children.guard as AnyActorRef;
    let before = calls.length;
    guard.send({ type: 'location.change', href: `${PATH}?${FILTERS}` });
    await flush();
    expect(shown(page)).toBe(2026);
    expect(periodsOf(calls.slice(before))).toEqual(YEAR_PERIODS[2026]);
    await answerAll();
    before = calls.length;
    guard.send({ type: 'location.change', href: `${PATH}?year=2025&${FILTERS}` });
    await flush();
    expect(shown(page)).toBe(2025);
    expect(periodsOf(calls.slice(before))).toEqual(YEAR_PERIODS[2025]);
    expect(requests).toEqual([]);
  });

  it('is kept by the filter header’s writes, which replace only their own keys', () => {
    expect(withFilterQuery(`year=2025&${FILTERS}`, { clientId: 1, mallIds: [3] })).toBe('year=2025&client=1&malls=3');
    expect(withYearQuery(`year=2025&${FILTERS}`, 2024)).toBe('year=2024&client=1&malls=1%2C2');
    expect(withYearQuery('compare=previous', 2024)).toBe('compare=previous&year=2024');
  });
});
