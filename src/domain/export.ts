import { type CsvFile, csvFileName, zipFileName } from './csv';
import { formatFileDateRange } from './format';
import type {
  DailyReportRow,
  MallCategoryRow,
  MallGroupRow,
  MallLevelRow,
  MallRankRow,
  MemberOverallResponse,
  MonthlyReportRow,
  PaymentMethodRow,
  PeakHourRow,
} from './mallReportViews';
import { REPORT_WORKBOOKS, reportWorkbook, type WorkbookPage } from './reportWorkbooks';

/**
 * The Export page (/shopper-connect/export, §2, §9): the mall reports a user may download for the selected malls
 * and date range, one CSV file per report (headers title-cased from underscores, domain/csv), zipped when there
 * are several ('mall-report_{start}_{end}.zip'), each file named '{report}_{start}_{end}.csv'. Pure: the machine
 * (machines/exportMachine) makes the calls and the download.
 */

/** The reports offered, in the order they are listed and written. */
export const EXPORT_REPORTS = [
  { id: 'daily', label: 'Daily', description: 'GMV and transactions per day' },
  { id: 'monthly', label: 'Monthly', description: 'GMV and transactions per month' },
  { id: 'mall_ranking', label: 'Mall ranking', description: 'The malls ranked by GMV' },
  { id: 'peak_hours', label: 'Peak hours', description: 'GMV and transactions per day and hour' },
  { id: 'payment_methods', label: 'Payment methods', description: 'The sum per payment method' },
  {
    id: 'member_vs_non_member',
    label: 'Member vs non-member',
    description: 'GMV and transactions of members and non-members per day',
  },
  { id: 'categories', label: 'Category', description: 'Sales per outlet category' },
  { id: 'levels', label: 'Level', description: 'Sales per mall level' },
  { id: 'outlets', label: 'Outlets', description: 'Sales per outlet' },
] as const;

export type ExportReportId = (typeof EXPORT_REPORTS)[number]['id'];

export const EXPORT_REPORT_IDS: readonly ExportReportId[] = EXPORT_REPORTS.map((report) => report.id);

/** The base name of the zip of several reports. */
export const EXPORT_ZIP_BASE = 'mall-report';

/** How many reports are asked at once (each is one or two calls): a long export does not flood the server. */
export const EXPORT_CONCURRENCY = 2;

/** The most payment methods one call answers (the contract's `limit` maximum): every method, not a top 10. */
export const EXPORT_PAYMENT_METHOD_LIMIT = 100;

export function isExportReport(value: string): value is ExportReportId {
  return (EXPORT_REPORT_IDS as readonly string[]).includes(value);
}

/** The label a user reads ('Mall ranking'). */
export function exportReportLabel(report: ExportReportId): string {
  return EXPORT_REPORTS.find((candidate) => candidate.id === report)?.label ?? report;
}

/* ---------------------------------------------------------------- the selection */

/** The reports in the order of the list, each once. */
export function orderedReports(reports: readonly ExportReportId[]): ExportReportId[] {
  return EXPORT_REPORT_IDS.filter((report) => reports.includes(report));
}

/** The selection with `report` ticked or unticked. */
export function toggleReport(selected: readonly ExportReportId[], report: ExportReportId): ExportReportId[] {
  return selected.includes(report)
    ? orderedReports(selected.filter((candidate) => candidate !== report))
    : orderedReports([...selected, report]);
}

/* ---------------------------------------------------------------- the answers and their files */

/** What the calls of each report answer. */
export interface ExportAnswers {
  readonly daily: readonly DailyReportRow[];
  readonly monthly: readonly MonthlyReportRow[];
  readonly mall_ranking: readonly MallRankRow[];
  /** Two calls of the daily time range: GMV and transactions per day and hour. */
  readonly peak_hours: { readonly gmv: readonly PeakHourRow[]; readonly transactions: readonly PeakHourRow[] };
  readonly payment_methods: readonly PaymentMethodRow[];
  /** Two calls of the daily time range: the GMV and the transactions of members and non-members. */
  readonly member_vs_non_member: { readonly gmv: MemberOverallResponse; readonly transactions: MemberOverallResponse };
  readonly categories: readonly MallCategoryRow[];
  readonly levels: readonly MallLevelRow[];
  readonly outlets: readonly MallGroupRow[];
}

/** The columns of each report's file (title-cased as its headers: 'average_transaction_value' → 'Average …'). */
export const EXPORT_CSV_KEYS = {
  daily: ['date', 'gmv', 'transactions'],
  monthly: ['month', 'gmv', 'transactions'],
  mall_ranking: ['rank', 'mall_id', 'mall_name', 'gmv', 'transactions', 'average_transaction_value'],
  peak_hours: ['date', 'hour', 'gmv', 'transactions'],
  payment_methods: ['payment_method', 'sum'],
  member_vs_non_member: ['date', 'member_gmv', 'non_member_gmv', 'member_transactions', 'non_member_transactions'],
  categories: ['category', 'gmv', 'transactions', 'average_transaction_value'],
  levels: ['level', 'gmv', 'transactions', 'average_transaction_value'],
  outlets: ['outlet_id', 'outlet_name', 'gmv', 'transactions', 'average_transaction_value'],
} as const satisfies Record<ExportReportId, readonly string[]>;

