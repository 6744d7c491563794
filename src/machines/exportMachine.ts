import { and, assign, type EventObject, emit, fromCallback, fromPromise, not, setup } from 'xstate';
import { type ApiClient, api, type CallOptions } from '../api/client';
import { saveFile } from '../api/download';
import { ApiError, missingRateRefusalOf } from '../api/errors';
import {
  downloadReportWorkbook,
  getCategoryReport,
  getDailyReport,
  getGroupReport,
  getLevelReport,
  getMallRanking,
  getMemberOverall,
  getMonthlyReport,
  getPaymentMethodOverall,
  getPeakHours,
  mayDownloadWorkbook,
  type WorkbookDownloadProgress,
} from '../api/mallReports';
import type { CsvFile } from '../domain/csv';
import {
  byCurrencyFile,
  defaultWorkbookPage,
  EXPORT_CONCURRENCY,
  EXPORT_PAYMENT_METHOD_LIMIT,
  EXPORT_REPORT_IDS,
  EXPORT_ZIP_BASE,
  type ExportAnswers,
  type ExportFormat,
  type ExportReportId,
  exportDownloadName,
  exportFile,
  exportReportLabel,
  exportSuffix,
  orderedReports,
  toggleReport,
  workbookPagesAllowed,
} from '../domain/export';
import { type ReportQuery, reportQueryOf } from '../domain/mallReportViews';
import { loadFailureNotice, type Notice } from '../domain/messages';
import { reportWorkbook, type WorkbookPage, workbookFileName } from '../domain/reportWorkbooks';
import { followHeaderFilters, type HeaderFiltersEvent, lockHeader } from './headerLink';
import { exportCsvFiles } from './reportExport';

/**
 * The Export page (/shopper-connect/export): the user ticks mall reports and downloads them for the malls and date
 * range of the app's filter header (which this page draws as its own Malls select and date range: §2 shows no
 * mall header here), one CSV file per report, zipped when there are several.
 *
 *   ready ── export.start (a range, a report ticked) ─> working.running ── every report in ─> working.saving ─> done
 *   working.running ── a report fails ─> failed ── export.retry ─> working.running (the reports not in yet)
 *   working ── export.cancel ─> ready (every pending call aborted, nothing downloaded)
 *   done | failed ── a tick, or export.start ─> ready | working
 *   any ── other malls or dates ─> ready (a run of the old ones is aborted)
 *
 * Or, with the workbook chosen (`export.format`), one report page's Excel workbook built by the server, the page
 * chosen with `export.workbookPage` among those the user may download (domain/reportWorkbooks; Mall Home at first
 * when they may). The page has malls and dates only: the workbook is of whole days, and Mall Peak Hours' and
 * Member vs Non-member's of the daily time range and GMV (reportQueryOf's defaults).
 *
 *   ready ── export.start (a range) ─> workbook (its bytes counted for the progress bar) ─> done | failed
 *   workbook ── export.cancel ─> ready (the download aborted); failed ── export.retry ─> workbook
 *   done | failed ── export.workbookPage ─> ready
 *
 * While it works the header is locked (`lockHeader`), so the malls and range cannot change under a run. The
 * reports are asked EXPORT_CONCURRENCY at a time, each answer counted for the progress bar; every call of a run
 * gets its signal, so leaving `working` aborts them. A failed report fails the whole export: nothing is downloaded
 * (never half a zip), the message names the report, and a retry asks again only the reports not yet in.
 *
 * Several currencies: a report of malls in several currencies is converted by the server to the client's
 * reporting currency; without a rate for a month it answers 409 with the figures per currency instead. We export
 * those (`{report}_by_currency`: currency, GMV, transactions) rather than fail: the other reports of the zip are
 * sound, the user asked for a download and gets every figure the server can give, never a total that adds
 * different currencies, and the page says which reports were given per currency and why (the server's reason).
 */

/** What an export call is given: its signal (a run left is aborted) and the client. */
type ExportCall<K extends ExportReportId> = (query: ReportQuery, options: CallOptions) => Promise<ExportAnswers[K]>;

/**
 * The calls of each report: the mall pages' own operations (src/api/mallReports) over whole days (the export
 * has no hour picker), peak hours and members per day, every payment method.
 */
