import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { App } from '../../src/App';
import type { CredentialResponse, LoginRequest, LoginResponse, LogoutResponse, UserInfo } from '../../src/api/auth';
import { ApiError } from '../../src/api/errors';
import { clearSession } from '../../src/api/session';
import { AppContext } from '../../src/machines/appContext';
import { appMachine } from '../../src/machines/appMachine';
import { authMachine } from '../../src/machines/authMachine';
import { memoryHistory } from '../../src/machines/historyPort';
import { pageFiltersFor, ROUTES } from '../../src/routes';
import { testLocation } from './renderApp';

function userInfo(overrides: Partial<UserInfo> = {}): UserInfo {
  return {
    id: 3,
    username: 'alice',
    client_id: 1,
    clients: [1],
    roles: [],
    permissions: [],
    permissionsList: ['/clients::Read'],
    permissionsComponents: [],
    password_expired: false,
    flags: { tenantOnly: false, hideTopBar: false, receiptsHidden: false },
    ...overrides,
  };
}

/** How the fake server answers this test's calls. */
interface Answers {
  credential: () => Promise<CredentialResponse>;
  login: (request: LoginRequest) => Promise<LoginResponse>;
}

let answers: Answers;
const loginRequests: LoginRequest[] = [];
const reloadPage = vi.fn<() => void>();
const navigateTo = vi.fn<(url: string) => void>();

const signedOut = () => Promise.reject(new ApiError(401, 'Please sign in.'));

function loginAnswer(user: Partial<UserInfo> = {}, requireMfa = false): Promise<LoginResponse> {
  return Promise.resolve({
    user: userInfo(user),
    session: { expiresAt: '2030-01-01T00:00:00.000Z', mfaPending: requireMfa },
    require_mfa: requireMfa,
    csrfToken: 'csrf-login',
  });
}

const machine = authMachine.provide({
  actors: {
    checkCredential: fromPromise<CredentialResponse>(() => answers.credential()),
    fetchCsrfToken: fromPromise<string>(() => Promise.resolve('csrf-anonymous')),
    logIn: fromPromise<LoginResponse, LoginRequest>(({ input }) => {
      loginRequests.push(input);
      return answers.login(input);
    }),
    logOut: fromPromise<LogoutResponse>(() => Promise.resolve({ success: true })),
  },
  actions: {
    reloadPage: () => reloadPage(),
    navigateTo: (_, params: { url: string }) => navigateTo(params.url),
  },
});

function renderApp(path: string) {
  const history = memoryHistory(path);
  render(
    <AppContext.Provider
      logic={appMachine.provide({ actors: { auth: machine } })}
      options={{
        input: { routeTable: ROUTES, pageFilters: pageFiltersFor, history, mobile: false, readCookies: () => '' },
      }}
    >
      <App />
    </AppContext.Provider>,
  );
  return testLocation(history);
}

/** Blueprint marks a disabled button with the attribute (and a class). */
function isDisabled(button: HTMLElement): boolean {
  return button.hasAttribute('disabled');
}

async function fillAndSubmit(username: string, password: string) {
  const submit = await screen.findByTestId('login-submit');
  fireEvent.change(screen.getByTestId('login-username'), { target: { value: username } });
  fireEvent.change(screen.getByTestId('login-password'), { target: { value: password } });
  await waitFor(() => expect(isDisabled(submit)).toBe(false));
  fireEvent.click(submit);
}

