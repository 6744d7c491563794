import { SSO_FAILED_MESSAGE } from './messages';

/**
 * Why single sign-on did not work out, as the server's redirect to /sso tells it (`?error=<code>`) and the page
 * shows it. The address bar is anyone's to write, so the page shows only these fixed messages: an unknown code
 * reads as the generic failure, never as text of the link.
 */
export const SSO_ERRORS = {
  not_set_up: 'Single sign-on is not set up for this e-mail domain.',
  unreachable: 'The sign-in service of your organisation could not be reached. Please try again later.',
  expired: 'Your single sign-on attempt has expired. Please start again.',
  mismatch: 'The sign-in answer does not belong to your sign-in attempt. Please start again.',
  cancelled: 'Sign-in was cancelled at the identity provider.',
  refused: 'The identity provider did not sign you in.',
  failed: SSO_FAILED_MESSAGE,
  no_email: 'The identity provider did not share your e-mail address.',
  unverified: 'The identity provider has not verified your e-mail address.',
  wrong_domain: 'The identity provider answered with an e-mail address of another domain.',
  no_account: 'No account exists for the e-mail address the identity provider gave.',
} as const;

export type SsoErrorCode = keyof typeof SSO_ERRORS;

const isSsoErrorCode = (code: string): code is SsoErrorCode => Object.hasOwn(SSO_ERRORS, code);

/** The message of an `error` code of the /sso query: its fixed text, or the generic failure for any other text. */
export function ssoErrorMessage(code: string): string {
  return isSsoErrorCode(code) ? SSO_ERRORS[code] : SSO_ERRORS.failed;
}

/** The /sso page the server sends the browser back to with a code. */
export function ssoErrorPath(code: SsoErrorCode): string {
  return `/sso?error=${code}`;
}
