import { assertEvent, assign, emit, fromCallback, fromPromise, type SnapshotFrom, setup } from 'xstate';
import type {
  CredentialResponse,
  LoginRequest,
  LoginResponse,
  LogoutResponse,
  UpdatePasswordRequest,
  UserInfo,
} from '../api/auth';
import {
  activateUser,
  checkResetPasswordKey,
  getCredential,
  getCsrfToken,
  getLogout,
  postLogin,
  putPassword,
  sendOtp,
  sendResetPasswordEmail,
  ssoStartUrl,
  verifyOtp,
  verifyUserEmail,
} from '../api/auth';
import { ApiError, serverMessageWhen } from '../api/errors';
import { clearSession, onApiEvent, setCsrfToken, setPermissionsList } from '../api/session';
import {
  emailDomainOf,
  isEmailAddress,
  isLoginFormComplete,
  isNewPasswordConfirmed,
  isOtpCodeWellFormed,
  normalizeOtpCode,
  normalizeUsername,
} from '../domain/credentials';
import {
  ACCOUNT_CREATED_MESSAGE,
  ACCOUNT_EMAIL_MISMATCH_MESSAGE,
  DEFAULT_ERROR_MESSAGE,
  LOGIN_FAILED_MESSAGE,
  type Notice,
  OTP_INVALID_MESSAGE,
  OTP_SEND_FAILED_MESSAGE,
  PASSWORD_EXPIRED_MESSAGE,
  PASSWORD_RESET_MESSAGE,
  PASSWORD_UPDATED_MESSAGE,
  SSO_FAILED_MESSAGE,
  TOAST_TIMEOUT,
} from '../domain/messages';

/**
 * Sign-in and the session (§4): check the session, fetch a CSRF token, log in, the one-time code
 * (MFA), the expired password, password reset, account creation, single sign-on, log out, and end
 * the session on a 403 from any call.
 *
 *   checking ──200──> signedIn ──logout / 403──> loggingOut ──> signedOut (+ navigate or reload)
 *      └──401──> signedOut.fetchingCsrfToken ──> signedOut.ready.idle
 *   signedOut.ready.* (any resting step) ── login.submit ──> submitting ──> signedIn | mfa | ready.passwordExpired | ready.idle
 *                                        ── reset.request ──> requestingReset ──> ready.resetRequested
 *                                        ── reset.open ──> checkingResetKey ──> ready.resetKeyValid | ready.resetKeyInvalid
 *                                        ── account.open ──> ready.accountForm ── account.submit ──> creatingAccount
 *                                        ── sso.start ──> ready.redirectingToSso (the browser leaves for /api/login?domain=)
 *                                        ── sso.complete ──> ready.ssoFailed | ssoChecking ──> signedIn
 *   ready.passwordExpired ── password.update ──> updatingExpiredPassword ──> signedOut (to /login)
 *   ready.resetKeyValid ── password.update ──> resettingPassword ──> signedOut (to /reset-password-success)
 *   mfa: sendingCode ──> waitingForCode ── otp.submit ──> verifyingCode ──> loadingUser ──> signedIn | passwordChangeRequired
 *                          └── otp.resend ──> sendingCode;  logout ──> cancelling ──> signedOut (to /login)
 *   passwordChangeRequired.editing ── password.update ──> updating ──> signedOut (to /login)
 *
 * Besides its state, the machine emits `notify` (a toast) and `navigate` (the next page of a flow). A failed
 * login is said once, by the login form (`errorMessage`), never as a toast as well.
 */

export interface AuthContext {
  /** The signed-in user, or the user waiting for the one-time code. */
  user: UserInfo | undefined;
  /** Why the current step failed (login form, code, password, reset, account, SSO), exact text. */
  errorMessage: string | undefined;
  /** The account named at the last login (normalised): the expired-password change needs it. */
  username: string | undefined;
  /** The key of the reset link or the invitation being used. */
  validationKey: string | undefined;
  /** Whether the one-time code was sent (the MFA page says so). */
  otpSent: boolean;
}

