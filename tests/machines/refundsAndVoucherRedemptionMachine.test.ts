import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor, fromCallback, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { createApiClient } from '../../src/api/client';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { CsvFile } from '../../src/domain/csv';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import { MALL_AMOUNT_LABELS, type MallAmountKind, mallAmountCsvFiles } from '../../src/domain/mallAmounts';
import { kpiGrowthLine } from '../../src/domain/mallReportViews';
import type { Notice } from '../../src/domain/messages';
import type { HeaderFiltersEvent } from '../../src/machines/headerLink';
import {
  createMallAmountMachine,
  refundsMachine,
  sharedCalls,
  voucherRedemptionMachine,
} from '../../src/machines/refundsAndVoucherRedemptionMachine';
import { installPendingFetch, jsonResponse, type PendingCall } from '../support/pendingFetch';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the refunds and voucher redemption page machine (one definition, a `kind` each) with the
 * app's api wrapper on a client whose network the test answers. Today is Sunday 15 March 2026 in client 1's malls
 * and the header's range is 9–15 March: the three panels (KPIs, days, outlets) read one answer of the range, and
 * the KPIs' growth is over the complete days 9–14 March, asked apart (the server compares them with 3–8 March).
 * Nothing is asked before the header knows a client and malls; 'No Data' only for an answer with nothing; a failed
 * call fails the panels that read it, each with the toast and a retry (§8); a 409 gives the server's reason and the
 * figures per currency, never a total.
 */

const TODAY = '2026-03-15';
const RANGE = { start: '2026-03-09', end: TODAY };
const COMPLETE_END = '2026-03-14';

let calls: PendingCall[];
const client = createApiClient((request) => globalThis.fetch(request), { baseUrl: 'http://amounts.test' });

let exports: { base: string; suffix: string; files: readonly CsvFile[] }[];

function machineOf(kind: MallAmountKind) {
  return createMallAmountMachine({ kind, client }).provide({
    actors: {
      followHeaderFilters: fromCallback(() => undefined),
      lockHeader: fromCallback(() => () => undefined),
      exportFiles: fromPromise<void, { base: string; suffix: string; files: readonly CsvFile[] }>(async ({ input }) => {
        exports.push(input);
      }),
    },
  });
}

function headerEvent(mallIds: number[], dateRange = RANGE): HeaderFiltersEvent {
  const filters: CommittedFilters = {
    clientId: mallIds.length === 0 ? undefined : 1,
    mallIds,
    outlet: undefined,
    dateRange,
    hours: { from: 0, to: 23 },
    timeRange: 'daily',
    metric: 'gmv',
    month: undefined,
  };
  return { type: 'header.filters', filters, outlets: [], today: TODAY };
}

/* ---------------------------------------------------------------- the server's answers */

const zero = { amount: 0, count: 0, gmv: 0, transactions: 0 };

function days(start: string, end: string, figures: Record<string, [number, number]> = {}) {
  const list = [];
  for (let day = Number(start.slice(8)); day <= Number(end.slice(8)); day++) {
    const date = `2026-03-${String(day).padStart(2, '0')}`;
    const [amount, count] = figures[date] ?? [0, 0];
    list.push({ date, amount, count });
  }
  return list;
}

const OUTLETS = [
  {
    outlet_id: 12,
    outlet_name: 'Boutique Duo',
    mall_id: 1,
    mall_name: 'Central',
    amount: 50,
    count: 1,
    gmv: 200,
    transactions: 1,
  },
  {
    outlet_id: 11,
    outlet_name: 'Cafe Uno',
    mall_id: 1,
    mall_name: 'Central',
    amount: 20,
    count: 1,
    gmv: 150,
    transactions: 2,
  },
];

/**
 * 9–15 March: 70.00 in 2 receipts of GMV 350.00 (20.00 on the 9th, 50.00 on the 11th), against 2–8 March's 5.00.
 * The complete days 9–14 March: the same, against 3–8 March's 56.00 in 4 receipts of GMV 280.00.
 */
