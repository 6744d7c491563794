import type { FastifyReply } from 'fastify';
import { HttpError } from '../errors.js';

/**
 * How many long exports (the receipts PDF, the report workbooks) run at once: at most `perUser` for one user and `max` in all, in this
 * process. An export takes a slot before it reads anything and gives it back when its answer has ended, however it
 * ends (sent, failed, or the client went away); beyond the bounds the request is answered 429 with Retry-After, so
 * one user cannot take every export, and the exports together cannot take the machine.
 */

export const EXPORT_RETRY_AFTER_SECONDS = 30;

/** Whose slots an export takes: the signed-in user, or for a signed link the user who made it. */
export const exportOwner = (userId: number) => `user:${userId}`;

export function userExportsMessage(perUser: number): string {
  return `You already have ${perUser} ${perUser === 1 ? 'export' : 'exports'} in progress. Please wait for one to finish, then try again.`;
}

export const SERVER_EXPORTS_MESSAGE = 'The server is busy with other exports. Please try again in a minute.';

export interface ExportLimits {
  perUser: number;
  max: number;
}

export class ExportSlots {
  private readonly running = new Map<string, number>();
  private total = 0;

  constructor(private readonly limits: ExportLimits) {}

  /** How many exports run now: in all, or for one owner. */
  count(owner?: string): number {
    return owner === undefined ? this.total : (this.running.get(owner) ?? 0);
  }

  /**
   * Takes a slot for `owner` (a user, for a signed link its creator) for the answer of `reply`, or refuses with a
   * 429 (Retry-After set on the reply). The slot is given back when the answer finishes or its connection closes;
   * call the returned function to give it back sooner (the export failed before it began to answer).
   */
  take(owner: string, reply: FastifyReply): () => void {
    const release = this.tryTake(owner);
    if (!release) {
      const mine = this.count(owner);
      reply.header('retry-after', String(EXPORT_RETRY_AFTER_SECONDS));
      throw new HttpError(
        429,
        mine >= this.limits.perUser ? userExportsMessage(this.limits.perUser) : SERVER_EXPORTS_MESSAGE,
      );
    }
    reply.raw.once('finish', release);
    reply.raw.once('close', release);
    return release;
  }

  /**
   * Takes a slot for `owner` outside a request (a report subscription rendered by the job as its recipient), or
   * answers undefined when the bounds are reached; the returned function gives it back (once, however often called).
   */
  tryTake(owner: string): (() => void) | undefined {
    const mine = this.count(owner);
    if (mine >= this.limits.perUser || this.total >= this.limits.max) return undefined;
    this.running.set(owner, mine + 1);
    this.total += 1;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.total -= 1;
      const left = this.count(owner) - 1;
      if (left > 0) this.running.set(owner, left);
      else this.running.delete(owner);
    };
  }

  /** Waits for a slot of `owner` (checking every `pollMs`) up to `timeoutMs`; undefined when none came free. */
  async waitFor(owner: string, { timeoutMs, pollMs = 500 }: { timeoutMs: number; pollMs?: number }) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const release = this.tryTake(owner);
      if (release || Date.now() >= until) return release;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }
}
