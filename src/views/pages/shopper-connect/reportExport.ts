import JSZip from 'jszip';
import { type CsvValue, csvFileName, toCsv } from '../../../domain/csv';

/** One CSV file of an export: the columns (keys, title-cased as headers) and the rows shown. */
export interface CsvFile {
  readonly name: string;
  readonly keys: readonly string[];
  /** Rows of plain values (objects whose keys include `keys`). */
  readonly rows: readonly object[];
}

function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Downloads what a page shows (§7, §9): one CSV file as it is, several zipped (`{base}_{suffix}.zip`).
 * `suffix` is the file date range ('2024-03-01_2024-03-07').
 */
export async function exportCsvFiles(base: string, suffix: string, files: readonly CsvFile[]): Promise<void> {
  const named = files.map((file) => ({
    fileName: csvFileName(file.name, suffix),
    text: toCsv(file.keys, file.rows as readonly Record<string, CsvValue>[]),
  }));
  const [only] = named;
  if (named.length === 1 && only) {
    download(new Blob([only.text], { type: 'text/csv;charset=utf-8' }), only.fileName);
    return;
  }
  const zip = new JSZip();
  for (const file of named) zip.file(file.fileName, file.text);
  const blob = await zip.generateAsync({ type: 'blob' });
  download(blob, `${`${base}_${suffix}`.replace(/[^\w.-]+/g, '_')}.zip`);
}
