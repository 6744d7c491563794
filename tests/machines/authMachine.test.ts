import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor, fromPromise, type SnapshotFrom, setup, waitFor } from 'xstate';
import type {
  CredentialResponse,
  LoginRequest,
  LoginResponse,
  LogoutResponse,
  UpdatePasswordRequest,
  UserInfo,
} from '../../src/api/auth';
import { ApiError } from '../../src/api/errors';
import { clearSession, emitApiEvent, getCsrfToken, getPermissionsList } from '../../src/api/session';
import type { Notice } from '../../src/domain/messages';
import { authMachine, sessionStatusOf } from '../../src/machines/authMachine';
import { type Deferred, deferred } from '../support/deferred';
import { describeModelCoverage, stateKey } from './modelCoverage';

/*
 * Model-based test of the auth machine. The model below is written from the spec (§4, §8) and the
 * sign-in flows of the brief, not from the machine: its states are what a user can observe, its
 * events are what the user or the server does. Every generated path drives a real auth actor whose
 * server calls are deferred promises (provided with `authMachine.provide`), and checks the actor
 * after each step: its state, the exact message, the toast, the next page and the calls sent.
 */

function userInfo(overrides: Partial<UserInfo> = {}): UserInfo {
  return {
    id: 7,
    username: 'alice',
    client_id: 1,
    clients: [1],
    roles: ['admin'],
    permissions: [{ name: 'shopper-connect', subPermissions: ['mall-home'] }],
    permissionsList: ['/clients::Read', '/outlets::Read'],
    permissionsComponents: [],
    password_expired: false,
    flags: { tenantOnly: false, hideTopBar: false, receiptsHidden: false },
    ...overrides,
  };
}

function loginResponse(overrides: Partial<LoginResponse> = {}, user: Partial<UserInfo> = {}): LoginResponse {
  return {
    user: userInfo(user),
    session: { expiresAt: '2030-01-01T00:00:00.000Z', mfaPending: false },
    require_mfa: false,
    csrfToken: 'csrf-after-login',
    ...overrides,
  };
}

/** The pending server calls of one run (the latest of each kind); each test step answers one of them. */
interface FakeServer {
  credential?: Deferred<CredentialResponse>;
  csrfToken?: Deferred<string>;
  login?: Deferred<LoginResponse>;
  logout?: Deferred<LogoutResponse>;
  sendCode?: Deferred<boolean>;
  verifyCode?: Deferred<boolean>;
  updatePassword?: Deferred<void>;
  requestReset?: Deferred<void>;
  checkResetKey?: Deferred<boolean>;
  createAccount?: Deferred<boolean>;
  loginRequests: LoginRequest[];
  logoutCalls: number;
  sendCodeCalls: number;
  codes: string[];
  passwordRequests: UpdatePasswordRequest[];
  resetEmails: string[];
  resetKeys: string[];
  accountRequests: { email: string; validationKey: string; password: string }[];
}

function newServer(): FakeServer {
  return {
    loginRequests: [],
    logoutCalls: 0,
    sendCodeCalls: 0,
    codes: [],
    passwordRequests: [],
    resetEmails: [],
    resetKeys: [],
    accountRequests: [],
  };
}

function take<T>(pending: Deferred<T> | undefined, call: string): Deferred<T> {
  if (!pending) throw new Error(`the machine did not call ${call}`);
  return pending;
}

const USERNAME_TYPED = '  Alice ';
const PASSWORD_TYPED = 'Secret!1';
const SERVER_401_MESSAGE = 'Your account is locked.';
const THROTTLED_MESSAGE = 'Too many sign-in attempts. Please try again in 15 minutes.';
const CODE_TYPED = ' 123 456 ';
const NEW_PASSWORD = 'new-password-2';
const WRONG_CURRENT_MESSAGE = 'The current password is incorrect.';
const RESET_EMAIL_TYPED = ' Alice@Mall.Example ';
const RESET_KEY = 'reset-key-1';
const INVITATION_KEY = 'invitation-key-1';
const ACCOUNT_EMAIL = 'new.user@mall.example';
const SSO_EMAIL = 'bob@Mall.Example';
const SSO_ERROR = 'No single sign-on is set up for mall.example.';
const KEY_USED_MESSAGE = 'This link is invalid or has expired. Please ask for a new one.';

let server: FakeServer;
let notices: Notice[];
let navigations: string[];
const navigateTo = vi.fn<(url: string) => void>();
const reloadPage = vi.fn<() => void>();

const testAuthMachine = authMachine.provide({
  actors: {
    checkCredential: fromPromise<CredentialResponse>(() => {
      server.credential = deferred();
      return server.credential.promise;
    }),
    fetchCsrfToken: fromPromise<string>(() => {
      server.csrfToken = deferred();
      return server.csrfToken.promise;
    }),
    logIn: fromPromise<LoginResponse, LoginRequest>(({ input }) => {
      server.loginRequests.push(input);
      server.login = deferred();
      return server.login.promise;
    }),
    logOut: fromPromise<LogoutResponse>(() => {
      server.logoutCalls += 1;
      server.logout = deferred();
      return server.logout.promise;
    }),
    sendCode: fromPromise<boolean>(() => {
      server.sendCodeCalls += 1;
      server.sendCode = deferred();
      return server.sendCode.promise;
    }),
    verifyCode: fromPromise<boolean, { code: string }>(({ input }) => {
      server.codes.push(input.code);
      server.verifyCode = deferred();
      return server.verifyCode.promise;
    }),
    updatePassword: fromPromise<void, UpdatePasswordRequest>(({ input }) => {
      server.passwordRequests.push(input);
      server.updatePassword = deferred();
      return server.updatePassword.promise;
    }),
    requestReset: fromPromise<void, { email: string }>(({ input }) => {
      server.resetEmails.push(input.email);
      server.requestReset = deferred();
      return server.requestReset.promise;
    }),
    checkResetKey: fromPromise<boolean, { validationKey: string }>(({ input }) => {
      server.resetKeys.push(input.validationKey);
      server.checkResetKey = deferred();
      return server.checkResetKey.promise;
    }),
    createAccount: fromPromise<boolean, { email: string; validationKey: string; password: string }>(({ input }) => {
      server.accountRequests.push(input);
      server.createAccount = deferred();
      return server.createAccount.promise;
    }),
  },
  actions: {
    navigateTo: (_, params: { url: string }) => navigateTo(params.url),
    reloadPage: () => reloadPage(),
  },
});

