/**
 * CSV export (§7, §9): produced on the client from headers, data rows and a file name. Headers are title-cased
 * from underscores ('total_amount' → 'Total Amount'); the abbreviations the screens write in capitals stay so
 * ('gmv' → 'GMV', 'receipt_id' → 'Receipt ID'). Every file is made by `toCsv`: UTF-8 with a BOM, and no cell that a
 * spreadsheet would run as a formula (`csvCell`). Pure: the server may use it too.
 */

const ABBREVIATIONS: ReadonlySet<string> = new Set(['gmv', 'atv', 'id', 'foc', 'gto', 'gst', 'pdf', 'sku']);

export function titleCaseHeader(key: string): string {
  return key
    .split('_')
    .filter((part) => part !== '')
    .map((part) =>
      ABBREVIATIONS.has(part.toLowerCase())
        ? part.toUpperCase()
        : part.charAt(0).toUpperCase() + part.slice(1).toLowerCase(),
    )
    .join(' ');
}

/**
 * The byte order mark every CSV file starts with: without it Excel reads the file in the machine's code page and
 * garbles non-Latin names ('咖啡', 'Kedai Kopi Ā'); with it, as UTF-8. Other readers skip it.
 */
export const CSV_BOM = '\uFEFF';

/**
 * A number the product formatted itself as text ('-12.50', '+3.20%', '150.0'): a numeric cell, written as it is
 * (see `csvCell`). Made by `csvNumeral`, never from text a device or a user sent.
 */
export interface CsvNumeral {
  readonly numeral: string;
}

/** Marks text the product formatted from a number (`value.toFixed(2)`, a signed growth '+3.20%') as a numeric cell. */
export function csvNumeral(text: string): CsvNumeral {
  return { numeral: text };
}

export type CsvValue = string | number | boolean | CsvNumeral | null | undefined;

/** What a numeral may be: a sign, digits, decimals and a percent sign; nothing a spreadsheet could call. */
const NUMERAL = /^[+-]?\d+(\.\d+)?%?$/;

/** A cell a spreadsheet would take for a formula (OWASP CSV injection): =, +, -, @, a tab or a carriage return first. */
const FORMULA_START = /^[=+\-@\t\r]/;

function quoted(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * One cell of a CSV file, decided by its type, so that no cell from a device or a user is evaluated as a formula
 * (OWASP "CSV Injection") while the product's own figures stay numbers:
 * - a number or a boolean is a value, written as it is: a negative amount -12.5 stays the number -12.5;
 * - a `CsvNumeral` (a number the product formatted) is written as it is when it is one (sign, digits, decimals,
 *   percent: '-12.50', '+3.20%'), which a spreadsheet reads as a number, never a formula; anything else in it is
 *   text;
 * - a string is text, whatever it holds (a payment method, an item or outlet name, a reason, and the headers): one
 *   that starts with =, +, -, @, a tab or a carriage return gets a single quote first, inside the quoted cell
 *   (`"'=1+1"`), which Excel, LibreOffice and Google Sheets show as text. So '-5' from a device is the text '-5.
 * Cells holding a quote, a comma, a line end or leading/trailing space are quoted (RFC 4180).
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const isNumeral = typeof value === 'object' && NUMERAL.test(value.numeral);
  const text = typeof value === 'object' ? String(value.numeral) : value;
  if (!isNumeral && FORMULA_START.test(text)) return quoted(`'${text}`);
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? quoted(text) : text;
}

/**
 * The text of a CSV file (the BOM first, CRLF line ends) of the given columns: the header row title-cased from the
 * keys, each cell through `csvCell`. Every CSV the product writes is made here.
 */
export function toCsv<K extends string>(keys: readonly K[], rows: readonly Partial<Record<K, CsvValue>>[]): string {
  const lines = [keys.map((key) => csvCell(titleCaseHeader(key))).join(',')];
  for (const row of rows) lines.push(keys.map((key) => csvCell(row[key])).join(','));
  return `${CSV_BOM}${lines.join('\r\n')}\r\n`;
}

/** A file name safe on every platform: 'receipts_2024-03-01_2024-03-07.csv'. */
export function csvFileName(base: string, suffix: string): string {
  return `${`${base}_${suffix}`.replace(/[^\w.-]+/g, '_')}.csv`;
}

/** One CSV file of an export: its name, the columns (keys, title-cased as headers) and the rows shown. */
export interface CsvFile {
  readonly name: string;
  readonly keys: readonly string[];
  /** Rows of plain values (objects whose keys include `keys`). */
  readonly rows: readonly object[];
  /** The currency of the file's amounts (ISO 4217): written in a last Currency column of every row. */
  readonly currency?: string;
}

/** The files of an export as text, each named `{name}_{suffix}.csv`. */
export function csvFileTexts(suffix: string, files: readonly CsvFile[]): { fileName: string; text: string }[] {
  return files.map((file) => {
    const rows = file.rows as readonly Partial<Record<string, CsvValue>>[];
    const { currency } = file;
    return {
      fileName: csvFileName(file.name, suffix),
      text:
        currency === undefined
          ? toCsv(file.keys, rows)
          : toCsv(
              [...file.keys, 'currency'],
              rows.map((row) => ({ ...row, currency })),
            ),
    };
  });
}

/** The name of the zip of several CSV files: '{base}_{suffix}.zip', safe on every platform. */
export function zipFileName(base: string, suffix: string): string {
  return `${`${base}_${suffix}`.replace(/[^\w.-]+/g, '_')}.zip`;
}
