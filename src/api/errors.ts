import type { components } from './schema';

/** A call answered with a non-2xx status; `serverMessage` is the `message` of the JSON error body. */
export class ApiError extends Error {
  readonly status: number;
  readonly serverMessage: string | undefined;
  /** The error body as the server sent it (some refusals carry more than the message). */
  readonly body: unknown;

  constructor(status: number, serverMessage?: string, body?: unknown) {
    super(serverMessage ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.serverMessage = serverMessage;
    this.body = body;
  }
}

/** The `message` of a server error body (`{ statusCode, error, message }`), if there is one. */
export function serverMessageOf(body: unknown): string | undefined {
  if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') {
    return body.message;
  }
  return undefined;
}

/** Turns openapi-fetch's `{ data, error, response }` into the data, or throws an ApiError. */
export function dataOrThrow<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok && result.data !== undefined) return result.data;
  throw new ApiError(result.response.status, serverMessageOf(result.error), result.error);
}

/** The server's message of a failed call that answered `status` (a refusal worth showing as it is), if any. */
export function serverMessageWhen(error: unknown, status: number): string | undefined {
  return error instanceof ApiError && error.status === status ? error.serverMessage : undefined;
}

export type CurrencyFigures = components['schemas']['CurrencyFigures'];

/**
 * A report refused because its malls' currencies cannot be converted (409, a month without a rate): the server's
 * reason, and the figures per currency it gives instead of a total.
 */
export function missingRateRefusalOf(
  error: unknown,
): { reason: string | undefined; byCurrency: readonly CurrencyFigures[] } | undefined {
  if (!(error instanceof ApiError) || error.status !== 409) return undefined;
  const body = error.body as Partial<components['schemas']['MissingExchangeRateError']> | undefined;
  return { reason: error.serverMessage, byCurrency: Array.isArray(body?.by_currency) ? body.by_currency : [] };
}
