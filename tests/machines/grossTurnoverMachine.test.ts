import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect } from 'vitest';
import { type Actor, createActor, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { createApiClient } from '../../src/api/client';
import type { GtoOutletMonth, GtoOutletMonths } from '../../src/api/gto';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { CsvFile } from '../../src/domain/csv';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import { grossTurnoverCsv } from '../../src/domain/gto';
import type { Notice } from '../../src/domain/messages';
import { grossTurnoverMachine, loadGrossTurnover } from '../../src/machines/gto/grossTurnoverMachine';
import type { GtoSubmissionTarget } from '../../src/machines/gto/gtoSubmissionMachine';
import type { HeaderFiltersEvent } from '../../src/machines/headerLink';
import { type Deferred, deferred } from '../support/deferred';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the tenant's Gross Turnover machine with the app's api wrapper; the network is a fetch handler
 * the test answers. Outlet 12 of client 1 (SGD), the year to October 2026, then to September when the header's
 * month changes.
 */

const ERROR_TEXT = 'Gross turnover fetching error occurs. Please try again later.';
const MONTHS: GtoOutletMonth[] = [
  { month: '2026-09', declared: null, captured: 80.5, difference: null, difference_percent: null, submitted_at: null },
  {
    month: '2026-10',
    declared: 250,
    captured: 200,
    difference: 50,
    difference_percent: 25,
    submitted_at: '2026-11-03T02:15:00.000Z',
  },
];
const NOTHING: GtoOutletMonth[] = [
  { month: '2026-10', declared: null, captured: 0, difference: null, difference_percent: null, submitted_at: null },
];

const FILTERS: CommittedFilters = {
  clientId: 1,
  mallIds: [],
  outlet: 12,
  dateRange: { start: '2026-10-01', end: '2026-10-07' },
  hours: { from: 0, to: 23 },
  timeRange: 'daily',
  metric: 'gmv',
  month: '2026-10',
};
const OUTLETS: HeaderFiltersEvent['outlets'] = [
  { id: 12, name: 'Kopi Corner', type: 1, currency: 'SGD', mall_id: 1, outlet_code: null },
];
const headerEvent = (month: string): HeaderFiltersEvent => ({
  type: 'header.filters',
  filters: { ...FILTERS, month },
  outlets: OUTLETS,
});

let calls: { url: URL; answer: Deferred<Response> }[];
let notices: Notice[];
let exported: CsvFile[][];
let actor: Actor<typeof grossTurnoverMachine>;
let month: string;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const lastCall = () => {
  const call = calls.at(-1);
  if (!call) throw new Error('nothing was asked');
  return call;
};

function start(): void {
  calls = [];
  notices = [];
  exported = [];
  month = '2026-10';
  const client = createApiClient(
    async (request) => {
      const answer = deferred<Response>();
      calls.push({ url: new URL(request.url), answer });
      return answer.promise;
    },
    { baseUrl: 'http://localhost' },
  );
  actor = createActor(
    grossTurnoverMachine.provide({
      actors: {
        fetchMonths: fromPromise<GtoOutletMonths, GtoSubmissionTarget>(({ input, signal }) =>
          loadGrossTurnover(input, { signal, client }),
        ),
        exportMonths: fromPromise<void, { month: string; answer: GtoOutletMonths }>(async ({ input }) => {
          exported.push([grossTurnoverCsv(input.answer.data, input.answer.currency)]);
        }),
      },
    }),
  );
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
}

type ModelEvent =
  | { type: 'header' }
  | { type: 'newMonth' }
  | { type: 'answer' }
  | { type: 'answerNothing' }
  | { type: 'fail' }
  | { type: 'retry' }
  | { type: 'export' };

const model = createTestModel(
  setup({
    types: {
      events: {} as ModelEvent,
    },
  }).createMachine({
    id: 'grossTurnoverModel',
    initial: 'idle',
    states: {
      idle: { on: { header: 'loading' } },
      loading: { on: { answer: 'loaded', answerNothing: 'empty', fail: 'failure' } },
      loaded: { on: { export: 'loaded', newMonth: 'loading' } },
      empty: { on: { newMonth: 'loading' } },
      failure: { on: { retry: 'loading', newMonth: 'loading' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    idle: () => {
      expect(calls).toEqual([]);
      expect(actor.getSnapshot().matches('idle')).toBe(true);
      expect(actor.getSnapshot().can({ type: 'months.export' })).toBe(false);
    },
    loading: () => {
      expect(actor.getSnapshot().hasTag('loading')).toBe(true);
      const { url } = lastCall();
      const from = month === '2026-10' ? '2025-11' : '2025-10';
      expect(`${url.pathname}?${url.searchParams}`).toBe(
        `/api/gtoReport/outletMonths?client_id=1&outlet_id=12&from=${from}&to=${month}`,
      );
      expect(actor.getSnapshot().context.answer).toBeUndefined();
    },
    loaded: () => {
      expect(actor.getSnapshot().matches('loaded')).toBe(true);
      expect(actor.getSnapshot().context.answer).toEqual({ currency: 'SGD', data: MONTHS });
      expect(actor.getSnapshot().can({ type: 'months.export' })).toBe(true);
    },
    empty: () => {
      expect(actor.getSnapshot().matches('empty')).toBe(true);
      expect(actor.getSnapshot().can({ type: 'months.export' })).toBe(false);
    },
    failure: () => {
      expect(actor.getSnapshot().matches('failure')).toBe(true);
      expect(notices.at(-1)).toEqual({ type: 'notify', intent: 'danger', message: ERROR_TEXT, timeout: 5000 });
      expect(actor.getSnapshot().can({ type: 'months.retry' })).toBe(true);
    },
  },
  events: {
    header: async () => {
      actor.send(headerEvent(month));
      // The same outlet and month again asks nothing more.
      actor.send(headerEvent(month));
      await flush();
      expect(calls).toHaveLength(1);
    },
    newMonth: async () => {
      month = month === '2026-10' ? '2026-09' : '2026-10';
      actor.send(headerEvent(month));
      await flush();
    },
    answer: async () => {
      lastCall().answer.resolve(json(200, { currency: 'SGD', data: MONTHS }));
      await flush();
    },
    answerNothing: async () => {
      lastCall().answer.resolve(json(200, { currency: 'SGD', data: NOTHING }));
      await flush();
    },
    fail: async () => {
      lastCall().answer.resolve(json(500, { statusCode: 500, error: 'Internal Server Error', message: 'boom' }));
      await flush();
    },
    retry: async () => {
      actor.send({ type: 'months.retry' });
      await flush();
    },
    export: async () => {
      actor.send({ type: 'months.export' });
      await flush();
      expect(exported.at(-1)).toEqual([grossTurnoverCsv(MONTHS, 'SGD')]);
    },
  },
};

describe('grossTurnoverMachine (model)', () => {
  beforeEach(() => {
    setPermissionsList(['/api/gtoReport/outletMonths::Read']);
    start();
  });
  afterEach(() => {
    actor.stop();
    clearSession();
  });
  describeModelCoverage(model, params, {
    states: ['idle', 'loading', 'loaded', 'empty', 'failure'],
    transitions: 9,
  });
});
