import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { fromPromise } from 'xstate';
import { App } from '../../src/App';
import type {
  CredentialResponse,
  LoginRequest,
  LoginResponse,
  LogoutResponse,
  UpdatePasswordRequest,
  UserInfo,
} from '../../src/api/auth';
import { ApiError } from '../../src/api/errors';
import type { Client } from '../../src/api/lookup';
import { AppContext } from '../../src/machines/appContext';
import { appMachine, type PageFiltersOf } from '../../src/machines/appMachine';
import { authMachine } from '../../src/machines/authMachine';
import type { filterHeaderMachine } from '../../src/machines/filterHeaderMachine';
import { type MemoryHistory, memoryHistory } from '../../src/machines/historyPort';
import { inspectActors } from '../../src/machines/inspection';
import { layoutMachine } from '../../src/machines/layoutMachine';
import { pageFiltersFor, ROUTES } from '../../src/routes';
import { Notifications } from '../../src/views/common/Notifications';

/** A user of the fake server; shopper-connect with mall home by default. */
export function userInfo(overrides: Partial<UserInfo> = {}): UserInfo {
  return {
    id: 3,
    username: 'alice@mall.example',
    client_id: 1,
    clients: [1],
    roles: ['mall operator'],
    permissions: [{ name: 'shopper-connect', subPermissions: ['mall-home', 'mall-gmv'] }],
    permissionsList: ['/clients::Read'],
    permissionsComponents: [],
    password_expired: false,
    flags: { tenantOnly: false, hideTopBar: false, receiptsHidden: false },
    ...overrides,
  };
}

export function loginAnswer(user: Partial<UserInfo> = {}, requireMfa = false): Promise<LoginResponse> {
  return Promise.resolve({
    user: userInfo(user),
    session: { expiresAt: '2030-01-01T00:00:00.000Z', mfaPending: requireMfa },
    require_mfa: requireMfa,
    csrfToken: 'csrf-login',
  });
}

export const signedOut = (): Promise<CredentialResponse> => Promise.reject(new ApiError(401, 'Please sign in.'));

/** How the fake server answers; every call is recorded. */
export interface FakeServer {
  credential: () => Promise<CredentialResponse>;
  login: (request: LoginRequest) => Promise<LoginResponse>;
  sendCode: () => Promise<boolean>;
  verifyCode: (code: string) => Promise<boolean>;
  updatePassword: (request: UpdatePasswordRequest) => Promise<void>;
  requestReset: (email: string) => Promise<void>;
  checkResetKey: (validationKey: string) => Promise<boolean>;
  createAccount: (input: { email: string; validationKey: string; password: string }) => Promise<boolean>;
  calls: {
    login: LoginRequest[];
    sendCode: number;
    codes: string[];
    passwords: UpdatePasswordRequest[];
    resetEmails: string[];
    resetKeys: string[];
    accounts: { email: string; validationKey: string; password: string }[];
    logout: number;
  };
}

export function fakeServer(overrides: Partial<Omit<FakeServer, 'calls'>> = {}): FakeServer {
  return {
    credential: signedOut,
    login: () => loginAnswer(),
    sendCode: () => Promise.resolve(true),
    verifyCode: () => Promise.resolve(true),
    updatePassword: () => Promise.resolve(),
    requestReset: () => Promise.resolve(),
    checkResetKey: () => Promise.resolve(true),
    createAccount: () => Promise.resolve(true),
    ...overrides,
    calls: {
      login: [],
      sendCode: 0,
      codes: [],
      passwords: [],
      resetEmails: [],
      resetKeys: [],
      accounts: [],
      logout: 0,
    },
  };
}

export const reloadPage = vi.fn<() => void>();
export const navigateTo = vi.fn<(url: string) => void>();

