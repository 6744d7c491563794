import { safeReturnPath } from './navigation';

/** Sign-in rules that do not depend on the server (§5). Pure functions, no I/O. */

/** Login sends the username lowercased and trimmed. */
export function normalizeUsername(username: string): string {
  return username.trim().toLowerCase();
}

/** Both fields must hold something before the form can be sent. */
export function isLoginFormComplete(username: string, password: string): boolean {
  return normalizeUsername(username) !== '' && password !== '';
}

/**
 * The path to open after signing in, taken from the `redirect` query parameter. Only paths of
 * this site are accepted (no `//host` or `scheme:` targets); anything else gives `/`.
 */
export function redirectTargetFrom(search: string): string {
  return safeReturnPath(new URLSearchParams(search).get('redirect') ?? undefined) ?? '/';
}

/** `/login?redirect=<wanted path>` for a signed-out visitor of a non-public path. */
export function loginPathFor(wantedPath: string): string {
  return `/login?redirect=${encodeURIComponent(wantedPath)}`;
}

/** The contract's e-mail rule (openapi.yaml components.schemas.Email): the same addresses pass both. */
const EMAIL_PATTERN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what the name part refuses
  /^[^\s@\x00-\x1F\x7F]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

export function isEmailAddress(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

/** The domain of an e-mail address, lowercased (the SSO provider is chosen by it); undefined if not an address. */
export function emailDomainOf(email: string): string | undefined {
  const trimmed = email.trim();
  if (!isEmailAddress(trimmed)) return undefined;
  return trimmed.slice(trimmed.lastIndexOf('@') + 1).toLowerCase();
}

export const NEW_PASSWORD_MIN_LENGTH = 10;
export const NEW_PASSWORD_MAX_LENGTH = 128;

/** A new password: 10 to 128 characters with at least one letter and one digit (the server checks the rest). */
export function isNewPasswordValid(password: string): boolean {
  return (
    password.length >= NEW_PASSWORD_MIN_LENGTH &&
    password.length <= NEW_PASSWORD_MAX_LENGTH &&
    /\p{L}/u.test(password) &&
    /\d/.test(password)
  );
}

/** The new password and its confirmation: valid and equal. */
export function isNewPasswordConfirmed(newPassword: string, confirmPassword: string): boolean {
  return isNewPasswordValid(newPassword) && newPassword === confirmPassword;
}

/** The one-time code is six digits (spaces around it are ignored). */
export function normalizeOtpCode(code: string): string {
  return code.replace(/\s+/g, '');
}

export function isOtpCodeWellFormed(code: string): boolean {
  return /^\d{6}$/.test(normalizeOtpCode(code));
}
