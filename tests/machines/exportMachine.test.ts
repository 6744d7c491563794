import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor, fromCallback, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { createApiClient } from '../../src/api/client';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { CsvFile } from '../../src/domain/csv';
import { EXPORT_REPORT_IDS, type ExportReportId, exportDownloadName } from '../../src/domain/export';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import type { Notice } from '../../src/domain/messages';
import { REPORT_WORKBOOKS, type WorkbookPage } from '../../src/domain/reportWorkbooks';
import { createExportMachine, exportCounts } from '../../src/machines/exportMachine';
import type { HeaderFiltersEvent } from '../../src/machines/headerLink';
import { installPendingFetch, jsonResponse, type PendingCall } from '../support/pendingFetch';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the Export page's machine with the app's api wrappers on a client whose network the test
 * answers (every request's signal recorded). Client 1, malls 1 and 2, October 2026. The model exports three
 * reports: Daily (one call), Peak hours (two calls: GMV and transactions) and Outlets (one call), two reports at a
 * time, so Outlets is asked once Daily is in. A failed report fails the export (nothing saved) naming the report,
 * and a retry asks only what is not in yet; a 409 gives that report's figures per currency; Cancel and new
 * filters abort every pending call. With the workbook chosen, Export asks the server's workbook of the page chosen
 * (Mall Home at first, or Mall Peak Hours: of the daily time range and GMV, the page having no such filters) once,
 * counts its bytes, hands it to the browser, and fails (or is cancelled) without a download.
 */

const TODAY = '2026-10-31';
const OCTOBER = { start: '2026-10-01', end: '2026-10-31' } as const;
const LATER = { start: '2026-10-02', end: '2026-10-31' } as const;
const MODEL_REPORTS: readonly ExportReportId[] = ['daily', 'peak_hours', 'outlets'];

let calls: PendingCall[];
/** The signal of each request, in the order of `calls`. */
let signals: AbortSignal[];

const client = createApiClient(
  (request) => {
    signals.push(request.signal);
    return globalThis.fetch(request);
  },
  { baseUrl: 'http://export.test' },
);

let saved: { suffix: string; files: readonly CsvFile[] }[];
let saveFails: boolean;
/** The workbooks handed to the browser. */
let workbooks: { fileName: string; size: number }[];

const WORKBOOK_BYTES = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4]);
const workbookResponse = () =>
  new Response(WORKBOOK_BYTES, {
    status: 200,
    headers: {
      'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'Content-Length': String(WORKBOOK_BYTES.byteLength),
    },
  });
const WORKBOOK_PATHS = new Set<string>(REPORT_WORKBOOKS.map((workbook) => workbook.operationPath));
const isWorkbookCall = (call: PendingCall) => WORKBOOK_PATHS.has(call.url.pathname);

const testMachine = createExportMachine(client, (blob, fileName) => {
  workbooks.push({ fileName, size: blob.size });
}).provide({
  actors: {
    followHeaderFilters: fromCallback(() => undefined),
    lockHeader: fromCallback(() => () => undefined),
    saveExport: fromPromise<string, { suffix: string; files: readonly CsvFile[] }>(async ({ input }) => {
      if (saveFails) throw new Error('no space left');
      saved.push(input);
      return exportDownloadName(input.files, input.suffix);
    }),
  },
});

function headerEvent(range: { start: string; end: string }, mallIds = [1, 2]): HeaderFiltersEvent {
  const filters: CommittedFilters = {
    clientId: mallIds.length === 0 ? undefined : 1,
    mallIds,
    outlet: undefined,
    dateRange: range,
    hours: { from: 0, to: 23 },
    timeRange: 'daily',
    metric: 'gmv',
    month: undefined,
  };
  return { type: 'header.filters', filters, outlets: [], today: TODAY };
}

/* ---------------------------------------------------------------- the server's answers */

const REFUSAL = {
  statusCode: 409,
  error: 'Conflict',
  message: 'No exchange rate to SGD for MYR in October 2026.',
  by_currency: [
    { currency: 'MYR', gmv: 480.5, transactions: 8 },
    { currency: 'SGD', gmv: 100, transactions: 2 },
  ],
};