export type AuthEvent =
  | { type: 'login.submit'; username: string; password: string }
  | { type: 'logout' }
  | { type: 'otp.submit'; code: string }
  | { type: 'otp.resend' }
  | { type: 'password.update'; currentPassword?: string; newPassword: string; confirmPassword: string }
  | { type: 'reset.request'; email: string }
  | { type: 'reset.open'; validationKey: string }
  | { type: 'account.open'; validationKey: string }
  | { type: 'account.submit'; email: string; password: string; confirmPassword: string }
  | { type: 'sso.start'; email: string }
  /** The /sso page's query after the identity provider: `status=success` or `error=<message>`. */
  | { type: 'sso.complete'; status?: string; error?: string }
  | { type: 'session.unauthorized'; message: string }
  | { type: 'session.forbidden' };

/** Emitted when a flow moves to its next page (`actorRef.on('navigate', ...)`); the view navigates in the app. */
export interface AuthNavigation {
  type: 'navigate';
  to: string;
}

/** A toast (`actorRef.on('notify', ...)`) or a move to the flow's next page. */
export type AuthEmitted = Notice | AuthNavigation;

/** What a failed login shows: a 401 gives the server's message or the default login text. */
export function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return error.serverMessage ?? LOGIN_FAILED_MESSAGE;
    return error.serverMessage ?? DEFAULT_ERROR_MESSAGE;
  }
  return DEFAULT_ERROR_MESSAGE;
}

/** What a failed password change or account activation shows: the server's message (a 400 names the problem). */
export function serverErrorMessage(error: unknown): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : DEFAULT_ERROR_MESSAGE;
}

/** A one-time-code call that failed: the server's message when it refused for too many attempts, else `otherwise`. */
export function refusalMessage(error: unknown, otherwise: string): string {
  return serverMessageWhen(error, 429) || otherwise;
}

/** The login's 401 for an expired password without MFA. */
export function isPasswordExpiredError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && error.serverMessage === PASSWORD_EXPIRED_MESSAGE;
}

export const MFA_PAGE = '/mfa-validation';
export const UPDATE_PASSWORD_PAGE = '/update-password';
export const LOGIN_PAGE = '/login';
export const RESET_SUCCESS_PAGE = '/reset-password-success';

/** How the navigation guard sees the session. */
export type SessionStatus = 'checking' | 'signedOut' | 'signedIn';

export function sessionStatusOf(snapshot: SnapshotFrom<typeof authMachine>): SessionStatus {
  if (snapshot.hasTag('authenticated')) return 'signedIn';
  if (snapshot.hasTag('checkingSession')) return 'checking';
  return 'signedOut';
}

interface AccountInput {
  email: string;
  validationKey: string;
  password: string;
}

