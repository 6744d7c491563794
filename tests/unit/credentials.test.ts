import { describe, expect, it } from 'vitest';
import {
  emailDomainOf,
  isEmailAddress,
  isLoginFormComplete,
  isNewPasswordConfirmed,
  isNewPasswordValid,
  isOtpCodeWellFormed,
  loginPathFor,
  normalizeOtpCode,
  normalizeUsername,
  redirectTargetFrom,
} from '../../src/domain/credentials';

describe('normalizeUsername', () => {
  it('lowercases and trims', () => {
    expect(normalizeUsername('  Alice.Tan@Example.COM \t')).toBe('alice.tan@example.com');
  });
});

describe('isLoginFormComplete', () => {
  it('needs a username and a password', () => {
    expect(isLoginFormComplete('alice', 'pw')).toBe(true);
    expect(isLoginFormComplete('', 'pw')).toBe(false);
    expect(isLoginFormComplete('   ', 'pw')).toBe(false);
    expect(isLoginFormComplete('alice', '')).toBe(false);
  });
  it('keeps a password of spaces as typed', () => {
    expect(isLoginFormComplete('alice', '  ')).toBe(true);
  });
});

describe('redirectTargetFrom', () => {
  it('takes the redirect query path', () => {
    expect(redirectTargetFrom('redirect=%2Freceipts')).toBe('/receipts');
    expect(redirectTargetFrom('?redirect=%2Fsettings%3Ftab%3Dfees')).toBe('/settings?tab=fees');
  });
  it('falls back to / without one', () => {
    expect(redirectTargetFrom('')).toBe('/');
    expect(redirectTargetFrom('other=1')).toBe('/');
  });
  it('refuses addresses outside the site and loops back to /login', () => {
    expect(redirectTargetFrom('redirect=https%3A%2F%2Fevil.example.com')).toBe('/');
    expect(redirectTargetFrom('redirect=%2F%2Fevil.example.com')).toBe('/');
    expect(redirectTargetFrom('redirect=%2F%5Cevil.example.com')).toBe('/');
    expect(redirectTargetFrom('redirect=javascript%3Aalert(1)')).toBe('/');
    expect(redirectTargetFrom('redirect=%2Flogin')).toBe('/');
  });
});

describe('loginPathFor', () => {
  it('carries the wanted path as the redirect query', () => {
    expect(loginPathFor('/receipts')).toBe('/login?redirect=%2Freceipts');
    expect(loginPathFor('/settings?tab=fees')).toBe('/login?redirect=%2Fsettings%3Ftab%3Dfees');
  });
});

describe('e-mail helpers (§5)', () => {
  it('recognises an e-mail address', () => {
    expect(isEmailAddress('alice@mall.example')).toBe(true);
    // The contract's rule: no control characters in the name part.
    expect(isEmailAddress('ali\u0000ce@mall.example')).toBe(false);
    expect(isEmailAddress('0@com')).toBe(false);
    expect(isEmailAddress(' alice@mall.example ')).toBe(true);
    expect(isEmailAddress('alice@localhost')).toBe(false);
    expect(isEmailAddress('alice')).toBe(false);
    expect(isEmailAddress('a b@mall.example')).toBe(false);
    expect(isEmailAddress('alice@-mall.example')).toBe(false);
  });

  it('gives the lowercased domain that picks the identity provider', () => {
    expect(emailDomainOf(' Bob@Partner.Example ')).toBe('partner.example');
    expect(emailDomainOf('bob')).toBeUndefined();
  });
});

describe('new password rule', () => {
  it('needs 10 to 128 characters with a letter and a digit', () => {
    expect(isNewPasswordValid('abcdefghi1')).toBe(true);
    expect(isNewPasswordValid('abcdefgh1')).toBe(false);
    expect(isNewPasswordValid('abcdefghij')).toBe(false);
    expect(isNewPasswordValid('1234567890')).toBe(false);
    expect(isNewPasswordValid(`a1${'x'.repeat(126)}`)).toBe(true);
    expect(isNewPasswordValid(`a1${'x'.repeat(127)}`)).toBe(false);
    expect(isNewPasswordValid('mötley-crüe-1')).toBe(true);
  });

  it('must be confirmed', () => {
    expect(isNewPasswordConfirmed('abcdefghi1', 'abcdefghi1')).toBe(true);
    expect(isNewPasswordConfirmed('abcdefghi1', 'abcdefghi2')).toBe(false);
    expect(isNewPasswordConfirmed('short1', 'short1')).toBe(false);
  });
});

describe('one-time code', () => {
  it('is six digits, spaces ignored', () => {
    expect(isOtpCodeWellFormed('123456')).toBe(true);
    expect(isOtpCodeWellFormed(' 123 456 ')).toBe(true);
    expect(normalizeOtpCode(' 123 456 ')).toBe('123456');
    expect(isOtpCodeWellFormed('12345')).toBe(false);
    expect(isOtpCodeWellFormed('1234567')).toBe(false);
    expect(isOtpCodeWellFormed('12345a')).toBe(false);
  });
});
