import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/*
 * The text of a receipts PDF as a reader gets it out (pdf.js, the PDF reader of Firefox): the strings of each line
 * of each page, in order. pdf.js reads each glyph back through the embedded fonts' ToUnicode maps, so a script
 * printed in a wrong font comes back wrong. It gives a run of spaces as one; the PDF's Latin text is monospaced
 * (Noto Sans Mono, 0.6 em a character), so the spaces are put back from where each piece of text begins and how
 * wide each run of spaces is: a receipt's columns come back as printed.
 */

/** The PDF's left margin, in points (server/receipts/pdf.ts). */
const LEFT_MARGIN = 40;
/** A monospaced character's advance, in em. */
const ADVANCE = 0.6;

interface Piece {
  str: string;
  x: number;
  width: number;
  size: number;
  endOfLine: boolean;
}

export async function pdfLines(pdf: Buffer): Promise<string[]> {
  const document = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false, useSystemFonts: false })
    .promise;
  const lines: string[] = [];
  try {
    for (let number = 1; number <= document.numPages; number++) {
      const content = await (await document.getPage(number)).getTextContent();
      const pieces: Piece[] = content.items.flatMap((item) =>
        'str' in item
          ? [
              {
                str: item.str,
                x: item.transform[4] ?? 0,
                width: item.width,
                size: Math.abs(item.transform[0] ?? 0),
                endOfLine: item.hasEOL,
              },
            ]
          : [],
      );
      let line = '';
      let end = LEFT_MARGIN;
      for (const piece of pieces) {
        if (piece.str !== '') {
          const column = ADVANCE * piece.size;
          const gap = Math.max(0, Math.round((piece.x - end) / column));
          // pdf.js gives a run of spaces as one ' ' as wide as the run (any space is at least one).
          const blank = piece.str.trim() === '';
          line += ' '.repeat(gap) + (blank ? ' '.repeat(Math.max(1, Math.round(piece.width / column))) : piece.str);
          end = piece.x + piece.width;
        }
        if (piece.endOfLine) {
          lines.push(line);
          line = '';
          end = LEFT_MARGIN;
        }
      }
      if (line) lines.push(line);
    }
  } finally {
    await document.destroy();
  }
  return lines;
}

export async function pdfText(pdf: Buffer): Promise<string> {
  return (await pdfLines(pdf)).join('\n');
}

/**
 * The text of any PDF as pdf.js reads it: each page's strings in order, a space between pieces and a line break at
 * each end of line (no column layout: for a page printed by a browser, such as a report subscription's PDF).
 */
export async function pdfPlainText(pdf: Buffer): Promise<string> {
  const document = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false, useSystemFonts: false })
    .promise;
  const pages: string[] = [];
  try {
    for (let number = 1; number <= document.numPages; number++) {
      const content = await (await document.getPage(number)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? `${item.str}${item.hasEOL ? '\n' : ' '}` : '')).join(''));
    }
  } finally {
    await document.destroy();
  }
  return pages.join('\n');
}
