import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor, fromCallback, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { createApiClient } from '../../src/api/client';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { CrossSpendingAnswer, CrossSpendingPairAnswer } from '../../src/domain/crossSpending';
import type { CsvFile } from '../../src/domain/csv';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import type { Notice } from '../../src/domain/messages';
import {
  createCrossSpendingDetailsPageMachine,
  createCrossSpendingDetailsReportMachine,
} from '../../src/machines/crossSpendingDetailsMachine';
import { createCrossSpendingMachine } from '../../src/machines/crossSpendingMachine';
import type { HeaderFiltersEvent } from '../../src/machines/headerLink';
import type { HeaderOutletsEvent, OutletsStatus } from '../../src/machines/mallOutletMachine';
import { installPendingFetch, jsonResponse, type PendingCall } from '../support/pendingFetch';
import { childOf } from './childOf';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based tests of cross spending with the app's api wrappers on a client whose network the test answers:
 * client 1, the header's days 2026-11-19..2026-11-25 (today the 25th), Kopi Corner (12) and Tea Time (13) of
 * Central (mall 1), East Deli (40) of East (mall 2).
 *
 * - The page (a query page of one outlet): nothing is asked before one outlet is chosen; a failed call fails the
 *   panel with the toast and a retry (§8); 'No Data' when no member bought at the outlet.
 * - Its details (`?other=13`): the pair is asked for only once the client's outlets show that both are the user's
 *   and of one mall; the server's refusal (404) is the panel's answer, shown as a message, with no toast.
 */

const RANGE = { start: '2026-11-19', end: '2026-11-25' };
const TODAY = '2026-11-25';
const MALLS = [
  { id: 1, name: 'Central', currency: 'SGD' },
  { id: 2, name: 'East', currency: 'SGD' },
];
const KOPI = { id: 12, name: 'Kopi Corner', mall_id: 1, currency: 'SGD' };
const TEA = { id: 13, name: 'Tea Time', mall_id: 1, currency: 'SGD' };
const EAST_DELI = { id: 40, name: 'East Deli', mall_id: 2, currency: 'SGD' };
const OUTLETS = [KOPI, TEA, EAST_DELI];

let calls: PendingCall[];
const json = jsonResponse;

function lastCall(): PendingCall {
  const call = calls.at(-1);
  if (!call) throw new Error('no call');
  return call;
}

const client = createApiClient((request) => globalThis.fetch(request), { baseUrl: 'http://cross.test' });

let exports: { base: string; suffix: string; files: readonly CsvFile[] }[];
const recordExport = fromPromise<void, { base: string; suffix: string; files: readonly CsvFile[] }>(
  async ({ input }) => {
    exports.push(input);
  },
);

const flush = async () => {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
};

const ref = (outlet: typeof KOPI) => ({
  outlet_id: outlet.id,
  outlet_name: outlet.name,
  mall_id: outlet.mall_id,
  mall_name: 'Central',
  category: 'F&B',
  currency: 'SGD',
});

function filtersOf(outlet: CommittedFilters['outlet'], range = RANGE): CommittedFilters {
  return {
    clientId: 1,
    mallIds: [1, 2],
    outlet,
    dateRange: range,
    hours: { from: 0, to: 23 },
    timeRange: 'daily',
    metric: 'gmv',
    month: undefined,
  };
}

function start(): void {
  calls = installPendingFetch();
  setPermissionsList(['*::*']);
  exports = [];
}

afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

/* ================================================================ the page */

const REPORT: CrossSpendingAnswer = {
  outlet: ref(KOPI),
  shoppers: 12,
  spend: 1234.5,
  outlets: [
    {
      outlet_id: 13,
      outlet_name: 'Tea Time',
      category: 'F&B',
      shared_shoppers: 4,
      share_percent: 33.3,
      spend: 88.1,
      visits: 6,
    },
  ],
  categories: [{ category: 'F&B', shared_shoppers: 4, share_percent: 33.3, spend: 88.1, visits: 6 }],
};
const NOBODY: CrossSpendingAnswer = { ...REPORT, shoppers: 0, spend: 0, outlets: [], categories: [] };