export const EXPORT_CALLS: { readonly [K in ExportReportId]: ExportCall<K> } = {
  daily: (query, options) => getDailyReport(query, undefined, options),
  monthly: (query, options) => getMonthlyReport(query, options),
  mall_ranking: (query, options) => getMallRanking(query, undefined, options),
  peak_hours: async (query, options) => {
    const [gmv, transactions] = await Promise.all([
      getPeakHours(query, 'daily', 'gmv', options),
      getPeakHours(query, 'daily', 'transactions', options),
    ]);
    return { gmv, transactions };
  },
  payment_methods: (query, options) => getPaymentMethodOverall(query, undefined, EXPORT_PAYMENT_METHOD_LIMIT, options),
  member_vs_non_member: async (query, options) => {
    const [gmv, transactions] = await Promise.all([
      getMemberOverall(query, { timeRange: 'daily', metric: 'gmv' }, options),
      getMemberOverall(query, { timeRange: 'daily', metric: 'transactions' }, options),
    ]);
    return { gmv, transactions };
  },
  categories: (query, options) => getCategoryReport(query, options),
  levels: (query, options) => getLevelReport(query, options),
  outlets: (query, options) => getGroupReport(query, 'outlet', options),
};

/** A report's file once its calls are in: the report's rows, or (409) its figures per currency and the reason. */
export interface ExportedReport {
  readonly file: CsvFile;
  /** Set when the server would not add the report's currencies: its reason. */
  readonly byCurrency?: { readonly reason: string | undefined };
}

/** Asks a report's calls and makes its file. */
export async function loadExportReport<K extends ExportReportId>(
  report: K,
  query: ReportQuery,
  currency: string | undefined,
  options: CallOptions,
): Promise<ExportedReport> {
  try {
    const answer = await (EXPORT_CALLS[report] as ExportCall<K>)(query, options);
    return { file: exportFile(report, answer, currency) };
  } catch (error) {
    const refusal = missingRateRefusalOf(error);
    if (!refusal) throw error;
    return { file: byCurrencyFile(report, refusal.byCurrency), byCurrency: { reason: refusal.reason } };
  }
}

/** What the user reads of a failed call: the server's message, or its status, or that it could not be reached. */
function failureDetail(error: unknown): string | undefined {
  if (error instanceof ApiError) return error.serverMessage ?? `status ${error.status}`;
  if (error instanceof TypeError) return 'the server could not be reached';
  return undefined;
}

export type ExportRunEvent =
  | { type: 'report.done'; report: ExportReportId; file: CsvFile; byCurrency?: { reason: string | undefined } }
  | { type: 'report.failed'; report: ExportReportId; detail: string | undefined };

/** What the workbook's download sends back. */
export type WorkbookEvent =
  | ({ type: 'workbook.progress' } & WorkbookDownloadProgress)
  | { type: 'workbook.done'; fileName: string }
  | { type: 'workbook.failed'; detail: string | undefined };

export type ExportEvent =
  | HeaderFiltersEvent
  | { type: 'export.toggle'; report: ExportReportId }
  | { type: 'export.selectAll' }
  | { type: 'export.clearAll' }
  /** Starts an export of the ticked reports; `currency` is the figures' (the selected malls'), for the files. */
  | { type: 'export.start'; currency?: string | undefined }
  | { type: 'export.cancel' }
  | { type: 'export.retry' }
  /** CSV files of the ticked reports, or a report page's workbook. */
  | { type: 'export.format'; format: ExportFormat }
  /** The report page whose workbook is downloaded (one the user may download; the workbook format chosen). */
  | { type: 'export.workbookPage'; page: WorkbookPage }
  | ExportRunEvent
  | WorkbookEvent;

export interface ExportFailure {
  /** The report that failed; undefined: the file could not be made. */
  readonly report: ExportReportId | undefined;
  readonly detail: string | undefined;
  /** The page whose workbook failed (its call, or its download). */
  readonly workbook?: WorkbookPage;
}

export interface ExportContext {
  /** The header's malls and range as the report calls take them (whole days). */
  readonly query: ReportQuery | undefined;
  /** The reports ticked, in the list's order. */
  readonly selected: readonly ExportReportId[];
  /** What is downloaded: the ticked reports' CSV files, or the chosen page's workbook. */
  readonly format: ExportFormat;
  /** The report page whose workbook is downloaded with the workbook format: one of `workbookPages`. */
  readonly workbookPage: WorkbookPage;
  /** The workbook's download so far (while it runs). */
  readonly workbook: WorkbookDownloadProgress | undefined;
  /** The reports of the run under way or last run (the ticked ones when it started). */
  readonly run: readonly ExportReportId[];
  /** The files of the run's reports in so far. */
  readonly files: Partial<Record<ExportReportId, CsvFile>>;
  /** The run's reports given per currency (409), with the server's reason. */
  readonly byCurrency: readonly { readonly report: ExportReportId; readonly reason: string | undefined }[];
  /** The currency of the run's figures. */
  readonly currency: string | undefined;
  readonly failure: ExportFailure | undefined;
  /** The name of the file last downloaded. */
  readonly downloaded: string | undefined;
  /**
   * The pages whose workbook the user may download (their permissions hold its operation), in the menu's order, as the
   * session stood when the page started: the workbook format is a choice only when there is one.
   */
  readonly workbookPages: readonly WorkbookPage[];
}

