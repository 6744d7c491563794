/** User-visible strings and toast durations of the spec (§4, §8), reproduced exactly. */

export const PRODUCT_NAME = 'Mall Analytics';
export const PASSWORD_EXPIRED_MESSAGE = 'Password expired.';
export const LOGIN_FAILED_MESSAGE = 'username or password is incorrect';
export const DEFAULT_ERROR_MESSAGE = 'Error occurs. Please try again later.';
export const PAGE_NOT_AVAILABLE_MESSAGE = 'This page is not available yet.';
export const PAGE_NOT_FOUND_MESSAGE = 'Page not found.';
export const NO_PAGES_MESSAGE = 'No pages are available for your account yet.';
/** What a chart, table or figure shows for a range without any captured data. */
export const NO_DATA = 'No Data';

/* Sign-in flows (§4). Texts the spec does not give are ours; they are still asserted exactly. */
export const OTP_SENT_MESSAGE = 'We have sent a 6-digit code to your e-mail. It expires in 5 minutes.';
export const OTP_INVALID_MESSAGE = 'Invalid or expired code.';
export const OTP_SEND_FAILED_MESSAGE = 'The code could not be sent. Please try again.';
export const RESET_EMAIL_SENT_MESSAGE = 'If an account exists for that e-mail, a reset link has been sent.';
export const RESET_LINK_INVALID_MESSAGE = 'This reset link is invalid or has expired.';
export const PASSWORD_UPDATED_MESSAGE = 'Your password has been updated. Please sign in with your new password.';
export const PASSWORD_RESET_MESSAGE = 'Your password has been reset. Please sign in with your new password.';
export const NEW_PASSWORD_RULE_MESSAGE =
  'The new password must be 10 to 128 characters long and contain at least one letter and one digit.';
export const PASSWORDS_DIFFER_MESSAGE = 'The passwords do not match.';
export const INVITATION_INVALID_MESSAGE = 'This invitation link is invalid or has expired.';
export const ACCOUNT_EMAIL_MISMATCH_MESSAGE =
  'This e-mail address does not match the invitation, or the invitation has expired.';
export const ACCOUNT_CREATED_MESSAGE = 'Your account has been created. Please sign in.';
export const SSO_FAILED_MESSAGE = 'Single sign-on did not complete. Please try again.';
export const INVALID_EMAIL_MESSAGE = 'Please enter a valid e-mail address.';
/**
 * The server's refusal of any call but a GET from the session its own browser renders a report subscription's page
 * with (server/auth/renderSessions.ts). The client takes it as that call's failure, never as a reason to sign out.
 */
export const RENDER_ONLY_MESSAGE = 'This session only renders reports: it cannot change anything.';
export const SIGN_OUT_FIRST_MESSAGE = 'You are signed in. Sign out to use this link.';

/** Toast durations in milliseconds. */
export const TOAST_TIMEOUT = {
  short: 1_500,
  medium: 2_000,
  /** Login errors, data-loading failures. */
  long: 5_000,
  /** A 401 from any call. */
  unauthorized: 10_000,
} as const;

/** §8: a failed call's toast, '{what} error occurs. Please try again later.'. */
export function errorOccurs(what: string): string {
  return `${what} error occurs. Please try again later.`;
}

/** What a machine emits for a toast (`actorRef.on('notify', ...)`). */
export interface Notice {
  type: 'notify';
  intent: 'danger' | 'success';
  message: string;
  /** Milliseconds. */
  timeout: number;
  /** A link the toast offers after its message (a path of the app). */
  link?: { readonly text: string; readonly href: string } | undefined;
}

/** The toast of a failed data load: '{what} error occurs. Please try again later.' for 5 s. */
export function loadFailureNotice(what: string): Notice {
  return { type: 'notify', intent: 'danger', message: errorOccurs(what), timeout: TOAST_TIMEOUT.long };
}

/** The toast of a failed call: the server's reason when it gave one (a refusal worth reading), else loadFailureNotice. */
export function failureNotice(what: string, reason: string | undefined): Notice {
  return reason === undefined
    ? loadFailureNotice(what)
    : { type: 'notify', intent: 'danger', message: reason, timeout: TOAST_TIMEOUT.long };
}
