import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor, fromCallback, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { createApiClient } from '../../src/api/client';
import type { SalesReview } from '../../src/api/nonTradingDays';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { CsvFile } from '../../src/domain/csv';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import type { Notice } from '../../src/domain/messages';
import { salesReviewCsv } from '../../src/domain/nonTradingDays';
import type { HeaderFiltersEvent } from '../../src/machines/headerLink';
import { createSalesReviewMachine } from '../../src/machines/tenantConnect/salesReviewMachine';
import { installPendingFetch, jsonResponse, type PendingCall } from '../support/pendingFetch';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the sales review (a query page of one outlet) with the app's api wrappers on a client whose
 * network the test answers: client 1, the header's days 2026-11-19..2026-11-25, outlet 12 and then 13. Nothing is
 * asked before one outlet is chosen; a failed call fails the panel with the toast and a retry (§8); an answer with
 * no sales and no non-trading day is 'No Data'.
 */

const ERROR_TEXT = 'Sales review error occurs. Please try again later.';
const RANGE = { start: '2026-11-19', end: '2026-11-25' };

let calls: PendingCall[];

function installNetwork(): void {
  calls = installPendingFetch();
}

const json = jsonResponse;

function lastCall(): PendingCall {
  const call = calls.at(-1);
  if (!call) throw new Error('no call');
  return call;
}

const client = createApiClient((request) => globalThis.fetch(request), { baseUrl: 'http://sales.test' });

let exports: { base: string; suffix: string; files: readonly CsvFile[] }[];

const testMachine = createSalesReviewMachine(client).provide({
  actors: {
    followHeaderFilters: fromCallback(() => () => undefined),
    lockHeader: fromCallback(() => () => undefined),
    exportFiles: fromPromise<void, { base: string; suffix: string; files: readonly CsvFile[] }>(async ({ input }) => {
      exports.push(input);
    }),
  },
});

function headerEvent(outlet: CommittedFilters['outlet']): HeaderFiltersEvent {
  const filters: CommittedFilters = {
    clientId: 1,
    mallIds: [1],
    outlet,
    dateRange: RANGE,
    hours: { from: 0, to: 23 },
    timeRange: 'daily',
    metric: 'gmv',
    month: '2026-11',
  };
  return { type: 'header.filters', filters, outlets: [], today: '2026-11-25' };
}

/** A week of the outlet: a Private event on the 21st (no sales), today so far. */
const REVIEW: SalesReview = {
  currency: 'IDR',
  today: '2026-11-25',
  data: [
    { date: '2026-11-19', gmv: 150000, transactions: 3, non_trading: null },
    { date: '2026-11-20', gmv: 0, transactions: 0, non_trading: null },
    { date: '2026-11-21', gmv: 0, transactions: 0, non_trading: { reason: 'Private event', declared_by: 'tenant' } },
    { date: '2026-11-22', gmv: 98000, transactions: 2, non_trading: null },
    { date: '2026-11-23', gmv: 120500, transactions: 4, non_trading: null },
    { date: '2026-11-24', gmv: 50000, transactions: 1, non_trading: null },
    { date: '2026-11-25', gmv: 10000, transactions: 1, non_trading: null },
  ],
};
const NOTHING: SalesReview = {
  currency: 'IDR',
  today: '2026-11-25',
  data: REVIEW.data.map((day) => ({ ...day, gmv: 0, transactions: 0, non_trading: null })),
};

let actor: Actor<typeof testMachine>;
let notices: Notice[];
const snapshot = () => actor.getSnapshot();
const panel = () => snapshot().context.panels.days;

function start(): void {
  installNetwork();
  setPermissionsList(['*::*']);
  notices = [];
  exports = [];
  actor = createActor(testMachine);
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
}

afterEach(() => {
  actor.stop();
  vi.unstubAllGlobals();
  clearSession();
});

const flush = async () => {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
};

/* ---------------------------------------------------------------- the model */