let actor: Actor<typeof testAuthMachine>;

function startActor(): void {
  actor = createActor(testAuthMachine);
  actor.on('notify', (notice) => notices.push(notice));
  actor.on('navigate', (navigation) => navigations.push(navigation.to));
  actor.start();
}

type AuthSnapshot = SnapshotFrom<typeof testAuthMachine>;

async function settle(predicate: (snapshot: AuthSnapshot) => boolean): Promise<void> {
  await waitFor(actor, predicate, { timeout: 1_000 });
}

/** Answers a pending call and waits for the machine to leave the state it was waiting in. */
async function answer(respond: () => void): Promise<void> {
  const before = stateKey(actor.getSnapshot());
  respond();
  await settle((snapshot) => stateKey(snapshot) !== before);
}

/** What the user or the server does. */
type ModelEvent = {
  type:
    | 'server.credentialValid'
    | 'server.credentialPasswordExpired'
    | 'server.credentialRejected'
    | 'server.csrfTokenSent'
    | 'server.csrfTokenFailed'
    | 'login.submit'
    | 'server.loginAccepted'
    | 'server.mfaRequired'
    | 'server.passwordExpired'
    | 'server.passwordExpiredRejected'
    | 'server.loginRejectedWithMessage'
    | 'server.loginRejected'
    | 'server.loginThrottled'
    | 'server.loginFailed'
    | 'server.codeSent'
    | 'server.codeNotSent'
    | 'otp.submit'
    | 'otp.resend'
    | 'server.codeAccepted'
    | 'server.codeRejected'
    | 'password.updateExpired'
    | 'password.updateSignedIn'
    | 'password.reset'
    | 'server.passwordUpdated'
    | 'server.passwordRefused'
    | 'reset.request'
    | 'server.resetMailSent'
    | 'server.resetRequestFailed'
    | 'reset.open'
    | 'server.resetKeyValid'
    | 'server.resetKeyInvalid'
    | 'account.open'
    | 'account.submit'
    | 'server.accountCreated'
    | 'server.accountEmailMismatch'
    | 'server.accountRefused'
    | 'sso.start'
    | 'sso.returnWithError'
    | 'sso.returnWithSuccess'
    | 'server.unauthorized'
    | 'server.forbidden'
    | 'logout'
    | 'server.logoutRedirect'
    | 'server.logoutDone'
    | 'server.logoutFailed';
};

/**
 * What a user can observe of sign-in, per the spec. (A plain machine: `createTestMachine` of
 * @xstate/test 1.0.0-beta.5 has config types that no longer fit xstate 5.33; it only calls
 * `createMachine` anyway.)
 */