/** The reports of the run in so far, and how many it has. */
export function exportCounts(context: Pick<ExportContext, 'run' | 'files'>): { done: number; total: number } {
  return {
    done: context.run.filter((report) => context.files[report] !== undefined).length,
    total: context.run.length,
  };
}

/** The run's reports not in yet, in the list's order. */
const remainingOf = (context: ExportContext) => context.run.filter((report) => context.files[report] === undefined);

const sameQuery = (a: ReportQuery | undefined, b: ReportQuery | undefined) => JSON.stringify(a) === JSON.stringify(b);

interface RunInput {
  readonly query: ReportQuery;
  readonly reports: readonly ExportReportId[];
  readonly currency: string | undefined;
}

interface WorkbookInput {
  readonly page: WorkbookPage;
  readonly query: ReportQuery;
}

interface SaveInput {
  readonly suffix: string;
  readonly files: readonly CsvFile[];
}

const CLEARED_RUN = {
  run: [],
  files: {},
  byCurrency: [],
  failure: undefined,
  downloaded: undefined,
  workbook: undefined,
} as const;

/** Starts the chosen export: the workbook (a range is enough), or the ticked reports. */
const START = [
  { guard: and(['hasQuery', 'isWorkbook']), target: '#export.workbook', actions: 'clearRun' },
  { guard: and(['hasQuery', 'hasSelection', not('isWorkbook')]), target: '#export.working', actions: 'startRun' },
] as const;

/**
 * The Export page's machine on `client`; `save` hands a downloaded workbook to the browser (a test records it).
 */
