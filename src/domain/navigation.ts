/**
 * The navigation guard's rules (§2) as pure functions: which paths are public, which flow pages
 * need their preceding step, where a signed-out visitor is sent. No I/O; the navigation guard
 * machine decides with these.
 */

/** A location inside the app: a path without query, and the query without its `?`. */
export interface AppLocation {
  readonly path: string;
  readonly search: string;
}

/** §2 public routes: no login needed. */
export const PUBLIC_PATHS: readonly string[] = [
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
];

export const LOGIN_PATH = '/login';
export const NOT_FOUND_PATH = '/404';
export const ROOT_PATH = '/';

/**
 * §2: "/update-password, /mfa-validation and /reset-password-success are reachable only from the
 * preceding step of their flow (login, MFA, update, reset)": the pages each may be reached from.
 */
export const FLOW_PREDECESSORS: Readonly<Record<string, readonly string[]>> = {
  '/mfa-validation': ['/login'],
  '/update-password': ['/login', '/mfa-validation'],
  '/reset-password-success': ['/reset-password'],
};

/** Splits `/path?query#hash` into an AppLocation (the fragment is dropped). */
export function parseLocation(href: string): AppLocation {
  const withoutHash = href.split('#')[0] ?? '';
  const queryStart = withoutHash.indexOf('?');
  const rawPath = queryStart === -1 ? withoutHash : withoutHash.slice(0, queryStart);
  const search = queryStart === -1 ? '' : withoutHash.slice(queryStart + 1);
  return { path: normalizePath(rawPath), search };
}

/** Leading slash, no trailing slash (except the root). */
export function normalizePath(path: string): string {
  const trimmed = (path.startsWith('/') ? path : `/${path}`).replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

export function hrefOf(location: AppLocation): string {
  return location.search === '' ? location.path : `${location.path}?${location.search}`;
}

export function sameLocation(a: AppLocation | undefined, b: AppLocation | undefined): boolean {
  return a !== undefined && b !== undefined && a.path === b.path && a.search === b.search;
}

export function isPublicPath(path: string): boolean {
  return PUBLIC_PATHS.includes(path);
}

export function searchParam(location: AppLocation, name: string): string | undefined {
  const value = new URLSearchParams(location.search).get(name);
  return value === null || value === '' ? undefined : value;
}

/**
 * §2: "A logged-in user opening /login or /sso, or /reset-password, is sent to their landing page"
 * (/reset-password only without a validationKey: a reset link still opens). /mfa-validation is
 * added: once the code is verified, the step is over.
 */
export function isEntryLocation(location: AppLocation): boolean {
  if (location.path === '/login' || location.path === '/sso' || location.path === '/mfa-validation') return true;
  return location.path === '/reset-password' && searchParam(location, 'validationKey') === undefined;
}

export function isFlowPage(path: string): boolean {
  return FLOW_PREDECESSORS[path] !== undefined;
}

/**
 * Whether a flow page may be opened coming from `from` (undefined: a fresh load). Staying on the
 * page (the same path, e.g. when the session changes) is always allowed.
 */
export function isReachableFrom(to: AppLocation, from: AppLocation | undefined): boolean {
  const predecessors = FLOW_PREDECESSORS[to.path];
  if (predecessors === undefined) return true;
  if (from === undefined) return false;
  return from.path === to.path || predecessors.includes(from.path);
}

/**
 * A site-local path to return to (from a `redirect` query): no `//host`, no `scheme:`, no /login
 * loop. Undefined when there is none.
 */
export function safeReturnPath(wanted: string | undefined): string | undefined {
  if (!wanted?.startsWith('/') || wanted.startsWith('//') || wanted.startsWith('/\\')) return undefined;
  const { path } = parseLocation(wanted);
  if (path === '/login' || path === '/') return undefined;
  return wanted;
}

/** §2: "Without a session, any non-public path goes to /login with the wanted path as a redirect query." */
export function loginLocationFor(wanted: AppLocation): AppLocation {
  if (wanted.path === ROOT_PATH && wanted.search === '') return { path: LOGIN_PATH, search: '' };
  return { path: LOGIN_PATH, search: `redirect=${encodeURIComponent(hrefOf(wanted))}` };
}