type ModelEvent = {
  type: 'chooseOutlet' | 'answer' | 'answerNothing' | 'fail' | 'retry' | 'otherOutlet' | 'export';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'salesReviewModel',
    initial: 'waiting',
    states: {
      /** The header has no single outlet yet. */
      waiting: { on: { chooseOutlet: 'loading' } },
      loading: { on: { answer: 'loaded', answerNothing: 'empty', fail: 'failed' } },
      loaded: { on: { export: 'loaded', otherOutlet: 'loading' } },
      empty: { on: { otherOutlet: 'loading' } },
      failed: { on: { retry: 'loading', otherOutlet: 'loading' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;
let outlet: number;

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    waiting: () => {
      expect(calls).toEqual([]);
      expect(snapshot().context.query).toBeUndefined();
      expect(panel().status).toBe('idle');
    },
    loading: () => {
      expect(snapshot().hasTag('loading')).toBe(true);
      expect(panel()).toEqual({ status: 'loading', data: undefined });
      expect(lastCall().url.pathname).toBe('/api/salesReview/daily');
      expect(Object.fromEntries(lastCall().url.searchParams)).toEqual({
        client_id: '1',
        outlet_id: String(outlet),
        start_time: RANGE.start,
        end_time: RANGE.end,
      });
      expect(snapshot().can({ type: 'report.export', base: 'sales_review', files: [] })).toBe(false);
    },
    loaded: () => {
      expect(snapshot().hasTag('loading')).toBe(false);
      expect(panel()).toEqual({ status: 'loaded', data: REVIEW });
      expect(snapshot().context.query?.outletId).toBe(outlet);
      expect(snapshot().can({ type: 'report.export', base: 'sales_review', files: [] })).toBe(true);
    },
    empty: () => {
      expect(panel()).toEqual({ status: 'empty', data: NOTHING });
    },
    failed: () => {
      expect(panel().status).toBe('failed');
      expect(panel().data).toBeUndefined();
      expect(notices.at(-1)).toEqual({ type: 'notify', intent: 'danger', message: ERROR_TEXT, timeout: 5000 });
      expect(snapshot().can({ type: 'report.retry', panel: 'days' })).toBe(true);
    },
  },
  events: {
    chooseOutlet: async () => {
      actor.send(headerEvent(outlet));
      await flush();
    },
    answer: async () => {
      lastCall().answer.resolve(json(200, REVIEW));
      await flush();
    },
    answerNothing: async () => {
      lastCall().answer.resolve(json(200, NOTHING));
      await flush();
    },
    fail: async () => {
      lastCall().answer.resolve(json(500, { statusCode: 500, error: 'Internal Server Error', message: 'boom' }));
      await flush();
    },
    retry: async () => {
      actor.send({ type: 'report.retry', panel: 'days' });
      await flush();
    },
    otherOutlet: async () => {
      outlet = 13;
      actor.send(headerEvent(outlet));
      await flush();
    },
    export: async () => {
      const file = salesReviewCsv(REVIEW.data, REVIEW.today);
      actor.send({ type: 'report.export', base: 'sales_review', files: [file] });
      await flush();
      expect(exports.at(-1)).toEqual({ base: 'sales_review', suffix: '2026-11-19_2026-11-25', files: [file] });
    },
  },
};

describe('salesReviewMachine (model)', () => {
  beforeEach(() => {
    outlet = 12;
    start();
    // The header starts with no single outlet: nothing is asked.
    actor.send(headerEvent(undefined));
  });
  describeModelCoverage(model, params, {
    states: ['waiting', 'loading', 'loaded', 'empty', 'failed'],
    transitions: 9,
  });
});

/* ---------------------------------------------------------------- details */

describe('salesReviewMachine details', () => {
  beforeEach(() => start());

  it('asks nothing for All Outlets, and once per outlet and range', async () => {
    actor.send(headerEvent('all'));
    await flush();
    expect(calls).toEqual([]);
    actor.send(headerEvent(12));
    await flush();
    actor.send(headerEvent(12));
    await flush();
    expect(calls).toHaveLength(1);
  });

  it('aborts the pending call of an outlet left for another', async () => {
    actor.send(headerEvent(12));
    await flush();
    const first = calls[0];
    actor.send(headerEvent(13));
    await flush();
    first?.answer.resolve(json(200, NOTHING));
    lastCall().answer.resolve(json(200, REVIEW));
    await flush();
    expect(panel()).toEqual({ status: 'loaded', data: REVIEW });
    expect(snapshot().context.query?.outletId).toBe(13);
  });
});
