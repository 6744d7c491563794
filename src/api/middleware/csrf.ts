import type { Middleware } from 'openapi-fetch';
import { getCsrfToken } from '../session';

export const CSRF_HEADER = 'X-CSRF-Token';

/** Every non-GET call carries the anti-forgery token of the session (§6). */
export const csrfMiddleware: Middleware = {
  onRequest({ request }) {
    if (request.method.toUpperCase() === 'GET') return undefined;
    const token = getCsrfToken();
    if (token === undefined) return undefined;
    request.headers.set(CSRF_HEADER, token);
    return request;
  },
};
