import { describe, expect, it } from 'vitest';
import {
  hrefOf,
  isEntryLocation,
  isFlowPage,
  isPublicPath,
  isReachableFrom,
  loginLocationFor,
  normalizePath,
  parseLocation,
  safeReturnPath,
  sameLocation,
} from '../../src/domain/navigation';

const at = (href: string) => parseLocation(href);

describe('locations', () => {
  it('splits path and query and drops the fragment', () => {
    expect(parseLocation('/login?redirect=%2Fx#top')).toEqual({ path: '/login', search: 'redirect=%2Fx' });
    expect(parseLocation('/receipts/')).toEqual({ path: '/receipts', search: '' });
    expect(parseLocation('')).toEqual({ path: '/', search: '' });
    expect(hrefOf(at('/a?b=1'))).toBe('/a?b=1');
    expect(hrefOf(at('/a'))).toBe('/a');
    expect(normalizePath('settings//')).toBe('/settings');
    expect(sameLocation(at('/a?b=1'), at('/a?b=1'))).toBe(true);
    expect(sameLocation(at('/a?b=1'), at('/a?b=2'))).toBe(false);
    expect(sameLocation(undefined, at('/a'))).toBe(false);
  });
});

describe('public routes (§2)', () => {
  it.each([
    '/login',
    '/sso',
    '/mfa-validation',
    '/reset-password',
    '/reset-password-success',
    '/account-creation',
    '/update-password',
    '/404',
    '/download/receipts/pdf',
    '/payment',
  ])('%s needs no login', (path) => {
    expect(isPublicPath(path)).toBe(true);
  });

  it('everything else does', () => {
    expect(isPublicPath('/')).toBe(false);
    expect(isPublicPath('/receipts')).toBe(false);
    expect(isPublicPath('/login/extra')).toBe(false);
  });
});

describe('entry pages: a signed-in user is sent on', () => {
  it('covers /login, /sso, /mfa-validation and /reset-password without a key', () => {
    expect(isEntryLocation(at('/login'))).toBe(true);
    expect(isEntryLocation(at('/login?redirect=%2Freceipts'))).toBe(true);
    expect(isEntryLocation(at('/sso?status=success'))).toBe(true);
    expect(isEntryLocation(at('/mfa-validation'))).toBe(true);
    expect(isEntryLocation(at('/reset-password'))).toBe(true);
    expect(isEntryLocation(at('/reset-password?validationKey='))).toBe(true);
    expect(isEntryLocation(at('/reset-password?validationKey=abc'))).toBe(false);
    expect(isEntryLocation(at('/update-password'))).toBe(false);
    expect(isEntryLocation(at('/account-creation?validationKey=abc'))).toBe(false);
  });
});

describe('flow pages: only from the preceding step', () => {
  it('knows the flow pages', () => {
    expect(isFlowPage('/mfa-validation')).toBe(true);
    expect(isFlowPage('/update-password')).toBe(true);
    expect(isFlowPage('/reset-password-success')).toBe(true);
    expect(isFlowPage('/reset-password')).toBe(false);
    expect(isFlowPage('/login')).toBe(false);
  });

  it('opens /mfa-validation from the login only', () => {
    expect(isReachableFrom(at('/mfa-validation'), at('/login?redirect=%2Fx'))).toBe(true);
    expect(isReachableFrom(at('/mfa-validation'), at('/receipts'))).toBe(false);
    expect(isReachableFrom(at('/mfa-validation'), undefined)).toBe(false);
  });

  it('opens /update-password from the login or the code', () => {
    expect(isReachableFrom(at('/update-password'), at('/login'))).toBe(true);
    expect(isReachableFrom(at('/update-password'), at('/mfa-validation'))).toBe(true);
    expect(isReachableFrom(at('/update-password'), at('/sso'))).toBe(false);
  });

  it('opens /reset-password-success from the reset only', () => {
    expect(isReachableFrom(at('/reset-password-success'), at('/reset-password?validationKey=k'))).toBe(true);
    expect(isReachableFrom(at('/reset-password-success'), at('/update-password'))).toBe(false);
  });

  it('lets a page stay open (the same page) and never gates other pages', () => {
    expect(isReachableFrom(at('/mfa-validation'), at('/mfa-validation'))).toBe(true);
    expect(isReachableFrom(at('/receipts'), undefined)).toBe(true);
    expect(isReachableFrom(at('/login'), at('/receipts'))).toBe(true);
  });
});

describe('the way back after sign-in', () => {
  it('carries the wanted path with its query to /login', () => {
    expect(hrefOf(loginLocationFor(at('/receipts?page=2')))).toBe('/login?redirect=%2Freceipts%3Fpage%3D2');
    expect(hrefOf(loginLocationFor(at('/')))).toBe('/login');
  });

  it('accepts only paths of this site', () => {
    expect(safeReturnPath('/receipts?page=2')).toBe('/receipts?page=2');
    expect(safeReturnPath(undefined)).toBeUndefined();
    expect(safeReturnPath('//evil.example.com')).toBeUndefined();
    expect(safeReturnPath('/\\evil.example.com')).toBeUndefined();
    expect(safeReturnPath('https://evil.example.com')).toBeUndefined();
    expect(safeReturnPath('/login?redirect=%2Fx')).toBeUndefined();
    expect(safeReturnPath('/')).toBeUndefined();
  });
});