function answerOf(url: URL, nothing: boolean): unknown {
  const start = url.searchParams.get('start_time') ?? '';
  const end = url.searchParams.get('end_time') ?? '';
  if (nothing) {
    return {
      current: zero,
      previous: { amount: 12, count: 1, gmv: 100, transactions: 2 },
      previous_start_time: '2026-03-02',
      previous_end_time: '2026-03-08',
      daily: days(start, end),
      outlets: [],
    };
  }
  const complete = end === COMPLETE_END;
  return {
    current: { amount: 70, count: 2, gmv: 350, transactions: 3 },
    previous: complete
      ? { amount: 56, count: 4, gmv: 280, transactions: 5 }
      : { amount: 5, count: 1, gmv: 40, transactions: 1 },
    previous_start_time: complete ? '2026-03-03' : '2026-03-02',
    previous_end_time: '2026-03-08',
    daily: days(start, end, { '2026-03-09': [20, 1], '2026-03-11': [50, 1] }),
    outlets: OUTLETS,
  };
}

const pending = () => calls.filter((call) => !call.settled);

function answer(call: PendingCall, status: number, body: unknown): void {
  call.settled = true;
  call.answer.resolve(jsonResponse(status, body));
}

async function answerAll(nothing = false): Promise<void> {
  for (const call of pending()) answer(call, 200, answerOf(call.url, nothing));
  await flush();
}

const SERVER_ERROR = { statusCode: 500, error: 'Internal Server Error', message: 'boom' };
const REASON = 'No exchange rate to SGD for USD in February 2026.';
const BY_CURRENCY = [
  { currency: 'SGD', gmv: 100, transactions: 2 },
  { currency: 'USD', gmv: 50, transactions: 1 },
];

const isRangeCall = (call: PendingCall) => call.url.searchParams.get('end_time') === TODAY;

/** Answers the range's call with `status`; the complete days' call is left (its panel has failed already). */
async function answerRange(status: number, body: unknown): Promise<void> {
  const range = pending().find(isRangeCall);
  if (range) answer(range, status, body);
  await flush();
  for (const call of pending()) call.settled = true;
}

const flush = async () => {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
};

/** The periods asked, as 'start..end', sorted. */
const periodsOf = (list: readonly PendingCall[]) =>
  list.map((call) => `${call.url.searchParams.get('start_time')}..${call.url.searchParams.get('end_time')}`).sort();

/* ---------------------------------------------------------------- the model */