/** The real auth machine whose server calls are the fake server's. */
export function machineFor(server: FakeServer) {
  return authMachine.provide({
    actors: {
      checkCredential: fromPromise<CredentialResponse>(() => server.credential()),
      fetchCsrfToken: fromPromise<string>(() => Promise.resolve('csrf-anonymous')),
      logIn: fromPromise<LoginResponse, LoginRequest>(({ input }) => {
        server.calls.login.push(input);
        return server.login(input);
      }),
      logOut: fromPromise<LogoutResponse>(() => {
        server.calls.logout += 1;
        return Promise.resolve({ success: true });
      }),
      sendCode: fromPromise<boolean>(() => {
        server.calls.sendCode += 1;
        return server.sendCode();
      }),
      verifyCode: fromPromise<boolean, { code: string }>(({ input }) => {
        server.calls.codes.push(input.code);
        return server.verifyCode(input.code);
      }),
      updatePassword: fromPromise<void, UpdatePasswordRequest>(({ input }) => {
        server.calls.passwords.push(input);
        return server.updatePassword(input);
      }),
      requestReset: fromPromise<void, { email: string }>(({ input }) => {
        server.calls.resetEmails.push(input.email);
        return server.requestReset(input.email);
      }),
      checkResetKey: fromPromise<boolean, { validationKey: string }>(({ input }) => {
        server.calls.resetKeys.push(input.validationKey);
        return server.checkResetKey(input.validationKey);
      }),
      createAccount: fromPromise<boolean, { email: string; validationKey: string; password: string }>(({ input }) => {
        server.calls.accounts.push(input);
        return server.createAccount(input);
      }),
    },
    actions: {
      reloadPage: () => reloadPage(),
      navigateTo: (_, params: { url: string }) => navigateTo(params.url),
    },
  });
}

/** The address bar of a rendered app: its entries (the current one last), and the user moving it. */
export interface TestLocation {
  readonly history: string[];
  navigate(href: string, options?: { replace?: boolean }): void;
}

export function testLocation(history: MemoryHistory): TestLocation {
  return { history: history.entries, navigate: (href, options) => history.go(href, options) };
}

export type AppActors = Parameters<typeof appMachine.provide>[0]['actors'];

/**
 * Renders the whole app at `path` on a memory address bar, the app machine's auth talking to `server` (other
 * actors of the app replaced by `actors`); returns the address bar (its history is recorded).
 */
export function renderApp(path: string, server: FakeServer, actors: AppActors = {}, today?: string): TestLocation {
  const history = memoryHistory(path);
  render(
    <AppContext.Provider
      logic={appMachine.provide({ actors: { auth: machineFor(server), ...actors } })}
      options={{
        input: {
          routeTable: ROUTES,
          pageFilters: pageFiltersFor,
          history,
          mobile: false,
          readCookies: () => '',
          today,
        },
        inspect: inspectActors,
      }}
    >
      <App />
    </AppContext.Provider>,
  );
  return testLocation(history);
}

/** The address the browser shows now. */
export function currentPath(location: TestLocation): string | undefined {
  return location.history.at(-1);
}

/** Blueprint marks a disabled button with the attribute (and a class). */
export function isDisabled(element: HTMLElement): boolean {
  return element.hasAttribute('disabled');
}

/** Its children once the app has a signed-in user (and so runs the filter header). */
function SignedIn({ children }: { readonly children: ReactNode }) {
  const signedIn = AppContext.useSelector((state) => state.matches('signedIn'));
  return signedIn ? children : null;
}

export interface InAppOptions {
  /** The signed-in user (the session check answers it). */
  readonly user: UserInfo;
  /** The address the app opens (a page the user may see). */
  readonly path: string;
  readonly today?: string;
  /** The filter header the app runs (its lookups and effects replaced by the test). */
  readonly header?: typeof filterHeaderMachine;
  /** What the page asks of the header. */
  readonly pageFilters?: PageFiltersOf;
}

/**
 * Renders `ui` (a page) inside the app machine, signed in as `options.user`, with the app's toasts: the page's
 * machine runs in the app's system next to the filter header, as in the browser.
 */
export function renderInApp(ui: ReactNode, options: InAppOptions): TestLocation {
  const server = fakeServer({ credential: () => Promise.resolve({ user: options.user, csrfToken: 'csrf-session' }) });
  const clients: Client[] = options.user.clients.map((id) => ({ id, name: `Client ${id}`, reporting_currency: 'SGD' }));
  const history = memoryHistory(options.path);
  const app = appMachine.provide({
    actors: {
      auth: machineFor(server),
      layout: layoutMachine.provide({ actors: { fetchClients: fromPromise<Client[]>(async () => clients) } }),
      ...(options.header ? { filterHeader: options.header } : {}),
    },
  });
  render(
    <AppContext.Provider
      logic={app}
      options={{
        input: {
          routeTable: ROUTES,
          pageFilters: options.pageFilters ?? pageFiltersFor,
          history,
          today: options.today,
          mobile: false,
          readCookies: () => '',
        },
      }}
    >
      <Notifications>
        <SignedIn>{ui}</SignedIn>
      </Notifications>
    </AppContext.Provider>,
  );
  return testLocation(history);
}