describe('crossSpendingMachine', () => {
  const testMachine = createCrossSpendingMachine(client).provide({
    actors: {
      followHeaderFilters: fromCallback(() => () => undefined),
      lockHeader: fromCallback(() => () => undefined),
      exportFiles: recordExport,
    },
  });
  let actor: Actor<typeof testMachine>;
  let notices: Notice[];
  let outlet: number;
  const snapshot = () => actor.getSnapshot();
  const panel = () => snapshot().context.panels.report;
  const headerEvent = (selection: CommittedFilters['outlet']): HeaderFiltersEvent => ({
    type: 'header.filters',
    filters: filtersOf(selection),
    outlets: [],
    today: TODAY,
  });

  function startPage(): void {
    start();
    notices = [];
    actor = createActor(testMachine);
    actor.on('notify', (notice) => notices.push(notice));
    actor.start();
  }

  afterEach(() => actor.stop());

  type ModelEvent = {
    type: 'chooseOutlet' | 'answer' | 'answerNobody' | 'fail' | 'retry' | 'otherOutlet' | 'export';
  };

  const model = createTestModel(
    setup({ types: { events: {} as ModelEvent } }).createMachine({
      id: 'crossSpendingModel',
      initial: 'waiting',
      states: {
        /** The header has no single outlet yet. */
        waiting: { on: { chooseOutlet: 'loading' } },
        loading: { on: { answer: 'loaded', answerNobody: 'empty', fail: 'failed' } },
        loaded: { on: { export: 'loaded', otherOutlet: 'loading' } },
        empty: { on: { otherOutlet: 'loading' } },
        failed: { on: { retry: 'loading', otherOutlet: 'loading' } },
      },
    }),
  );

  const params: TestParam<SnapshotFrom<typeof model.logic>, ModelEvent> = {
    states: {
      waiting: () => {
        expect(calls).toEqual([]);
        expect(snapshot().context.query).toBeUndefined();
        expect(panel().status).toBe('idle');
      },
      loading: () => {
        expect(snapshot().hasTag('loading')).toBe(true);
        expect(panel()).toEqual({ status: 'loading', data: undefined });
        expect(lastCall().url.pathname).toBe('/api/mall_report/crossSpending');
        expect(Object.fromEntries(lastCall().url.searchParams)).toEqual({
          client_id: '1',
          outlet_id: String(outlet),
          start_time: RANGE.start,
          end_time: RANGE.end,
        });
        expect(snapshot().can({ type: 'report.export', base: 'x', files: [] })).toBe(false);
      },
      loaded: () => {
        expect(snapshot().hasTag('loading')).toBe(false);
        expect(panel()).toEqual({ status: 'loaded', data: REPORT });
        expect(snapshot().context.query?.outletId).toBe(outlet);
        expect(snapshot().can({ type: 'report.export', base: 'x', files: [] })).toBe(true);
      },
      empty: () => {
        // 'No Data', the answer kept for its headline.
        expect(panel()).toEqual({ status: 'empty', data: NOBODY });
      },
      failed: () => {
        expect(panel()).toEqual({ status: 'failed', data: undefined });
        expect(notices.at(-1)).toEqual({
          type: 'notify',
          intent: 'danger',
          message: 'Cross spending error occurs. Please try again later.',
          timeout: 5000,
        });
        expect(snapshot().can({ type: 'report.retry', panel: 'report' })).toBe(true);
      },
    },
    events: {
      chooseOutlet: async () => {
        actor.send(headerEvent(outlet));
        await flush();
      },
      answer: async () => {
        lastCall().answer.resolve(json(200, REPORT));
        await flush();
      },
      answerNobody: async () => {
        lastCall().answer.resolve(json(200, NOBODY));
        await flush();
      },
      fail: async () => {
        lastCall().answer.resolve(json(500, { statusCode: 500, error: 'Internal Server Error', message: 'boom' }));
        await flush();
      },
      retry: async () => {
        actor.send({ type: 'report.retry', panel: 'report' });
        await flush();
      },
      otherOutlet: async () => {
        outlet = 13;
        actor.send(headerEvent(outlet));
        await flush();
      },
      export: async () => {
        const file = { name: 'cross_spending_12_outlets', keys: ['outlet_id'], rows: [{ outlet_id: 13 }] };
        actor.send({ type: 'report.export', base: file.name, files: [file] });
        await flush();
        expect(exports.at(-1)).toEqual({ base: file.name, suffix: '2026-11-19_2026-11-25', files: [file] });
      },
    },
  };

  describe('model', () => {
    beforeEach(() => {
      outlet = 12;
      startPage();
      // The header starts with no single outlet: nothing is asked.
      actor.send(headerEvent(undefined));
    });
    describeModelCoverage(model, params, {
      states: ['waiting', 'loading', 'loaded', 'empty', 'failed'],
      transitions: 9,
    });
  });

  describe('details', () => {
    beforeEach(() => startPage());

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
      first?.answer.resolve(json(200, NOBODY));
      lastCall().answer.resolve(json(200, REPORT));
      await flush();
      expect(panel()).toEqual({ status: 'loaded', data: REPORT });
      expect(snapshot().context.query?.outletId).toBe(13);
    });
  });
});

