import { parentPort } from 'node:worker_threads';
import { lowerThreadPriority } from '../exports/threadPriority.js';
import { type PdfOptions, type PdfReceipt, ReceiptsPdf } from './pdf.js';

/**
 * A worker thread that writes receipts PDFs, one at a time (pdfRender.ts starts it and keeps it for the next
 * one, with its fonts loaded): it starts a PDF, takes batches of receipts, writes them, posts the PDF's bytes back
 * as pdfkit hands them out, says when a batch is written (so the request thread reads the next one only then) and
 * when the PDF is done. All the CPU work of a PDF (laying out text, fonts, compression) happens here, off the
 * thread that answers requests.
 */

/** What the request thread sends: a new PDF, a batch of receipts, or the end (with the number of receipts). */
export type PdfWorkerRequest =
  | { type: 'start'; options: PdfOptions }
  | { type: 'receipts'; receipts: PdfReceipt[] }
  | { type: 'end'; count: number };

/** What the worker sends back. */
export type PdfWorkerEvent =
  | { type: 'data'; chunk: Uint8Array }
  | { type: 'written' }
  | { type: 'done' }
  | { type: 'failed'; message: string };

const port = parentPort;
if (!port) throw new Error('pdfWorker.ts runs in a worker thread');
const post = (event: PdfWorkerEvent) => port.postMessage(event);

lowerThreadPriority();

let pdf: ReceiptsPdf | undefined;

function handle(request: PdfWorkerRequest): void {
  if (request.type === 'start') {
    const started = new ReceiptsPdf(request.options);
    started.doc.on('data', (chunk: Buffer) => post({ type: 'data', chunk }));
    started.doc.on('end', () => {
      if (pdf === started) pdf = undefined;
      post({ type: 'done' });
    });
    pdf = started;
    return;
  }
  if (!pdf) throw new Error(`receipts PDF worker: '${request.type}' without a PDF`);
  if (request.type === 'end') {
    pdf.end(request.count);
    return;
  }
  for (const receipt of request.receipts) pdf.writeReceipt(receipt);
  // After the bytes the batch made, which the document may still be handing out.
  setImmediate(() => post({ type: 'written' }));
}

port.on('message', (request: PdfWorkerRequest) => {
  try {
    handle(request);
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
