import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors';
import { clearSession } from '../../src/api/session';
import { currentPath, fakeServer, isDisabled, renderApp, userInfo } from './renderApp';

function fillNewPassword(newPassword: string, confirmPassword = newPassword) {
  fireEvent.change(screen.getByTestId('reset-new-password'), { target: { value: newPassword } });
  fireEvent.change(screen.getByTestId('reset-confirm-password'), { target: { value: confirmPassword } });
}

describe('ResetPasswordPage', () => {
  beforeEach(() => {
    clearSession();
  });
  afterEach(() => {
    cleanup();
    clearSession();
  });

  it("is linked from the login page as 'Forgot password?' and answers a request neutrally", async () => {
    const server = fakeServer();
    const location = renderApp('/login', server);
    fireEvent.click(await screen.findByText('Forgot password?'));
    const email = await screen.findByTestId('reset-email');
    expect(currentPath(location)).toBe('/reset-password');

    const submit = screen.getByTestId('reset-request-submit');
    fireEvent.change(email, { target: { value: 'not-an-address' } });
    expect(isDisabled(submit)).toBe(true);
    fireEvent.change(email, { target: { value: ' nobody@mall.example ' } });
    await waitFor(() => expect(isDisabled(submit)).toBe(false));
    fireEvent.click(submit);

    expect((await screen.findByTestId('reset-requested')).textContent).toBe(
      'If an account exists for that e-mail, a reset link has been sent.',
    );
    expect(server.calls.resetEmails).toEqual(['nobody@mall.example']);
  });

  it('says that an unknown, used or expired link is invalid and offers to request a new one', async () => {
    const server = fakeServer({ checkResetKey: () => Promise.resolve(false) });
    const location = renderApp('/reset-password?validationKey=used-key', server);
    expect((await screen.findByTestId('reset-invalid')).textContent).toBe('This reset link is invalid or has expired.');
    expect(server.calls.resetKeys).toEqual(['used-key']);

    fireEvent.click(screen.getByText('Request a new link'));
    await screen.findByTestId('reset-email');
    expect(currentPath(location)).toBe('/reset-password');
  });

  it('sets the new password from a good link and ends on /reset-password-success', async () => {
    let attempts = 0;
    const server = fakeServer({
      updatePassword: () =>
        attempts++ === 0
          ? Promise.reject(new ApiError(400, 'The new password must not contain your e-mail address.'))
          : Promise.resolve(),
    });
    const location = renderApp('/reset-password?validationKey=good-key', server);
    await screen.findByTestId('reset-new-password');
    const submit = screen.getByTestId('reset-submit');

    fillNewPassword('short1');
    expect(isDisabled(submit)).toBe(true);
    fillNewPassword('long-enough-password');
    expect(isDisabled(submit)).toBe(true);
    fillNewPassword('long-enough-1', 'long-enough-2');
    expect(screen.getByText('The passwords do not match.')).toBeDefined();
    expect(isDisabled(submit)).toBe(true);
    fillNewPassword('alice-was-here-1');
    await waitFor(() => expect(isDisabled(submit)).toBe(false));
    fireEvent.click(submit);
    expect((await screen.findByTestId('reset-error')).textContent).toBe(
      'The new password must not contain your e-mail address.',
    );

    fillNewPassword('long-enough-1');
    await waitFor(() => expect(isDisabled(screen.getByTestId('reset-submit'))).toBe(false));
    fireEvent.click(screen.getByTestId('reset-submit'));
    expect((await screen.findByTestId('reset-success')).textContent).toBe(
      'Your password has been reset. Please sign in with your new password.',
    );
    expect(currentPath(location)).toBe('/reset-password-success');
    expect(server.calls.passwords.at(-1)).toEqual({ validationKey: 'good-key', newPassword: 'long-enough-1' });

    fireEvent.click(screen.getByTestId('reset-success-login'));
    await screen.findByTestId('login-submit');
    expect(currentPath(location)).toBe('/login');
  });

  it('does not open /reset-password-success on a fresh load', async () => {
    const location = renderApp('/reset-password-success', fakeServer());
    await screen.findByTestId('login-submit');
    expect(currentPath(location)).toBe('/login');
  });

  it('sends a signed-in user from /reset-password to the landing page', async () => {
    const server = fakeServer({ credential: () => Promise.resolve({ user: userInfo(), csrfToken: 'csrf-session' }) });
    const location = renderApp('/reset-password', server);
    await screen.findByTestId('navbar-username');
    expect(currentPath(location)).toBe('/shopper-connect/mall-home');
  });
});
