import { describe, expect, it } from 'vitest';
import {
  COOKIE_MAX_AGE_DAYS,
  expireCookie,
  filterCookieStrings,
  parseCookies,
  readFilterCookies,
  readSidebarCookie,
  serializeCookie,
  sidebarCookieString,
} from '../../src/domain/cookies';

describe('parseCookies', () => {
  it('reads name=value pairs', () => {
    expect(parseCookies('a=1; b=two%2C3;c=')).toEqual({ a: '1', b: 'two,3', c: '' });
    expect(parseCookies('')).toEqual({});
    expect(parseCookies('broken; x=1')).toEqual({ x: '1' });
  });
  it('keeps the first of a repeated name and a value it cannot decode', () => {
    expect(parseCookies('a=1; a=2')).toEqual({ a: '1' });
    expect(parseCookies('a=%E0%A4%A')).toEqual({ a: '%E0%A4%A' });
  });
});

describe('serializeCookie', () => {
  it('keeps a cookie 14 days by default', () => {
    expect(COOKIE_MAX_AGE_DAYS).toBe(14);
    expect(serializeCookie('client_id', '3')).toBe('client_id=3; Max-Age=1209600; Path=/; SameSite=Lax');
  });
  it('takes options and encodes the value', () => {
    expect(serializeCookie('mall_ids', '1,2', { maxAgeDays: 1, path: '/app', sameSite: 'Strict', secure: true })).toBe(
      'mall_ids=1%2C2; Max-Age=86400; Path=/app; SameSite=Strict; Secure',
    );
  });
  it('expires a cookie', () => {
    expect(expireCookie('outlet_id')).toBe('outlet_id=; Max-Age=0; Path=/; SameSite=Lax');
  });
});

describe('filter cookies', () => {
  it('read the client, outlet and malls', () => {
    expect(readFilterCookies('client_id=3; outlet_id=12; mall_ids=1%2C2')).toEqual({
      clientId: 3,
      outlet: 12,
      mallIds: [1, 2],
    });
    expect(readFilterCookies('outlet_id=all')).toEqual({ clientId: undefined, outlet: 'all', mallIds: undefined });
  });
  it('ignore malformed values', () => {
    expect(readFilterCookies('client_id=abc; outlet_id=1,2; mall_ids=x')).toEqual({
      clientId: undefined,
      outlet: undefined,
      mallIds: undefined,
    });
  });
  it('write the selections for 14 days, deleting empty ones', () => {
    expect(filterCookieStrings({ clientId: 3, outlet: 'all', mallIds: [1, 2] })).toEqual([
      'client_id=3; Max-Age=1209600; Path=/; SameSite=Lax',
      'outlet_id=all; Max-Age=1209600; Path=/; SameSite=Lax',
      'mall_ids=1%2C2; Max-Age=1209600; Path=/; SameSite=Lax',
    ]);
    expect(filterCookieStrings({ clientId: 3, outlet: undefined, mallIds: [] })).toEqual([
      'client_id=3; Max-Age=1209600; Path=/; SameSite=Lax',
      'outlet_id=; Max-Age=0; Path=/; SameSite=Lax',
      'mall_ids=; Max-Age=0; Path=/; SameSite=Lax',
    ]);
  });
  it('round-trip', () => {
    const header = filterCookieStrings({ clientId: 5, outlet: 7, mallIds: [4, 9] })
      .map((cookie) => cookie.split(';')[0])
      .join('; ');
    expect(readFilterCookies(header)).toEqual({ clientId: 5, outlet: 7, mallIds: [4, 9] });
  });
});

describe('sidebar cookie', () => {
  it('reads and writes the sidebar state', () => {
    expect(readSidebarCookie('sidebar_status=closed')).toBe('closed');
    expect(readSidebarCookie('sidebar_status=opened')).toBe('opened');
    expect(readSidebarCookie('sidebar_status=maybe')).toBeUndefined();
    expect(sidebarCookieString('opened')).toBe('sidebar_status=opened; Max-Age=1209600; Path=/; SameSite=Lax');
  });
});