export function createExportMachine(client: ApiClient = api, save: (blob: Blob, fileName: string) => void = saveFile) {
  /**
   * Asks the reports EXPORT_CONCURRENCY at a time, sending back each file as it comes in; the first failure is
   * sent back and the rest aborted. Stopping the actor (cancel, new filters, the page left) aborts every call.
   */
  const runReports = fromCallback<EventObject, RunInput, ExportRunEvent>(({ input, sendBack }) => {
    const controller = new AbortController();
    const queue = [...input.reports];
    const next = () => {
      const report = queue.shift();
      if (report === undefined || controller.signal.aborted) return;
      loadExportReport(report, input.query, input.currency, { signal: controller.signal, client }).then(
        (exported) => {
          if (controller.signal.aborted) return;
          sendBack({ type: 'report.done', report, ...exported });
          next();
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          controller.abort();
          sendBack({ type: 'report.failed', report, detail: failureDetail(error) });
        },
      );
    };
    for (let slot = 0; slot < EXPORT_CONCURRENCY; slot++) next();
    return () => controller.abort();
  });

  /** Downloads the page's workbook, sending back its progress; stopping the actor aborts the call. */
  const downloadWorkbook = fromCallback<EventObject, WorkbookInput, WorkbookEvent>(({ input, sendBack }) => {
    const controller = new AbortController();
    downloadReportWorkbook(
      input.page,
      input.query,
      (progress) => {
        if (!controller.signal.aborted) sendBack({ type: 'workbook.progress', ...progress });
      },
      { signal: controller.signal, client },
    ).then(
      (blob) => {
        if (controller.signal.aborted) return;
        const fileName = workbookFileName(input.page, input.query);
        save(blob, fileName);
        sendBack({ type: 'workbook.done', fileName });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) sendBack({ type: 'workbook.failed', detail: failureDetail(error) });
      },
    );
    return () => controller.abort();
  });

  return setup({
    types: {
      context: {} as ExportContext,
      events: {} as ExportEvent,
      emitted: {} as Notice,
      tags: {} as 'busy',
      children: {} as { reports: 'runReports'; workbook: 'downloadWorkbook' },
    },
    actors: {
      followHeaderFilters,
      lockHeader,
      runReports,
      downloadWorkbook,
      /** Writes the files (one CSV, or the zip of several) and downloads it; answers the download's name. */
      saveExport: fromPromise<string, SaveInput>(async ({ input }) => {
        await exportCsvFiles(EXPORT_ZIP_BASE, input.suffix, input.files);
        return exportDownloadName(input.files, input.suffix);
      }),
    },
    guards: {
      /** The header's filters make a report query other than the one held. */
      isNewQuery: ({ context }, params: { query: ReportQuery | undefined }) =>
        params.query !== undefined && !sameQuery(params.query, context.query),
      hasQuery: ({ context }) => context.query !== undefined,
      hasSelection: ({ context }) => context.selected.length > 0,
      allSelected: ({ context }) => context.selected.length === EXPORT_REPORT_IDS.length,
      allIn: ({ context }) => remainingOf(context).length === 0,
      isWorkbook: ({ context }) => context.format === 'workbook',
      mayChooseFormat: ({ context, event }) =>
        event.type === 'export.format' && (event.format === 'csv' || context.workbookPages.length > 0),
      /** The workbook format chosen, and a page the user may download. */
      mayChooseWorkbookPage: ({ context, event }) =>
        event.type === 'export.workbookPage' &&
        context.format === 'workbook' &&
        context.workbookPages.includes(event.page),
    },
    actions: {
      setQuery: assign((_, params: { query: ReportQuery | undefined }) => ({ query: params.query, ...CLEARED_RUN })),
      toggle: assign({
        selected: ({ context, event }) =>
          event.type === 'export.toggle' ? toggleReport(context.selected, event.report) : context.selected,
        ...CLEARED_RUN,
      }),
      selectAll: assign({ selected: () => [...EXPORT_REPORT_IDS], ...CLEARED_RUN }),
      clearAll: assign({ selected: () => [], ...CLEARED_RUN }),
      startRun: assign(({ context, event }) => ({
        ...CLEARED_RUN,
        run: orderedReports(context.selected),
        currency: event.type === 'export.start' ? event.currency : undefined,
      })),
      clearRun: assign({ ...CLEARED_RUN }),
      setFormat: assign({
        format: ({ context, event }) => (event.type === 'export.format' ? event.format : context.format),
        ...CLEARED_RUN,
      }),
      setWorkbookPage: assign({
        workbookPage: ({ context, event }) =>
          event.type === 'export.workbookPage' ? event.page : context.workbookPage,
        ...CLEARED_RUN,
      }),
      keepWorkbookProgress: assign({
        workbook: ({ context, event }) =>
          event.type === 'workbook.progress' ? { received: event.received, size: event.size } : context.workbook,
      }),
      setWorkbookFailure: assign({
        failure: ({ context, event }) =>
          event.type === 'workbook.failed'
            ? { report: undefined, detail: event.detail, workbook: context.workbookPage }
            : undefined,
      }),
      notifyWorkbookFailure: emit(({ context }) =>
        loadFailureNotice(`${reportWorkbook(context.workbookPage).title} workbook export`),
      ),
      keepFile: assign(({ context, event }) => {
        if (event.type !== 'report.done') return {};
        return {
          files: { ...context.files, [event.report]: event.file },
          byCurrency: event.byCurrency
            ? [...context.byCurrency, { report: event.report, reason: event.byCurrency.reason }]
            : context.byCurrency,
        };
      }),
      setReportFailure: assign({
        failure: ({ event }) =>
          event.type === 'report.failed' ? { report: event.report, detail: event.detail } : undefined,
      }),
      notifyReportFailure: emit(({ event }) =>
        loadFailureNotice(`${event.type === 'report.failed' ? exportReportLabel(event.report) : 'Mall report'} export`),
      ),
      notifySaveFailure: emit(loadFailureNotice('Mall report export')),
    },
  }).createMachine({
    id: 'export',
    context: () => {
      const workbookPages = workbookPagesAllowed(mayDownloadWorkbook);
      return {
        query: undefined,
        selected: [...EXPORT_REPORT_IDS],
        format: 'csv',
        workbookPage: defaultWorkbookPage(workbookPages),
        ...CLEARED_RUN,
        currency: undefined,
        workbookPages,
      };
    },
    invoke: { src: 'followHeaderFilters' },
    on: {
      // Other malls or dates: what was run or is running is of the old ones (a run is aborted).
      'header.filters': {
        guard: {
          type: 'isNewQuery',
          params: ({ event }) => ({ query: reportQueryOf(event.filters, false, event.today) }),
        },
        target: '.ready',
        actions: {
          type: 'setQuery',
          params: ({ event }) => ({ query: reportQueryOf(event.filters, false, event.today) }),
        },
      },
    },
    initial: 'ready',
    states: {
      /** Choosing the reports. */
      ready: {
        on: {
          'export.toggle': { guard: not('isWorkbook'), actions: 'toggle' },
          'export.selectAll': { guard: and([not('isWorkbook'), not('allSelected')]), actions: 'selectAll' },
          'export.clearAll': { guard: and([not('isWorkbook'), 'hasSelection']), actions: 'clearAll' },
          'export.format': { guard: 'mayChooseFormat', actions: 'setFormat' },
          'export.workbookPage': { guard: 'mayChooseWorkbookPage', actions: 'setWorkbookPage' },
          'export.start': START,
        },
      },
      /** The chosen page's workbook under way: the header locked, its bytes counted, a Cancel. */
      workbook: {
        tags: ['busy'],
        invoke: [
          { src: 'lockHeader' },
          {
            id: 'workbook',
            src: 'downloadWorkbook',
            input: ({ context }) => {
              if (!context.query) throw new Error('export: a workbook without a range');
              return { page: context.workbookPage, query: context.query };
            },
          },
        ],
        on: {
          'export.cancel': { target: 'ready', actions: 'clearRun' },
          'workbook.progress': { actions: 'keepWorkbookProgress' },
          'workbook.done': {
            target: 'done',
            actions: assign({ downloaded: ({ event }) => event.fileName, workbook: undefined }),
          },
          'workbook.failed': { target: 'failed', actions: ['setWorkbookFailure', 'notifyWorkbookFailure'] },
        },
      },
      /** The export under way: the header locked, a Cancel. */
      working: {
        tags: ['busy'],
        invoke: { src: 'lockHeader' },
        on: { 'export.cancel': { target: 'ready', actions: 'clearRun' } },
        initial: 'running',
        states: {
          running: {
            invoke: {
              id: 'reports',
              src: 'runReports',
              input: ({ context }) => {
                if (!context.query) throw new Error('export: running without a range');
                return { query: context.query, reports: remainingOf(context), currency: context.currency };
              },
            },
            always: { guard: 'allIn', target: 'saving' },
            on: {
              'report.done': { actions: 'keepFile' },
              'report.failed': { target: '#export.failed', actions: ['setReportFailure', 'notifyReportFailure'] },
            },
          },
          /** Every report is in: the file is written and downloaded. */
          saving: {
            invoke: {
              src: 'saveExport',
              input: ({ context }) => {
                if (!context.query) throw new Error('export: saving without a range');
                const files = context.run.flatMap((report) => context.files[report] ?? []);
                return { suffix: exportSuffix(context.query), files };
              },
              onDone: { target: '#export.done', actions: assign({ downloaded: ({ event }) => event.output }) },
              onError: {
                target: '#export.failed',
                actions: [
                  assign({
                    failure: ({ event }) => ({
                      report: undefined,
                      detail: event.error instanceof Error ? event.error.message : undefined,
                    }),
                  }),
                  'notifySaveFailure',
                ],
              },
            },
          },
        },
      },
      /** Nothing was downloaded: the reason, and a retry of what is not in yet. */
      failed: {
        on: {
          'export.retry': [
            { guard: and(['hasQuery', 'isWorkbook']), target: 'workbook', actions: 'clearRun' },
            { guard: 'hasQuery', target: 'working', actions: assign({ failure: undefined }) },
          ],
          'export.toggle': { guard: not('isWorkbook'), target: 'ready', actions: 'toggle' },
          'export.selectAll': {
            guard: and([not('isWorkbook'), not('allSelected')]),
            target: 'ready',
            actions: 'selectAll',
          },
          'export.clearAll': { guard: and([not('isWorkbook'), 'hasSelection']), target: 'ready', actions: 'clearAll' },
          'export.format': { guard: 'mayChooseFormat', target: 'ready', actions: 'setFormat' },
          'export.workbookPage': { guard: 'mayChooseWorkbookPage', target: 'ready', actions: 'setWorkbookPage' },
          'export.start': START,
        },
      },
      /** Downloaded: the file's name, and the reports given per currency. */
      done: {
        on: {
          'export.toggle': { guard: not('isWorkbook'), target: 'ready', actions: 'toggle' },
          'export.selectAll': {
            guard: and([not('isWorkbook'), not('allSelected')]),
            target: 'ready',
            actions: 'selectAll',
          },
          'export.clearAll': { guard: and([not('isWorkbook'), 'hasSelection']), target: 'ready', actions: 'clearAll' },
          'export.format': { guard: 'mayChooseFormat', target: 'ready', actions: 'setFormat' },
          'export.workbookPage': { guard: 'mayChooseWorkbookPage', target: 'ready', actions: 'setWorkbookPage' },
          'export.start': START,
        },
      },
    },
  });
}

export const exportMachine = createExportMachine();
