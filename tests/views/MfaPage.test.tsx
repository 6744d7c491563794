import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearSession } from '../../src/api/session';
import { currentPath, fakeServer, isDisabled, loginAnswer, reloadPage, renderApp, userInfo } from './renderApp';

async function signInWithMfa(server: ReturnType<typeof fakeServer>, path = '/login') {
  const location = renderApp(path, server);
  fireEvent.change(await screen.findByTestId('login-username'), { target: { value: 'Alice@Mall.Example' } });
  fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'demo-password-1' } });
  const submit = screen.getByTestId('login-submit');
  await waitFor(() => expect(isDisabled(submit)).toBe(false));
  fireEvent.click(submit);
  await screen.findByTestId('otp-code');
  return location;
}

function typeCode(code: string) {
  fireEvent.change(screen.getByTestId('otp-code'), { target: { value: code } });
}

describe('MfaPage', () => {
  beforeEach(() => {
    clearSession();
    reloadPage.mockClear();
  });
  afterEach(() => {
    cleanup();
    clearSession();
  });

  it('sends the code on entering, verifies it, and opens the wanted page once signed in', async () => {
    let codeAccepted = false;
    const server = fakeServer({
      login: () => loginAnswer({}, true),
      verifyCode: (code) => {
        codeAccepted = code === '654321';
        return Promise.resolve(codeAccepted);
      },
      credential: () =>
        codeAccepted
          ? Promise.resolve({ user: userInfo(), csrfToken: 'csrf-session' })
          : Promise.reject(new Error('not signed in')),
    });
    const location = await signInWithMfa(server, `/login?redirect=${encodeURIComponent('/shopper-connect/mall-gmv')}`);

    expect(currentPath(location)).toBe('/mfa-validation');
    expect((await screen.findByTestId('otp-sent')).textContent).toBe(
      'We have sent a 6-digit code to your e-mail. It expires in 5 minutes.',
    );
    expect(server.calls.sendCode).toBe(1);

    const verify = screen.getByTestId('otp-submit');
    expect(isDisabled(verify)).toBe(true);
    typeCode('12345');
    expect(isDisabled(verify)).toBe(true);
    typeCode('123456');
    await waitFor(() => expect(isDisabled(verify)).toBe(false));
    fireEvent.click(verify);
    expect((await screen.findByTestId('otp-error')).textContent).toBe('Invalid or expired code.');

    typeCode('654321');
    await waitFor(() => expect(isDisabled(screen.getByTestId('otp-submit'))).toBe(false));
    fireEvent.click(screen.getByTestId('otp-submit'));

    expect((await screen.findByTestId('navbar-username')).textContent).toBe('alice@mall.example');
    expect(currentPath(location)).toBe('/shopper-connect/mall-gmv');
    expect(server.calls.codes).toEqual(['123456', '654321']);
    expect((await screen.findByTestId('page-title', {}, { timeout: 10_000 })).textContent).toBe('Mall GMV');
  });

  it('offers Resend code: a new code is sent and the error cleared', async () => {
    const server = fakeServer({ login: () => loginAnswer({}, true), verifyCode: () => Promise.resolve(false) });
    await signInWithMfa(server);
    await screen.findByTestId('otp-sent');
    typeCode('111111');
    await waitFor(() => expect(isDisabled(screen.getByTestId('otp-submit'))).toBe(false));
    fireEvent.click(screen.getByTestId('otp-submit'));
    await screen.findByTestId('otp-error');

    fireEvent.click(screen.getByRole('button', { name: 'Resend code' }));
    await waitFor(() => expect(server.calls.sendCode).toBe(2));
    await waitFor(() => expect(screen.queryByTestId('otp-error')).toBeNull());
    expect(await screen.findByTestId('otp-sent')).toBeDefined();
  });

  it('says when the code could not be sent', async () => {
    const server = fakeServer({ login: () => loginAnswer({}, true), sendCode: () => Promise.resolve(false) });
    await signInWithMfa(server);
    expect((await screen.findByTestId('otp-error')).textContent).toBe('The code could not be sent. Please try again.');
    expect(screen.queryByTestId('otp-sent')).toBeNull();
  });

  it('goes to /update-password when the password has expired, and back to /login once it is changed', async () => {
    let changed = false;
    const server = fakeServer({
      login: () => loginAnswer({ password_expired: true }, true),
      credential: () => Promise.resolve({ user: userInfo({ password_expired: !changed }), csrfToken: 'csrf-session' }),
      updatePassword: () => {
        changed = true;
        return Promise.resolve();
      },
    });
    // The first credential check (page load) must say signed out.
    const firstCheck = server.credential;
    let checks = 0;
    server.credential = () => (checks++ === 0 ? Promise.reject(new Error('signed out')) : firstCheck());

    const location = await signInWithMfa(server);
    typeCode('123456');
    await waitFor(() => expect(isDisabled(screen.getByTestId('otp-submit'))).toBe(false));
    fireEvent.click(screen.getByTestId('otp-submit'));

    expect((await screen.findByTestId('update-error')).textContent).toBe('Password expired.');
    expect(currentPath(location)).toBe('/update-password');
    // Signed in after the code: no username field, the current password is asked.
    expect(screen.queryByTestId('update-username')).toBeNull();
    fireEvent.change(screen.getByTestId('update-current-password'), { target: { value: 'demo-password-1' } });
    fireEvent.change(screen.getByTestId('update-new-password'), { target: { value: 'brand-new-pass-7' } });
    fireEvent.change(screen.getByTestId('update-confirm-password'), { target: { value: 'brand-new-pass-7' } });
    await waitFor(() => expect(isDisabled(screen.getByTestId('update-submit'))).toBe(false));
    fireEvent.click(screen.getByTestId('update-submit'));

    await screen.findByTestId('login-submit');
    expect(currentPath(location)).toBe('/login');
    expect(server.calls.passwords).toEqual([{ currentPassword: 'demo-password-1', newPassword: 'brand-new-pass-7' }]);
    await waitFor(() =>
      expect(document.querySelector('.bp6-toast')?.textContent).toContain(
        'Your password has been updated. Please sign in with your new password.',
      ),
    );
  });

  it('Back to sign in ends the pending session without reloading', async () => {
    const server = fakeServer({ login: () => loginAnswer({}, true) });
    const location = await signInWithMfa(server);
    await screen.findByTestId('otp-sent');
    await act(async () => {
      fireEvent.click(screen.getByTestId('mfa-cancel'));
    });
    await screen.findByTestId('login-submit');
    expect(currentPath(location)).toBe('/login');
    expect(server.calls.logout).toBe(1);
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('lets a user who went back to /login continue with the code', async () => {
    const server = fakeServer({ login: () => loginAnswer({}, true) });
    const location = await signInWithMfa(server);
    await screen.findByTestId('otp-sent');
    // The browser's back button.
    act(() => location.navigate('/login', { replace: true }));
    fireEvent.click(await screen.findByText('Enter the verification code'));
    expect(await screen.findByTestId('otp-code')).toBeDefined();
    expect(currentPath(location)).toBe('/mfa-validation');
    expect(server.calls.sendCode).toBe(1);
  });

  it('is not reachable on a fresh load: the visitor goes to /login', async () => {
    const location = renderApp('/mfa-validation', fakeServer());
    await screen.findByTestId('login-submit');
    expect(currentPath(location)).toBe('/login');
  });
});
