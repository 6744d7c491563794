import type { Middleware } from 'openapi-fetch';
import { DEFAULT_ERROR_MESSAGE, RENDER_ONLY_MESSAGE } from '../../domain/messages';
import { serverMessageOf } from '../errors';
import { emitApiEvent } from '../session';

/**
 * Calls whose 401 belongs to their caller (a wrong password, "not signed in yet") rather than to
 * the app-wide toast.
 */
const callerHandles401: ReadonlySet<string> = new Set([
  '/api/login',
  '/api/credential',
  '/api/getcsrftoken',
  '/api/logout',
]);
/** A 403 on logout must not trigger another logout. */
const ignores403: ReadonlySet<string> = new Set(['/api/logout']);

async function messageOf(response: Response): Promise<string | undefined> {
  try {
    return serverMessageOf(await response.clone().json());
  } catch {
    return undefined; // not JSON
  }
}

/**
 * Reports 401 (with the server's message, or the default error text when there is none) and 403
 * responses to whoever listens (§8). `onError` never sees these: they are responses, not failures.
 */
export const httpErrorsMiddleware: Middleware = {
  async onResponse({ response, schemaPath }) {
    if (response.status === 401 && !callerHandles401.has(schemaPath)) {
      const message = (await messageOf(response)) ?? DEFAULT_ERROR_MESSAGE;
      emitApiEvent({ type: 'unauthorized', message, path: schemaPath });
    } else if (response.status === 403 && !ignores403.has(schemaPath)) {
      // The server's browser printing a report subscription's page reads only: a write it is refused fails that
      // call alone (its caller reports it), and the page stays open to be printed.
      if ((await messageOf(response)) === RENDER_ONLY_MESSAGE) return undefined;
      emitApiEvent({ type: 'forbidden', path: schemaPath });
    }
    return undefined;
  },
};
