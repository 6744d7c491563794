import PDFDocument from 'pdfkit';

/**
 * The receipts PDF, written as a stream: a heading, then each receipt's id, outlet, time, amount and raw text
 * (cleaned by §9). pdfkit hands out each page's bytes once the page is done, so a caller that waits for the
 * reader (`untilRead`) holds about one page and one batch of receipts, however many receipts the PDF has.
 */

export interface PdfReceipt {
  receipt_id: string;
  outlet_name: string;
  datetime: string;
  payment_method: string;
  total_amount: number;
  receipt_status: string;
  text: string;
}

export interface PdfOptions {
  title: string;
  subtitle: string;
  /** The line under the subtitle: how many receipts the PDF holds ('First 10,000 of 12,345 receipts'). */
  countLine: string;
  /** Content streams uncompressed (tests read the text with a regex). */
  compress?: boolean;
}

export type ReceiptsPdf = PDFKit.PDFDocument;

/** Starts a receipts PDF with its heading; the document is the readable stream of its bytes. */
export function startReceiptsPdf(options: PdfOptions): ReceiptsPdf {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 40,
    compress: options.compress ?? true,
    info: { Title: options.title, Subject: options.subtitle, Producer: 'Mall Analytics', Creator: 'Mall Analytics' },
  });
  doc.font('Helvetica-Bold').fontSize(16).text(options.title);
  doc.font('Helvetica').fontSize(10).fillColor('#555555').text(options.subtitle).text(options.countLine);
  doc.fillColor('#000000');
  return doc;
}

/** Adds one receipt to the PDF. */
export function writeReceipt(doc: ReceiptsPdf, receipt: PdfReceipt): void {
  doc.moveDown();
  if (doc.y > doc.page.height - 160) doc.addPage();
  doc.font('Helvetica-Bold').fontSize(11).text(`Receipt ${receipt.receipt_id}`);
  doc
    .font('Helvetica')
    .fontSize(9)
    .text(
      `${receipt.outlet_name} | ${receipt.datetime} | ${receipt.payment_method || '-'} | ${receipt.total_amount.toFixed(2)} | ${receipt.receipt_status}`,
    );
  doc.moveDown(0.3);
  doc
    .font('Courier')
    .fontSize(8)
    .text(receipt.text.replace(/\t/g, '    ') || '(no receipt text)', { lineGap: 1 });
}

/** Ends the PDF; one without receipts says so. */
export function endReceiptsPdf(doc: ReceiptsPdf, count: number): void {
  if (count === 0) doc.moveDown().fontSize(11).text('No receipts match the filters.');
  doc.end();
}

/** The bytes the PDF may hold for a reader that has not taken them yet before the writer waits. */
export const PDF_UNREAD_LIMIT = 1_000_000;

/**
 * Resolves once the reader has taken the PDF's bytes down to `limit`, or the stream is gone (destroyed when the
 * client went away). pdfkit pushes without regard to the reader, so the writer asks before each batch; it looks
 * again every few milliseconds (listening for 'data' would start the stream flowing before it is piped).
 */
export async function untilRead(doc: ReceiptsPdf, limit: number = PDF_UNREAD_LIMIT): Promise<void> {
  while (doc.readableLength > limit && !doc.destroyed) await new Promise((resolve) => setTimeout(resolve, 10));
}