type ModelEvent = {
  type: 'malls' | 'answer' | 'answerNothing' | 'fail' | 'failGrowth' | 'refuse' | 'retry' | 'otherMalls' | 'export';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'mallAmountModel',
    initial: 'waiting',
    states: {
      /** The header knows no client and malls yet. */
      waiting: { on: { malls: 'loading' } },
      loading: {
        on: { answer: 'loaded', answerNothing: 'empty', fail: 'failed', failGrowth: 'kpisFailed', refuse: 'refused' },
      },
      loaded: { on: { export: 'loaded', otherMalls: 'loading' } },
      empty: { on: { otherMalls: 'loading' } },
      /** The range's call failed: the three panels that read it. */
      failed: { on: { retry: 'loading' } },
      /** Only the complete days' call failed: the KPIs alone. */
      kpisFailed: { on: { retry: 'retryingKpis' } },
      retryingKpis: { on: { answer: 'loaded' } },
      refused: { on: { otherMalls: 'loading' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

for (const kind of ['refund', 'voucher'] as const) {
  const testMachine = machineOf(kind);
  const labels = MALL_AMOUNT_LABELS[kind];
  const errorText = `${labels.what} error occurs. Please try again later.`;
  let actor: Actor<typeof testMachine>;
  let notices: Notice[];
  let mallIds: number[];
  /** Calls made before the current load. */
  let before: number;
  const snapshot = () => actor.getSnapshot();
  /** The report's panels (the chart annotations' own call is the mall reports' loader's, tested there). */
  const panels = () => {
    const { annotations: _annotations, ...report } = snapshot().context.panels;
    return report;
  };

  function expectCallsOfALoad(asked: readonly PendingCall[]): void {
    // One call of the range for the three panels, one of its complete days for the KPIs' growth.
    expect(asked.every((call) => call.url.pathname === `/api/mall_report/${kind}`)).toBe(true);
    expect(periodsOf(asked)).toEqual([`${RANGE.start}..${COMPLETE_END}`, `${RANGE.start}..${TODAY}`]);
    for (const call of asked) {
      expect(call.url.searchParams.get('client_id')).toBe('1');
      expect(call.url.searchParams.getAll('mall_ids')).toEqual(mallIds.map(String));
    }
  }

  function expectFigures(): void {
    const kpis = panels().kpis;
    expect(kpis.status).toBe('loaded');
    expect(kpis.data?.amount).toEqual({ current: 70, growth: { current: 70, previous: 56 } });
    expect(kpis.data?.count).toEqual({ current: 2, growth: { current: 2, previous: 4 } });
    expect(kpis.data?.rate).toEqual({ current: 0.2, growth: { current: 0.2, previous: 0.2 } });
    const comparison = kpis.data?.comparison;
    expect(comparison).toEqual({
      current: { start: RANGE.start, end: COMPLETE_END },
      previous: { start: '2026-03-03', end: '2026-03-08' },
      todayLeftOut: true,
    });
    if (kpis.data) {
      expect(kpiGrowthLine(kpis.data.amount, comparison).text).toBe('▲ 25.00% vs 3–8 Mar (today left out)');
      expect(kpiGrowthLine(kpis.data.count, comparison).text).toBe('▼ -50.00% vs 3–8 Mar (today left out)');
      expect(kpiGrowthLine(kpis.data.rate, comparison).text).toBe('0.00% vs 3–8 Mar (today left out)');
    }
    expectRangeFigures();
  }

  function expectRangeFigures(): void {
    const daily = panels().daily;
    expect(daily.status).toBe('loaded');
    expect(daily.data?.map((row) => [row.label, row.amount, row.count])).toEqual([
      ['2026-03-09', 20, 1],
      ['2026-03-10', 0, 0],
      ['2026-03-11', 50, 1],
      ['2026-03-12', 0, 0],
      ['2026-03-13', 0, 0],
      ['2026-03-14', 0, 0],
      ['2026-03-15 (so far)', 0, 0],
    ]);
    expect(panels().outlets).toEqual({
      status: 'loaded',
      data: [
        { outletId: 12, outlet: 'Boutique Duo', mall: 'Central', amount: 50, count: 1, rate: 0.25, gmv: 200 },
        { outletId: 11, outlet: 'Cafe Uno', mall: 'Central', amount: 20, count: 1, rate: 20 / 150, gmv: 150 },
      ],
    });
  }

  const params: TestParam<ModelSnapshot, ModelEvent> = {
    states: {
      waiting: () => {
        expect(calls).toEqual([]);
        expect(snapshot().context.query).toBeUndefined();
        expect(Object.values(panels()).map((panel) => panel.status)).toEqual(['idle', 'idle', 'idle']);
      },
      loading: () => {
        expect(snapshot().hasTag('loading')).toBe(true);
        expect(panels()).toEqual({
          kpis: { status: 'loading', data: undefined },
          daily: { status: 'loading', data: undefined },
          outlets: { status: 'loading', data: undefined },
        });
        expectCallsOfALoad(calls.slice(before));
        expect(snapshot().can({ type: 'report.export', base: labels.base, files: [] })).toBe(false);
      },
      loaded: () => {
        expect(snapshot().hasTag('loading')).toBe(false);
        expectFigures();
        expect(snapshot().can({ type: 'report.export', base: labels.base, files: [] })).toBe(true);
      },
      empty: () => {
        // Nothing in the range: 'No Data' for the days and the outlets; the KPIs say 0 against the days before.
        expect(panels().daily.status).toBe('empty');
        expect(panels().outlets.status).toBe('empty');
        expect(panels().kpis.status).toBe('loaded');
        expect(panels().kpis.data?.amount).toEqual({ current: 0, growth: { current: 0, previous: 12 } });
        expect(snapshot().hasTag('loading')).toBe(false);
      },
      failed: () => {
        for (const panel of Object.values(panels())) expect(panel).toEqual({ status: 'failed', data: undefined });
        expect(notices.at(-1)).toEqual({ type: 'notify', intent: 'danger', message: errorText, timeout: 5000 });
        expect(snapshot().can({ type: 'report.retry', panel: 'daily' })).toBe(true);
      },
      kpisFailed: () => {
        // The other panels keep their figures.
        expect(panels().kpis).toEqual({ status: 'failed', data: undefined });
        expectRangeFigures();
        expect(notices).toHaveLength(1);
        expect(notices[0]?.message).toBe(errorText);
      },
      retryingKpis: () => {
        expect(panels().kpis.status).toBe('loading');
        expect(panels().daily.status).toBe('loaded');
        expect(panels().outlets.status).toBe('loaded');
        expectCallsOfALoad(calls.slice(before));
      },
      refused: () => {
        // Never a total across currencies: the server's reason and its figures per currency, on every panel.
        for (const panel of Object.values(panels())) {
          expect(panel).toEqual({ status: 'failed', data: undefined, reason: REASON, byCurrency: BY_CURRENCY });
        }
      },
    },
    events: {
      malls: async () => {
        before = calls.length;
        actor.send(headerEvent(mallIds));
        await flush();
      },
      answer: () => answerAll(),
      answerNothing: () => answerAll(true),
      fail: () => answerRange(500, SERVER_ERROR),
      failGrowth: async () => {
        for (const call of pending()) {
          if (isRangeCall(call)) answer(call, 200, answerOf(call.url, false));
          else answer(call, 500, SERVER_ERROR);
        }
        await flush();
      },
      refuse: () => answerRange(409, { statusCode: 409, error: 'Conflict', message: REASON, by_currency: BY_CURRENCY }),
      retry: async () => {
        before = calls.length;
        actor.send({ type: 'report.retry' });
        await flush();
      },
      otherMalls: async () => {
        before = calls.length;
        mallIds = mallIds.length === 2 ? [1] : [1, 2];
        actor.send(headerEvent(mallIds));
        await flush();
      },
      export: async () => {
        const { context } = snapshot();
        const files = mallAmountCsvFiles(kind, {
          kpis: context.panels.kpis.data,
          days: context.panels.daily.data,
          outlets: context.panels.outlets.data,
        });
        actor.send({ type: 'report.export', base: labels.base, files });
        await flush();
        expect(exports.at(-1)).toEqual({ base: labels.base, suffix: '2026-03-09_2026-03-15', files });
        expect(snapshot().context.exporting).toBe(false);
      },
    },
  };

  describe(`refundsAndVoucherRedemptionMachine: ${kind} (model)`, () => {
    beforeEach(() => {
      calls = installPendingFetch();
      setPermissionsList(['*::*']);
      notices = [];
      exports = [];
      mallIds = [1, 2];
      before = 0;
      actor = createActor(testMachine).start();
      actor.on('notify', (notice) => notices.push(notice));
      // The header starts with no client: nothing is asked.
      actor.send(headerEvent([]));
    });
    afterEach(() => {
      actor.stop();
      vi.unstubAllGlobals();
      clearSession();
    });
    describeModelCoverage(model, params, {
      states: ['waiting', 'loading', 'loaded', 'empty', 'failed', 'kpisFailed', 'retryingKpis', 'refused'],
      transitions: 13,
    });
  });
}

/* ---------------------------------------------------------------- details */

describe('refundsAndVoucherRedemptionMachine details', () => {
  let actor: Actor<ReturnType<typeof machineOf>>;
  beforeEach(() => {
    calls = installPendingFetch();
    setPermissionsList(['*::*']);
    exports = [];
    actor = createActor(machineOf('refund')).start();
  });
  afterEach(() => {
    actor.stop();
    vi.unstubAllGlobals();
    clearSession();
  });

  it('are two pages of one definition, each with its own id and toasts', () => {
    expect(refundsMachine.id).toBe('refundsReport');
    expect(voucherRedemptionMachine.id).toBe('voucherRedemptionReport');
    expect(Object.keys(refundsMachine.config.states ?? {})).toEqual(
      Object.keys(voucherRedemptionMachine.config.states ?? {}),
    );
  });

  it('compares a range that ends before today whole, with the one call of the range', async () => {
    actor.send(headerEvent([1], { start: '2026-03-02', end: '2026-03-08' }));
    await flush();
    expect(periodsOf(calls)).toEqual(['2026-03-02..2026-03-08']);
    const [call] = calls;
    if (call)
      answer(call, 200, {
        current: { amount: 30, count: 3, gmv: 300, transactions: 6 },
        previous: { amount: 10, count: 1, gmv: 200, transactions: 4 },
        previous_start_time: '2026-02-23',
        previous_end_time: '2026-03-01',
        daily: days('2026-03-02', '2026-03-08', { '2026-03-05': [30, 3] }),
        outlets: [],
      });
    await flush();
    const kpis = actor.getSnapshot().context.panels.kpis.data;
    expect(kpis?.comparison).toEqual({
      current: { start: '2026-03-02', end: '2026-03-08' },
      previous: { start: '2026-02-23', end: '2026-03-01' },
      todayLeftOut: false,
    });
    if (kpis) expect(kpiGrowthLine(kpis.amount, kpis.comparison).text).toBe('▲ 200.00% vs 23 Feb – 1 Mar');
    // No day is today; an answer without outlets is 'No Data' for them alone.
    expect(actor.getSnapshot().context.panels.daily.data?.some((row) => row.partial)).toBe(false);
    expect(actor.getSnapshot().context.panels.outlets.status).toBe('empty');
  });

  it('has no growth for a range of today alone', async () => {
    actor.send(headerEvent([1], { start: TODAY, end: TODAY }));
    await flush();
    expect(periodsOf(calls)).toEqual([`${TODAY}..${TODAY}`]);
    await answerAll();
    const kpis = actor.getSnapshot().context.panels.kpis.data;
    expect(kpis?.amount.growth).toBeUndefined();
    expect(kpis?.comparison).toBeUndefined();
  });

  it('retries one failed panel alone, with a call of its own', async () => {
    actor.send(headerEvent([1]));
    await flush();
    await answerRange(500, SERVER_ERROR);
    const asked = calls.length;
    actor.send({ type: 'report.retry', panel: 'outlets' });
    await flush();
    expect(periodsOf(calls.slice(asked))).toEqual([`${RANGE.start}..${TODAY}`]);
    await answerAll();
    const { panels } = actor.getSnapshot().context;
    expect([panels.kpis.status, panels.daily.status, panels.outlets.status]).toEqual(['failed', 'failed', 'loaded']);
  });
});

describe('sharedCalls', () => {
  function fakeCall() {
    const started: {
      key: string;
      signal: AbortSignal;
      resolve: (value: string) => void;
      reject: (e: Error) => void;
    }[] = [];
    const call = (key: string, signal: AbortSignal) =>
      new Promise<string>((resolve, reject) => started.push({ key, signal, resolve, reject }));
    return { started, shared: sharedCalls(call) };
  }

  it('asks once for the loads of one key while it runs, and again once it has settled', async () => {
    const { started, shared } = fakeCall();
    const a = shared('q', new AbortController().signal);
    const b = shared('q', new AbortController().signal);
    const other = shared('r', new AbortController().signal);
    expect(started.map((call) => call.key)).toEqual(['q', 'r']);
    started[0]?.resolve('answer');
    await expect(Promise.all([a, b])).resolves.toEqual(['answer', 'answer']);
    started[1]?.reject(new Error('boom'));
    await expect(other).rejects.toThrow('boom');
    const again = shared('q', new AbortController().signal);
    expect(started).toHaveLength(3);
    started[2]?.resolve('again');
    await expect(again).resolves.toBe('again');
  });

  it('aborts the call only when every load that joined it has been aborted', async () => {
    const { started, shared } = fakeCall();
    const first = new AbortController();
    const second = new AbortController();
    const a = shared('q', first.signal);
    const b = shared('q', second.signal);
    first.abort(new Error('superseded'));
    await expect(a).rejects.toThrow('superseded');
    expect(started[0]?.signal.aborted).toBe(false);
    second.abort(new Error('left'));
    await expect(b).rejects.toThrow('left');
    expect(started[0]?.signal.aborted).toBe(true);
    // The aborted call is forgotten: the next load asks again.
    void shared('q', new AbortController().signal).catch(() => undefined);
    expect(started).toHaveLength(2);
  });

  it('does not start a call for a load aborted before it asks', async () => {
    const { started, shared } = fakeCall();
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(shared('q', controller.signal)).rejects.toThrow('gone');
    expect(started).toEqual([]);
  });
});