describe('LoginPage', () => {
  beforeEach(() => {
    answers = { credential: signedOut, login: () => loginAnswer() };
    loginRequests.length = 0;
    reloadPage.mockClear();
    navigateTo.mockClear();
    clearSession();
  });
  afterEach(() => {
    cleanup();
    clearSession();
  });

  it('shows the form with labelled fields and keeps Sign in disabled until both are filled', async () => {
    renderApp('/login');
    const submit = await screen.findByTestId('login-submit');
    expect(screen.getByText('Mall Analytics')).toBeDefined();
    expect(screen.getByLabelText('Username')).toBe(screen.getByTestId('login-username'));
    expect(screen.getByLabelText('Password')).toBe(screen.getByTestId('login-password'));
    expect(screen.getByTestId('login-username').getAttribute('autocomplete')).toBe('username');
    expect(screen.getByTestId('login-password').getAttribute('type')).toBe('password');
    expect(submit.textContent).toBe('Sign in');
    expect(isDisabled(submit)).toBe(true);

    fireEvent.change(screen.getByTestId('login-username'), { target: { value: 'alice' } });
    expect(isDisabled(submit)).toBe(true);
    fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'pw' } });
    await waitFor(() => expect(isDisabled(submit)).toBe(false));
    fireEvent.change(screen.getByTestId('login-username'), { target: { value: '   ' } });
    expect(isDisabled(submit)).toBe(true);
  });

  it("shows 'username or password is incorrect' for a 401 without a message, once: in the form, not as a toast", async () => {
    answers.login = () => Promise.reject(new ApiError(401));
    renderApp('/login');
    await fillAndSubmit('  Alice ', 'wrong');

    const callout = await screen.findByTestId('login-error');
    expect(callout.textContent).toBe('username or password is incorrect');
    expect(callout.classList.contains('bp6-intent-danger')).toBe(true);
    // A toast would come with the answer: let the app settle, then count.
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(screen.getAllByText('username or password is incorrect')).toHaveLength(1);
    expect(document.querySelector('.bp6-toast')).toBeNull();
    expect(loginRequests).toEqual([{ username: 'alice', password: 'wrong' }]);
  });

  it("shows the server's 401 message", async () => {
    answers.login = () => Promise.reject(new ApiError(401, 'Your account is locked.'));
    renderApp('/login');
    await fillAndSubmit('alice', 'pw');
    expect((await screen.findByTestId('login-error')).textContent).toBe('Your account is locked.');
  });

  it("rejects an expired password with 'Password expired.'", async () => {
    answers.login = () => loginAnswer({ password_expired: true });
    renderApp('/login');
    await fillAndSubmit('alice', 'pw');
    expect((await screen.findByTestId('login-error')).textContent).toBe('Password expired.');
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(screen.getAllByText('Password expired.')).toHaveLength(1);
    expect(isDisabled(screen.getByTestId('login-submit'))).toBe(false);
  });

  it('opens the redirect path after signing in and shows the user in the top bar', async () => {
    answers.login = () => loginAnswer({ permissions: [{ name: 'apps', subPermissions: ['xero'] }] });
    const location = renderApp('/login?redirect=%2Fapps%2Fxero%3Ftab%3Daccounts');
    await fillAndSubmit('Alice', 'pw');

    expect((await screen.findByTestId('navbar-username')).textContent).toBe('alice');
    expect(location.history.at(-1)).toBe('/apps/xero?tab=accounts');
    expect(await screen.findByTestId('xero-page')).toBeDefined();
    expect(screen.getByTestId('page-title').textContent).toBe('Xero');
  });

  it('opens / after signing in without a redirect, and never an outside address', async () => {
    const location = renderApp('/login?redirect=%2F%2Fevil.example.com');
    await fillAndSubmit('alice', 'pw');
    await screen.findByTestId('navbar-username');
    expect(location.history.at(-1)).toBe('/');
  });

  it('sends a signed-out visitor to /login with the wanted path', async () => {
    const location = renderApp('/settings?tab=fees');
    await screen.findByTestId('login-submit');
    expect(location.history.at(-1)).toBe(`/login?redirect=${encodeURIComponent('/settings?tab=fees')}`);
  });

  it("shows the layout to a signed-in user with one Logout, the sidebar's, which reloads the page", async () => {
    answers.credential = () => Promise.resolve({ user: userInfo({ username: 'bob' }), csrfToken: 'csrf-session' });
    renderApp('/');
    expect((await screen.findByTestId('navbar-username')).textContent).toBe('bob');
    const navbar = screen.getByTestId('navbar-username').closest('.bp6-navbar');
    if (!(navbar instanceof HTMLElement)) throw new Error('no navbar');
    expect(within(navbar).queryByText('Logout')).toBeNull();
    expect(screen.getAllByText('Logout')).toHaveLength(1);

    await act(async () => {
      fireEvent.click(within(screen.getByTestId('sidebar')).getByRole('menuitem', { name: 'Logout' }));
    });
    await waitFor(() => expect(reloadPage).toHaveBeenCalledOnce());
  });

  it('sends a signed-in user away from /login', async () => {
    answers.credential = () => Promise.resolve({ user: userInfo(), csrfToken: 'csrf-session' });
    const location = renderApp('/login');
    await screen.findByTestId('navbar-username');
    expect(location.history.at(-1)).toBe('/');
  });
});
