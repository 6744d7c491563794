import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor, fromCallback, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { createApiClient } from '../../src/api/client';
import type { DataFeedReport } from '../../src/api/dataFeeds';
import { clearSession, setPermissionsList } from '../../src/api/session';
import { type DataFeedsTarget, DEFAULT_FEED_SORT, filterFeeds, sortFeeds } from '../../src/domain/dataFeeds';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import type { Notice } from '../../src/domain/messages';
import { dataFeedsMachine, loadDataFeeds } from '../../src/machines/dataFeedsMachine';
import type { HeaderFiltersEvent } from '../../src/machines/headerLink';
import { NO_OUTLETS, REPORT } from '../support/dataFeeds';
import { installPendingFetch, jsonResponse, type PendingCall } from '../support/pendingFetch';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the Data Feeds machine with the app's api wrapper on a client whose network the test
 * answers. Client 1's malls [1] and then [1, 2]; then no mall (the header cleared): the page waits again. Nothing
 * is asked without a client and a mall; an answer without outlets is 'No Data' (empty), never a failure; a failed
 * call toasts and offers a retry; a loaded or empty page reads again on refresh.
 */

const ERROR_TEXT = 'Data feeds error occurs. Please try again later.';
const SERVER_ERROR = { statusCode: 500, error: 'Internal Server Error', message: 'boom' };

const FILTERS: CommittedFilters = {
  clientId: 1,
  mallIds: [1],
  outlet: undefined,
  dateRange: { start: '2026-03-05', end: '2026-03-11' },
  hours: { from: 0, to: 23 },
  timeRange: 'daily',
  metric: 'gmv',
  month: undefined,
};
const headerEvent = (mallIds: number[]): HeaderFiltersEvent => ({
  type: 'header.filters',
  filters: { ...FILTERS, mallIds },
  outlets: [],
});

let calls: PendingCall[];
let notices: Notice[];
let malls: number[];
let actor: Actor<typeof testMachine>;

const client = createApiClient((request) => globalThis.fetch(request), { baseUrl: 'http://data-feeds.test' });
const testMachine = dataFeedsMachine.provide({
  actors: {
    followHeaderFilters: fromCallback(() => undefined),
    lockHeader: fromCallback(() => () => undefined),
    fetchFeeds: fromPromise<DataFeedReport, DataFeedsTarget>(({ input, signal }) =>
      loadDataFeeds(input, { signal, client }),
    ),
  },
});

const flush = async () => {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
};

async function answerLast(status: number, body: unknown): Promise<void> {
  const call = calls.at(-1);
  if (!call) throw new Error('nothing was asked');
  call.settled = true;
  call.answer.resolve(jsonResponse(status, body));
  await flush();
}

