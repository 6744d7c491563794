/**
 * CSV export (§7, §9): produced on the client from headers, data rows and a file name. Headers are title-cased
 * from underscores ('total_amount' → 'Total Amount'); the abbreviations the screens write in capitals stay so
 * ('gmv' → 'GMV', 'receipt_id' → 'Receipt ID').
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

export type CsvValue = string | number | boolean | null | undefined;

function escapeCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV text (CRLF line ends) of the given columns: the header row title-cased from the keys. */
export function toCsv<K extends string>(keys: readonly K[], rows: readonly Partial<Record<K, CsvValue>>[]): string {
  const lines = [keys.map((key) => escapeCell(titleCaseHeader(key))).join(',')];
  for (const row of rows) lines.push(keys.map((key) => escapeCell(row[key])).join(','));
  return `${lines.join('\r\n')}\r\n`;
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
