import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor, fromCallback, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { createApiClient } from '../../src/api/client';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import type { Notice } from '../../src/domain/messages';
import { rentStatementsCsv } from '../../src/domain/rentStatements';
import type { HeaderFiltersEvent } from '../../src/machines/headerLink';
import {
  createRentStatementsMachine,
  type RentExportInput,
} from '../../src/machines/tenantConnect/rentStatementsMachine';
import { installPendingFetch, jsonResponse, type PendingCall } from '../support/pendingFetch';
import { CLOSED_REPORT, EMPTY_REPORT, PARTIAL_REPORT } from '../support/rentStatements';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the Rent Statements page machine (the query-page factory, one panel) with the app's api wrapper
 * on a client whose network the test answers. Client 3's malls 1 and 2, the header's month March 2024 (the Month
 * picker), then February. Nothing is asked before the header knows a client and malls; one call a month; 'No Data'
 * only for an answer without rows; a failed call fails the panel with the toast and a retry (§8); the CSV export is
 * of the month shown.
 */

const ERROR_TEXT = 'Rent statements error occurs. Please try again later.';
const SERVER_ERROR = { statusCode: 500, error: 'Internal Server Error', message: 'boom' };
const PERMISSIONS = ['/api/rentStatements::Read'];

let calls: PendingCall[];
const client = createApiClient((request) => globalThis.fetch(request), { baseUrl: 'http://rent.test' });

let exports: RentExportInput[];

const testMachine = createRentStatementsMachine(client).provide({
  actors: {
    followHeaderFilters: fromCallback(() => undefined),
    lockHeader: fromCallback(() => () => undefined),
    exportFiles: fromPromise<void, RentExportInput>(async ({ input }) => {
      exports.push(input);
    }),
  },
});

function headerEvent(mallIds: number[], month: string | undefined): HeaderFiltersEvent {
  const filters: CommittedFilters = {
    clientId: mallIds.length === 0 ? undefined : 3,
    mallIds,
    outlet: undefined,
    dateRange: { start: '2024-03-09', end: '2024-03-15' },
    hours: { from: 0, to: 23 },
    timeRange: 'daily',
    metric: 'gmv',
    month,
  };
  return { type: 'header.filters', filters, outlets: [], today: '2024-03-15' };
}

const flush = async () => {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
};

const pending = () => calls.filter((call) => !call.settled);

async function answerAll(status: number, body: unknown): Promise<void> {
  for (const call of pending()) {
    call.settled = true;
    call.answer.resolve(jsonResponse(status, body));
  }
  await flush();
}

/* ---------------------------------------------------------------- the model */