function answerOf(call: PendingCall): unknown {
  const path = call.url.pathname;
  const metric = call.url.searchParams.get('metric');
  if (path === '/api/mall_report/daily') return { data: [{ date: '2026-10-01', gmv: 1250.5, transactions: 12 }] };
  if (path === '/api/mall_report/monthly') return { data: [{ month: '2026-10', gmv: 3000, transactions: 30 }] };
  if (path === '/api/mall_report/peak_hour')
    return { data: [{ period: '2026-10-01', hour: 9, value: metric === 'transactions' ? 3 : 30 }] };
  if (path === '/api/mall_report/outlet')
    return { data: [{ key: '12', name: 'Kopi Corner', gmv: 80, transactions: 8, average_transaction_value: 10 }] };
  if (path === '/api/mall_report/member/overall')
    return { data: [{ period: '2026-10-01', member: 1, non_member: 2 }], total: { member: 1, non_member: 2 } };
  return { data: [] };
}

/** The report a call belongs to. */
const REPORT_OF_PATH: Record<string, ExportReportId> = {
  '/api/mall_report/daily': 'daily',
  '/api/mall_report/monthly': 'monthly',
  '/api/mall_report/mall': 'mall_ranking',
  '/api/mall_report/peak_hour': 'peak_hours',
  '/api/mall_report/payment_method/overall': 'payment_methods',
  '/api/mall_report/member/overall': 'member_vs_non_member',
  '/api/mall_report/category': 'categories',
  '/api/mall_report/level': 'levels',
  '/api/mall_report/outlet': 'outlets',
};
const reportOf = (call: PendingCall) => REPORT_OF_PATH[call.url.pathname];

/** The calls not answered and not aborted. */
const pending = () => calls.filter((call, index) => !call.settled && !signals[index]?.aborted);
const pendingOf = (report: ExportReportId) => pending().filter((call) => reportOf(call) === report);

async function answer(list: readonly PendingCall[], status = 200, body?: unknown): Promise<void> {
  for (const call of list) {
    call.settled = true;
    call.answer.resolve(jsonResponse(status, body ?? answerOf(call)));
  }
  await flush();
}

const serverError = { statusCode: 500, error: 'Internal Server Error', message: 'boom' };

/* ---------------------------------------------------------------- the actor */

let actor: Actor<typeof testMachine>;
let notices: Notice[];
const snapshot = () => actor.getSnapshot();
const context = () => snapshot().context;

function start(permissions: readonly string[] = ['/api/mall_report/*::Read']): void {
  calls = installPendingFetch();
  signals = [];
  saved = [];
  workbooks = [];
  saveFails = false;
  setPermissionsList(permissions);
  notices = [];
  actor = createActor(testMachine).start();
  actor.on('notify', (notice) => notices.push(notice));
}

afterEach(() => {
  actor.stop();
  vi.unstubAllGlobals();
  clearSession();
});