type ModelEvent =
  | { type: 'header' }
  | { type: 'otherMalls' }
  | { type: 'noMall' }
  | { type: 'answer' }
  | { type: 'answerNone' }
  | { type: 'fail' }
  | { type: 'retry' }
  | { type: 'refresh' };

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'dataFeedsModel',
    initial: 'idle',
    states: {
      idle: { on: { header: 'loading' } },
      loading: { on: { answer: 'loaded', answerNone: 'empty', fail: 'failure' } },
      loaded: { on: { otherMalls: 'loading', noMall: 'idle', refresh: 'loading' } },
      empty: { on: { otherMalls: 'loading', refresh: 'loading' } },
      failure: { on: { retry: 'loading', otherMalls: 'loading' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    idle: () => {
      expect(actor.getSnapshot().matches('idle')).toBe(true);
      expect(actor.getSnapshot().context).toMatchObject({ target: undefined, answer: undefined });
      expect(calls.filter((call) => !call.settled)).toEqual([]);
    },
    loading: () => {
      expect(actor.getSnapshot().hasTag('loading')).toBe(true);
      const call = calls.at(-1);
      const query = malls.map((mall) => `mall_ids=${mall}`).join('&');
      expect(`${call?.url.pathname}?${call?.url.searchParams}`).toBe(`/api/dataFeeds?client_id=1&${query}`);
      expect(actor.getSnapshot().context.answer).toBeUndefined();
    },
    loaded: () => {
      expect(actor.getSnapshot().matches('loaded')).toBe(true);
      expect(actor.getSnapshot().context.answer).toEqual(REPORT);
      expect(actor.getSnapshot().can({ type: 'feeds.refresh' })).toBe(true);
    },
    empty: () => {
      expect(actor.getSnapshot().matches('empty')).toBe(true);
      expect(actor.getSnapshot().context.answer).toEqual(NO_OUTLETS);
      expect(notices).toEqual([]);
    },
    failure: () => {
      expect(actor.getSnapshot().matches('failure')).toBe(true);
      expect(notices.at(-1)).toEqual({ type: 'notify', intent: 'danger', message: ERROR_TEXT, timeout: 5000 });
      expect(actor.getSnapshot().can({ type: 'feeds.retry' })).toBe(true);
      expect(actor.getSnapshot().can({ type: 'feeds.refresh' })).toBe(false);
    },
  },
  events: {
    header: async () => {
      const asked = calls.length;
      actor.send(headerEvent(malls));
      // The same client and malls again ask nothing more.
      actor.send(headerEvent(malls));
      await flush();
      expect(calls).toHaveLength(asked + 1);
    },
    otherMalls: async () => {
      malls = malls.length === 1 ? [1, 2] : [1];
      actor.send(headerEvent(malls));
      await flush();
    },
    noMall: async () => {
      actor.send(headerEvent([]));
      await flush();
    },
    answer: () => answerLast(200, REPORT),
    answerNone: () => answerLast(200, NO_OUTLETS),
    fail: () => answerLast(500, SERVER_ERROR),
    retry: async () => {
      actor.send({ type: 'feeds.retry' });
      await flush();
    },
    refresh: async () => {
      actor.send({ type: 'feeds.refresh' });
      await flush();
    },
  },
};

function startActor() {
  calls = installPendingFetch();
  setPermissionsList(['/api/dataFeeds::Read']);
  notices = [];
  malls = [1];
  actor = createActor(testMachine);
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
}

function stopActor() {
  actor.stop();
  vi.unstubAllGlobals();
  clearSession();
}

describe('dataFeedsMachine (model)', () => {
  beforeEach(startActor);
  afterEach(stopActor);
  describeModelCoverage(model, params, {
    states: ['idle', 'loading', 'loaded', 'empty', 'failure'],
    transitions: 11,
  });
});

describe('dataFeedsMachine details', () => {
  beforeEach(startActor);
  afterEach(stopActor);

  it('asks nothing without a client or a mall', async () => {
    actor.send(headerEvent([]));
    actor.send({ ...headerEvent([1]), filters: { ...FILTERS, clientId: undefined } });
    await flush();
    expect(calls).toEqual([]);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
  });

  it('takes no late answer of the malls asked before', async () => {
    actor.send(headerEvent([1]));
    await flush();
    const first = calls.at(-1);
    actor.send(headerEvent([1, 2]));
    await flush();
    expect(calls).toHaveLength(2);
    await answerLast(200, REPORT);
    first?.answer.resolve(jsonResponse(200, NO_OUTLETS));
    await flush();
    expect(actor.getSnapshot().matches('loaded')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ target: { clientId: 1, mallIds: [1, 2] }, answer: REPORT });
  });

  it('keeps the filter and the order across a reload; a new column sorts descending first, the same turns', async () => {
    expect(actor.getSnapshot().context.sort).toEqual(DEFAULT_FEED_SORT);
    actor.send({ type: 'feeds.filter', filter: 'silent' });
    actor.send({ type: 'feeds.sort', column: 'receipts_today' });
    expect(actor.getSnapshot().context.sort).toEqual({ column: 'receipts_today', order: 'desc' });
    actor.send({ type: 'feeds.sort', column: 'receipts_today' });
    expect(actor.getSnapshot().context.sort).toEqual({ column: 'receipts_today', order: 'asc' });
    actor.send(headerEvent([1]));
    await flush();
    await answerLast(200, REPORT);
    expect(actor.getSnapshot().context).toMatchObject({
      filter: 'silent',
      sort: { column: 'receipts_today', order: 'asc' },
    });
  });
});

describe('the rows shown', () => {
  it('filters by state and sorts silent outlets first by default, ties by name', () => {
    const sorted = sortFeeds(REPORT.rows, DEFAULT_FEED_SORT.column, DEFAULT_FEED_SORT.order);
    expect(sorted.map((row) => row.outlet_name)).toEqual(['Bakery Lane', 'Kopi Corner', 'Atlas Books']);
    expect(filterFeeds(REPORT.rows, 'silent').map((row) => row.outlet_id)).toEqual([12]);
    expect(filterFeeds(REPORT.rows, 'all')).toHaveLength(3);
    // Atlas Books and Kopi Corner sent their last receipt at once: by name.
    expect(sortFeeds(REPORT.rows, 'last_receipt_at', 'asc').map((row) => row.outlet_id)).toEqual([12, 13, 11]);
  });
});
