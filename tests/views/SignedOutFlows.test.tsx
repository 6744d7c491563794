import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearSession } from '../../src/api/session';
import { currentPath, fakeServer, isDisabled, navigateTo, renderApp, userInfo } from './renderApp';

describe('single sign-on and account creation pages', () => {
  beforeEach(() => {
    clearSession();
    navigateTo.mockClear();
  });
  afterEach(() => {
    cleanup();
    clearSession();
  });

  it("is linked from the login page as 'Sign in with SSO' and leaves for the e-mail's domain", async () => {
    const location = renderApp('/login', fakeServer());
    fireEvent.click(await screen.findByText('Sign in with SSO'));
    const email = await screen.findByTestId('sso-email');
    expect(currentPath(location)).toBe('/sso');
    fireEvent.change(email, { target: { value: 'bob' } });
    expect(isDisabled(screen.getByTestId('sso-submit'))).toBe(true);
    fireEvent.change(email, { target: { value: 'Bob@Partner.Example' } });
    await waitFor(() => expect(isDisabled(screen.getByTestId('sso-submit'))).toBe(false));
    fireEvent.click(screen.getByTestId('sso-submit'));
    expect(navigateTo).toHaveBeenCalledExactlyOnceWith('/api/login?domain=partner.example');
  });

  it('shows the fixed message of the code the identity provider round trip came back with', async () => {
    renderApp('/sso?error=no_account', fakeServer());
    expect((await screen.findByTestId('sso-error')).textContent).toBe(
      'No account exists for the e-mail address the identity provider gave.',
    );
  });

  it('never shows text of the link: any other error reads as the generic failure', async () => {
    renderApp('/sso?error=Your%20account%20is%20locked.%20Call%20%2B1%20555%200100', fakeServer());
    expect((await screen.findByTestId('sso-error')).textContent).toBe(
      'Single sign-on did not complete. Please try again.',
    );
  });

  it('checks the session again after a successful round trip and lands', async () => {
    let checks = 0;
    const server = fakeServer({
      credential: () =>
        checks++ === 0
          ? Promise.reject(new Error('not yet'))
          : Promise.resolve({ user: userInfo(), csrfToken: 'csrf-session' }),
    });
    const location = renderApp('/sso?status=success', server);
    await screen.findByTestId('navbar-username');
    expect(currentPath(location)).toBe('/shopper-connect/mall-home');
  });

  it('creates the invited account and sends the user to /login', async () => {
    const server = fakeServer({ createAccount: (input) => Promise.resolve(input.email === 'new@mall.example') });
    const location = renderApp('/account-creation?validationKey=invite-1', server);
    const email = await screen.findByTestId('account-email');
    fireEvent.change(email, { target: { value: 'other@mall.example' } });
    fireEvent.change(screen.getByTestId('account-new-password'), { target: { value: 'first-password-1' } });
    fireEvent.change(screen.getByTestId('account-confirm-password'), { target: { value: 'first-password-1' } });
    await waitFor(() => expect(isDisabled(screen.getByTestId('account-submit'))).toBe(false));
    fireEvent.click(screen.getByTestId('account-submit'));
    expect((await screen.findByTestId('account-error')).textContent).toBe(
      'This e-mail address does not match the invitation, or the invitation has expired.',
    );

    fireEvent.change(email, { target: { value: 'new@mall.example' } });
    fireEvent.click(screen.getByTestId('account-submit'));
    await screen.findByTestId('login-submit');
    expect(currentPath(location)).toBe('/login');
    expect(server.calls.accounts.at(-1)).toEqual({
      email: 'new@mall.example',
      validationKey: 'invite-1',
      password: 'first-password-1',
    });
    await waitFor(() =>
      expect(document.querySelector('.bp6-toast')?.textContent).toContain(
        'Your account has been created. Please sign in.',
      ),
    );
  });

  it('says an invitation link without a key is invalid', async () => {
    renderApp('/account-creation', fakeServer());
    expect((await screen.findByTestId('account-invalid')).textContent).toBe(
      'This invitation link is invalid or has expired.',
    );
  });
});

describe('main layout navigation', () => {
  afterEach(() => {
    cleanup();
    clearSession();
  });

  it('lists the permitted, listed routes: no Receipts for the partner account', async () => {
    const partner = userInfo({
      username: 'analyst@partner.example',
      permissions: [
        { name: 'shopper-connect', subPermissions: ['mall-home', 'cross-spending', 'cross-spending/details'] },
        { name: 'tenants', subPermissions: ['tenant-receipt-data', 'gross-turnover'] },
        { name: 'receipts', subPermissions: [] },
      ],
      flags: { tenantOnly: false, hideTopBar: false, receiptsHidden: true },
    });
    const location = renderApp(
      '/',
      fakeServer({ credential: () => Promise.resolve({ user: partner, csrfToken: 'c' }) }),
    );
    const nav = await screen.findByTestId('nav');
    expect(currentPath(location)).toBe('/shopper-connect/mall-home');
    const links = within(nav)
      .getAllByRole('menuitem')
      .map((item) => item.textContent);
    expect(links).toEqual(['Mall Home', 'Cross Spending', 'Gross Turnover']);
    expect(within(nav).queryByText('Receipts')).toBeNull();
    expect(within(nav).getByText('Shopper Connect')).toBeDefined();

    fireEvent.click(within(nav).getByText('Gross Turnover'));
    await waitFor(() => expect(currentPath(location)?.split('?')[0]).toBe('/tenants/gross-turnover'));
    // The page loads on demand: the title changes once it has arrived.
    await waitFor(() => expect(screen.getByTestId('page-title').textContent).toBe('Gross Turnover'));
  });

  it("shows a single visible child as one item and the department's breakeven title", async () => {
    const leasing = userInfo({
      roles: ['leasing'],
      permissions: [
        { name: 'tenant-connect', subPermissions: ['breakeven-target'] },
        { name: 'settings', subPermissions: [] },
      ],
    });
    const location = renderApp(
      '/login',
      fakeServer({ credential: () => Promise.resolve({ user: leasing, csrfToken: 'c' }) }),
    );
    const nav = await screen.findByTestId('nav');
    expect(currentPath(location)).toBe('/tenant-connect/breakeven-target');
    expect(
      within(nav)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Leasing', 'Settings']);
    expect((await screen.findByTestId('page-title')).textContent).toBe('Leasing');
  });

  it('sends an unknown path to /404', async () => {
    const location = renderApp(
      '/no/such/page',
      fakeServer({ credential: () => Promise.resolve({ user: userInfo(), csrfToken: 'c' }) }),
    );
    expect(await screen.findByText('Page not found.')).toBeDefined();
    expect(currentPath(location)).toBe('/404');
  });
});