const authModel = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'authModel',
    initial: 'checking',
    states: {
      checking: {
        on: { 'server.credentialValid': 'signedIn', 'server.credentialRejected': 'fetchingCsrfToken' },
      },
      fetchingCsrfToken: {
        on: { 'server.csrfTokenSent': 'loginForm', 'server.csrfTokenFailed': 'loginForm' },
      },
      loginForm: {
        on: {
          'login.submit': 'submitting',
          'reset.request': 'requestingReset',
          'reset.open': 'checkingResetKey',
          'account.open': 'accountForm',
          'sso.start': 'redirectingToSso',
          'sso.returnWithError': 'ssoFailed',
          'sso.returnWithSuccess': 'ssoChecking',
        },
      },
      submitting: {
        on: {
          'server.loginAccepted': 'signedIn',
          'server.mfaRequired': 'sendingCode',
          'server.passwordExpired': 'passwordExpired',
          'server.passwordExpiredRejected': 'passwordExpired',
          'server.loginRejectedWithMessage': 'loginRejectedWithMessage',
          'server.loginRejected': 'loginRejected',
          'server.loginThrottled': 'loginThrottled',
          'server.loginFailed': 'loginFailed',
        },
      },
      loginRejectedWithMessage: { on: { 'login.submit': 'submitting' } },
      loginRejected: { on: { 'login.submit': 'submitting', 'reset.request': 'requestingReset' } },
      loginThrottled: { on: { 'login.submit': 'submitting' } },
      loginFailed: { on: { 'login.submit': 'submitting' } },

      // The expired password, signed out.
      passwordExpired: {
        on: { 'login.submit': 'submitting', 'password.updateExpired': 'updatingExpiredPassword' },
      },
      updatingExpiredPassword: {
        on: { 'server.passwordUpdated': 'passwordUpdated', 'server.passwordRefused': 'expiredUpdateRefused' },
      },
      expiredUpdateRefused: { on: { 'password.updateExpired': 'updatingExpiredPassword' } },
      passwordUpdated: { on: { 'server.csrfTokenSent': 'loginForm' } },

      // The one-time code.
      sendingCode: { on: { 'server.codeSent': 'waitingForCode', 'server.codeNotSent': 'codeNotSent' } },
      waitingForCode: { on: { 'otp.submit': 'verifyingCode', 'otp.resend': 'sendingCode', logout: 'cancellingMfa' } },
      codeNotSent: { on: { 'otp.resend': 'sendingCode' } },
      verifyingCode: { on: { 'server.codeAccepted': 'loadingUser', 'server.codeRejected': 'codeRejected' } },
      codeRejected: { on: { 'otp.submit': 'verifyingCode', 'otp.resend': 'sendingCode' } },
      loadingUser: {
        on: { 'server.credentialValid': 'signedIn', 'server.credentialPasswordExpired': 'passwordChangeRequired' },
      },
      cancellingMfa: { on: { 'server.logoutDone': 'mfaCancelled' } },
      mfaCancelled: { on: { 'server.csrfTokenSent': 'loginForm' } },

      // The expired password after the code: signed in, the password must change.
      passwordChangeRequired: { on: { 'password.updateSignedIn': 'updatingChangedPassword', logout: 'cancellingMfa' } },
      updatingChangedPassword: {
        on: { 'server.passwordUpdated': 'passwordUpdated', 'server.passwordRefused': 'changeRefused' },
      },
      changeRefused: { on: { 'password.updateSignedIn': 'updatingChangedPassword' } },

      // Password reset.
      requestingReset: {
        on: { 'server.resetMailSent': 'resetRequested', 'server.resetRequestFailed': 'resetRequestFailed' },
      },
      resetRequested: { on: { 'reset.request': 'requestingReset', 'login.submit': 'submitting' } },
      resetRequestFailed: { on: { 'reset.request': 'requestingReset' } },
      checkingResetKey: { on: { 'server.resetKeyValid': 'resetForm', 'server.resetKeyInvalid': 'resetKeyInvalid' } },
      resetKeyInvalid: { on: { 'reset.request': 'requestingReset' } },
      resetForm: { on: { 'password.reset': 'resettingPassword' } },
      resettingPassword: {
        on: { 'server.passwordUpdated': 'passwordReset', 'server.passwordRefused': 'resetRefused' },
      },
      resetRefused: { on: { 'password.reset': 'resettingPassword' } },
      passwordReset: { on: { 'server.csrfTokenSent': 'loginForm' } },

      // Account creation from an invitation.
      accountForm: { on: { 'account.submit': 'creatingAccount' } },
      creatingAccount: {
        on: {
          'server.accountCreated': 'accountCreated',
          'server.accountEmailMismatch': 'accountEmailMismatch',
          'server.accountRefused': 'accountRefused',
        },
      },
      accountEmailMismatch: { on: { 'account.submit': 'creatingAccount' } },
      accountRefused: { on: { 'account.submit': 'creatingAccount' } },
      accountCreated: { on: { 'login.submit': 'submitting' } },

      // Single sign-on.
      redirectingToSso: {},
      ssoFailed: { on: { 'sso.start': 'redirectingToSso', 'login.submit': 'submitting' } },
      ssoChecking: { on: { 'server.credentialValid': 'signedIn', 'server.credentialRejected': 'ssoCheckFailed' } },
      ssoCheckFailed: { on: { 'sso.start': 'redirectingToSso' } },

      signedIn: {
        on: { logout: 'loggingOut', 'server.forbidden': 'loggingOut', 'server.unauthorized': 'sessionNotice' },
      },
      sessionNotice: { on: { logout: 'loggingOut' } },
      loggingOut: {
        on: {
          'server.logoutRedirect': 'leftForRedirect',
          'server.logoutDone': 'reloaded',
          'server.logoutFailed': 'reloaded',
        },
      },
      leftForRedirect: {},
      reloaded: {},
    },
  }),
);

function snapshot(): AuthSnapshot {
  return actor.getSnapshot();
}

function expectNotice(message: string, timeout: number, intent: 'danger' | 'success' = 'danger'): void {
  expect(notices.at(-1)).toEqual({ type: 'notify', intent, message, timeout });
}

function expectNoNotice(message: string): void {
  expect(notices.filter((notice) => notice.type === 'notify' && notice.message === message)).toEqual([]);
}

function expectLoginFailure(message: string): void {
  expect(snapshot().matches({ signedOut: { ready: 'idle' } })).toBe(true);
  expect(snapshot().context.errorMessage).toBe(message);
  // The form says it; no toast says it again.
  expectNoNotice(message);
  // A failed login grants nothing.
  expect(getPermissionsList()).toEqual([]);
  expect(sessionStatusOf(snapshot())).toBe('signedOut');
  // The form can be sent again.
  expect(snapshot().can({ type: 'login.submit', username: 'alice', password: 'x' })).toBe(true);
}

function expectLeftSession(): void {
  expect(snapshot().matches('signedOut')).toBe(true);
  expect(snapshot().context.user).toBeUndefined();
  expect(getCsrfToken()).toBeUndefined();
  expect(getPermissionsList()).toEqual([]);
}

/** A fresh anonymous session is being fetched after a flow ended every session of the user. */
function expectFreshSignedOutSession(): void {
  expect(snapshot().matches({ signedOut: 'fetchingCsrfToken' })).toBe(true);
  expect(snapshot().context.user).toBeUndefined();
  expect(snapshot().context.errorMessage).toBeUndefined();
  expect(getPermissionsList()).toEqual([]);
  expect(sessionStatusOf(snapshot())).toBe('signedOut');
}

