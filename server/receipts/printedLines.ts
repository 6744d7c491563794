/**
 * What one receipt may print, in its image and in the receipts PDF alike: at most RECEIPT_MAX_LINES lines of at
 * most RECEIPT_MAX_COLUMNS characters. A device may store 20,000 characters of text a receipt; a point-of-sale
 * printout is a few dozen lines of 40 to 60 columns, so the bound keeps every real receipt whole while one receipt
 * can never make a page count or an image size its sender chose.
 */

export const RECEIPT_MAX_LINES = 400;
export const RECEIPT_MAX_COLUMNS = 120;

/** A tab prints as this many spaces (both outputs draw in a monospace font). */
const TAB = '    ';

/**
 * The lines a receipt's text (already cleaned by §9) prints: line ends of any kind, tabs as spaces, the first
 * RECEIPT_MAX_LINES lines, each cut to RECEIPT_MAX_COLUMNS characters (code points, so no character is split).
 */
export function printedLines(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n', RECEIPT_MAX_LINES)
    .map((line) => {
      const spaced = line.replace(/\t/g, TAB);
      // Only a line this long in UTF-16 units can have more code points than the bound.
      return spaced.length > RECEIPT_MAX_COLUMNS ? Array.from(spaced).slice(0, RECEIPT_MAX_COLUMNS).join('') : spaced;
    });
}
