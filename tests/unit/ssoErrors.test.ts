import { describe, expect, it } from 'vitest';
import { SSO_FAILED_MESSAGE } from '../../src/domain/messages';
import { SSO_ERRORS, ssoErrorMessage, ssoErrorPath } from '../../src/domain/ssoErrors';

describe('the /sso page error', () => {
  it('shows the fixed message of each code the server sends', () => {
    expect(ssoErrorMessage('not_set_up')).toBe('Single sign-on is not set up for this e-mail domain.');
    expect(ssoErrorMessage('expired')).toBe('Your single sign-on attempt has expired. Please start again.');
    expect(ssoErrorMessage('cancelled')).toBe('Sign-in was cancelled at the identity provider.');
    expect(ssoErrorMessage('no_account')).toBe('No account exists for the e-mail address the identity provider gave.');
    for (const [code, message] of Object.entries(SSO_ERRORS)) expect(ssoErrorMessage(code)).toBe(message);
  });

  it('shows the generic failure for any other text, never the text itself', () => {
    for (const text of [
      'Your account is locked. Call +1 555 0100',
      '<a href="//x.invalid">PAYLINK</a>',
      'constructor',
      'toString',
      '__proto__',
      'NOT_SET_UP',
      ' expired',
      '',
    ]) {
      expect(ssoErrorMessage(text)).toBe(SSO_FAILED_MESSAGE);
    }
  });

  it('holds no text from data: every message is a plain sentence of the list', () => {
    for (const message of Object.values(SSO_ERRORS)) expect(message).toMatch(/^[A-Z][^<>{}$]*\.$/);
  });

  it('is reached by a path with the code alone', () => {
    expect(ssoErrorPath('no_email')).toBe('/sso?error=no_email');
  });
});
