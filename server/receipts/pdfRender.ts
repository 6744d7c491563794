import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { PdfOptions, PdfReceipt } from './pdf.js';
import type { PdfWorkerEvent, PdfWorkerRequest } from './pdfWorker.js';

/**
 * A receipts PDF written by a worker thread (pdfWorker.ts), so that a long PDF never holds up the thread that
 * answers every other request. The request thread reads the receipts from PostgreSQL a batch at a time and hands
 * each to the worker (`write`), which resolves once the worker has written it and the reader has taken the PDF's
 * bytes down to `unreadLimit`: so memory holds about one batch and one limit of bytes, however many receipts the
 * PDF has. `stream` is the PDF's bytes; destroying it (the client went away, or a failure) ends the worker.
 *
 * Each PDF has a worker of its own while it is written (how many run at once is bounded by the export slots,
 * server/exports/exportSlots.ts). A worker that finished its PDF is kept for the next one for a while: starting
 * one (TypeScript, pdfkit and the fonts) takes about a second.
 */

/** The bytes the PDF may hold for a reader that has not taken them yet before the next batch waits. */
export const PDF_UNREAD_LIMIT = 1_000_000;

/** A worker's heap: a PDF's own state is small (fonts, the current page); a runaway one ends, not the server. */
const WORKER_HEAP_MB = 256;
/** Finished workers kept for the next PDFs, and for how long. */
const IDLE_WORKERS = 2;
const IDLE_MS = 60_000;

const WORKER_ENTRY = new URL('./pdfWorkerStart.mjs', import.meta.url);

const idleWorkers: Worker[] = [];
const idleTimers = new WeakMap<Worker, NodeJS.Timeout>();

function dropIdle(worker: Worker): void {
  const index = idleWorkers.indexOf(worker);
  if (index !== -1) idleWorkers.splice(index, 1);
  clearTimeout(idleTimers.get(worker));
}

/** An idle worker, or a new one. */
function takeWorker(): Worker {
  const kept = idleWorkers.pop();
  if (kept) {
    clearTimeout(idleTimers.get(kept));
    kept.ref();
    return kept;
  }
  const worker = new Worker(WORKER_ENTRY, { execArgv: [], resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  worker.once('exit', () => dropIdle(worker));
  return worker;
}

/** Keeps a worker whose PDF is done for the next one (it does not keep the process alive meanwhile). */
function keepWorker(worker: Worker): void {
  if (idleWorkers.length >= IDLE_WORKERS) {
    void worker.terminate();
    return;
  }
  worker.unref();
  idleWorkers.push(worker);
  const timer = setTimeout(() => {
    dropIdle(worker);
    void worker.terminate();
  }, IDLE_MS);
  timer.unref();
  idleTimers.set(worker, timer);
}

export class PdfRender {
  /** The PDF's bytes, for the reply. */
  readonly stream: Readable;
  /** Resolves when the worker has begun the PDF (its first bytes are there); rejects when it could not. */
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private readonly unreadLimit: number;
  private done = false;
  private began: (() => void) | undefined;
  /** Who waits for the worker to finish a batch, and who for the reader to take bytes. */
  private onWritten: (() => void) | undefined;
  private onRead: (() => void) | undefined;

  private readonly onMessage = (event: PdfWorkerEvent) => this.receive(event);
  private readonly onError = (error: Error) => this.stream.destroy(error);
  private readonly onExit = (code: number) => {
    this.stream.destroy(new Error(`the receipts PDF worker stopped (exit code ${code})`));
  };

  constructor(options: PdfOptions, unreadLimit: number = PDF_UNREAD_LIMIT) {
    this.unreadLimit = unreadLimit;
    this.stream = new Readable({
      highWaterMark: Math.min(unreadLimit, 64 * 1024),
      read: () => this.wake('read'),
      destroy: (error, callback) => {
        this.detach();
        if (!this.done) void this.worker.terminate();
        this.wake('written');
        this.wake('read');
        callback(error);
      },
    });
    this.ready = new Promise<void>((resolve, reject) => {
      this.began = resolve;
      this.stream.once('close', () => reject(this.stream.errored ?? new Error('the receipts PDF was stopped')));
    });
    // Settled by whoever awaits it; a PDF nobody waits for must not fail the process.
    this.ready.catch(() => undefined);
    this.worker = takeWorker();
    this.worker.on('message', this.onMessage);
    this.worker.on('error', this.onError);
    this.worker.on('exit', this.onExit);
    this.worker.postMessage({ type: 'start', options } satisfies PdfWorkerRequest);
  }

  /** Whether the PDF is gone (the client went away, or it failed): nothing more is written. */
  get closed(): boolean {
    return this.stream.destroyed;
  }

  private detach(): void {
    this.worker.off('message', this.onMessage);
    this.worker.off('error', this.onError);
    this.worker.off('exit', this.onExit);
  }

  private wake(which: 'written' | 'read'): void {
    const resolve = which === 'written' ? this.onWritten : this.onRead;
    if (which === 'written') this.onWritten = undefined;
    else this.onRead = undefined;
    resolve?.();
  }

  private receive(event: PdfWorkerEvent): void {
    if (this.stream.destroyed) return;
    if (event.type === 'data') {
      this.stream.push(Buffer.from(event.chunk.buffer, event.chunk.byteOffset, event.chunk.byteLength));
      this.began?.();
      this.began = undefined;
    } else if (event.type === 'written') this.wake('written');
    else if (event.type === 'failed') this.stream.destroy(new Error(event.message));
    else {
      // Every message of this PDF has come (the worker posts 'done' last): the worker can take the next one.
      this.done = true;
      this.detach();
      keepWorker(this.worker);
      this.stream.push(null);
    }
  }

  /** Hands a batch to the worker; resolves when it is written and the reader has caught up (or the PDF is gone). */
  async write(receipts: PdfReceipt[]): Promise<void> {
    if (this.closed) return;
    await new Promise<void>((resolve) => {
      this.onWritten = resolve;
      this.worker.postMessage({ type: 'receipts', receipts } satisfies PdfWorkerRequest);
    });
    while (!this.closed && this.stream.readableLength > this.unreadLimit) {
      await new Promise<void>((resolve) => {
        this.onRead = resolve;
      });
    }
  }

  /** Ends the PDF (`count` receipts: none says so); the stream ends once the worker has written the rest. */
  end(count: number): void {
    if (!this.closed) this.worker.postMessage({ type: 'end', count } satisfies PdfWorkerRequest);
  }

  /** Stops the PDF with an error: the reader sees the stream fail (a download cut short). */
  fail(error: Error): void {
    this.stream.destroy(error);
  }
}
