import { api, type CallOptions } from './client';
import { ApiError, dataOrThrow } from './errors';
import type { components, paths } from './schema';

export type UserInfo = components['schemas']['UserInfo'];
export type CredentialResponse = components['schemas']['CredentialResponse'];
export type LoginRequest = components['schemas']['LoginRequest'];
export type LoginResponse = components['schemas']['LoginResponse'];
export type LogoutResponse = components['schemas']['LogoutResponse'];

/**
 * Thin wrappers over the authentication calls (§7). Each returns the response body of a 2xx
 * answer and throws an ApiError (status and server message) otherwise.
 */

/** GET /api/credential: the session's user and CSRF token; 401 when nobody is signed in. */
export async function getCredential({ signal, client = api }: CallOptions = {}): Promise<CredentialResponse> {
  return dataOrThrow(await client.GET('/api/credential', { signal }));
}

/** GET /api/getcsrftoken: a CSRF token for the (possibly new) anonymous session. */
export async function getCsrfToken({ signal, client = api }: CallOptions = {}): Promise<string> {
  return dataOrThrow(await client.GET('/api/getcsrftoken', { signal })).csrfToken;
}

/** POST /api/login with the credentials as given (normalising the username is the caller's rule). */
export async function postLogin(
  body: LoginRequest,
  { signal, client = api }: CallOptions = {},
): Promise<LoginResponse> {
  return dataOrThrow(await client.POST('/api/login', { body, signal }));
}

/** GET /api/logout: ends the session; `redirectUrl` is where to send the browser, if anywhere. */
export async function getLogout({ signal, client = api }: CallOptions = {}): Promise<LogoutResponse> {
  return dataOrThrow(await client.GET('/api/logout', { signal }));
}

export type UpdatePasswordRequest = paths['/api/user/password']['put']['requestBody']['content']['application/json'];
export type VerifyUserEmailRequest =
  paths['/api/user/verifyUserEmail']['post']['requestBody']['content']['application/json'];
export type ActivateUserRequest = paths['/api/user/activate']['post']['requestBody']['content']['application/json'];

/**
 * A one-time-code call's answer (§8: false on failure rather than throwing), except a 429 (too many codes sent,
 * or too many wrong codes), which throws its ApiError so the page can say why and for how long.
 */
async function otpAnswer(call: () => Promise<{ success: boolean }>): Promise<boolean> {
  try {
    return (await call()).success;
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) throw error;
    return false;
  }
}

/** GET /api/otp: mails a one-time code to the user of the pending session (429 after 3 codes in 10 minutes). */
export async function sendOtp({ signal, client = api }: CallOptions = {}): Promise<boolean> {
  return otpAnswer(async () => dataOrThrow(await client.GET('/api/otp', { signal })));
}

/**
 * POST /api/verifyOtp: true completes sign-in. The server answers a wrong or expired code with 400 (false here)
 * and too many wrong codes with 429 (thrown).
 */
export async function verifyOtp(code: string, { signal, client = api }: CallOptions = {}): Promise<boolean> {
  return otpAnswer(async () => dataOrThrow(await client.POST('/api/verifyOtp', { body: { code }, signal })));
}

/** PUT /api/user/password: a 400 carries the server's message (ApiError.serverMessage). */
export async function putPassword(
  body: UpdatePasswordRequest,
  { signal, client = api }: CallOptions = {},
): Promise<void> {
  dataOrThrow(await client.PUT('/api/user/password', { body, signal }));
}

/** POST /api/user/sendResetPasswordEmail: always success for a well-formed address (no account enumeration). */
export async function sendResetPasswordEmail(email: string, { signal, client = api }: CallOptions = {}): Promise<void> {
  dataOrThrow(await client.POST('/api/user/sendResetPasswordEmail', { body: { email }, signal }));
}

/** GET /api/user/resetPassword: whether a reset link's key is still good (unknown, used or expired: false). */
export async function checkResetPasswordKey(
  validationKey: string,
  { signal, client = api }: CallOptions = {},
): Promise<boolean> {
  return dataOrThrow(await client.GET('/api/user/resetPassword', { params: { query: { validationKey } }, signal }))
    .success;
}

/** POST /api/user/verifyUserEmail: whether the e-mail is the one the key was sent to. §8: false on failure. */
export async function verifyUserEmail(
  body: VerifyUserEmailRequest,
  { signal, client = api }: CallOptions = {},
): Promise<boolean> {
  try {
    return dataOrThrow(await client.POST('/api/user/verifyUserEmail', { body, signal })).success;
  } catch {
    return false;
  }
}

/** POST /api/user/activate: sets the invited account's password. */
export async function activateUser(
  body: ActivateUserRequest,
  { signal, client = api }: CallOptions = {},
): Promise<void> {
  dataOrThrow(await client.POST('/api/user/activate', { body, signal }));
}

/**
 * Where the browser goes to start single sign-on (GET /api/login?domain=): a full page navigation,
 * since the server answers with a redirect to the identity provider.
 */
export function ssoStartUrl(domain: string): string {
  return `/api/login?${new URLSearchParams({ domain }).toString()}`;
}