/* ================================================================ the details page */

const PAIR: CrossSpendingPairAnswer = {
  outlet: ref(KOPI),
  other_outlet: ref(TEA),
  shoppers: 12,
  shared_shoppers: 4,
  daily: ['2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', TODAY].map(
    (date, index) => ({ date, shoppers: index % 2, visits: index % 2, spend: index % 2 === 0 ? 0 : 12.5 }),
  ),
};
const NOBODY_THERE: CrossSpendingPairAnswer = {
  ...PAIR,
  shared_shoppers: 0,
  daily: PAIR.daily.map((day) => ({ ...day, shoppers: 0, visits: 0, spend: 0 })),
};

describe('crossSpendingDetailsPageMachine', () => {
  const reportMachine = createCrossSpendingDetailsReportMachine(client).provide({
    actors: { lockHeader: fromCallback(() => () => undefined), exportFiles: recordExport },
  });
  const testMachine = createCrossSpendingDetailsPageMachine(client).provide({
    actors: { followHeaderOutlets: fromCallback(() => undefined), report: reportMachine },
  });
  let actor: Actor<typeof testMachine>;
  let notices: Notice[];
  let range: { start: string; end: string };
  let before: number;
  const report = () => childOf(actor.getSnapshot(), 'report');
  const panel = () => report().getSnapshot().context.panels.details;
  const headerEvent = (
    status: OutletsStatus,
    outlets: HeaderOutletsEvent['outlets'],
    selection: CommittedFilters['outlet'] = 12,
  ): HeaderOutletsEvent => ({
    type: 'header.outlets',
    filters: filtersOf(selection, range),
    malls: MALLS,
    outlets,
    outletsStatus: status,
    today: TODAY,
  });

  /** The page at `?other=<otherText>` (null: no `other` in the address). */
  function startPage(other: string | null = '13'): void {
    start();
    notices = [];
    const otherText = other ?? undefined;
    const id = otherText !== undefined && /^\d+$/.test(otherText) ? Number(otherText) : undefined;
    actor = createActor(testMachine, { input: { other: { text: otherText, id } } }).start();
    report().on('notify', (notice) => notices.push(notice));
  }

  afterEach(() => actor.stop());

  type ModelEvent = {
    type:
      | 'outletsKnown'
      | 'outletsFailed'
      | 'outletsWithoutOther'
      | 'answer'
      | 'answerNobody'
      | 'fail'
      | 'refuse'
      | 'retry'
      | 'otherRange'
      | 'allOutlets'
      | 'oneOutlet'
      | 'export';
  };

  const model = createTestModel(
    setup({ types: { events: {} as ModelEvent } }).createMachine({
      id: 'crossSpendingDetailsModel',
      initial: 'waiting',
      states: {
        /** The header's outlets of the client are still loading. */
        waiting: { on: { outletsKnown: 'loading', outletsFailed: 'failed', outletsWithoutOther: 'refused' } },
        failed: {},
        /** The other outlet is none of the user's: nothing is asked. */
        refused: {},
        loading: { on: { answer: 'loaded', answerNobody: 'empty', fail: 'failedPanel', refuse: 'refusedByServer' } },
        loaded: { on: { export: 'loaded', otherRange: 'loading', allOutlets: 'choose' } },
        /** All Outlets in the header: no pair; the figures come back as they were with the outlet. */
        choose: { on: { oneOutlet: 'loaded' } },
        empty: { on: { otherRange: 'loading' } },
        failedPanel: { on: { retry: 'loading' } },
        refusedByServer: {},
      },
    }),
  );

  const nothingAsked = () => {
    expect(calls).toEqual([]);
    expect(panel().status).toBe('idle');
  };

  const params: TestParam<SnapshotFrom<typeof model.logic>, ModelEvent> = {
    states: {
      waiting: () => {
        expect(actor.getSnapshot().value).toBe('waiting');
        nothingAsked();
      },
      failed: () => {
        expect(actor.getSnapshot().value).toBe('failed');
        nothingAsked();
      },
      refused: () => {
        expect(actor.getSnapshot().value).toBe('refused');
        expect(actor.getSnapshot().context.lookup).toEqual({ kind: 'refused', reason: 'notVisible', outlet: KOPI });
        // Nothing is asked about an outlet the user does not see (the server would refuse it).
        nothingAsked();
      },
      loading: () => {
        expect(actor.getSnapshot().value).toBe('shown');
        expect(actor.getSnapshot().context.lookup).toEqual({ kind: 'found', outlet: KOPI, other: TEA });
        expect(report().getSnapshot().hasTag('loading')).toBe(true);
        expect(
          calls.slice(before).map((call) => [call.url.pathname, Object.fromEntries(call.url.searchParams)]),
        ).toEqual([
          [
            '/api/mall_report/crossSpending/details',
            { client_id: '1', outlet_id: '12', other_outlet_id: '13', start_time: range.start, end_time: range.end },
          ],
        ]);
      },
      loaded: () => {
        expect(actor.getSnapshot().value).toBe('shown');
        expect(panel()).toEqual({ status: 'loaded', data: { kind: 'pair', details: PAIR } });
        expect(report().getSnapshot().can({ type: 'report.export', base: 'x', files: [] })).toBe(true);
      },
      choose: () => {
        expect(actor.getSnapshot().value).toBe('choose');
        expect(actor.getSnapshot().context.lookup).toEqual({ kind: 'choose' });
      },
      empty: () => {
        // 'No Data', the answer kept for the figures above the chart.
        expect(panel()).toEqual({ status: 'empty', data: { kind: 'pair', details: NOBODY_THERE } });
      },
      failedPanel: () => {
        expect(panel()).toEqual({ status: 'failed', data: undefined });
        expect(notices.at(-1)).toEqual({
          type: 'notify',
          intent: 'danger',
          message: 'Cross spending details error occurs. Please try again later.',
          timeout: 5000,
        });
      },
      refusedByServer: () => {
        expect(panel()).toEqual({
          status: 'loaded',
          data: { kind: 'refused', message: 'other_outlet_id: no such outlet in the same mall.' },
        });
        // A refusal, not a failure: no toast.
        expect(notices).toEqual([]);
      },
    },
    events: {
      outletsKnown: async () => {
        actor.send(headerEvent('loaded', OUTLETS));
        await flush();
      },
      outletsFailed: async () => {
        actor.send(headerEvent('failed', []));
        await flush();
      },
      outletsWithoutOther: async () => {
        actor.send(headerEvent('loaded', [KOPI, EAST_DELI]));
        await flush();
      },
      answer: async () => {
        lastCall().answer.resolve(json(200, PAIR));
        await flush();
      },
      answerNobody: async () => {
        lastCall().answer.resolve(json(200, NOBODY_THERE));
        await flush();
      },
      fail: async () => {
        lastCall().answer.resolve(json(500, { statusCode: 500, error: 'Internal Server Error', message: 'boom' }));
        await flush();
      },
      refuse: async () => {
        lastCall().answer.resolve(
          json(404, {
            statusCode: 404,
            error: 'Not Found',
            message: 'other_outlet_id: no such outlet in the same mall.',
          }),
        );
        await flush();
      },
      retry: async () => {
        before = calls.length;
        report().send({ type: 'report.retry', panel: 'details' });
        await flush();
      },
      otherRange: async () => {
        before = calls.length;
        range = { start: '2026-11-01', end: '2026-11-07' };
        actor.send(headerEvent('loaded', OUTLETS));
        await flush();
      },
      allOutlets: async () => {
        actor.send(headerEvent('loaded', OUTLETS, 'all'));
        await flush();
      },
      oneOutlet: async () => {
        const asked = calls.length;
        actor.send(headerEvent('loaded', OUTLETS, 12));
        await flush();
        // The same pair and days: the figures shown stay, nothing is asked again.
        expect(calls).toHaveLength(asked);
      },
      export: async () => {
        const file = { name: 'cross_spending_12_13_daily', keys: ['date'], rows: [] };
        report().send({ type: 'report.export', base: 'cross_spending_details', files: [file] });
        await flush();
        expect(exports.at(-1)).toEqual({
          base: 'cross_spending_details',
          suffix: `${range.start}_${range.end}`,
          files: [file],
        });
      },
    },
  };

  describe('model', () => {
    beforeEach(() => {
      range = RANGE;
      before = 0;
      startPage();
      actor.send(headerEvent('loading', []));
    });
    describeModelCoverage(model, params, {
      states: [
        'waiting',
        'failed',
        'refused',
        'loading',
        'loaded',
        'choose',
        'empty',
        'failedPanel',
        'refusedByServer',
      ],
      transitions: 13,
    });
  });

  describe('details', () => {
    beforeEach(() => {
      range = RANGE;
    });

    it('refuses an address without an outlet id at once, without waiting for the outlets', async () => {
      for (const text of [null, 'tea']) {
        startPage(text);
        actor.send(headerEvent('loading', []));
        await flush();
        expect(actor.getSnapshot().value).toBe('refused');
        expect(actor.getSnapshot().context.lookup).toEqual({
          kind: 'refused',
          reason: text === null ? 'missing' : 'invalid',
        });
        expect(calls).toEqual([]);
        actor.stop();
      }
      startPage();
    });

    it('asks nothing when the header’s outlet is the other outlet or of another mall', async () => {
      startPage();
      actor.send(headerEvent('loaded', OUTLETS, 13));
      await flush();
      expect(actor.getSnapshot().context.lookup).toMatchObject({ kind: 'refused', reason: 'same' });
      actor.send(headerEvent('loaded', OUTLETS, 40));
      await flush();
      expect(actor.getSnapshot().context.lookup).toMatchObject({ kind: 'refused', reason: 'otherMall' });
      expect(calls).toEqual([]);
      // Back to Kopi Corner: the pair is asked for.
      actor.send(headerEvent('loaded', OUTLETS, 12));
      await flush();
      expect(actor.getSnapshot().value).toBe('shown');
      expect(calls).toHaveLength(1);
    });

    it('aborts the pending call of a range left for another', async () => {
      startPage();
      actor.send(headerEvent('loaded', OUTLETS));
      await flush();
      const first = calls[0];
      range = { start: '2026-11-01', end: '2026-11-07' };
      actor.send(headerEvent('loaded', OUTLETS));
      await flush();
      first?.answer.resolve(json(200, NOBODY_THERE));
      lastCall().answer.resolve(json(200, PAIR));
      await flush();
      expect(panel()).toEqual({ status: 'loaded', data: { kind: 'pair', details: PAIR } });
      expect(report().getSnapshot().context.query).toMatchObject({ start: '2026-11-01', otherOutletId: 13 });
    });
  });
});
