import { vi } from 'vitest';
import { type Deferred, deferred } from './deferred';

/**
 * A request the code under test made, held until the test answers it: its address, method and JSON body, and
 * whether the test has answered it (`settled`, kept by tests that answer calls out of order).
 */
export interface PendingCall {
  readonly url: URL;
  readonly method: string;
  readonly body: unknown;
  readonly answer: Deferred<Response>;
  settled: boolean;
}

/**
 * Puts a fetch on globalThis that records every request in the returned list and answers each only when the test
 * resolves its `answer` (the api client looks fetch up at call time).
 */
export function installPendingFetch(): PendingCall[] {
  const calls: PendingCall[] = [];
  vi.stubGlobal('fetch', async (request: Request) => {
    const answer = deferred<Response>();
    const text = request.method === 'GET' || request.method === 'DELETE' ? '' : await request.clone().text();
    calls.push({
      url: new URL(request.url),
      method: request.method,
      body: text === '' ? undefined : JSON.parse(text),
      answer,
      settled: false,
    });
    return answer.promise;
  });
  return calls;
}

/** A JSON answer. */
export const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
