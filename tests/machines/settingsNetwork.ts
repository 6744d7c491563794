import { type ApiClient, createApiClient } from '../../src/api/client';
import { setPermissionsList } from '../../src/api/session';

/**
 * The network of the Settings machine tests: a fetch handler injected into an api client built like the app's
 * (permission gate, CSRF, error reporting). Every request waits until the test answers it, so a model test
 * decides when and how each call ends; the request's method, path, query and JSON body are kept.
 */

const ORIGIN = 'http://localhost';

export const SETTINGS_PERMISSIONS = [
  '/outlets/*::Read',
  '/outlets/*::Create',
  '/outlets/*::Update',
  '/outlets/*::Delete',
];

export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: unknown;
  answered: boolean;
  respond: (status: number, body: unknown) => void;
}

export interface FakeNetwork {
  readonly client: ApiClient;
  readonly requests: FakeRequest[];
  /** The oldest unanswered request to `method path` (waiting for it to arrive); fails the test when none comes. */
  pending: (method: string, path: string) => Promise<FakeRequest>;
  /** Answers the oldest unanswered request to `method path` and lets the machine take the answer. */
  answer: (method: string, path: string, status: number, body: unknown) => Promise<FakeRequest>;
  /** The unanswered requests. */
  open: () => FakeRequest[];
  reset: () => void;
}

export const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

export function fakeNetwork(): FakeNetwork {
  const requests: FakeRequest[] = [];
  setPermissionsList(SETTINGS_PERMISSIONS);
  const client = createApiClient(
    async (request) => {
      const url = new URL(request.url);
      const text = await request.text();
      return new Promise<Response>((resolve, reject) => {
        const entry: FakeRequest = {
          method: request.method,
          path: url.pathname,
          query: url.searchParams,
          body: text === '' ? undefined : JSON.parse(text),
          answered: false,
          respond: (status, body) => {
            entry.answered = true;
            resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
          },
        };
        request.signal.addEventListener('abort', () => {
          entry.answered = true;
          reject(new DOMException('Aborted', 'AbortError'));
        });
        requests.push(entry);
      });
    },
    { baseUrl: ORIGIN },
  );
  const pending = async (method: string, path: string) => {
    for (let attempt = 0; attempt < 20; attempt++) {
      if (requests.some((entry) => !entry.answered && entry.method === method && entry.path === path)) break;
      await flush();
    }
    const found = requests.find((entry) => !entry.answered && entry.method === method && entry.path === path);
    if (!found) {
      const open = requests.filter((entry) => !entry.answered).map((entry) => `${entry.method} ${entry.path}`);
      throw new Error(`no pending ${method} ${path} (pending: ${open.join(', ') || 'none'})`);
    }
    return found;
  };
  return {
    client,
    requests,
    pending,
    answer: async (method, path, status, body) => {
      // The request reaches the handler after the middleware's promises.
      const request = await pending(method, path);
      request.respond(status, body);
      for (let attempt = 0; attempt < 5; attempt++) await flush();
      return request;
    },
    open: () => requests.filter((entry) => !entry.answered),
    reset: () => {
      requests.length = 0;
    },
  };
}

/** A server error body (`{ statusCode, error, message }`). */
export function errorBody(status: number, message: string) {
  return { statusCode: status, error: status === 400 ? 'Bad Request' : 'Internal Server Error', message };
}
