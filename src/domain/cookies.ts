import {
  type OutletSelection,
  outletSelectionValue,
  parseIdList,
  parseOutletSelection,
  parsePositiveInt,
} from './filterOptions';

/**
 * The filter cookies (§4, §9): the selected client, outlet and malls, kept 14 days, and the sidebar
 * state. Pure: reading takes `document.cookie`'s text, writing returns the strings to assign to
 * `document.cookie` (the filter header machine does that in an action).
 */

export const COOKIE_MAX_AGE_DAYS = 14;
const SECONDS_PER_DAY = 86_400;

export const CLIENT_COOKIE = 'client_id';
export const OUTLET_COOKIE = 'outlet_id';
export const MALLS_COOKIE = 'mall_ids';
export const SIDEBAR_COOKIE = 'sidebar_status';

export interface CookieOptions {
  /** Default 14 days. */
  readonly maxAgeDays?: number;
  /** Default '/'. */
  readonly path?: string;
  /** Default 'Lax'. */
  readonly sameSite?: 'Strict' | 'Lax' | 'None';
  readonly secure?: boolean;
}

/** `a=1; b=2` → { a: '1', b: '2' } (values URI-decoded; the first of a repeated name wins). */
export function parseCookies(header: string): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const pair of header.split(';')) {
    const index = pair.indexOf('=');
    if (index < 0) continue;
    const name = pair.slice(0, index).trim();
    if (name === '' || name in cookies) continue;
    const raw = pair.slice(index + 1).trim();
    try {
      cookies[name] = decodeURIComponent(raw);
    } catch {
      cookies[name] = raw;
    }
  }
  return cookies;
}

/** One `document.cookie` assignment: `name=value; Max-Age=1209600; Path=/; SameSite=Lax`. */
export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  const maxAge = Math.round((options.maxAgeDays ?? COOKIE_MAX_AGE_DAYS) * SECONDS_PER_DAY);
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `Max-Age=${maxAge}`,
    `Path=${options.path ?? '/'}`,
    `SameSite=${options.sameSite ?? 'Lax'}`,
  ];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

/** An assignment that deletes the cookie. */
export function expireCookie(name: string, options: Pick<CookieOptions, 'path'> = {}): string {
  return serializeCookie(name, '', { maxAgeDays: 0, path: options.path ?? '/' });
}

export interface FilterCookies {
  readonly clientId?: number | undefined;
  readonly outlet?: OutletSelection | undefined;
  readonly mallIds?: readonly number[] | undefined;
}

/** The filter selections kept in cookies; a malformed value is ignored. */
export function readFilterCookies(header: string): FilterCookies {
  const cookies = parseCookies(header);
  const client = cookies[CLIENT_COOKIE];
  const malls = cookies[MALLS_COOKIE];
  return {
    clientId: client === undefined ? undefined : parsePositiveInt(client),
    outlet: parseOutletSelection(cookies[OUTLET_COOKIE]),
    mallIds: malls === undefined ? undefined : parseIdList(malls),
  };
}

/** The assignments that save the selections for 14 days; an empty selection deletes its cookie. */
export function filterCookieStrings(filters: FilterCookies, options: CookieOptions = {}): string[] {
  const path = options.path === undefined ? {} : { path: options.path };
  const strings: string[] = [];
  strings.push(
    filters.clientId === undefined
      ? expireCookie(CLIENT_COOKIE, path)
      : serializeCookie(CLIENT_COOKIE, String(filters.clientId), options),
  );
  strings.push(
    filters.outlet === undefined
      ? expireCookie(OUTLET_COOKIE, path)
      : serializeCookie(OUTLET_COOKIE, outletSelectionValue(filters.outlet), options),
  );
  strings.push(
    filters.mallIds === undefined || filters.mallIds.length === 0
      ? expireCookie(MALLS_COOKIE, path)
      : serializeCookie(MALLS_COOKIE, filters.mallIds.join(','), options),
  );
  return strings;
}

export type SidebarStatus = 'opened' | 'closed';

/** The remembered sidebar state, if any. */
export function readSidebarCookie(header: string): SidebarStatus | undefined {
  const value = parseCookies(header)[SIDEBAR_COOKIE];
  return value === 'opened' || value === 'closed' ? value : undefined;
}

export function sidebarCookieString(status: SidebarStatus, options: CookieOptions = {}): string {
  return serializeCookie(SIDEBAR_COOKIE, status, options);
}
