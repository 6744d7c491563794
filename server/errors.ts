import { STATUS_CODES } from 'node:http';

/** An error that the error handler turns into `{ statusCode, error, message }` with its status. */
export class HttpError extends Error {
  readonly statusCode: number;
  /** Fields the answer carries beside statusCode, error and message (as the operation's response schema says). */
  readonly details: Readonly<Record<string, unknown>> | undefined;
  constructor(statusCode: number, message: string, details?: Readonly<Record<string, unknown>>) {
    super(message);
    this.statusCode = statusCode;
    this.details = details;
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'Please sign in.') => new HttpError(401, message);
export const forbidden = (message = 'You do not have permission to do this.') => new HttpError(403, message);
export const notFound = (message = 'Not found.') => new HttpError(404, message);

export const SERVER_ERROR_MESSAGE = 'Something went wrong on the server. Please try again later.';
export const TIMEOUT_MESSAGE =
  'The request took too long and was stopped. Please try again later, or ask for a shorter range.';

export function errorBody(statusCode: number, message: string, requestId?: string) {
  return {
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'Error',
    message,
    ...(requestId === undefined ? {} : { requestId }),
  };
}

/** PostgreSQL's query_canceled: the statement ran past statement_timeout. */
const STATEMENT_TIMEOUT_CODE = '57014';

/**
 * A database that did not answer in time: a statement cancelled by statement_timeout, or no pooled connection
 * free within the pool's wait. Either is a 503 the caller can retry, never a driver message.
 */
export function isTimeout(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === STATEMENT_TIMEOUT_CODE) return true;
  return typeof message === 'string' && /timeout exceeded when trying to connect/i.test(message);
}