const flush = async () => {
  for (let turn = 0; turn < 8; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
};

function select(reports: readonly ExportReportId[]): void {
  actor.send({ type: 'export.clearAll' });
  for (const report of reports) actor.send({ type: 'export.toggle', report });
}

/* ---------------------------------------------------------------- the model */

type ModelEvent = {
  type:
    | 'filters'
    | 'start'
    | 'clearAll'
    | 'tick'
    | 'answerDaily'
    | 'failDaily'
    | 'answerRest'
    | 'refuseOutlets'
    | 'failOutlets'
    | 'retry'
    | 'cancel'
    | 'otherDates'
    | 'chooseWorkbook'
    | 'chooseCsv'
    | 'choosePeakHours'
    | 'chooseMallHome'
    | 'answerWorkbook'
    | 'failWorkbook';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'exportModel',
    initial: 'waiting',
    states: {
      /** The header knows no client and malls yet. */
      waiting: { on: { filters: 'ready' } },
      ready: { on: { start: 'running', clearAll: 'nothingTicked', chooseWorkbook: 'workbookReady' } },
      /** The workbook chosen (Mall Home's): the reports' ticks are kept and cannot change. */
      workbookReady: { on: { start: 'workbookRunning', chooseCsv: 'ready', choosePeakHours: 'peakHoursReady' } },
      workbookRunning: {
        on: { answerWorkbook: 'workbookDone', failWorkbook: 'workbookFailed', cancel: 'workbookReady' },
      },
      workbookFailed: { on: { retry: 'workbookRunning' } },
      workbookDone: { on: { chooseCsv: 'ready' } },
      /** Mall Peak Hours' workbook chosen instead. */
      peakHoursReady: { on: { start: 'peakHoursRunning', chooseMallHome: 'workbookReady' } },
      peakHoursRunning: {
        on: { answerWorkbook: 'peakHoursDone', failWorkbook: 'peakHoursFailed', cancel: 'peakHoursReady' },
      },
      peakHoursFailed: { on: { retry: 'peakHoursRunning', chooseMallHome: 'workbookReady' } },
      peakHoursDone: { on: { chooseMallHome: 'workbookReady' } },
      nothingTicked: { on: { tick: 'ready' } },
      /** Daily and Peak hours asked; Outlets waits for a free slot. */
      running: { on: { answerDaily: 'runningOutlets', failDaily: 'failed', cancel: 'ready', otherDates: 'ready' } },
      /** Daily in; Peak hours and Outlets asked. */
      runningOutlets: {
        on: { answerRest: 'done', refuseOutlets: 'doneByCurrency', failOutlets: 'failedOutlets', cancel: 'ready' },
      },
      failed: { on: { retry: 'running', tick: 'ready' } },
      failedOutlets: { on: { retry: 'runningOutlets' } },
      done: { on: { start: 'running', tick: 'ready', otherDates: 'ready' } },
      doneByCurrency: {},
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;
let range: { start: string; end: string };
/** Calls made before the current run or retry. */
let before: number;

const suffix = () => `${range.start}_${range.end}`;

function expectCallsOfRun(reports: readonly ExportReportId[]): void {
  const asked = calls.slice(before);
  expect(asked.map(reportOf).sort()).toEqual(
    reports.flatMap((report) => (report === 'peak_hours' ? [report, report] : [report])).sort(),
  );
  for (const call of asked) {
    expect(call.method).toBe('GET');
    const query = call.url.searchParams;
    expect(query.get('client_id')).toBe('1');
    expect(query.getAll('mall_ids')).toEqual(['1', '2']);
    expect([query.get('start_time'), query.get('end_time')]).toEqual([range.start, range.end]);
    expect([query.get('start_hour'), query.get('end_hour')]).toEqual(['0', '23']);
  }
  const peaks = asked.filter((call) => reportOf(call) === 'peak_hours').map((call) => call.url.searchParams);
  expect(peaks.map((query) => `${query.get('time_range')} ${query.get('metric')}`).sort()).toEqual(
    peaks.length === 0 ? [] : ['daily gmv', 'daily transactions'],
  );
  for (const call of asked.filter((candidate) => reportOf(candidate) === 'outlets')) {
    expect(call.url.searchParams.get('group_by')).toBe('outlet');
  }
}

const expectNothingPending = () => expect(pending()).toEqual([]);

/** The workbook format chosen with `page`, nothing under way: Export asks it. */
function expectWorkbookReady(page: WorkbookPage): void {
  expect(snapshot().value).toBe('ready');
  expect(context().format).toBe('workbook');
  expect(context().workbookPage).toBe(page);
  expect(context().selected).toEqual(MODEL_REPORTS);
  expect(snapshot().can({ type: 'export.start' })).toBe(true);
  expect(snapshot().can({ type: 'export.toggle', report: 'levels' })).toBe(false);
  expect(snapshot().can({ type: 'export.clearAll' })).toBe(false);
  expectNothingPending();
}

/**
 * `page`'s workbook under way: one call, the page's filters over whole days (Mall Home with the default
 * comparison; Mall Peak Hours every hour of the day, the daily time range and GMV), and neither the format nor the
 * page can change.
 */
function expectWorkbookRunning(page: WorkbookPage, path: string): void {
  expect(snapshot().value).toBe('workbook');
  expect(snapshot().hasTag('busy')).toBe(true);
  const asked = calls.slice(before);
  expect(asked).toHaveLength(1);
  const query = asked[0]?.url.searchParams;
  expect(asked[0]?.url.pathname).toBe(path);
  expect(query?.get('client_id')).toBe('1');
  expect(query?.getAll('mall_ids')).toEqual(['1', '2']);
  expect([query?.get('start_time'), query?.get('end_time')]).toEqual([range.start, range.end]);
  if (page === 'peak_hours') {
    expect([query?.get('start_hour'), query?.get('end_hour')]).toEqual(['0', '23']);
    expect([query?.get('time_range'), query?.get('metric')]).toEqual(['daily', 'gmv']);
    expect(query?.has('compare')).toBe(false);
  } else {
    expect([query?.get('compare'), query?.get('like_for_like')]).toEqual(['previous', 'false']);
    expect(query?.has('start_hour')).toBe(false);
  }
  expect(snapshot().can({ type: 'export.cancel' })).toBe(true);
  expect(snapshot().can({ type: 'export.format', format: 'csv' })).toBe(false);
  expect(snapshot().can({ type: 'export.workbookPage', page: 'mall_gmv' })).toBe(false);
}

/** `page`'s workbook failed: the page named, nothing handed to the browser, a retry. */
function expectWorkbookFailed(page: WorkbookPage, title: string): void {
  expect(snapshot().value).toBe('failed');
  expect(context().failure).toEqual({ report: undefined, detail: 'boom', workbook: page });
  expect(notices.at(-1)?.message).toBe(`${title} workbook export error occurs. Please try again later.`);
  expect(workbooks).toEqual([]);
  expect(snapshot().can({ type: 'export.retry' })).toBe(true);
}

/** `page`'s workbook handed to the browser, named as the server names it. */
function expectWorkbookDone(fileBase: string): void {
  expect(snapshot().value).toBe('done');
  expect(context().downloaded).toBe(`${fileBase}_${suffix()}.xlsx`);
  expect(workbooks).toEqual([{ fileName: `${fileBase}_${suffix()}.xlsx`, size: WORKBOOK_BYTES.byteLength }]);
  expectNothingPending();
}

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    waiting: () => {
      expect(context().query).toBeUndefined();
      expect(snapshot().can({ type: 'export.start' })).toBe(false);
      expect(calls).toEqual([]);
    },
    ready: () => {
      expect(snapshot().value).toBe('ready');
      expect(context().format).toBe('csv');
      expect(snapshot().hasTag('busy')).toBe(false);
      expect(context().selected).toEqual(MODEL_REPORTS);
      expect(context().files).toEqual({});
      expect(snapshot().can({ type: 'export.start' })).toBe(true);
      expect(snapshot().can({ type: 'export.cancel' })).toBe(false);
      // Whatever ran before was aborted.
      expectNothingPending();
    },
    nothingTicked: () => {
      expect(context().selected).toEqual([]);
      expect(snapshot().can({ type: 'export.start' })).toBe(false);
      expect(snapshot().can({ type: 'export.clearAll' })).toBe(false);
    },
    running: () => {
      expect(snapshot().matches({ working: 'running' })).toBe(true);
      expect(snapshot().hasTag('busy')).toBe(true);
      expect(exportCounts(context())).toEqual({ done: 0, total: 3 });
      // Two reports at a time: Outlets waits.
      expectCallsOfRun(['daily', 'peak_hours']);
      expect(pending()).toHaveLength(3);
      expect(snapshot().can({ type: 'export.cancel' })).toBe(true);
      expect(snapshot().can({ type: 'export.toggle', report: 'levels' })).toBe(false);
      expect(snapshot().can({ type: 'export.start' })).toBe(false);
    },
    runningOutlets: () => {
      expect(snapshot().matches({ working: 'running' })).toBe(true);
      expect(exportCounts(context())).toEqual({ done: 1, total: 3 });
      expect(Object.keys(context().files)).toEqual(['daily']);
      expect(pendingOf('daily')).toEqual([]);
      expect(pendingOf('peak_hours')).toHaveLength(2);
      expect(pendingOf('outlets')).toHaveLength(1);
    },
    failed: () => {
      expect(snapshot().value).toBe('failed');
      expect(context().failure).toEqual({ report: 'daily', detail: 'boom' });
      expect(notices.at(-1)).toEqual({
        type: 'notify',
        intent: 'danger',
        message: 'Daily export error occurs. Please try again later.',
        timeout: 5000,
      });
      // The other report's calls were aborted, and nothing was saved: never half a zip.
      expectNothingPending();
      expect(saved).toEqual([]);
      expect(snapshot().can({ type: 'export.retry' })).toBe(true);
    },
    failedOutlets: () => {
      expect(snapshot().value).toBe('failed');
      expect(context().failure).toEqual({ report: 'outlets', detail: 'boom' });
      expect(notices.at(-1)?.message).toBe('Outlets export error occurs. Please try again later.');
      expectNothingPending();
      expect(saved).toEqual([]);
      // Daily stays in: a retry asks only the others.
      expect(exportCounts(context())).toEqual({ done: 1, total: 3 });
    },
    done: () => {
      expect(snapshot().value).toBe('done');
      expect(context().downloaded).toBe(`mall-report_${suffix()}.zip`);
      expect(context().byCurrency).toEqual([]);
      const last = saved.at(-1);
      expect(last?.suffix).toBe(suffix());
      expect(last?.files).toEqual([
        {
          name: 'daily',
          keys: ['date', 'gmv', 'transactions'],
          rows: [{ date: '2026-10-01', gmv: 1250.5, transactions: 12 }],
        },
        {
          name: 'peak_hours',
          keys: ['date', 'hour', 'gmv', 'transactions'],
          rows: [{ date: '2026-10-01', hour: 9, gmv: 30, transactions: 3 }],
        },
        {
          name: 'outlets',
          keys: ['outlet_id', 'outlet_name', 'gmv', 'transactions', 'average_transaction_value'],
          rows: [
            {
              key: '12',
              name: 'Kopi Corner',
              outlet_id: '12',
              outlet_name: 'Kopi Corner',
              gmv: 80,
              transactions: 8,
              average_transaction_value: 10,
            },
          ],
        },
      ]);
      expectNothingPending();
    },
    workbookReady: () => expectWorkbookReady('mall_home'),
    workbookRunning: () => expectWorkbookRunning('mall_home', '/api/mall_report/mall_home/workbook'),
    workbookFailed: () => expectWorkbookFailed('mall_home', 'Mall Home'),
    workbookDone: () => expectWorkbookDone('mall-home'),
    peakHoursReady: () => expectWorkbookReady('peak_hours'),
    peakHoursRunning: () => expectWorkbookRunning('peak_hours', '/api/mall_report/peak_hour/workbook'),
    peakHoursFailed: () => expectWorkbookFailed('peak_hours', 'Mall Peak Hours'),
    peakHoursDone: () => expectWorkbookDone('mall-peak-hours'),
    doneByCurrency: () => {
      expect(snapshot().value).toBe('done');
      expect(context().byCurrency).toEqual([{ report: 'outlets', reason: REFUSAL.message }]);
      expect(saved.at(-1)?.files.map((file) => file.name)).toEqual(['daily', 'peak_hours', 'outlets_by_currency']);
      expect(saved.at(-1)?.files[2]).toEqual({
        name: 'outlets_by_currency',
        keys: ['currency', 'gmv', 'transactions'],
        rows: REFUSAL.by_currency,
      });
    },
  },
  events: {
    filters: async () => {
      actor.send(headerEvent(range));
      await flush();
    },
    start: async () => {
      before = calls.length;
      actor.send({ type: 'export.start' });
      await flush();
    },
    clearAll: async () => {
      actor.send({ type: 'export.clearAll' });
    },
    tick: async () => {
      // Ticks the model's reports again (from nothing), or unticks and ticks one (the same selection).
      if (context().selected.length === 0) select(MODEL_REPORTS);
      else {
        actor.send({ type: 'export.toggle', report: 'outlets' });
        actor.send({ type: 'export.toggle', report: 'outlets' });
      }
    },
    answerDaily: () => answer(pendingOf('daily')),
    failDaily: () => answer(pendingOf('daily'), 500, serverError),
    answerRest: () => answer(pending()),
    refuseOutlets: async () => {
      await answer(pendingOf('outlets'), 409, REFUSAL);
      await answer(pending());
    },
    failOutlets: () => answer(pendingOf('outlets'), 500, serverError),
    retry: async () => {
      before = calls.length;
      const failure = context().failure;
      actor.send({ type: 'export.retry' });
      await flush();
      if (failure?.workbook) return;
      expectCallsOfRun(failure?.report === 'outlets' ? ['peak_hours', 'outlets'] : ['daily', 'peak_hours']);
    },
    chooseWorkbook: async () => {
      actor.send({ type: 'export.format', format: 'workbook' });
    },
    chooseCsv: async () => {
      actor.send({ type: 'export.format', format: 'csv' });
    },
    choosePeakHours: async () => {
      actor.send({ type: 'export.workbookPage', page: 'peak_hours' });
    },
    chooseMallHome: async () => {
      actor.send({ type: 'export.workbookPage', page: 'mall_home' });
    },
    answerWorkbook: async () => {
      for (const call of pending().filter(isWorkbookCall)) {
        call.settled = true;
        call.answer.resolve(workbookResponse());
      }
      await flush();
    },
    failWorkbook: () => answer(pending().filter(isWorkbookCall), 500, serverError),
    cancel: async () => {
      const inFlight = signals.filter((_, index) => !calls[index]?.settled);
      actor.send({ type: 'export.cancel' });
      await flush();
      expect(inFlight.every((signal) => signal.aborted)).toBe(true);
      expect(saved).toEqual([]);
    },
    otherDates: async () => {
      const inFlight = signals.filter((_, index) => !calls[index]?.settled);
      range = range === OCTOBER ? LATER : OCTOBER;
      actor.send(headerEvent(range));
      await flush();
      expect(inFlight.every((signal) => signal.aborted)).toBe(true);
      expect(context().query?.start).toBe(range.start);
    },
  },
};

describe('exportMachine (model)', () => {
  beforeEach(() => {
    range = OCTOBER;
    before = 0;
    start();
    // The header starts with no client: nothing to export yet.
    actor.send(headerEvent(range, []));
    select(MODEL_REPORTS);
  });
  describeModelCoverage(model, params, {
    states: [
      'waiting',
      'ready',
      'nothingTicked',
      'running',
      'runningOutlets',
      'failed',
      'failedOutlets',
      'done',
      'doneByCurrency',
      'workbookReady',
      'workbookRunning',
      'workbookFailed',
      'workbookDone',
      'peakHoursReady',
      'peakHoursRunning',
      'peakHoursFailed',
      'peakHoursDone',
    ],
    transitions: 35,
  });
});

/* ---------------------------------------------------------------- details */

describe('exportMachine details', () => {
  beforeEach(() => {
    start();
    actor.send(headerEvent(OCTOBER));
  });

  it('ticks every report at first, and asks nothing before Export', async () => {
    expect(context().selected).toEqual(EXPORT_REPORT_IDS);
    expect(snapshot().can({ type: 'export.selectAll' })).toBe(false);
    await flush();
    expect(calls).toEqual([]);
  });

  it('runs every report two at a time, counting each, and saves them in the list’s order', async () => {
    actor.send({ type: 'export.start', currency: 'SGD' });
    await flush();
    const inFlight = () => new Set(pending().map(reportOf));
    const seen: number[] = [];
    while (snapshot().matches('working')) {
      expect(inFlight().size).toBeLessThanOrEqual(2);
      seen.push(exportCounts(context()).done);
      const [first] = pending();
      if (!first) break;
      const report = reportOf(first);
      await answer(pending().filter((call) => reportOf(call) === report));
    }
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(snapshot().value).toBe('done');
    expect(context().downloaded).toBe('mall-report_2026-10-01_2026-10-31.zip');
    const files = saved.at(-1)?.files ?? [];
    expect(files.map((file) => file.name)).toEqual(EXPORT_REPORT_IDS);
    expect(files.every((file) => file.currency === 'SGD')).toBe(true);
    // Every payment method, members per day for both measures.
    const payments = calls.find((call) => reportOf(call) === 'payment_methods');
    expect(payments?.url.searchParams.get('limit')).toBe('100');
    const members = calls.filter((call) => reportOf(call) === 'member_vs_non_member').map((call) => call.url);
    expect(members.map((url) => `${url.searchParams.get('time_range')} ${url.searchParams.get('metric')}`)).toEqual([
      'daily gmv',
      'daily transactions',
    ]);
    expect(calls.find((call) => reportOf(call) === 'mall_ranking')?.url.searchParams.get('rank_by')).toBe('gmv');
    expect(files.find((file) => file.name === 'member_vs_non_member')?.rows).toEqual([
      { date: '2026-10-01', member_gmv: 1, non_member_gmv: 2, member_transactions: 1, non_member_transactions: 2 },
    ]);
  });

  it('downloads one report as its own CSV file', async () => {
    select(['monthly']);
    actor.send({ type: 'export.start' });
    await flush();
    await answer(pending());
    expect(context().downloaded).toBe('monthly_2026-10-01_2026-10-31.csv');
  });

  it('fails when the file cannot be made, and a retry makes it again without asking anything', async () => {
    select(['daily']);
    saveFails = true;
    actor.send({ type: 'export.start' });
    await flush();
    await answer(pending());
    expect(snapshot().value).toBe('failed');
    expect(context().failure).toEqual({ report: undefined, detail: 'no space left' });
    expect(notices.at(-1)?.message).toBe('Mall report export error occurs. Please try again later.');
    const asked = calls.length;
    saveFails = false;
    actor.send({ type: 'export.retry' });
    await flush();
    expect(calls).toHaveLength(asked);
    expect(snapshot().value).toBe('done');
    expect(saved.at(-1)?.files.map((file) => file.name)).toEqual(['daily']);
  });

  it('says the server could not be reached when a call does not answer at all', async () => {
    select(['levels']);
    actor.send({ type: 'export.start' });
    await flush();
    const [call] = pending();
    call?.answer.reject(new TypeError('Failed to fetch'));
    if (call) call.settled = true;
    await flush();
    expect(context().failure).toEqual({ report: 'levels', detail: 'the server could not be reached' });
  });

  it('keeps a finished export when the header tells the same filters again', async () => {
    select(['daily']);
    actor.send({ type: 'export.start' });
    await flush();
    await answer(pending());
    actor.send(headerEvent(OCTOBER));
    expect(snapshot().value).toBe('done');
    actor.send({ type: 'export.toggle', report: 'levels' });
    expect(snapshot().value).toBe('ready');
    expect(context().downloaded).toBeUndefined();
  });

  it('offers every report page’s workbook to a user who may read the mall reports, Mall Home first', () => {
    expect(context().workbookPages).toEqual([
      'mall_home',
      'mall_gmv',
      'peak_hours',
      'payment_methods',
      'member',
      'refunds',
      'voucher_redemption',
    ]);
    expect(context().workbookPage).toBe('mall_home');
    // The page is chosen with the workbook format only.
    expect(snapshot().can({ type: 'export.workbookPage', page: 'member' })).toBe(false);
    actor.send({ type: 'export.format', format: 'workbook' });
    actor.send({ type: 'export.workbookPage', page: 'member' });
    expect(context().workbookPage).toBe('member');
    // Back to the CSV files and to the workbook: the page chosen is kept.
    actor.send({ type: 'export.format', format: 'csv' });
    actor.send({ type: 'export.format', format: 'workbook' });
    expect(context().workbookPage).toBe('member');
  });

  it('asks Member vs Non-member’s workbook for the whole days, daily and GMV, and names it after the page', async () => {
    actor.send({ type: 'export.format', format: 'workbook' });
    actor.send({ type: 'export.workbookPage', page: 'member' });
    actor.send({ type: 'export.start' });
    await flush();
    expect(calls.map((call) => call.url.pathname)).toEqual(['/api/mall_report/member/workbook']);
    const query = calls[0]?.url.searchParams;
    expect([query?.get('start_hour'), query?.get('end_hour')]).toEqual(['0', '23']);
    expect([query?.get('time_range'), query?.get('metric')]).toEqual(['daily', 'gmv']);
    for (const call of pending()) {
      call.settled = true;
      call.answer.resolve(workbookResponse());
    }
    await flush();
    expect(context().downloaded).toBe('member-vs-non-member_2026-10-01_2026-10-31.xlsx');
    // Another page from the download: ready to ask it.
    actor.send({ type: 'export.workbookPage', page: 'mall_gmv' });
    expect(snapshot().value).toBe('ready');
    expect(context().downloaded).toBeUndefined();
  });

  it('offers only the workbooks the user may download, the first of them chosen when Mall Home is not one', async () => {
    actor.stop();
    start([
      '/api/mall_report/daily::Read',
      '/api/mall_report/peak_hour/workbook::Read',
      '/api/mall_report/member/workbook::Read',
    ]);
    actor.send(headerEvent(OCTOBER));
    expect(context().workbookPages).toEqual(['peak_hours', 'member']);
    expect(context().workbookPage).toBe('peak_hours');
    actor.send({ type: 'export.format', format: 'workbook' });
    expect(snapshot().can({ type: 'export.workbookPage', page: 'mall_gmv' })).toBe(false);
    actor.send({ type: 'export.workbookPage', page: 'mall_home' });
    expect(context().workbookPage).toBe('peak_hours');
    actor.send({ type: 'export.start' });
    await flush();
    expect(calls.map((call) => call.url.pathname)).toEqual(['/api/mall_report/peak_hour/workbook']);
  });

  it('offers no workbook to a user who may download none: the CSV files only', () => {
    actor.stop();
    start(['/api/mall_report/daily::Read']);
    actor.send(headerEvent(OCTOBER));
    expect(context().workbookPages).toEqual([]);
    expect(snapshot().can({ type: 'export.format', format: 'workbook' })).toBe(false);
    actor.send({ type: 'export.format', format: 'workbook' });
    expect(context().format).toBe('csv');
  });
});