type ModelEvent = {
  type: 'malls' | 'answer' | 'answerPartial' | 'answerNothing' | 'fail' | 'retry' | 'otherMonth' | 'export';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'rentStatementsModel',
    initial: 'waiting',
    states: {
      /** The header knows no client and malls yet. */
      waiting: { on: { malls: 'loading' } },
      loading: {
        on: { answer: 'loaded', answerPartial: 'partial', answerNothing: 'empty', fail: 'failed' },
      },
      loaded: { on: { export: 'loaded', otherMonth: 'loading' } },
      /** The month is open: the rows with their projection. */
      partial: { on: { otherMonth: 'loading' } },
      empty: { on: { otherMonth: 'loading' } },
      failed: { on: { retry: 'loading', otherMonth: 'loading' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

let actor: Actor<typeof testMachine>;
let notices: Notice[];
let month: string;
/** Calls made before the current load. */
let before: number;
const snapshot = () => actor.getSnapshot();
const panel = () => snapshot().context.panels.statements;

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    waiting: () => {
      expect(calls).toEqual([]);
      expect(snapshot().context.query).toBeUndefined();
      expect(panel()).toEqual({ status: 'idle', data: undefined });
    },
    loading: () => {
      expect(snapshot().hasTag('loading')).toBe(true);
      expect(panel()).toEqual({ status: 'loading', data: undefined });
      const asked = calls.slice(before);
      expect(asked).toHaveLength(1);
      const [call] = asked;
      expect(call?.url.pathname).toBe('/api/rentStatements');
      expect(call?.url.searchParams.get('client_id')).toBe('3');
      expect(call?.url.searchParams.getAll('mall_ids')).toEqual(['1', '2']);
      expect(call?.url.searchParams.get('month')).toBe(month);
      expect(snapshot().can({ type: 'report.export', base: month, files: [] })).toBe(false);
    },
    loaded: () => {
      expect(snapshot().hasTag('loading')).toBe(false);
      expect(panel()).toEqual({ status: 'loaded', data: CLOSED_REPORT });
      expect(snapshot().can({ type: 'report.export', base: month, files: [] })).toBe(true);
    },
    partial: () => {
      expect(panel()).toEqual({ status: 'loaded', data: PARTIAL_REPORT });
      expect(panel().data?.rows[0]?.sales_projected).toBe(248_000);
    },
    empty: () => {
      // No lease covers the month: 'No Data', not a failure.
      expect(panel()).toEqual({ status: 'empty', data: EMPTY_REPORT });
      expect(notices).toEqual([]);
      expect(snapshot().hasTag('loading')).toBe(false);
    },
    failed: () => {
      expect(panel()).toEqual({ status: 'failed', data: undefined });
      expect(notices.at(-1)).toEqual({ type: 'notify', intent: 'danger', message: ERROR_TEXT, timeout: 5000 });
      expect(snapshot().can({ type: 'report.retry', panel: 'statements' })).toBe(true);
    },
  },
  events: {
    malls: async () => {
      before = calls.length;
      actor.send(headerEvent([1, 2], month));
      // The same filters again ask nothing more.
      actor.send(headerEvent([1, 2], month));
      await flush();
    },
    answer: () => answerAll(200, CLOSED_REPORT),
    answerPartial: () => answerAll(200, PARTIAL_REPORT),
    answerNothing: () => answerAll(200, EMPTY_REPORT),
    fail: () => answerAll(500, SERVER_ERROR),
    retry: async () => {
      before = calls.length;
      actor.send({ type: 'report.retry', panel: 'statements' });
      await flush();
    },
    otherMonth: async () => {
      before = calls.length;
      month = month === '2024-03' ? '2024-02' : '2024-03';
      actor.send(headerEvent([1, 2], month));
      await flush();
    },
    export: async () => {
      const files = [rentStatementsCsv(CLOSED_REPORT.rows)];
      actor.send({ type: 'report.export', base: month, files });
      await flush();
      expect(exports.at(-1)).toEqual({ base: month, suffix: '2024-03-09_2024-03-15', files });
      expect(snapshot().context.exporting).toBe(false);
    },
  },
};

describe('rentStatementsMachine (model)', () => {
  beforeEach(() => {
    calls = installPendingFetch();
    setPermissionsList(PERMISSIONS);
    notices = [];
    exports = [];
    month = '2024-03';
    before = 0;
    actor = createActor(testMachine).start();
    actor.on('notify', (notice) => notices.push(notice));
    // The header starts with no client: nothing is asked.
    actor.send(headerEvent([], undefined));
  });
  afterEach(() => {
    actor.stop();
    vi.unstubAllGlobals();
    clearSession();
  });
  describeModelCoverage(model, params, {
    states: ['waiting', 'loading', 'loaded', 'partial', 'empty', 'failed'],
    transitions: 11,
  });
});

/* ---------------------------------------------------------------- details */

describe('rentStatementsMachine details', () => {
  beforeEach(() => {
    calls = installPendingFetch();
    setPermissionsList(PERMISSIONS);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    clearSession();
  });

  it('names its CSV file by the month shown, not by the header’s days', async () => {
    const saved: string[] = [];
    const link = {
      href: '',
      download: '',
      style: {},
      click: () => saved.push(link.download),
      remove: () => undefined,
    };
    vi.stubGlobal('document', { createElement: () => link, body: { appendChild: () => undefined } });
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:rent');
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
    const real = createActor(
      createRentStatementsMachine(client).provide({
        actors: {
          followHeaderFilters: fromCallback(() => undefined),
          lockHeader: fromCallback(() => () => undefined),
        },
      }),
    ).start();
    real.send(headerEvent([1, 2], '2024-03'));
    await flush();
    await answerAll(200, CLOSED_REPORT);
    real.send({ type: 'report.export', base: '2024-03', files: [rentStatementsCsv(CLOSED_REPORT.rows)] });
    await flush();
    expect(saved).toEqual(['rent_statements_2024-03.csv']);
    expect(real.getSnapshot().context.exporting).toBe(false);
    real.stop();
  });

  it('aborts the pending call when the month changes', async () => {
    const real = createActor(
      createRentStatementsMachine(client).provide({
        actors: {
          followHeaderFilters: fromCallback(() => undefined),
          lockHeader: fromCallback(() => () => undefined),
        },
      }),
    ).start();
    real.send(headerEvent([1, 2], '2024-03'));
    await flush();
    real.send(headerEvent([1, 2], '2024-02'));
    await flush();
    expect(calls.map((call) => call.url.searchParams.get('month'))).toEqual(['2024-03', '2024-02']);
    // The March answer comes late: February's rows are what the page shows.
    const [march, february] = calls;
    if (!march || !february) throw new Error('two calls were expected');
    february.settled = true;
    february.answer.resolve(jsonResponse(200, { ...EMPTY_REPORT, month: '2024-02' }));
    march.settled = true;
    march.answer.resolve(jsonResponse(200, CLOSED_REPORT));
    await flush();
    expect(real.getSnapshot().context.panels.statements).toEqual({
      status: 'empty',
      data: { ...EMPTY_REPORT, month: '2024-02' },
    });
    real.stop();
  });
});
