import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** How much lower than the request thread's an export thread's priority is (nice 10: about a tenth of its share). */
export const EXPORT_THREAD_NICENESS = 10;

/**
 * Lowers the calling worker thread's priority, so an export (a receipts PDF, a workbook) yields the CPU to the
 * thread that answers requests whenever both want it. On Linux a thread's priority is its own (its id is the last
 * part of /proc/thread-self); elsewhere the export keeps the process's priority.
 */
export function lowerThreadPriority(niceness = EXPORT_THREAD_NICENESS): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(threadId) && threadId > 0) setPriority(threadId, niceness);
  } catch {
    // No /proc (not Linux), or the priority cannot be changed: the same priority as the request thread.
  }
}