const signedInActions = [
  { type: 'setUser', params: ({ event }: { event: { output: CredentialResponse } }) => ({ user: event.output.user }) },
  {
    type: 'storeCsrfToken',
    params: ({ event }: { event: { output: CredentialResponse } }) => ({ csrfToken: event.output.csrfToken }),
  },
  {
    type: 'storePermissions',
    params: ({ event }: { event: { output: CredentialResponse } }) => ({
      permissionsList: event.output.user.permissionsList,
    }),
  },
] as const;

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    emitted: {} as AuthEmitted,
  },
  actors: {
    checkCredential: fromPromise<CredentialResponse>(() => getCredential()),
    fetchCsrfToken: fromPromise<string>(() => getCsrfToken()),
    logIn: fromPromise<LoginResponse, LoginRequest>(({ input }) => postLogin(input)),
    logOut: fromPromise<LogoutResponse>(() => getLogout()),
    sendCode: fromPromise<boolean>(() => sendOtp()),
    verifyCode: fromPromise<boolean, { code: string }>(({ input }) => verifyOtp(input.code)),
    updatePassword: fromPromise<void, UpdatePasswordRequest>(({ input }) => putPassword(input)),
    requestReset: fromPromise<void, { email: string }>(({ input }) => sendResetPasswordEmail(input.email)),
    checkResetKey: fromPromise<boolean, { validationKey: string }>(({ input }) =>
      checkResetPasswordKey(input.validationKey),
    ),
    /** Checks the e-mail against the invitation, then sets the password; false when the e-mail does not match. */
    createAccount: fromPromise<boolean, AccountInput>(async ({ input }) => {
      if (!(await verifyUserEmail({ email: input.email, validationKey: input.validationKey }))) return false;
      await activateUser({ validationKey: input.validationKey, password: input.password });
      return true;
    }),
    /** Turns the API layer's 401/403 reports into events of this machine. */
    listenToApi: fromCallback<AuthEvent>(({ sendBack }) => {
      const stopUnauthorized = onApiEvent('unauthorized', ({ message }) => {
        sendBack({ type: 'session.unauthorized', message });
      });
      const stopForbidden = onApiEvent('forbidden', () => {
        sendBack({ type: 'session.forbidden' });
      });
      return () => {
        stopUnauthorized();
        stopForbidden();
      };
    }),
  },
  guards: {
    canSubmitLogin: ({ event }) => event.type === 'login.submit' && isLoginFormComplete(event.username, event.password),
    isMfaRequired: (_, params: { response: LoginResponse }) => params.response.require_mfa,
    isPasswordExpired: (_, params: { response: LoginResponse }) =>
      params.response.user.password_expired && !params.response.require_mfa,
    isPasswordExpiredError: (_, params: { error: unknown }) => isPasswordExpiredError(params.error),
    isRedirectUrlGiven: (_, params: { response: LogoutResponse }) => Boolean(params.response.redirectUrl),
    isTrue: (_, params: { value: boolean }) => params.value,
    isUserPasswordExpired: (_, params: { user: UserInfo }) => params.user.password_expired,
    canSubmitOtp: ({ event }) => event.type === 'otp.submit' && isOtpCodeWellFormed(event.code),
    canUpdatePasswordWithCurrent: ({ event }) =>
      event.type === 'password.update' &&
      (event.currentPassword ?? '') !== '' &&
      isNewPasswordConfirmed(event.newPassword, event.confirmPassword),
    canUpdatePasswordWithKey: ({ context, event }) =>
      event.type === 'password.update' &&
      context.validationKey !== undefined &&
      isNewPasswordConfirmed(event.newPassword, event.confirmPassword),
    canRequestReset: ({ event }) => event.type === 'reset.request' && isEmailAddress(event.email),
    isValidationKeyGiven: ({ event }) =>
      (event.type === 'reset.open' || event.type === 'account.open') && event.validationKey.trim() !== '',
    canCreateAccount: ({ context, event }) =>
      event.type === 'account.submit' &&
      context.validationKey !== undefined &&
      isEmailAddress(event.email) &&
      isNewPasswordConfirmed(event.password, event.confirmPassword),
    canStartSso: ({ event }) => event.type === 'sso.start' && emailDomainOf(event.email) !== undefined,
    isSsoError: ({ event }) => event.type === 'sso.complete' && (event.error ?? '') !== '',
    isSsoSuccess: ({ event }) => event.type === 'sso.complete' && event.status === 'success',
  },
  actions: {
    setUser: assign((_, params: { user: UserInfo }) => ({ user: params.user })),
    resetUser: assign({ user: undefined }),
    setErrorMessage: assign((_, params: { message: string }) => ({ errorMessage: params.message })),
    resetErrorMessage: assign({ errorMessage: undefined }),
    setUsername: assign((_, params: { username: string }) => ({ username: params.username })),
    setValidationKey: assign((_, params: { validationKey: string }) => ({ validationKey: params.validationKey })),
    resetValidationKey: assign({ validationKey: undefined }),
    setOtpSent: assign((_, params: { sent: boolean }) => ({ otpSent: params.sent })),
    storeCsrfToken: (_, params: { csrfToken: string }) => {
      setCsrfToken(params.csrfToken);
    },
    storePermissions: (_, params: { permissionsList: readonly string[] }) => {
      setPermissionsList(params.permissionsList);
    },
    clearSession: () => {
      clearSession();
    },
    notify: emit((_, params: { message: string; timeout: number; intent?: 'danger' | 'success' }) => ({
      type: 'notify' as const,
      intent: params.intent ?? ('danger' as const),
      message: params.message,
      timeout: params.timeout,
    })),
    /** Asks the view to open the next page of a flow inside the app. */
    openPage: emit((_, params: { to: string }) => ({ type: 'navigate' as const, to: params.to })),
    /** Leaves the app for a server-given URL (overridden in tests). */
    navigateTo: (_, params: { url: string }) => {
      window.location.assign(params.url);
    },
    /** Reloads the page (overridden in tests). */
    reloadPage: () => {
      window.location.reload();
    },
  },
}).createMachine({
  id: 'auth',
  context: { user: undefined, errorMessage: undefined, username: undefined, validationKey: undefined, otpSent: false },
  invoke: { src: 'listenToApi' },
  on: {
    'session.unauthorized': {
      actions: {
        type: 'notify',
        params: ({ event }) => ({ message: event.message, timeout: TOAST_TIMEOUT.unauthorized }),
      },
    },
  },
  initial: 'checking',
  states: {
    checking: {
      tags: ['checkingSession'],
      invoke: {
        src: 'checkCredential',
        onDone: { target: 'signedIn', actions: signedInActions },
        // 401 (nobody signed in) and any other failure: show the login page.
        onError: { target: 'signedOut' },
      },
    },
    signedOut: {
      initial: 'fetchingCsrfToken',
      states: {
        fetchingCsrfToken: {
          invoke: {
            src: 'fetchCsrfToken',
            onDone: {
              target: 'ready',
              actions: { type: 'storeCsrfToken', params: ({ event }) => ({ csrfToken: event.output }) },
            },
            onError: { target: 'ready' },
          },
        },
        /** Resting steps: each page of the signed-out flows can start its flow from any of them. */
        ready: {
          initial: 'idle',
          on: {
            'login.submit': {
              guard: 'canSubmitLogin',
              target: 'submitting',
              actions: [
                'resetErrorMessage',
                { type: 'setUsername', params: ({ event }) => ({ username: normalizeUsername(event.username) }) },
              ],
            },
            'reset.request': { guard: 'canRequestReset', target: 'requestingReset', actions: 'resetErrorMessage' },
            'reset.open': {
              guard: 'isValidationKeyGiven',
              target: 'checkingResetKey',
              actions: [
                'resetErrorMessage',
                { type: 'setValidationKey', params: ({ event }) => ({ validationKey: event.validationKey.trim() }) },
              ],
            },
            'account.open': {
              guard: 'isValidationKeyGiven',
              target: '.accountForm',
              actions: [
                'resetErrorMessage',
                { type: 'setValidationKey', params: ({ event }) => ({ validationKey: event.validationKey.trim() }) },
              ],
            },
            'sso.start': {
              guard: 'canStartSso',
              target: '.redirectingToSso',
              actions: [
                'resetErrorMessage',
                {
                  type: 'navigateTo',
                  params: ({ event }) => ({ url: ssoStartUrl(emailDomainOf(event.email) ?? '') }),
                },
              ],
            },
            'sso.complete': [
              {
                guard: 'isSsoError',
                target: '.ssoFailed',
                actions: { type: 'setErrorMessage', params: ({ event }) => ({ message: event.error ?? '' }) },
              },
              { guard: 'isSsoSuccess', target: '#auth.ssoChecking', actions: 'resetErrorMessage' },
            ],
          },
          states: {
            /** The login form (errorMessage: why the last login failed). */
            idle: {},
            /** The login said 'Password expired.': the update-password step is open. */
            passwordExpired: {
              tags: ['passwordUpdate'],
              on: {
                'password.update': {
                  guard: 'canUpdatePasswordWithCurrent',
                  target: '#auth.signedOut.updatingExpiredPassword',
                },
              },
            },
            /** The neutral answer to a reset request. */
            resetRequested: {},
            resetKeyInvalid: {},
            resetKeyValid: {
              on: {
                'password.update': { guard: 'canUpdatePasswordWithKey', target: '#auth.signedOut.resettingPassword' },
              },
            },
            accountForm: {
              on: {
                'account.submit': { guard: 'canCreateAccount', target: '#auth.signedOut.creatingAccount' },
              },
            },
            /** The browser is leaving for the identity provider. */
            redirectingToSso: {},
            ssoFailed: {},
          },
        },
        submitting: {
          tags: ['busy'],
          invoke: {
            src: 'logIn',
            input: ({ event }) => {
              assertEvent(event, 'login.submit');
              return { username: normalizeUsername(event.username), password: event.password };
            },
            onDone: [
              {
                guard: { type: 'isMfaRequired', params: ({ event }) => ({ response: event.output }) },
                target: '#auth.mfa',
                actions: [
                  { type: 'setUser', params: ({ event }) => ({ user: event.output.user }) },
                  { type: 'storeCsrfToken', params: ({ event }) => ({ csrfToken: event.output.csrfToken }) },
                  { type: 'openPage', params: { to: MFA_PAGE } },
                ],
              },
              {
                // A server that signs in an expired password without MFA: refused all the same.
                guard: { type: 'isPasswordExpired', params: ({ event }) => ({ response: event.output }) },
                target: 'ready.passwordExpired',
                actions: [
                  { type: 'storeCsrfToken', params: ({ event }) => ({ csrfToken: event.output.csrfToken }) },
                  { type: 'setErrorMessage', params: { message: PASSWORD_EXPIRED_MESSAGE } },
                ],
              },
              {
                target: '#auth.signedIn',
                actions: [
                  { type: 'setUser', params: ({ event }) => ({ user: event.output.user }) },
                  { type: 'storeCsrfToken', params: ({ event }) => ({ csrfToken: event.output.csrfToken }) },
                  {
                    type: 'storePermissions',
                    params: ({ event }) => ({ permissionsList: event.output.user.permissionsList }),
                  },
                ],
              },
            ],
            onError: [
              {
                guard: { type: 'isPasswordExpiredError', params: ({ event }) => ({ error: event.error }) },
                target: 'ready.passwordExpired',
                actions: { type: 'setErrorMessage', params: { message: PASSWORD_EXPIRED_MESSAGE } },
              },
              {
                target: 'ready.idle',
                actions: {
                  type: 'setErrorMessage',
                  params: ({ event }) => ({ message: loginErrorMessage(event.error) }),
                },
              },
            ],
          },
        },
        updatingExpiredPassword: {
          tags: ['passwordUpdate', 'busy'],
          invoke: {
            src: 'updatePassword',
            input: ({ context, event }) => {
              assertEvent(event, 'password.update');
              return {
                username: context.username ?? '',
                currentPassword: event.currentPassword ?? '',
                newPassword: event.newPassword,
              };
            },
            // Every session of the user has ended (this browser's too): a fresh token, then sign in again.
            onDone: {
              target: 'fetchingCsrfToken',
              actions: [
                'resetErrorMessage',
                {
                  type: 'notify',
                  params: { message: PASSWORD_UPDATED_MESSAGE, timeout: TOAST_TIMEOUT.long, intent: 'success' },
                },
                { type: 'openPage', params: { to: LOGIN_PAGE } },
              ],
            },
            onError: {
              target: 'ready.passwordExpired',
              actions: {
                type: 'setErrorMessage',
                params: ({ event }) => ({ message: serverErrorMessage(event.error) }),
              },
            },
          },
        },
        requestingReset: {
          tags: ['busy'],
          invoke: {
            src: 'requestReset',
            input: ({ event }) => {
              assertEvent(event, 'reset.request');
              return { email: event.email.trim() };
            },
            onDone: { target: 'ready.resetRequested' },
            onError: {
              target: 'ready.idle',
              actions: {
                type: 'notify',
                params: ({ event }) => ({ message: serverErrorMessage(event.error), timeout: TOAST_TIMEOUT.long }),
              },
            },
          },
        },
        checkingResetKey: {
          tags: ['busy'],
          invoke: {
            src: 'checkResetKey',
            input: ({ context }) => ({ validationKey: context.validationKey ?? '' }),
            onDone: [
              {
                guard: { type: 'isTrue', params: ({ event }) => ({ value: event.output }) },
                target: 'ready.resetKeyValid',
              },
              { target: 'ready.resetKeyInvalid', actions: 'resetValidationKey' },
            ],
            onError: { target: 'ready.resetKeyInvalid', actions: 'resetValidationKey' },
          },
        },
        resettingPassword: {
          tags: ['busy'],
          invoke: {
            src: 'updatePassword',
            input: ({ context, event }) => {
              assertEvent(event, 'password.update');
              return { validationKey: context.validationKey ?? '', newPassword: event.newPassword };
            },
            onDone: {
              target: 'fetchingCsrfToken',
              actions: [
                'resetValidationKey',
                {
                  type: 'notify',
                  params: { message: PASSWORD_RESET_MESSAGE, timeout: TOAST_TIMEOUT.long, intent: 'success' },
                },
                { type: 'openPage', params: { to: RESET_SUCCESS_PAGE } },
              ],
            },
            onError: {
              target: 'ready.resetKeyValid',
              actions: {
                type: 'setErrorMessage',
                params: ({ event }) => ({ message: serverErrorMessage(event.error) }),
              },
            },
          },
        },
        creatingAccount: {
          tags: ['busy'],
          invoke: {
            src: 'createAccount',
            input: ({ context, event }) => {
              assertEvent(event, 'account.submit');
              return {
                email: event.email.trim(),
                validationKey: context.validationKey ?? '',
                password: event.password,
              };
            },
            onDone: [
              {
                guard: { type: 'isTrue', params: ({ event }) => ({ value: event.output }) },
                target: 'ready.idle',
                actions: [
                  'resetValidationKey',
                  {
                    type: 'notify',
                    params: { message: ACCOUNT_CREATED_MESSAGE, timeout: TOAST_TIMEOUT.long, intent: 'success' },
                  },
                  { type: 'openPage', params: { to: LOGIN_PAGE } },
                ],
              },
              {
                target: 'ready.accountForm',
                actions: { type: 'setErrorMessage', params: { message: ACCOUNT_EMAIL_MISMATCH_MESSAGE } },
              },
            ],
            onError: {
              target: 'ready.accountForm',
              actions: {
                type: 'setErrorMessage',
                params: ({ event }) => ({ message: serverErrorMessage(event.error) }),
              },
            },
          },
        },
      },
    },
    /** Back from the identity provider with `status=success`: the session is checked again. */
    ssoChecking: {
      tags: ['checkingSession'],
      invoke: {
        src: 'checkCredential',
        onDone: { target: 'signedIn', actions: signedInActions },
        onError: {
          target: '#auth.signedOut.ready.ssoFailed',
          actions: { type: 'setErrorMessage', params: { message: SSO_FAILED_MESSAGE } },
        },
      },
    },
    /** Signed in with a pending session: only the one-time code (or logging out) works. */
    mfa: {
      initial: 'sendingCode',
      on: { logout: { target: '.cancelling' } },
      states: {
        sendingCode: {
          tags: ['busy'],
          entry: { type: 'setOtpSent', params: { sent: false } },
          invoke: {
            src: 'sendCode',
            onDone: [
              {
                guard: { type: 'isTrue', params: ({ event }) => ({ value: event.output }) },
                target: 'waitingForCode',
                actions: { type: 'setOtpSent', params: { sent: true } },
              },
              {
                target: 'waitingForCode',
                actions: { type: 'setErrorMessage', params: { message: OTP_SEND_FAILED_MESSAGE } },
              },
            ],
            onError: {
              target: 'waitingForCode',
              actions: {
                type: 'setErrorMessage',
                params: ({ event }) => ({ message: refusalMessage(event.error, OTP_SEND_FAILED_MESSAGE) }),
              },
            },
          },
        },
        waitingForCode: {
          on: {
            'otp.submit': { guard: 'canSubmitOtp', target: 'verifyingCode', actions: 'resetErrorMessage' },
            'otp.resend': { target: 'sendingCode', actions: 'resetErrorMessage' },
          },
        },
        verifyingCode: {
          tags: ['busy'],
          invoke: {
            src: 'verifyCode',
            input: ({ event }) => {
              assertEvent(event, 'otp.submit');
              return { code: normalizeOtpCode(event.code) };
            },
            onDone: [
              { guard: { type: 'isTrue', params: ({ event }) => ({ value: event.output }) }, target: 'loadingUser' },
              {
                target: 'waitingForCode',
                actions: { type: 'setErrorMessage', params: { message: OTP_INVALID_MESSAGE } },
              },
            ],
            onError: {
              target: 'waitingForCode',
              actions: {
                type: 'setErrorMessage',
                params: ({ event }) => ({ message: refusalMessage(event.error, OTP_INVALID_MESSAGE) }),
              },
            },
          },
        },
        /** The code was right: the full user and the rotated CSRF token. */
        loadingUser: {
          tags: ['busy'],
          on: { logout: {} },
          invoke: {
            src: 'checkCredential',
            onDone: [
              {
                guard: { type: 'isUserPasswordExpired', params: ({ event }) => ({ user: event.output.user }) },
                target: '#auth.passwordChangeRequired',
                actions: [
                  { type: 'setUser', params: ({ event }) => ({ user: event.output.user }) },
                  { type: 'storeCsrfToken', params: ({ event }) => ({ csrfToken: event.output.csrfToken }) },
                  { type: 'setErrorMessage', params: { message: PASSWORD_EXPIRED_MESSAGE } },
                  { type: 'openPage', params: { to: UPDATE_PASSWORD_PAGE } },
                ],
              },
              { target: '#auth.signedIn', actions: signedInActions },
            ],
            onError: {
              target: 'waitingForCode',
              actions: {
                type: 'setErrorMessage',
                params: ({ event }) => ({ message: serverErrorMessage(event.error) }),
              },
            },
          },
        },
        /** Giving up on the code: the pending session is ended, back to the login form. */
        cancelling: {
          tags: ['busy'],
          on: { logout: {} },
          invoke: {
            src: 'logOut',
            onDone: {
              target: '#auth.signedOut',
              actions: [
                'clearSession',
                'resetUser',
                'resetErrorMessage',
                { type: 'openPage', params: { to: LOGIN_PAGE } },
              ],
            },
            onError: {
              target: '#auth.signedOut',
              actions: [
                'clearSession',
                'resetUser',
                'resetErrorMessage',
                { type: 'openPage', params: { to: LOGIN_PAGE } },
              ],
            },
          },
        },
      },
    },
    /** Signed in after MFA with an expired password: the password must change before anything else. */
    passwordChangeRequired: {
      initial: 'editing',
      tags: ['passwordUpdate'],
      states: {
        editing: {
          on: {
            'password.update': { guard: 'canUpdatePasswordWithCurrent', target: 'updating' },
            logout: { target: '#auth.mfa.cancelling' },
          },
        },
        updating: {
          tags: ['busy'],
          invoke: {
            src: 'updatePassword',
            input: ({ event }) => {
              assertEvent(event, 'password.update');
              return { currentPassword: event.currentPassword ?? '', newPassword: event.newPassword };
            },
            onDone: {
              target: '#auth.signedOut',
              actions: [
                'clearSession',
                'resetUser',
                'resetErrorMessage',
                {
                  type: 'notify',
                  params: { message: PASSWORD_UPDATED_MESSAGE, timeout: TOAST_TIMEOUT.long, intent: 'success' },
                },
                { type: 'openPage', params: { to: LOGIN_PAGE } },
              ],
            },
            onError: {
              target: 'editing',
              actions: {
                type: 'setErrorMessage',
                params: ({ event }) => ({ message: serverErrorMessage(event.error) }),
              },
            },
          },
        },
      },
    },
    signedIn: {
      tags: ['authenticated'],
      entry: 'resetErrorMessage',
      on: {
        logout: { target: 'loggingOut' },
        'session.forbidden': { target: 'loggingOut' },
      },
    },
    loggingOut: {
      tags: ['authenticated'],
      invoke: {
        src: 'logOut',
        onDone: [
          {
            guard: { type: 'isRedirectUrlGiven', params: ({ event }) => ({ response: event.output }) },
            target: 'signedOut',
            actions: [
              'clearSession',
              'resetUser',
              { type: 'navigateTo', params: ({ event }) => ({ url: event.output.redirectUrl ?? '/' }) },
            ],
          },
          { target: 'signedOut', actions: ['clearSession', 'resetUser', 'reloadPage'] },
        ],
        // The session is over for this page either way.
        onError: { target: 'signedOut', actions: ['clearSession', 'resetUser', 'reloadPage'] },
      },
    },
  },
});
