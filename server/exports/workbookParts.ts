import { currencyFormat } from '../../src/domain/format.js';
import { type Kpi, mallHomeComparison, type ReportQuery } from '../../src/domain/mallReportViews.js';
import type { GrowthComparison } from '../../src/domain/periods.js';
import { growthRate } from '../../src/domain/reports.js';
import type { Queryable } from '../db/pool.js';
import { listClients, listMalls, outletNames, type Visibility } from '../repositories/lookup.js';
import { latestMallToday } from '../repositories/users.js';
import type { CellKind, SheetCell, SheetColumn, SheetSpec, TypedCell, WorkbookSpec } from './workbook.js';

/**
 * What every report page's workbook shares (Mall Home's, mallHomeWorkbook.ts, and the others', reportWorkbooks.ts):
 * who it is made for, the names its filters sheet gives, and that sheet.
 */

/** The media type of an .xlsx workbook. */
export const WORKBOOK_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Who the workbook is made for: what they see (their reports' scope) and their name for the filters sheet. */
export interface WorkbookRequester {
  readonly visibility: Visibility;
  readonly email: string;
}

/** What the filters sheet says besides the query: names, who asked and when. */
export interface WorkbookFilters {
  readonly clientName: string;
  readonly mallNames: readonly string[];
  readonly generatedAt: Date;
  readonly generatedBy: string;
}

/** A workbook's download: its name and bytes. */
export interface BuiltWorkbook {
  readonly name: string;
  readonly bytes: Buffer;
}

/** The client's and malls' names as the caller's header lists them. */
export async function workbookNames(
  db: Queryable,
  visibility: Visibility,
  query: { client_id: number; mall_ids: number[] },
): Promise<{ clientName: string; mallNames: string[] }> {
  const [clients, malls] = await Promise.all([listClients(db, visibility), listMalls(db, visibility, query.client_id)]);
  const wanted = new Set(query.mall_ids);
  return {
    clientName: clients.find((client) => client.id === query.client_id)?.name ?? String(query.client_id),
    mallNames: malls.filter((mall) => wanted.has(mall.id)).map((mall) => mall.name),
  };
}

/**
 * The client's, mall's and outlet's names of an outlet page's workbook (the caller was checked to see the outlet);
 * the filters sheet names the outlet's mall, and the page's rows its outlet.
 */
export async function outletWorkbookNames(
  db: Queryable,
  visibility: Visibility,
  query: { client_id: number; outlet_id: number },
): Promise<{ clientName: string; mallNames: string[]; outletName: string }> {
  const [clients, outlet] = await Promise.all([
    listClients(db, visibility),
    outletNames(db, query.client_id, query.outlet_id),
  ]);
  return {
    clientName: clients.find((client) => client.id === query.client_id)?.name ?? String(query.client_id),
    mallNames: outlet ? [outlet.mallName] : [],
    outletName: outlet?.outletName ?? String(query.outlet_id),
  };
}

/** Money in `currency`'s format, for a table whose rows are each in their own currency (named beside). */
export const moneyIn =
  (currency: string) =>
  (value: number | null): TypedCell => {
    const format = currencyFormat(currency);
    return { kind: 'money', value, money: { symbol: format.symbol, digits: format.digits } };
  };

/** A column of text. */
export const textColumn = (header: string): SheetColumn => ({ header, kind: 'text' });
/** A column of money. */
export const moneyColumn = (header: string): SheetColumn => ({ header, kind: 'money' });

export const cell = (kind: TypedCell['kind'], value: TypedCell['value']): TypedCell => ({ kind, value });

/** The currency line: 'SGD', or 'SGD (converted at each month's rate)' when other currencies were converted. */
export function currencyText(currency: string, converted: boolean): string {
  return converted ? `${currency} (converted at each month's rate)` : currency;
}

/** The hours of a workbook's figures: 'All day (00:00 to 23:59)', '09:00 to 21:59'. */
export function hoursText(from: number, to: number): string {
  const span = `${String(from).padStart(2, '0')}:00 to ${String(to).padStart(2, '0')}:59`;
  return from === 0 && to === 23 ? `All day (${span})` : span;
}

/** The name of the sheet of filters, the last of every workbook. */
export const FILTERS_SHEET = 'Filters';

/**
 * The filters sheet: the client and malls, the range, then the page's own rows (hours, currency, comparison...),
 * then when and for whom it was generated.
 */
export function filtersSheet(
  query: { start_time: string; end_time: string },
  filters: WorkbookFilters,
  pageRows: readonly (readonly SheetCell[])[],
): SheetSpec {
  return {
    name: FILTERS_SHEET,
    columns: [
      { header: 'Filter', kind: 'text', width: 36 },
      { header: 'Value', kind: 'text', width: 40 },
    ],
    rows: [
      ['Client', cell('text', filters.clientName)],
      ['Malls', cell('text', filters.mallNames.join(', '))],
      ['From', cell('date', query.start_time)],
      ['To', cell('date', query.end_time)],
      ...pageRows,
      ['Generated at (UTC)', cell('datetime', filters.generatedAt.toISOString())],
      ['Generated by', cell('text', filters.generatedBy)],
    ],
  };
}

/** The columns of a table of sales measures (GMV, transactions, average transaction value) after `leading`. */
export function measureColumns(...leading: { header: string; kind: CellKind }[]): { header: string; kind: CellKind }[] {
  return [
    ...leading,
    { header: 'GMV', kind: 'money' },
    { header: 'Transactions', kind: 'count' },
    { header: 'Average Transaction Value', kind: 'money' },
  ];
}

/** The cells of a row of sales measures. */
export function measureCells(row: {
  gmv: number;
  transactions: number;
  average_transaction_value: number;
}): SheetCell[] {
  return [row.gmv, row.transactions, row.average_transaction_value];
}

/** Days with their GMV and transactions (the daily operation's rows). */
export function dailySheet(
  name: string,
  rows: readonly { date: string; gmv: number; transactions: number }[],
): SheetSpec {
  return {
    name,
    columns: [
      { header: 'Date', kind: 'date' },
      { header: 'GMV', kind: 'money' },
      { header: 'Transactions', kind: 'count' },
    ],
    rows: rows.map((row) => [row.date, row.gmv, row.transactions]),
  };
}

/** Outlets ranked as given (by GMV): rank, id, name and their measures. */
export function outletsSheet(
  name: string,
  rows: readonly { key: string; name: string; gmv: number; transactions: number; average_transaction_value: number }[],
): SheetSpec {
  return {
    name,
    columns: measureColumns(
      { header: 'Rank', kind: 'count' },
      { header: 'Outlet ID', kind: 'number' },
      { header: 'Outlet', kind: 'text' },
    ),
    rows: rows.map((row, index) => [index + 1, Number(row.key), row.name, ...measureCells(row)]),
  };
}

/** Payment methods with their sums, as given (largest first). */
export function paymentsSheet(name: string, rows: readonly { payment_method: string; sum: number }[]): SheetSpec {
  return {
    name,
    columns: [
      { header: 'Payment Method', kind: 'text' },
      { header: 'Sum', kind: 'money' },
    ],
    rows: rows.map((row) => [row.payment_method, row.sum]),
  };
}

/**
 * The days a page's key figures compare, as the page's machines choose them (`mallHomeComparison`): the range's
 * complete days, the malls' today (the header's) left out, against the days the comparison chooses; none without a
 * complete day. Whole days, as the pages with KPI cards report them.
 */
export async function keyFigureDays(
  db: Queryable,
  visibility: Visibility,
  query: { client_id: number; mall_ids: number[]; start_time: string; end_time: string },
  now: Date,
): Promise<{ today: string | undefined; comparison: GrowthComparison | undefined }> {
  const today = await latestMallToday(db, visibility.clientIds, now);
  const reportQuery: ReportQuery = {
    clientId: query.client_id,
    mallIds: [...new Set(query.mall_ids)],
    start: query.start_time,
    end: query.end_time,
    startHour: 0,
    endHour: 23,
    timeRange: 'daily',
    metric: 'gmv',
    ...(today === undefined ? {} : { today }),
  };
  return { today, comparison: mallHomeComparison(reportQuery) };
}

/** What a growth compares, after a key figure: the days and figure of each side, then the rate. */
export const GROWTH_COLUMNS: readonly SheetColumn[] = [
  { header: 'Growth from', kind: 'date' },
  { header: 'Growth to', kind: 'date' },
  { header: 'Growth figure', kind: 'number' },
  { header: 'Compared from', kind: 'date' },
  { header: 'Compared to', kind: 'date' },
  { header: 'Compared figure', kind: 'number' },
  { header: 'Growth rate', kind: 'percent' },
];

/** A key figure of a page: its measure's name, the kind of its cells, and the figure with its growth. */
export type KeyFigure = readonly [measure: string, kind: TypedCell['kind'], kpi: Kpi];

/**
 * A page's key figures, as its KPI cards show them: the range's figure ('No Data' when the range holds no sale),
 * then what the growth compares: the days and figure of each side, and the rate (none without a complete day).
 */
export function kpiSheet(
  name: string,
  kpis: { readonly comparison: GrowthComparison | undefined; readonly noData: boolean },
  figures: readonly KeyFigure[],
): SheetSpec {
  const { comparison } = kpis;
  const row = ([measure, kind, kpi]: KeyFigure): SheetCell[] => [
    measure,
    kpis.noData ? cell('text', 'No Data') : cell(kind, kpi.current),
    comparison?.current.start ?? null,
    comparison?.current.end ?? null,
    kpi.growth ? cell(kind, kpi.growth.current) : null,
    comparison?.previous.start ?? null,
    comparison?.previous.end ?? null,
    kpi.growth ? cell(kind, kpi.growth.previous) : null,
    kpi.growth ? growthRate(kpi.growth.current, kpi.growth.previous) / 100 : null,
  ];
  return {
    name,
    columns: [{ header: 'Measure', kind: 'text' }, { header: 'Figure', kind: 'number' }, ...GROWTH_COLUMNS],
    rows: figures.map(row),
  };
}

/** The workbook of `sheets`, its money in `currency`'s format, made for and when the filters say. */
export function workbookSpecOf(sheets: readonly SheetSpec[], currency: string, filters: WorkbookFilters): WorkbookSpec {
  const format = currencyFormat(currency);
  return {
    sheets,
    money: { symbol: format.symbol, digits: format.digits },
    creator: filters.generatedBy,
    created: filters.generatedAt.toISOString(),
  };
}