function passwordUpdate(
  currentPassword: string | undefined,
  newPassword = NEW_PASSWORD,
  confirmPassword = newPassword,
) {
  return currentPassword === undefined
    ? ({ type: 'password.update', newPassword, confirmPassword } as const)
    : ({ type: 'password.update', currentPassword, newPassword, confirmPassword } as const);
}

/** The new-password rule (10–128 characters, a letter and a digit, confirmed) decides whether the form can be sent. */
function expectNewPasswordRule(currentPassword: string | undefined): void {
  const state = snapshot();
  expect(state.can(passwordUpdate(currentPassword))).toBe(true);
  expect(state.can(passwordUpdate(currentPassword, 'short-1'))).toBe(false);
  expect(state.can(passwordUpdate(currentPassword, 'no-digits-here'))).toBe(false);
  expect(state.can(passwordUpdate(currentPassword, '1234567890'))).toBe(false);
  expect(state.can(passwordUpdate(currentPassword, `a1${'x'.repeat(127)}`))).toBe(false);
  expect(state.can(passwordUpdate(currentPassword, NEW_PASSWORD, 'new-password-3'))).toBe(false);
}

function expectPasswordChangeForm(): void {
  expect(snapshot().hasTag('passwordUpdate')).toBe(true);
  expectNewPasswordRule(PASSWORD_TYPED);
  // The current password is needed.
  expect(snapshot().can(passwordUpdate(undefined))).toBe(false);
  expect(snapshot().can(passwordUpdate(''))).toBe(false);
}

function expectAccountForm(message: string | undefined): void {
  const state = snapshot();
  expect(state.matches({ signedOut: { ready: 'accountForm' } })).toBe(true);
  expect(state.context.validationKey).toBe(INVITATION_KEY);
  expect(state.context.errorMessage).toBe(message);
  const submit = (email: string, password = NEW_PASSWORD, confirmPassword = password) =>
    ({ type: 'account.submit', email, password, confirmPassword }) as const;
  expect(state.can(submit(ACCOUNT_EMAIL))).toBe(true);
  expect(state.can(submit('not-an-email'))).toBe(false);
  expect(state.can(submit(ACCOUNT_EMAIL, 'short-1'))).toBe(false);
  expect(state.can(submit(ACCOUNT_EMAIL, NEW_PASSWORD, 'other-password-1'))).toBe(false);
}

