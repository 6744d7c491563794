import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors';
import { clearSession } from '../../src/api/session';
import { currentPath, fakeServer, isDisabled, loginAnswer, renderApp } from './renderApp';

async function logInExpired(server: ReturnType<typeof fakeServer>) {
  const location = renderApp('/login', server);
  fireEvent.change(await screen.findByTestId('login-username'), { target: { value: ' Expired@Demo.Mall ' } });
  fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'demo-password-1' } });
  await waitFor(() => expect(isDisabled(screen.getByTestId('login-submit'))).toBe(false));
  fireEvent.click(screen.getByTestId('login-submit'));
  return location;
}

function fillForm(current: string, newPassword: string, confirmPassword = newPassword) {
  fireEvent.change(screen.getByTestId('update-current-password'), { target: { value: current } });
  fireEvent.change(screen.getByTestId('update-new-password'), { target: { value: newPassword } });
  fireEvent.change(screen.getByTestId('update-confirm-password'), { target: { value: confirmPassword } });
}

describe('UpdatePasswordPage', () => {
  beforeEach(() => {
    clearSession();
  });
  afterEach(() => {
    cleanup();
    clearSession();
  });

  it("offers the update after 'Password expired.' and changes the password of the account named at login", async () => {
    let attempts = 0;
    const server = fakeServer({
      login: () => Promise.reject(new ApiError(401, 'Password expired.')),
      updatePassword: () =>
        attempts++ === 0 ? Promise.reject(new ApiError(401, 'username or password is incorrect')) : Promise.resolve(),
    });
    const location = await logInExpired(server);

    expect((await screen.findByTestId('login-error')).textContent).toBe('Password expired.');
    fireEvent.click(screen.getByTestId('login-update-password'));
    expect(((await screen.findByTestId('update-username')) as HTMLInputElement).value).toBe('expired@demo.mall');
    expect(currentPath(location)).toBe('/update-password');
    expect(screen.getByTestId('update-error').textContent).toBe('Password expired.');

    const submit = screen.getByTestId('update-submit');
    fillForm('', 'fresh-password-9');
    expect(isDisabled(submit)).toBe(true);
    fillForm('demo-password-1', 'tooshort9');
    expect(isDisabled(submit)).toBe(true);
    fillForm('wrong-password', 'fresh-password-9');
    await waitFor(() => expect(isDisabled(submit)).toBe(false));
    fireEvent.click(submit);
    await waitFor(() =>
      expect(screen.getByTestId('update-error').textContent).toBe('username or password is incorrect'),
    );

    fillForm('demo-password-1', 'fresh-password-9');
    await waitFor(() => expect(isDisabled(screen.getByTestId('update-submit'))).toBe(false));
    fireEvent.click(screen.getByTestId('update-submit'));

    await screen.findByTestId('login-submit');
    expect(currentPath(location)).toBe('/login');
    // The login page no longer says the password expired.
    expect(screen.queryByTestId('login-error')).toBeNull();
    expect(server.calls.passwords.at(-1)).toEqual({
      username: 'expired@demo.mall',
      currentPassword: 'demo-password-1',
      newPassword: 'fresh-password-9',
    });
    await waitFor(() =>
      expect(document.querySelector('.bp6-toast')?.textContent).toContain(
        'Your password has been updated. Please sign in with your new password.',
      ),
    );
  });

  it('shows the password rule and says when the confirmation differs', async () => {
    const server = fakeServer({ login: () => loginAnswer({ password_expired: true }) });
    await logInExpired(server);
    fireEvent.click(await screen.findByTestId('login-update-password'));
    await screen.findByTestId('update-current-password');
    expect(
      screen.getByText(
        'The new password must be 10 to 128 characters long and contain at least one letter and one digit.',
      ),
    ).toBeDefined();
    fillForm('demo-password-1', 'fresh-password-9', 'fresh-password-8');
    expect(screen.getByText('The passwords do not match.')).toBeDefined();
    expect(isDisabled(screen.getByTestId('update-submit'))).toBe(true);
  });

  it('is not reachable on a fresh load: the visitor goes to /login', async () => {
    const location = renderApp('/update-password', fakeServer());
    await screen.findByTestId('login-submit');
    expect(currentPath(location)).toBe('/login');
  });
});
