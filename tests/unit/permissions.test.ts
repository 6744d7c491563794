import { describe, expect, it } from 'vitest';
import {
  actionForMethod,
  hasPermission,
  isAuthEndpoint,
  isRequestAllowed,
  parsePermission,
  requestPathOf,
} from '../../src/domain/permissions';

describe('actionForMethod', () => {
  it.each([
    ['GET', 'Read'],
    ['POST', 'Create'],
    ['PUT', 'Update'],
    ['DELETE', 'Delete'],
    ['get', 'Read'],
    ['delete', 'Delete'],
  ])('%s -> %s', (method, action) => {
    expect(actionForMethod(method)).toBe(action);
  });

  it('has no action for other methods', () => {
    expect(actionForMethod('PATCH')).toBeUndefined();
    expect(actionForMethod('HEAD')).toBeUndefined();
  });
});

describe('requestPathOf', () => {
  it('drops origin, query string and fragment', () => {
    expect(requestPathOf('http://localhost:3000/outlets?client_id=1#x')).toBe('/outlets');
    expect(requestPathOf('/malls?client_id=2')).toBe('/malls');
    expect(requestPathOf('/api/mall_report/gmv')).toBe('/api/mall_report/gmv');
    expect(requestPathOf('https://example.com')).toBe('/');
  });
});

describe('parsePermission', () => {
  it('splits path and action', () => {
    expect(parsePermission('/outlets::Read')).toEqual({ path: '/outlets', action: 'Read' });
    expect(parsePermission('*::*')).toEqual({ path: '*', action: '*' });
  });
  it('rejects strings that are not pairs', () => {
    expect(parsePermission('/outlets')).toBeUndefined();
    expect(parsePermission('::Read')).toBeUndefined();
  });
});

describe('isAuthEndpoint', () => {
  it.each(['/api/login', '/api/logout', '/api/getcsrftoken', '/api/credential', '/api/otp', '/api/verifyOtp'])(
    '%s is an authentication endpoint',
    (path) => {
      expect(isAuthEndpoint(path)).toBe(true);
    },
  );
  it('covers everything under /api/user/', () => {
    expect(isAuthEndpoint('/api/user/verifyUserEmail')).toBe(true);
    expect(isAuthEndpoint('/api/user/resetPassword?validationKey=abc')).toBe(true);
    expect(isAuthEndpoint('/api/user/password')).toBe(true);
  });
  it('does not cover look-alikes', () => {
    expect(isAuthEndpoint('/api/users')).toBe(false);
    expect(isAuthEndpoint('/api/login/extra')).toBe(false);
    expect(isAuthEndpoint('/api/loginx')).toBe(false);
    expect(isAuthEndpoint('/clients')).toBe(false);
  });
});

describe('isRequestAllowed', () => {
  const list = ['/outlets::Read', '/settings/processingFees::Update', '/api/mall_report/*::Read', '/clients::Create'];

  it('allows an exact path with the matching action', () => {
    expect(isRequestAllowed(list, '/outlets', 'GET')).toBe(true);
    expect(isRequestAllowed(list, '/settings/processingFees', 'PUT')).toBe(true);
  });

  it('ignores the query string and the origin', () => {
    expect(isRequestAllowed(list, '/outlets?client_id=3', 'GET')).toBe(true);
    expect(isRequestAllowed(list, 'http://localhost/outlets?client_id=3', 'GET')).toBe(true);
  });

  it('maps the method to the action', () => {
    expect(isRequestAllowed(list, '/outlets', 'POST')).toBe(false);
    expect(isRequestAllowed(list, '/outlets', 'PUT')).toBe(false);
    expect(isRequestAllowed(list, '/outlets', 'DELETE')).toBe(false);
    expect(isRequestAllowed(list, '/clients', 'POST')).toBe(true);
    expect(isRequestAllowed(list, '/clients', 'GET')).toBe(false);
    expect(isRequestAllowed(['/things::Delete'], '/things', 'DELETE')).toBe(true);
    expect(isRequestAllowed(['/things::Read'], '/things', 'get')).toBe(true);
  });

  it('does not match a path that only starts like a permitted one', () => {
    expect(isRequestAllowed(list, '/outlets/sku', 'GET')).toBe(false);
    expect(isRequestAllowed(list, '/outlet', 'GET')).toBe(false);
  });

  it('matches a `prefix/*` pair against everything under the prefix', () => {
    expect(isRequestAllowed(list, '/api/mall_report/gmv', 'GET')).toBe(true);
    expect(isRequestAllowed(list, '/api/mall_report/peak/hours?x=1', 'GET')).toBe(true);
    expect(isRequestAllowed(list, '/api/mall_report/gmv', 'POST')).toBe(false);
    expect(isRequestAllowed(list, '/api/mall_reports/gmv', 'GET')).toBe(false);
  });

  it('allows everything with `*::*`', () => {
    expect(isRequestAllowed(['*::*'], '/anything/at/all', 'DELETE')).toBe(true);
    expect(isRequestAllowed(['*::*'], '/outlets', 'GET')).toBe(true);
  });

  it('always allows authentication endpoints, even with no permissions', () => {
    expect(isRequestAllowed([], '/api/login', 'POST')).toBe(true);
    expect(isRequestAllowed([], '/api/logout', 'GET')).toBe(true);
    expect(isRequestAllowed([], '/api/getcsrftoken', 'GET')).toBe(true);
    expect(isRequestAllowed([], '/api/credential', 'GET')).toBe(true);
    expect(isRequestAllowed([], '/api/otp', 'GET')).toBe(true);
    expect(isRequestAllowed([], '/api/verifyOtp', 'POST')).toBe(true);
    expect(isRequestAllowed([], '/api/user/sendResetPasswordEmail', 'POST')).toBe(true);
  });

  it('exempts payment URLs and the password change', () => {
    expect(isRequestAllowed([], '/api/payment', 'POST')).toBe(true);
    expect(isRequestAllowed([], '/api/billing/payment/status?id=4', 'GET')).toBe(true);
    expect(isRequestAllowed([], '/api/user/password', 'PUT')).toBe(true);
  });

  it('refuses unmatched requests', () => {
    expect(isRequestAllowed([], '/outlets', 'GET')).toBe(false);
    expect(isRequestAllowed(list, '/malls', 'GET')).toBe(false);
    expect(isRequestAllowed(['not a pair', '/malls'], '/malls', 'GET')).toBe(false);
    expect(isRequestAllowed(['/malls::Read'], '/malls', 'PATCH')).toBe(false);
  });
});

describe('hasPermission', () => {
  it('matches pairs without the browser-side exemptions', () => {
    expect(hasPermission([], '/api/login', 'POST')).toBe(false);
    expect(hasPermission(['/api/user/password::Update'], '/api/user/password', 'PUT')).toBe(true);
    expect(hasPermission(['/outlets/{id}::Read'], '/outlets/{id}', 'GET')).toBe(true);
  });
});
