import JSZip from 'jszip';
import { saveFile } from '../api/download';
import { type CsvFile, csvFileTexts, zipFileName } from '../domain/csv';

/**
 * Downloads what a page shows (§7, §9): one CSV file as it is, several zipped (`{base}_{suffix}.zip`).
 * `suffix` is the file date range ('2024-03-01_2024-03-07').
 */
export async function exportCsvFiles(base: string, suffix: string, files: readonly CsvFile[]): Promise<void> {
  const named = csvFileTexts(suffix, files);
  const [only] = named;
  if (named.length === 1 && only) {
    saveFile(new Blob([only.text], { type: 'text/csv;charset=utf-8' }), only.fileName);
    return;
  }
  const zip = new JSZip();
  for (const file of named) zip.file(file.fileName, file.text);
  const blob = await zip.generateAsync({ type: 'blob' });
  saveFile(blob, zipFileName(base, suffix));
}
