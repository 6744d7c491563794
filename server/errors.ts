import { STATUS_CODES } from 'node:http';
import { type DomainError, type DomainErrorKind, domainErrorText, type Result } from './repositories/domainError.js';

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

const STATUS_OF_KIND: Record<DomainErrorKind, number> = { invalid: 400, forbidden: 403, notFound: 404, conflict: 409 };

/** A repository's refusal as the answer: its kind's status, and its field and message as the text. */
export const httpErrorOf = (error: DomainError) => new HttpError(STATUS_OF_KIND[error.kind], domainErrorText(error));

/** The value of a repository's result, or its refusal thrown as the answer (how a route answers a result). */
export function valueOrThrow<T>(result: Result<T>): T {
  if (!result.ok) throw httpErrorOf(result.error);
  return result.value;
}

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
