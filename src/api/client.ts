import createClient, { type Client } from 'openapi-fetch';
import { csrfMiddleware } from './middleware/csrf';
import { httpErrorsMiddleware } from './middleware/httpErrors';
import { permissionGateMiddleware } from './middleware/permissionGate';
import type { paths } from './schema';

export type ApiClient = Client<paths>;
export type FetchImpl = (request: Request) => Promise<Response>;

export interface ApiClientOptions {
  /** Replaces the network (tests). */
  readonly fetch?: FetchImpl;
  /** Same origin by default; tests outside a browser give an absolute origin. */
  readonly baseUrl?: string;
}

/**
 * Builds a client the way the app's one client is built: same-origin cookies, the permission gate
 * first (a cancelled call never reaches the network), then the CSRF header, then 401/403 reporting.
 */
export function createApiClient(fetchImpl?: FetchImpl, options: ApiClientOptions = {}): ApiClient {
  const fetchToUse = fetchImpl ?? options.fetch;
  const client = createClient<paths>({
    baseUrl: options.baseUrl ?? '',
    credentials: 'same-origin',
    // Resolve globalThis.fetch at call time so that test doubles installed later are used.
    fetch: fetchToUse ?? ((request: Request) => globalThis.fetch(request)),
  });
  client.use(permissionGateMiddleware, csrfMiddleware, httpErrorsMiddleware);
  return client;
}

/** The one client of the app: every HTTP call goes through it. */
export const api: ApiClient = createApiClient();

/** What every call takes besides its parameters: an abort signal, and the client (the app's by default). */
export interface CallOptions {
  /** Aborts the request (a machine's actor passes the signal it is given). */
  readonly signal?: AbortSignal;
  readonly client?: ApiClient;
}
