import ExcelJS from 'exceljs';

/**
 * An Excel workbook (.xlsx, written by exceljs) from plain sheets: one sheet a table, each column of one kind, so
 * that a figure is a number cell (never text), money carries the currency's number format, a day or an instant is a
 * date cell, and any text (an outlet's or a mall's name, a payment method) is a string cell. A string cell is never
 * a formula, whatever it starts with (`=`, `+`, `-`, `@`, a tab or a carriage return): exceljs writes a formula only
 * for a `{ formula }` value, which nothing here makes. The sheets are plain data (structured-clone safe), so the
 * workbook can be written in a worker thread (workbookRender.ts) from what the request thread read.
 */

/** What a cell holds, and so its type and number format. */
/** `percent` is a rate to 2 decimals (growth), `share` a part of a whole to 1 (member share), both as ratios (0.25). */
export type CellKind = 'text' | 'money' | 'count' | 'number' | 'percent' | 'share' | 'date' | 'datetime';

/** A cell's value: text, a number, a day (`YYYY-MM-DD`) or an instant (ISO 8601) for dates; null for an empty cell. */
export type CellValue = string | number | null;

/**
 * A cell of another kind than its column's (a row of key figures: money, a count, a share), or money in another
 * currency than the workbook's (a table whose rows are each in their own currency, named in a column beside).
 */
export interface TypedCell {
  readonly kind: CellKind;
  readonly value: CellValue;
  /** Money's currency: its symbol and minor units; the workbook's when left out. */
  readonly money?: WorkbookSpec['money'] | undefined;
}

export type SheetCell = CellValue | TypedCell;

export interface SheetColumn {
  readonly header: string;
  readonly kind: CellKind;
  /** In characters; from the kind when not given. */
  readonly width?: number;
}

export interface SheetSpec {
  /** At most 31 characters, none of `[]:*?/\` (Excel's rule for a sheet's name). */
  readonly name: string;
  readonly columns: readonly SheetColumn[];
  readonly rows: readonly (readonly SheetCell[])[];
}

export interface WorkbookSpec {
  readonly sheets: readonly SheetSpec[];
  /** How money is written: the currency's symbol and minor units ('Rp' and 0, '$' and 2). */
  readonly money: { readonly symbol: string; readonly digits: number };
  /** Who the workbook was made for (the document's author), and when (ISO 8601). */
  readonly creator: string;
  readonly created: string;
}

/** The Excel number format of money in a currency: its symbol, thousands separated, its minor units. */
export function moneyFormat(symbol: string, digits: number): string {
  const quoted = `"${symbol.replaceAll('"', '')}"`;
  const number = digits > 0 ? `#,##0.${'0'.repeat(digits)}` : '#,##0';
  return `${quoted}${number};-${quoted}${number}`;
}

export const COUNT_FORMAT = '#,##0';
export const PERCENT_FORMAT = '0.00%';
export const SHARE_FORMAT = '0.0%';
export const DATE_FORMAT = 'yyyy-mm-dd';
export const DATETIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';

const WIDTHS: Record<CellKind, number> = {
  text: 28,
  money: 16,
  count: 14,
  number: 12,
  percent: 12,
  share: 12,
  date: 12,
  datetime: 20,
};

const INVALID_SHEET_NAME = /[[\]:*?/\\]/;

const isTyped = (cell: SheetCell): cell is TypedCell => typeof cell === 'object' && cell !== null;

/** A day (`YYYY-MM-DD`) as the Date exceljs writes as that day's serial number (midnight UTC, no zone shift). */
function dayOf(value: string): Date {
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) throw new Error(`workbook: not a day: ${value}`);
  return date;
}

function instantOf(value: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new Error(`workbook: not an instant: ${value}`);
  return date;
}

/** A cell's value as exceljs takes it: a string stays a string (never a formula), numbers and dates their types. */
function cellValueOf(kind: CellKind, value: CellValue): string | number | Date | null {
  if (value === null) return null;
  if (kind === 'text') return String(value);
  if (kind === 'date') return typeof value === 'string' ? dayOf(value) : value;
  if (kind === 'datetime') return typeof value === 'string' ? instantOf(value) : value;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new Error(`workbook: a ${kind} cell must be a finite number, not ${JSON.stringify(value)}`);
  }
  return value;
}

function formatOf(kind: CellKind, money: string): string | undefined {
  switch (kind) {
    case 'money':
      return money;
    case 'count':
      return COUNT_FORMAT;
    case 'percent':
      return PERCENT_FORMAT;
    case 'share':
      return SHARE_FORMAT;
    case 'date':
      return DATE_FORMAT;
    case 'datetime':
      return DATETIME_FORMAT;
    default:
      return undefined;
  }
}

/** Writes the workbook: each sheet's header row in bold and kept in view, then its rows. */
export async function writeWorkbook(spec: WorkbookSpec): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = spec.creator;
  workbook.created = instantOf(spec.created);
  const money = moneyFormat(spec.money.symbol, spec.money.digits);
  for (const sheet of spec.sheets) {
    if (sheet.name.length === 0 || sheet.name.length > 31 || INVALID_SHEET_NAME.test(sheet.name)) {
      throw new Error(`workbook: not a sheet name Excel takes: ${sheet.name}`);
    }
    const worksheet = workbook.addWorksheet(sheet.name, { views: [{ state: 'frozen', ySplit: 1 }] });
    worksheet.columns = sheet.columns.map((column) => ({
      header: column.header,
      width: column.width ?? Math.max(WIDTHS[column.kind], column.header.length + 2),
    }));
    worksheet.getRow(1).font = { bold: true };
    for (const row of sheet.rows) {
      const added = worksheet.addRow([]);
      sheet.columns.forEach((column, index) => {
        const given = row[index] ?? null;
        const kind = isTyped(given) ? given.kind : column.kind;
        const cell = added.getCell(index + 1);
        cell.value = cellValueOf(kind, isTyped(given) ? given.value : given);
        const format = formatOf(
          kind,
          isTyped(given) && given.money ? moneyFormat(given.money.symbol, given.money.digits) : money,
        );
        if (format) cell.numFmt = format;
        if (kind !== 'text') cell.alignment = { horizontal: 'right' };
      });
    }
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
