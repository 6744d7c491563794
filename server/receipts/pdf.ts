import PDFDocument from 'pdfkit';
import { cleanRawReceipt, displayReceiptId } from '../../src/domain/receipts.js';
import { type FontRun, type PdfFace, PdfFonts, type PdfWeight } from './pdfFonts.js';
import { printedLines } from './printedLines.js';

/**
 * The receipts PDF, written as a stream: a heading, then each receipt's id, outlet, time, amount and printed text
 * (cleaned by §9 and bounded as the receipt image is: printedLines), every text in the Noto fonts of pdfFonts.ts,
 * so Chinese, Tamil and Thai print as they do on the receipt. pdfkit hands out each page's bytes once the page is
 * done, so a reader that keeps up holds about one page, however many receipts the PDF has. It runs in a worker
 * thread (pdfRender.ts), never on the thread that answers requests.
 */

/** A receipt as read for the PDF: its text as stored (cleaned and bounded here, in the worker). */
export interface PdfReceipt {
  receipt_id: string;
  outlet_name: string;
  datetime: string;
  payment_method: string;
  total_amount: number;
  receipt_status: string;
  raw_receipt: string;
  receipt_code: number | null;
}

export interface PdfOptions {
  title: string;
  subtitle: string;
  /** The line under the subtitle: how many receipts the PDF holds ('First 10,000 of 12,345 receipts'). */
  countLine: string;
  /** Content streams deflated (off in tests that read the operators). */
  compress?: boolean;
}

/** The receipt text's size: 120 columns of Noto Sans Mono (0.6 em) fit A4 between the margins at 7 pt. */
const TEXT_SIZE = 7;
/** A line of receipt text, whatever fonts it mixes, and where its baseline lies below its top (Noto's ascent). */
const TEXT_LINE_HEIGHT = 10;
const TEXT_BASELINE = TEXT_SIZE * 1.07;

/** The fonts of every document of this thread: each file is read once. */
let threadFonts: PdfFonts | undefined;
function fontsOfThread(): PdfFonts {
  threadFonts ??= new PdfFonts();
  return threadFonts;
}

export class ReceiptsPdf {
  /** The readable stream of the PDF's bytes. */
  readonly doc: PDFKit.PDFDocument;
  private readonly fonts: PdfFonts;
  private readonly registered = new Set<string>();

  /** Starts a receipts PDF with its heading. */
  constructor(options: PdfOptions, fonts?: PdfFonts) {
    this.fonts = fonts ?? fontsOfThread();
    this.doc = new PDFDocument({
      size: 'A4',
      margin: 40,
      compress: options.compress ?? true,
      info: { Title: options.title, Subject: options.subtitle, Producer: 'Mall Analytics', Creator: 'Mall Analytics' },
    });
    this.print(options.title, 'bold', 16);
    this.doc.fillColor('#555555');
    this.print(options.subtitle, 'regular', 10);
    this.print(options.countLine, 'regular', 10);
    this.doc.fillColor('#000000');
  }

  private use(face: PdfFace): void {
    if (this.registered.has(face.key)) return;
    this.doc.registerFont(face.key, this.fonts.bytes(face));
    this.registered.add(face.key);
  }

  /** Prints a text as one paragraph, wrapped to the page, each run of it in a font that has its characters. */
  private print(text: string, weight: PdfWeight, size: number, options: PDFKit.Mixins.TextOptions = {}): void {
    this.printRuns(this.fonts.runs(text, weight), size, options);
  }

  private printRuns(runs: readonly FontRun[], size: number, options: PDFKit.Mixins.TextOptions = {}): void {
    runs.forEach((run, index) => {
      this.use(run.face);
      this.doc
        .font(run.face.key)
        .fontSize(size)
        .text(run.text, { ...options, continued: index < runs.length - 1 });
    });
  }

  /** How wide the runs print at `size`: a monospaced run by its length, any other as its font lays it out. */
  private widthOf(runs: readonly FontRun[], size: number): number {
    return runs.reduce((sum, run) => {
      if (run.face.advance !== undefined) return sum + [...run.text].length * run.face.advance * size;
      this.use(run.face);
      return sum + this.doc.font(run.face.key).fontSize(size).widthOfString(run.text);
    }, 0);
  }

  /**
   * Prints a receipt's lines: a line that fits the page's width is drawn as it is, run after run, with no line
   * breaking (most of the time a PDF takes: every receipt line fits, 120 monospaced columns); a wider one (wide
   * Chinese characters) is wrapped by pdfkit. A new page begins whenever the next line would not fit.
   */
  private printLines(lines: readonly string[]): void {
    const doc = this.doc;
    const left = doc.page.margins.left;
    for (const line of lines) {
      if (doc.y + TEXT_LINE_HEIGHT > doc.page.height - doc.page.margins.bottom) doc.addPage();
      doc.x = left;
      const runs = this.fonts.runs(line, 'regular');
      if (this.widthOf(runs, TEXT_SIZE) > doc.page.width - left - doc.page.margins.right) {
        this.printRuns(runs, TEXT_SIZE, { lineGap: 1 });
        continue;
      }
      for (const run of runs) {
        this.use(run.face);
        // One baseline for every font of the line (pdfkit would place each font's by its own ascent).
        doc.font(run.face.key).fontSize(TEXT_SIZE).text(run.text, { lineBreak: false, baseline: -TEXT_BASELINE });
      }
      doc.x = left;
      doc.y += TEXT_LINE_HEIGHT;
    }
  }

  /** Adds one receipt. */
  writeReceipt(receipt: PdfReceipt): void {
    const doc = this.doc;
    doc.moveDown();
    if (doc.y > doc.page.height - 160) doc.addPage();
    this.print(`Receipt ${displayReceiptId(receipt.receipt_id)}`, 'bold', 11);
    this.print(
      `${receipt.outlet_name} | ${receipt.datetime} | ${receipt.payment_method || '-'} | ${receipt.total_amount.toFixed(2)} | ${receipt.receipt_status}`,
      'regular',
      9,
    );
    doc.moveDown(0.3);
    const lines = printedLines(cleanRawReceipt(receipt.raw_receipt, receipt.receipt_code));
    this.printLines(lines.length === 1 && lines[0] === '' ? ['(no receipt text)'] : lines);
  }

  /** Ends the PDF; one without receipts says so. */
  end(count: number): void {
    if (count === 0) {
      this.doc.moveDown();
      this.print('No receipts match the filters.', 'regular', 11);
    }
    this.doc.end();
  }
}