const testParams: TestParam<SnapshotFrom<typeof authModel.logic>, ModelEvent> = {
  states: {
    checking: () => {
      expect(snapshot().matches('checking')).toBe(true);
      expect(sessionStatusOf(snapshot())).toBe('checking');
      expect(server.credential).toBeDefined();
    },
    fetchingCsrfToken: () => {
      expect(snapshot().matches({ signedOut: 'fetchingCsrfToken' })).toBe(true);
      // Without a CSRF token the form cannot be sent yet.
      expect(snapshot().can({ type: 'login.submit', username: 'alice', password: 'x' })).toBe(false);
      expect(snapshot().can({ type: 'reset.request', email: 'alice@mall.example' })).toBe(false);
    },
    loginForm: () => {
      const state = snapshot();
      expect(state.matches({ signedOut: { ready: 'idle' } })).toBe(true);
      expect(state.context.errorMessage).toBeUndefined();
      expect(state.can({ type: 'login.submit', username: USERNAME_TYPED, password: PASSWORD_TYPED })).toBe(true);
      expect(state.can({ type: 'login.submit', username: '', password: PASSWORD_TYPED })).toBe(false);
      expect(state.can({ type: 'login.submit', username: '   ', password: PASSWORD_TYPED })).toBe(false);
      expect(state.can({ type: 'login.submit', username: USERNAME_TYPED, password: '' })).toBe(false);
      expect(state.can({ type: 'reset.request', email: 'not an e-mail' })).toBe(false);
      expect(state.can({ type: 'reset.open', validationKey: ' ' })).toBe(false);
      expect(state.can({ type: 'sso.start', email: 'bob' })).toBe(false);
      expect(state.can({ type: 'sso.complete' })).toBe(false);
    },
    submitting: () => {
      expect(snapshot().matches({ signedOut: 'submitting' })).toBe(true);
      expect(snapshot().hasTag('busy')).toBe(true);
      expect(snapshot().context.errorMessage).toBeUndefined();
      // §5: the username is sent lowercased and trimmed; the password as typed.
      expect(server.loginRequests.at(-1)).toEqual({ username: 'alice', password: PASSWORD_TYPED });
    },
    loginRejectedWithMessage: () => expectLoginFailure(SERVER_401_MESSAGE),
    loginRejected: () => expectLoginFailure('username or password is incorrect'),
    loginThrottled: () => expectLoginFailure(THROTTLED_MESSAGE),
    loginFailed: () => expectLoginFailure('Error occurs. Please try again later.'),

    passwordExpired: () => {
      const state = snapshot();
      expect(state.matches({ signedOut: { ready: 'passwordExpired' } })).toBe(true);
      expect(state.context.errorMessage).toBe('Password expired.');
      expect(state.context.username).toBe('alice');
      expectNoNotice('Password expired.');
      expect(getPermissionsList()).toEqual([]);
      expect(sessionStatusOf(state)).toBe('signedOut');
      expect(state.can({ type: 'login.submit', username: 'alice', password: 'x' })).toBe(true);
      expectPasswordChangeForm();
    },
    updatingExpiredPassword: () => {
      expect(snapshot().matches({ signedOut: 'updatingExpiredPassword' })).toBe(true);
      expect(snapshot().hasTag('busy')).toBe(true);
      expect(server.passwordRequests.at(-1)).toEqual({
        username: 'alice',
        currentPassword: PASSWORD_TYPED,
        newPassword: NEW_PASSWORD,
      });
    },
    expiredUpdateRefused: () => {
      expect(snapshot().matches({ signedOut: { ready: 'passwordExpired' } })).toBe(true);
      expect(snapshot().context.errorMessage).toBe(WRONG_CURRENT_MESSAGE);
      expectPasswordChangeForm();
    },
    passwordUpdated: () => {
      expectFreshSignedOutSession();
      expectNotice('Your password has been updated. Please sign in with your new password.', 5_000, 'success');
      expect(navigations.at(-1)).toBe('/login');
    },

    sendingCode: () => {
      const state = snapshot();
      expect(state.matches({ mfa: 'sendingCode' })).toBe(true);
      expect(state.context.otpSent).toBe(false);
      expect(state.context.errorMessage).toBeUndefined();
      expect(server.sendCodeCalls).toBeGreaterThan(0);
      // The pending session is not a sign-in: no routes, no permissions, but its CSRF token.
      expect(sessionStatusOf(state)).toBe('signedOut');
      expect(getCsrfToken()).toBe('csrf-after-login');
      expect(getPermissionsList()).toEqual([]);
      expect(navigations.at(-1)).toBe('/mfa-validation');
    },
    waitingForCode: () => {
      const state = snapshot();
      expect(state.matches({ mfa: 'waitingForCode' })).toBe(true);
      expect(state.context.otpSent).toBe(true);
      expect(state.context.errorMessage).toBeUndefined();
      expect(state.can({ type: 'otp.submit', code: CODE_TYPED })).toBe(true);
      expect(state.can({ type: 'otp.submit', code: '12345' })).toBe(false);
      expect(state.can({ type: 'otp.submit', code: '12345a' })).toBe(false);
      expect(state.can({ type: 'otp.resend' })).toBe(true);
      expect(state.can({ type: 'logout' })).toBe(true);
    },
    codeNotSent: () => {
      expect(snapshot().matches({ mfa: 'waitingForCode' })).toBe(true);
      expect(snapshot().context.otpSent).toBe(false);
      expect(snapshot().context.errorMessage).toBe('The code could not be sent. Please try again.');
      expect(snapshot().can({ type: 'otp.resend' })).toBe(true);
    },
    verifyingCode: () => {
      expect(snapshot().matches({ mfa: 'verifyingCode' })).toBe(true);
      expect(server.codes.at(-1)).toBe('123456');
      expect(snapshot().can({ type: 'otp.submit', code: '123456' })).toBe(false);
    },
    codeRejected: () => {
      const state = snapshot();
      expect(state.matches({ mfa: 'waitingForCode' })).toBe(true);
      expect(state.context.errorMessage).toBe('Invalid or expired code.');
      expect(state.can({ type: 'otp.resend' })).toBe(true);
      expect(sessionStatusOf(state)).toBe('signedOut');
    },
    loadingUser: () => {
      expect(snapshot().matches({ mfa: 'loadingUser' })).toBe(true);
      expect(snapshot().hasTag('authenticated')).toBe(false);
      expect(snapshot().can({ type: 'logout' })).toBe(false);
    },
    cancellingMfa: () => {
      expect(snapshot().matches({ mfa: 'cancelling' })).toBe(true);
      expect(server.logoutCalls).toBe(1);
      expect(sessionStatusOf(snapshot())).toBe('signedOut');
    },
    mfaCancelled: () => {
      expectFreshSignedOutSession();
      expect(getCsrfToken()).toBeUndefined();
      expect(navigations.at(-1)).toBe('/login');
      expect(reloadPage).not.toHaveBeenCalled();
    },
    passwordChangeRequired: () => {
      const state = snapshot();
      expect(state.matches({ passwordChangeRequired: 'editing' })).toBe(true);
      expect(state.context.errorMessage).toBe('Password expired.');
      expect(navigations.at(-1)).toBe('/update-password');
      // Not signed in for the app until the password has changed.
      expect(sessionStatusOf(state)).toBe('signedOut');
      expect(getPermissionsList()).toEqual([]);
      expect(getCsrfToken()).toBe('csrf-session');
      expectPasswordChangeForm();
    },
    updatingChangedPassword: () => {
      expect(snapshot().matches({ passwordChangeRequired: 'updating' })).toBe(true);
      expect(server.passwordRequests.at(-1)).toEqual({ currentPassword: PASSWORD_TYPED, newPassword: NEW_PASSWORD });
    },
    changeRefused: () => {
      expect(snapshot().matches({ passwordChangeRequired: 'editing' })).toBe(true);
      expect(snapshot().context.errorMessage).toBe(WRONG_CURRENT_MESSAGE);
    },

    requestingReset: () => {
      expect(snapshot().matches({ signedOut: 'requestingReset' })).toBe(true);
      expect(server.resetEmails.at(-1)).toBe('Alice@Mall.Example');
    },
    resetRequested: () => {
      expect(snapshot().matches({ signedOut: { ready: 'resetRequested' } })).toBe(true);
      expect(snapshot().context.errorMessage).toBeUndefined();
    },
    resetRequestFailed: () => {
      expect(snapshot().matches({ signedOut: { ready: 'idle' } })).toBe(true);
      expectNotice('Error occurs. Please try again later.', 5_000);
    },
    checkingResetKey: () => {
      expect(snapshot().matches({ signedOut: 'checkingResetKey' })).toBe(true);
      expect(server.resetKeys.at(-1)).toBe(RESET_KEY);
    },
    resetKeyInvalid: () => {
      expect(snapshot().matches({ signedOut: { ready: 'resetKeyInvalid' } })).toBe(true);
      expect(snapshot().context.validationKey).toBeUndefined();
      expect(snapshot().can(passwordUpdate(undefined))).toBe(false);
    },
    resetForm: () => {
      expect(snapshot().matches({ signedOut: { ready: 'resetKeyValid' } })).toBe(true);
      expect(snapshot().context.errorMessage).toBeUndefined();
      expectNewPasswordRule(undefined);
    },
    resettingPassword: () => {
      expect(snapshot().matches({ signedOut: 'resettingPassword' })).toBe(true);
      expect(server.passwordRequests.at(-1)).toEqual({ validationKey: RESET_KEY, newPassword: NEW_PASSWORD });
    },
    resetRefused: () => {
      expect(snapshot().matches({ signedOut: { ready: 'resetKeyValid' } })).toBe(true);
      expect(snapshot().context.errorMessage).toBe(KEY_USED_MESSAGE);
    },
    passwordReset: () => {
      expectFreshSignedOutSession();
      expect(snapshot().context.validationKey).toBeUndefined();
      expectNotice('Your password has been reset. Please sign in with your new password.', 5_000, 'success');
      expect(navigations.at(-1)).toBe('/reset-password-success');
    },

    accountForm: () => expectAccountForm(undefined),
    creatingAccount: () => {
      expect(snapshot().matches({ signedOut: 'creatingAccount' })).toBe(true);
      expect(server.accountRequests.at(-1)).toEqual({
        email: ACCOUNT_EMAIL,
        validationKey: INVITATION_KEY,
        password: NEW_PASSWORD,
      });
    },
    accountEmailMismatch: () =>
      expectAccountForm('This e-mail address does not match the invitation, or the invitation has expired.'),
    accountRefused: () => expectAccountForm(KEY_USED_MESSAGE),
    accountCreated: () => {
      expect(snapshot().matches({ signedOut: { ready: 'idle' } })).toBe(true);
      expect(snapshot().context.errorMessage).toBeUndefined();
      expectNotice('Your account has been created. Please sign in.', 5_000, 'success');
      expect(navigations.at(-1)).toBe('/login');
    },

    redirectingToSso: () => {
      expect(snapshot().matches({ signedOut: { ready: 'redirectingToSso' } })).toBe(true);
      expect(navigateTo).toHaveBeenLastCalledWith('/api/login?domain=mall.example');
    },
    ssoFailed: () => {
      expect(snapshot().matches({ signedOut: { ready: 'ssoFailed' } })).toBe(true);
      expect(snapshot().context.errorMessage).toBe(SSO_ERROR);
    },
    ssoChecking: () => {
      expect(snapshot().matches('ssoChecking')).toBe(true);
      expect(sessionStatusOf(snapshot())).toBe('checking');
    },
    ssoCheckFailed: () => {
      expect(snapshot().matches({ signedOut: { ready: 'ssoFailed' } })).toBe(true);
      expect(snapshot().context.errorMessage).toBe('Single sign-on did not complete. Please try again.');
    },

    signedIn: () => {
      const state = snapshot();
      expect(state.matches('signedIn')).toBe(true);
      expect(state.hasTag('authenticated')).toBe(true);
      expect(sessionStatusOf(state)).toBe('signedIn');
      expect(state.context.user?.username).toBe('alice');
      expect(state.context.errorMessage).toBeUndefined();
      expect(getPermissionsList()).toEqual(['/clients::Read', '/outlets::Read']);
      expect(getCsrfToken()).toMatch(/^csrf-/);
      expect(state.can({ type: 'logout' })).toBe(true);
      expect(state.can({ type: 'login.submit', username: 'alice', password: 'x' })).toBe(false);
    },
    sessionNotice: () => {
      expect(snapshot().matches('signedIn')).toBe(true);
      expectNotice('Your session has expired.', 10_000);
    },
    loggingOut: () => {
      expect(snapshot().matches('loggingOut')).toBe(true);
      expect(server.logoutCalls).toBe(1);
    },
    leftForRedirect: () => {
      expectLeftSession();
      expect(navigateTo).toHaveBeenCalledExactlyOnceWith('https://idp.example.com/logout');
      expect(reloadPage).not.toHaveBeenCalled();
    },
    reloaded: () => {
      expectLeftSession();
      expect(reloadPage).toHaveBeenCalledOnce();
      expect(navigateTo).not.toHaveBeenCalled();
    },
  },
  events: {
    'server.credentialValid': async () => {
      await answer(() =>
        take(server.credential, 'GET /api/credential').resolve({ user: userInfo(), csrfToken: 'csrf-session' }),
      );
      expect(getCsrfToken()).toBe('csrf-session');
    },
    'server.credentialPasswordExpired': async () => {
      await answer(() =>
        take(server.credential, 'GET /api/credential').resolve({
          user: userInfo({ password_expired: true }),
          csrfToken: 'csrf-session',
        }),
      );
    },
    'server.credentialRejected': async () => {
      await answer(() => take(server.credential, 'GET /api/credential').reject(new ApiError(401, 'Please sign in.')));
    },
    'server.csrfTokenSent': async () => {
      await answer(() => take(server.csrfToken, 'GET /api/getcsrftoken').resolve('csrf-anonymous'));
      expect(getCsrfToken()).toBe('csrf-anonymous');
    },
    'server.csrfTokenFailed': async () => {
      await answer(() => take(server.csrfToken, 'GET /api/getcsrftoken').reject(new TypeError('Failed to fetch')));
    },
    'login.submit': () => {
      actor.send({ type: 'login.submit', username: USERNAME_TYPED, password: PASSWORD_TYPED });
    },
    'server.loginAccepted': async () => {
      await answer(() => take(server.login, 'POST /api/login').resolve(loginResponse()));
    },
    'server.mfaRequired': async () => {
      // MFA wins over an expired password.
      await answer(() =>
        take(server.login, 'POST /api/login').resolve(loginResponse({ require_mfa: true }, { password_expired: true })),
      );
    },
    'server.passwordExpired': async () => {
      await answer(() => take(server.login, 'POST /api/login').resolve(loginResponse({}, { password_expired: true })));
    },
    'server.passwordExpiredRejected': async () => {
      await answer(() => take(server.login, 'POST /api/login').reject(new ApiError(401, 'Password expired.')));
    },
    'server.loginRejectedWithMessage': async () => {
      await answer(() => take(server.login, 'POST /api/login').reject(new ApiError(401, SERVER_401_MESSAGE)));
    },
    'server.loginRejected': async () => {
      await answer(() => take(server.login, 'POST /api/login').reject(new ApiError(401)));
    },
    'server.loginThrottled': async () => {
      await answer(() => take(server.login, 'POST /api/login').reject(new ApiError(429, THROTTLED_MESSAGE)));
    },
    'server.loginFailed': async () => {
      await answer(() => take(server.login, 'POST /api/login').reject(new ApiError(500)));
    },

    'server.codeSent': async () => {
      await answer(() => take(server.sendCode, 'GET /api/otp').resolve(true));
    },
    'server.codeNotSent': async () => {
      await answer(() => take(server.sendCode, 'GET /api/otp').resolve(false));
    },
    'otp.submit': () => {
      actor.send({ type: 'otp.submit', code: CODE_TYPED });
    },
    'otp.resend': () => {
      actor.send({ type: 'otp.resend' });
    },
    'server.codeAccepted': async () => {
      await answer(() => take(server.verifyCode, 'POST /api/verifyOtp').resolve(true));
    },
    'server.codeRejected': async () => {
      await answer(() => take(server.verifyCode, 'POST /api/verifyOtp').resolve(false));
    },

    'password.updateExpired': () => {
      actor.send(passwordUpdate(PASSWORD_TYPED));
    },
    'password.updateSignedIn': () => {
      actor.send(passwordUpdate(PASSWORD_TYPED));
    },
    'password.reset': () => {
      actor.send(passwordUpdate(undefined));
    },
    'server.passwordUpdated': async () => {
      await answer(() => take(server.updatePassword, 'PUT /api/user/password').resolve());
    },
    'server.passwordRefused': async () => {
      const message = snapshot().matches({ signedOut: 'resettingPassword' }) ? KEY_USED_MESSAGE : WRONG_CURRENT_MESSAGE;
      await answer(() => take(server.updatePassword, 'PUT /api/user/password').reject(new ApiError(400, message)));
    },

    'reset.request': () => {
      actor.send({ type: 'reset.request', email: RESET_EMAIL_TYPED });
    },
    'server.resetMailSent': async () => {
      await answer(() => take(server.requestReset, 'POST /api/user/sendResetPasswordEmail').resolve());
    },
    'server.resetRequestFailed': async () => {
      await answer(() => take(server.requestReset, 'POST /api/user/sendResetPasswordEmail').reject(new ApiError(500)));
    },
    'reset.open': () => {
      actor.send({ type: 'reset.open', validationKey: RESET_KEY });
    },
    'server.resetKeyValid': async () => {
      await answer(() => take(server.checkResetKey, 'GET /api/user/resetPassword').resolve(true));
    },
    'server.resetKeyInvalid': async () => {
      await answer(() => take(server.checkResetKey, 'GET /api/user/resetPassword').resolve(false));
    },

    'account.open': () => {
      actor.send({ type: 'account.open', validationKey: INVITATION_KEY });
    },
    'account.submit': () => {
      actor.send({
        type: 'account.submit',
        email: ACCOUNT_EMAIL,
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
    },
    'server.accountCreated': async () => {
      await answer(() => take(server.createAccount, 'POST /api/user/verifyUserEmail + activate').resolve(true));
    },
    'server.accountEmailMismatch': async () => {
      await answer(() => take(server.createAccount, 'POST /api/user/verifyUserEmail').resolve(false));
    },
    'server.accountRefused': async () => {
      await answer(() =>
        take(server.createAccount, 'POST /api/user/activate').reject(new ApiError(404, KEY_USED_MESSAGE)),
      );
    },

    'sso.start': () => {
      actor.send({ type: 'sso.start', email: SSO_EMAIL });
    },
    'sso.returnWithError': () => {
      actor.send({ type: 'sso.complete', error: SSO_ERROR });
    },
    'sso.returnWithSuccess': () => {
      actor.send({ type: 'sso.complete', status: 'success' });
    },

    'server.unauthorized': () => {
      emitApiEvent({ type: 'unauthorized', message: 'Your session has expired.', path: '/clients' });
    },
    'server.forbidden': () => {
      emitApiEvent({ type: 'forbidden', path: '/clients' });
    },
    logout: () => {
      actor.send({ type: 'logout' });
    },
    'server.logoutRedirect': async () => {
      await answer(() =>
        take(server.logout, 'GET /api/logout').resolve({
          success: true,
          redirectUrl: 'https://idp.example.com/logout',
        }),
      );
    },
    'server.logoutDone': async () => {
      await answer(() => take(server.logout, 'GET /api/logout').resolve({ success: true }));
    },
    'server.logoutFailed': async () => {
      await answer(() => take(server.logout, 'GET /api/logout').reject(new TypeError('Failed to fetch')));
    },
  },
};

function resetRun(): void {
  server = newServer();
  notices = [];
  navigations = [];
  navigateTo.mockClear();
  reloadPage.mockClear();
  clearSession();
  startActor();
}

describe('authMachine (model-based)', () => {
  beforeEach(resetRun);
  afterEach(() => {
    actor.stop();
    clearSession();
  });

  describeModelCoverage(authModel, testParams, { states: Object.keys(testParams.states ?? {}), transitions: 81 });
});

describe('authMachine details', () => {
  beforeEach(resetRun);
  afterEach(() => {
    actor.stop();
    clearSession();
  });

  async function toLoginForm(): Promise<void> {
    await answer(() => take(server.credential, 'GET /api/credential').reject(new ApiError(401)));
    await answer(() => take(server.csrfToken, 'GET /api/getcsrftoken').resolve('t'));
  }

  it('ignores a 403 while signed out', async () => {
    await answer(() => take(server.credential, 'GET /api/credential').reject(new ApiError(401)));
    emitApiEvent({ type: 'forbidden', path: '/clients' });
    expect(snapshot().matches('signedOut')).toBe(true);
    expect(server.logoutCalls).toBe(0);
  });

  it('clears the previous error when the form is sent again', async () => {
    await toLoginForm();
    actor.send({ type: 'login.submit', username: 'bob', password: 'wrong' });
    take(server.login, 'POST /api/login').reject(new ApiError(401));
    await settle((s) => s.context.errorMessage === 'username or password is incorrect');
    actor.send({ type: 'login.submit', username: 'bob', password: 'right' });
    expect(snapshot().context.errorMessage).toBeUndefined();
    take(server.login, 'POST /api/login').resolve(loginResponse({}, { username: 'bob' }));
    await settle((s) => s.matches('signedIn'));
    expect(snapshot().context.user?.username).toBe('bob');
  });

  it('lets every signed-out page start its flow from another resting step', async () => {
    await toLoginForm();
    actor.send({ type: 'sso.complete', error: SSO_ERROR });
    expect(snapshot().matches({ signedOut: { ready: 'ssoFailed' } })).toBe(true);
    actor.send({ type: 'account.open', validationKey: ` ${INVITATION_KEY} ` });
    expect(snapshot().matches({ signedOut: { ready: 'accountForm' } })).toBe(true);
    expect(snapshot().context.validationKey).toBe(INVITATION_KEY);
    expect(snapshot().context.errorMessage).toBeUndefined();
    actor.send({ type: 'reset.open', validationKey: RESET_KEY });
    expect(snapshot().matches({ signedOut: 'checkingResetKey' })).toBe(true);
    // A busy step takes no other flow.
    expect(snapshot().can({ type: 'login.submit', username: 'alice', password: 'x' })).toBe(false);
    await answer(() => take(server.checkResetKey, 'GET /api/user/resetPassword').reject(new ApiError(400)));
    expect(snapshot().matches({ signedOut: { ready: 'resetKeyInvalid' } })).toBe(true);
  });

  it('does not send the one-time code call twice and offers Resend code after wrong tries', async () => {
    await toLoginForm();
    actor.send({ type: 'login.submit', username: 'alice', password: 'pw' });
    await answer(() => take(server.login, 'POST /api/login').resolve(loginResponse({ require_mfa: true })));
    expect(server.sendCodeCalls).toBe(1);
    await answer(() => take(server.sendCode, 'GET /api/otp').resolve(true));
    for (let attempt = 0; attempt < 5; attempt += 1) {
      actor.send({ type: 'otp.submit', code: '000000' });
      await answer(() => take(server.verifyCode, 'POST /api/verifyOtp').resolve(false));
      expect(snapshot().context.errorMessage).toBe('Invalid or expired code.');
    }
    expect(snapshot().can({ type: 'otp.resend' })).toBe(true);
    actor.send({ type: 'otp.resend' });
    expect(server.sendCodeCalls).toBe(2);
    expect(snapshot().context.errorMessage).toBeUndefined();
  });

  it('says why a one-time code was refused for too many attempts, and keeps the code step', async () => {
    await toLoginForm();
    actor.send({ type: 'login.submit', username: 'alice', password: 'pw' });
    await answer(() => take(server.login, 'POST /api/login').resolve(loginResponse({ require_mfa: true })));
    const sends = 'Too many codes sent. Please wait 10 minutes before asking for another.';
    await answer(() => take(server.sendCode, 'GET /api/otp').reject(new ApiError(429, sends)));
    expect(snapshot().context.errorMessage).toBe(sends);
    expect(snapshot().matches({ mfa: 'waitingForCode' })).toBe(true);
    const tries = 'Too many wrong codes. Please try again in 15 minutes.';
    actor.send({ type: 'otp.submit', code: '000000' });
    await answer(() => take(server.verifyCode, 'POST /api/verifyOtp').reject(new ApiError(429, tries)));
    expect(snapshot().context.errorMessage).toBe(tries);
    actor.send({ type: 'otp.submit', code: '000000' });
    await answer(() => take(server.verifyCode, 'POST /api/verifyOtp').reject(new ApiError(503)));
    expect(snapshot().context.errorMessage).toBe('Invalid or expired code.');
  });

  it('shows the server message of a failed reset request and stays signed out', async () => {
    await toLoginForm();
    actor.send({ type: 'reset.request', email: 'alice@mall.example' });
    await answer(() =>
      take(server.requestReset, 'POST /api/user/sendResetPasswordEmail').reject(new ApiError(429, 'Slow down.')),
    );
    expectNotice('Slow down.', 5_000);
  });
});
