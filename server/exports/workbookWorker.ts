import { parentPort } from 'node:worker_threads';
import { lowerThreadPriority } from './threadPriority.js';
import { type WorkbookSpec, writeWorkbook } from './workbook.js';

/**
 * A worker thread that writes one workbook (workbookRender.ts starts it for each): it takes the sheets the request
 * thread read, writes the .xlsx (the XML and its compression, all of a workbook's CPU work) and posts its bytes
 * back, off the thread that answers requests and at a lower priority than it.
 */

/** What the worker sends back: the workbook's bytes, or why it could not be written. */
export type WorkbookWorkerEvent = { type: 'done'; bytes: Uint8Array } | { type: 'failed'; message: string };

const port = parentPort;
if (!port) throw new Error('workbookWorker.ts runs in a worker thread');
const post = (event: WorkbookWorkerEvent, transfer: ArrayBuffer[] = []) => port.postMessage(event, transfer);

lowerThreadPriority();

port.once('message', (spec: WorkbookSpec) => {
  writeWorkbook(spec).then(
    (buffer) => {
      const bytes = new Uint8Array(buffer);
      post({ type: 'done', bytes }, [bytes.buffer as ArrayBuffer]);
    },
    (error: unknown) => post({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
});
