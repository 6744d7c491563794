/**
 * What a repository answers when the stored data refuses a change or a read: a kind, the request field at fault
 * and why. It is not an HTTP error: repositories know rows, not status codes, and the routes turn a refusal into
 * the answer (`valueOrThrow` in server/errors.ts). A refusal is returned before anything is written, so the
 * transaction it comes from commits nothing.
 */

/** invalid: 400, forbidden: 403, notFound: 404, conflict: 409. */
export type DomainErrorKind = 'invalid' | 'forbidden' | 'notFound' | 'conflict';

export interface DomainError {
  readonly kind: DomainErrorKind;
  /** The request field at fault ('name', 'meal_timing[1].start_time'); the answer's message starts with it. */
  readonly field: string | undefined;
  /** Why, in the words the answer shows (after the field and ': ' when there is one). */
  readonly message: string;
}

/** A refused read or change. */
export interface Refusal {
  readonly ok: false;
  readonly error: DomainError;
}

/** What a repository function that can refuse answers: its value, or why not. */
export type Result<T> = { readonly ok: true; readonly value: T } | Refusal;

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

/** A refusal of `kind`, naming `field` when the request has one at fault. */
export const refuse = (kind: DomainErrorKind, message: string, field?: string): Refusal => ({
  ok: false,
  error: { kind, field, message },
});

/** The text an answer shows for `error`: 'field: message', or the message alone. */
export const domainErrorText = (error: DomainError): string =>
  error.field === undefined ? error.message : `${error.field}: ${error.message}`;