/** The columns of a report refused for a missing exchange rate: its figures per currency. */
export const BY_CURRENCY_CSV_KEYS = ['currency', 'gmv', 'transactions'] as const;

type Rows = readonly object[];

const byPeriodAndHour = (row: { date: string; hour: number }) => `${row.date} ${String(row.hour).padStart(2, '0')}`;

/** GMV and transactions per day and hour, from the two answers (a cell missing from one answer counts 0). */
export function peakHourRows(answer: ExportAnswers['peak_hours']) {
  const cells = new Map<string, { date: string; hour: number; gmv: number; transactions: number }>();
  const cell = (row: PeakHourRow) => {
    const key = byPeriodAndHour({ date: row.period, hour: row.hour });
    const known = cells.get(key) ?? { date: row.period, hour: row.hour, gmv: 0, transactions: 0 };
    cells.set(key, known);
    return known;
  };
  for (const row of answer.gmv) cell(row).gmv = row.value;
  for (const row of answer.transactions) cell(row).transactions = row.value;
  return [...cells.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, row]) => row);
}

/** Members' and non-members' GMV and transactions per day, from the two answers. */
export function memberRows(answer: ExportAnswers['member_vs_non_member']) {
  const days = new Map<
    string,
    {
      date: string;
      member_gmv: number;
      non_member_gmv: number;
      member_transactions: number;
      non_member_transactions: number;
    }
  >();
  const day = (period: string) => {
    const known = days.get(period) ?? {
      date: period,
      member_gmv: 0,
      non_member_gmv: 0,
      member_transactions: 0,
      non_member_transactions: 0,
    };
    days.set(period, known);
    return known;
  };
  for (const row of answer.gmv.data)
    Object.assign(day(row.period), { member_gmv: row.member, non_member_gmv: row.non_member });
  for (const row of answer.transactions.data) {
    Object.assign(day(row.period), { member_transactions: row.member, non_member_transactions: row.non_member });
  }
  return [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
}

const ROWS: { readonly [K in ExportReportId]: (answer: ExportAnswers[K]) => Rows } = {
  daily: (rows) => rows,
  monthly: (rows) => [...rows].sort((a, b) => a.month.localeCompare(b.month)),
  mall_ranking: (rows) => rows.map((row, index) => ({ rank: index + 1, ...row })),
  peak_hours: peakHourRows,
  payment_methods: (rows) => rows,
  member_vs_non_member: memberRows,
  categories: (rows) => rows,
  levels: (rows) => rows,
  outlets: (rows) => rows.map((row) => ({ ...row, outlet_id: row.key, outlet_name: row.name })),
};

/**
 * The CSV file of a report's answers: named after the report, its columns EXPORT_CSV_KEYS, with a last Currency
 * column when the figures' currency is known (the selected malls', or the client's reporting currency they are
 * converted to).
 */
export function exportFile<K extends ExportReportId>(report: K, answer: ExportAnswers[K], currency?: string): CsvFile {
  const rows = (ROWS[report] as (answer: ExportAnswers[K]) => Rows)(answer);
  return { name: report, keys: EXPORT_CSV_KEYS[report], rows, ...(currency === undefined ? {} : { currency }) };
}

/** A currency's figures, as a refusal for a missing exchange rate gives them. */
export interface CurrencyTotals {
  readonly currency: string;
  readonly gmv: number;
  readonly transactions: number;
}

/**
 * The file of a report the server would not add up (its malls' currencies and a month without a rate, 409): the
 * figures per currency it gives instead, each row in its own currency, named '{report}_by_currency' so that
 * nobody takes it for the report's usual rows.
 */
export function byCurrencyFile(report: ExportReportId, byCurrency: readonly CurrencyTotals[]): CsvFile {
  return {
    name: `${report}_by_currency`,
    keys: BY_CURRENCY_CSV_KEYS,
    rows: byCurrency.map(({ currency, gmv, transactions }) => ({ currency, gmv, transactions })),
  };
}

/* ---------------------------------------------------------------- the download */

/** The date range of the file names: '2026-10-01_2026-10-31'. */
export function exportSuffix(range: { readonly start: string; readonly end: string }): string {
  return formatFileDateRange(range.start, range.end);
}

/** The name of the download: one report's CSV as it is, several zipped (§9). */
export function exportDownloadName(files: readonly Pick<CsvFile, 'name'>[], suffix: string): string {
  const [only] = files;
  return files.length === 1 && only ? csvFileName(only.name, suffix) : zipFileName(EXPORT_ZIP_BASE, suffix);
}

/* ---------------------------------------------------------------- what the page says */

/** The progress bar: the share of the reports done (0–1) and its text. */
export function exportProgress(done: number, total: number): { value: number; text: string } {
  return {
    value: total === 0 ? 0 : Math.min(1, done / total),
    text: `${done} of ${total} ${total === 1 ? 'report' : 'reports'}`,
  };
}

/** Why the export stopped: the report that failed, and what the server said of it when it did. */
export function exportFailureMessage(report: ExportReportId | undefined, detail: string | undefined): string {
  const why = detail === undefined || detail === '' ? '' : ` (${detail})`;
  if (report === undefined) return `The export file could not be made${why}. Nothing was downloaded.`;
  return `The ${exportReportLabel(report)} report could not be loaded${why}. Nothing was downloaded.`;
}

/** Said of a report exported per currency. */
export function byCurrencyNote(report: ExportReportId, reason: string | undefined): string {
  const file = `${report}_by_currency`;
  const why = reason === undefined || reason === '' ? '' : ` ${reason}`;
  return `${exportReportLabel(report)}: figures per currency in ${file}, not added together.${why}`;
}

/** Said once the file is downloaded. */
export function exportDoneMessage(fileName: string): string {
  return `Downloaded ${fileName}.`;
}

/* ---------------------------------------------------------------- a report page's workbook */

/**
 * What the Export page downloads: the ticked reports as CSV files, or one report page's workbook built by the
 * server (domain/reportWorkbooks: GET /api/mall_report/<page>/workbook, one sheet a table, numbers as numbers,
 * money in the currency's format, a sheet of the filters used), for the same malls and dates.
 */
export const EXPORT_FORMATS = [
  { id: 'csv', label: 'CSV files', description: 'The reports ticked below, one CSV file each' },
  {
    id: 'workbook',
    label: 'Excel workbook',
    description: "One report page's tables, one sheet each, and the filters used",
  },
] as const;

export type ExportFormat = (typeof EXPORT_FORMATS)[number]['id'];

export function isExportFormat(value: string): value is ExportFormat {
  return EXPORT_FORMATS.some((format) => format.id === value);
}

/**
 * The filters a workbook of a page with hours (Mall Peak Hours, Member vs Non-member) is made with here: the
 * Export page has malls and dates only, so whole days, the daily time range and GMV (reportQueryOf's defaults).
 */
export const WORKBOOK_EXPORT_FILTERS = 'all day, daily, GMV';

/**
 * The pages whose workbook the user may download here (`may`: whether their permissions hold it), in the menu's
 * order: the pages of a date range over the header's malls, as the Export page picks one (a month page's workbook
 * and an outlet page's are their subscriptions').
 */
export function workbookPagesAllowed(may: (page: WorkbookPage) => boolean): WorkbookPage[] {
  return REPORT_WORKBOOKS.filter(
    (workbook) => workbook.period === 'range' && workbook.scope === 'malls' && may(workbook.page),
  ).map((workbook) => workbook.page);
}

/** The page chosen at first: Mall Home when the user may download it, else the first page they may. */
export function defaultWorkbookPage(allowed: readonly WorkbookPage[]): WorkbookPage {
  return allowed.includes('mall_home') ? 'mall_home' : (allowed[0] ?? 'mall_home');
}

/**
 * What the chosen page's workbook holds, as the page says it under the choice; a page with hours says the
 * filters it is made with here ('… every day and hour. For all day, daily, GMV.').
 */
export function workbookPageDescription(page: WorkbookPage): string {
  const workbook = reportWorkbook(page);
  return workbook.withHours ? `${workbook.sheets}. For ${WORKBOOK_EXPORT_FILTERS}.` : `${workbook.sheets}.`;
}

/** The progress bar of the workbook's download: the share of its bytes in (none until the server answers). */
export function workbookProgress(
  progress: { readonly received: number; readonly size: number | undefined } | undefined,
): { value: number | undefined; text: string } {
  if (!progress || (progress.received === 0 && progress.size === undefined)) {
    return { value: undefined, text: 'Preparing the workbook…' };
  }
  const kilobytes = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('en-US')} KB`;
  if (progress.size === undefined) return { value: undefined, text: `${kilobytes(progress.received)} received` };
  return {
    value: progress.size === 0 ? 1 : Math.min(1, progress.received / progress.size),
    text: `${kilobytes(progress.received)} of ${kilobytes(progress.size)}`,
  };
}

/** Why `page`'s workbook was not downloaded, with what the server said when it did. */
export function workbookFailureMessage(page: WorkbookPage, detail: string | undefined): string {
  const why = detail === undefined || detail === '' ? '' : ` (${detail})`;
  return `The ${reportWorkbook(page).title} workbook could not be made${why}. Nothing was downloaded.`;
}
