import { Worker } from 'node:worker_threads';
import type { WorkbookSpec } from './workbook.js';
import type { WorkbookWorkerEvent } from './workbookWorker.js';

/**
 * A workbook written by a worker thread of its own (workbookWorker.ts), so that writing it never holds up the
 * thread that answers every other request. How many are written at once is bounded by the export slots
 * (exportSlots.ts) of the request that asks, and each worker by its heap and its time: a runaway workbook ends,
 * not the server.
 */

/** A workbook's heap: its sheets and the .xlsx being zipped. */
const WORKER_HEAP_MB = 256;
/** The longest a workbook is written for before its worker is ended and the export fails. */
export const WORKBOOK_TIMEOUT_MS = 60_000;

const WORKER_ENTRY = new URL('./workbookWorkerStart.mjs', import.meta.url);

/** The .xlsx of `spec`, written in a worker thread; rejects when it fails, runs past `timeoutMs` or `signal` aborts. */
export function renderWorkbook(
  spec: WorkbookSpec,
  { timeoutMs = WORKBOOK_TIMEOUT_MS, signal }: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new Error('workbook: aborted'));
      return;
    }
    const worker = new Worker(WORKER_ENTRY, {
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    let settled = false;
    const finish = (error: Error | undefined, bytes?: Uint8Array) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (error) reject(error);
      else resolve(Buffer.from(bytes?.buffer ?? new ArrayBuffer(0), bytes?.byteOffset, bytes?.byteLength));
    };
    const timer = setTimeout(() => finish(new Error('workbook: took too long to write')), timeoutMs);
    const onAbort = () => finish(new Error('workbook: aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (event: WorkbookWorkerEvent) => {
      if (event.type === 'done') finish(undefined, event.bytes);
      else finish(new Error(`workbook: ${event.message}`));
    });
    worker.once('error', (error) => finish(error));
    worker.once('exit', (code) => finish(new Error(`workbook: the worker stopped (${code})`)));
    worker.postMessage(spec);
  });
}
