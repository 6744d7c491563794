import { type Department, departmentOfRoles } from './breakeven';
import { addDays, isValidMonth, rangeDays } from './dateLimits';
import { FILTER_QUERY_KEYS } from './filterUrl';
import { monthDays } from './reports';
import { pathMatches, routePathId, workbookOfPagePath } from './reportWorkbooks';

/**
 * Report subscriptions (issue 34, reports by e-mail): a report page and the filters of its header, mailed on a
 * schedule as a PDF of the page and, for a page that has one, its workbook. The rules are written once, here: the
 * server decides by them when a subscription is due and which days it reports, and the subscribe dialog and the
 * Subscriptions list describe a schedule with them.
 */

export type SubscriptionFormat = 'pdf' | 'workbook';
export type SubscriptionFrequency = 'daily' | 'weekly' | 'monthly';

/**
 * How a page's period rolls when it is sent (rolledFilters): a date range keeps its number of days and ends on the
 * last whole day; a month becomes the month of the last whole day (on the 1st, the month just ended); a page of
 * the year shown (Sales Trends) shows the year of the last whole day (`year=`, set whether or not its filters hold
 * one: on 1 January, the year just ended, as its workbook). A page of complete months only (`complete-month`: the
 * tenant's Rent Statement and the GTO Review, whose month pickers end at the last complete month) shows the last
 * complete month as of the day it is sent (sent any day of March: February).
 */
export type SubscriptionPeriodKind = 'range' | 'month' | 'complete-month' | 'year';

/** The key of the year a page of the year shown (Sales Trends) keeps in its address: `year=2026`. */
export const YEAR_QUERY_KEY = 'year';

/** A report page a subscription may name. */
export interface SubscribablePage {
  readonly path: string;
  readonly title: string;
  /**
   * The page's read that decides whether a recipient may get its figures (their permission for it, at sending
   * time); the malls of its filters decide the rest.
   */
  readonly read: string;
  readonly period: SubscriptionPeriodKind;
  /**
   * What its figures are of: the malls of its filters, or one outlet (`outlet=`, the header's outlet of an outlet
   * page), which a recipient must see at sending time; or the client's outlets the recipient sees (`client=` alone:
   * the GTO Review, whose list each recipient's own visibility narrows, so a tenant gets its own outlets' rows).
   */
  readonly scope: 'malls' | 'outlet' | 'client';
  /**
   * A breakeven page's department (its figures are one department's targets): Marcom's own page, or the
   * recipient's department (departmentForRecipient).
   */
  readonly department?: 'marcom' | 'recipient';
  /**
   * The key of the page's filters naming a second outlet of its figures (Cross Spending Details' `other=`: the pair
   * of the header's outlet and another of its mall), which a recipient must see too.
   */
  readonly pairedOutletKey?: string;
  /** The start of its files' names when its last path part would not say the page ('cross-spending-details'). */
  readonly fileBase?: string;
}

/**
 * The report pages a subscription may name: the pages whose figures follow the client, malls and period of the
 * header (the mall header's, or a page's own malls and dates kept in the header's filters), in the menu's order.
 */
export const SUBSCRIBABLE_PAGES: readonly SubscribablePage[] = [
  {
    path: '/shopper-connect/mall-home',
    title: 'Mall Home',
    read: '/api/mall_report/daily',
    period: 'range',
    scope: 'malls',
  },
  {
    path: '/shopper-connect/mall-gmv',
    title: 'Mall GMV',
    read: '/api/mall_report/daily',
    period: 'range',
    scope: 'malls',
  },
  {
    path: '/shopper-connect/breakeven-target/marcom',
    title: 'Marcom Breakeven Target',
    read: '/api/mall_report/breakeven_target',
    period: 'month',
    scope: 'malls',
    department: 'marcom',
  },
  {
    path: '/shopper-connect/mall-peak-hours',
    title: 'Mall Peak Hours',
    read: '/api/mall_report/peak_hour',
    period: 'range',
    scope: 'malls',
  },
  {
    // The outlet is the path's (`:id`).
    path: '/shopper-connect/mall-outlet/:id',
    title: 'Mall Outlet',
    read: '/api/mall_report/outlet/overallComparison',
    period: 'range',
    scope: 'outlet',
  },
  {
    path: '/shopper-connect/mall-payment-methods',
    title: 'Mall Payment Methods',
    read: '/api/mall_report/payment_method/overall',
    period: 'range',
    scope: 'malls',
  },
  {
    path: '/shopper-connect/member-vs-non-member',
    title: 'Member vs Non-member',
    read: '/api/mall_report/member/overall',
    period: 'range',
    scope: 'malls',
  },
  {
    path: '/shopper-connect/cross-spending',
    title: 'Cross Spending',
    read: '/api/mall_report/crossSpending',
    period: 'range',
    scope: 'outlet',
  },
  {
    // The pair of the header's outlet and the outlet its `other=` names, day by day.
    path: '/shopper-connect/cross-spending/details',
    title: 'Cross Spending Details',
    read: '/api/mall_report/crossSpending/details',
    period: 'range',
    scope: 'outlet',
    pairedOutletKey: 'other',
    fileBase: 'cross-spending-details',
  },
  {
    path: '/shopper-connect/sales-trends',
    title: 'Sales Trends',
    read: '/api/mall_report/monthly',
    period: 'year',
    scope: 'malls',
  },
  {
    path: '/shopper-connect/refunds',
    title: 'Refunds',
    read: '/api/mall_report/refund',
    period: 'range',
    scope: 'malls',
  },
  {
    path: '/shopper-connect/voucher-redemption',
    title: 'Voucher Redemption',
    read: '/api/mall_report/voucher',
    period: 'range',
    scope: 'malls',
  },
  {
    // Every outlet's GTO of the month in the client (no malls in its filters); its month picker ends at the last
    // complete month.
    path: '/tenant-connect/gto-review',
    title: 'GTO Review',
    read: '/api/gtoReport/summary',
    period: 'complete-month',
    scope: 'client',
  },
  {
    path: '/tenant-connect/breakeven-target',
    title: 'Breakeven Target',
    read: '/api/mall_report/breakeven_target',
    period: 'month',
    scope: 'malls',
    department: 'recipient',
  },
  {
    path: '/tenant-connect/rent-statements',
    title: 'Rent Statements',
    read: '/api/rentStatements',
    period: 'month',
    scope: 'malls',
  },
  {
    path: '/tenant-connect/sales-analysis',
    title: 'Sales Analysis',
    read: '/outlets/overallComparison',
    period: 'range',
    scope: 'outlet',
  },
  {
    path: '/tenant-connect/sales-review',
    title: 'Sales Review',
    read: '/api/salesReview/daily',
    period: 'range',
    scope: 'outlet',
  },
  {
    // The tenant's pages of the header's outlet and month: a mall's staff can mail a tenant its own each month.
    path: '/tenants/gross-turnover',
    title: 'Gross Turnover',
    read: '/api/gtoReport/outletMonths',
    period: 'month',
    scope: 'outlet',
  },
  {
    path: '/tenants/rent-statement',
    title: 'Rent Statement',
    read: '/api/tenant/rentStatement',
    period: 'complete-month',
    scope: 'outlet',
  },
];

/**
 * The department whose targets a breakeven page shows the holder of `roles`, as the page chooses it: Marcom's page
 * Marcom's, null for a recipient of another department (who may not read them); the other page the recipient's own
 * department, Leasing (the page's first) for one of none. Undefined for a page of no department.
 */
export function departmentForRecipient(
  page: SubscribablePage,
  roles: readonly string[],
): Department | null | undefined {
  if (page.department === undefined) return undefined;
  const own = departmentOfRoles(roles);
  if (page.department === 'marcom') return own === undefined || own === 'marcom' ? 'marcom' : null;
  return own ?? 'leasing';
}

/** The page at `path` a subscription may name, if it is one (a route with `:id` matches its paths with an id). */
export function subscribablePage(path: string): SubscribablePage | undefined {
  return SUBSCRIBABLE_PAGES.find((page) => pathMatches(page.path, path));
}

/** Whether `path` is a report page a subscription may name. */
export function isSubscribablePage(path: string): boolean {
  return subscribablePage(path) !== undefined;
}

/** The formats a page offers: its PDF always, its workbook when it has one. */
export function formatsOfPage(path: string): SubscriptionFormat[] {
  return workbookOfPagePath(path) ? ['pdf', 'workbook'] : ['pdf'];
}

/** When a subscription is sent: every day, a weekday (1 Monday .. 7 Sunday) or a day of the month (1..28). */
export interface SubscriptionSchedule {
  readonly frequency: SubscriptionFrequency;
  /** 0..23 in the mall's time zone. */
  readonly hour: number;
  readonly weekday?: number | null | undefined;
  readonly monthDay?: number | null | undefined;
}

export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** '08:00'. */
export function hourText(hour: number): string {
  return `${String(hour).padStart(2, '0')}:00`;
}

/** 'Daily at 08:00', 'Weekly on Monday at 08:00', 'Monthly on day 1 at 08:00' (the mall's time). */
export function scheduleText(schedule: SubscriptionSchedule): string {
  const at = `at ${hourText(schedule.hour)}`;
  if (schedule.frequency === 'weekly') return `Weekly on ${WEEKDAY_NAMES[(schedule.weekday ?? 1) - 1]} ${at}`;
  if (schedule.frequency === 'monthly') return `Monthly on day ${schedule.monthDay ?? 1} ${at}`;
  return `Daily ${at}`;
}

/** The schedule's problem, if any: a weekly one names its weekday, a monthly one its day, nothing else. */
export function scheduleProblem(schedule: SubscriptionSchedule): string | undefined {
  if (!Number.isInteger(schedule.hour) || schedule.hour < 0 || schedule.hour > 23) return 'hour';
  const hasWeekday = schedule.weekday !== undefined && schedule.weekday !== null;
  const hasMonthDay = schedule.monthDay !== undefined && schedule.monthDay !== null;
  if ((schedule.frequency === 'weekly') !== hasWeekday) return 'weekday';
  if ((schedule.frequency === 'monthly') !== hasMonthDay) return 'month_day';
  return undefined;
}

/** A wall clock in a time zone: its day 'YYYY-MM-DD', hour and minute, and weekday (1 Monday .. 7 Sunday). */
export interface LocalClock {
  readonly date: string;
  readonly hour: number;
  readonly minute: number;
  readonly weekday: number;
}

/** The wall clock of `instant` in `timeZone`. */
export function localClock(instant: Date, timeZone: string): LocalClock {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    weekday: 'short',
  }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(part('weekday')) + 1;
  return {
    date: `${part('year')}-${part('month')}-${part('day')}`,
    hour: Number(part('hour')),
    minute: Number(part('minute')),
    weekday,
  };
}

/** A period of a schedule: its key (one delivery a key) and the mall's day it is sent on. */
export interface SubscriptionPeriod {
  readonly key: string;
  readonly sendDay: string;
}

/** The period the clock is in: daily 'D:<day>', weekly 'W:<its send day>', monthly 'M:<YYYY-MM>'. */
export function currentPeriod(schedule: SubscriptionSchedule, clock: LocalClock): SubscriptionPeriod {
  if (schedule.frequency === 'weekly') {
    const back = (clock.weekday - (schedule.weekday ?? 1) + 7) % 7;
    const sendDay = addDays(clock.date, -back);
    return { key: `W:${sendDay}`, sendDay };
  }
  if (schedule.frequency === 'monthly') {
    const month = clock.date.slice(0, 7);
    return { key: `M:${month}`, sendDay: `${month}-${String(schedule.monthDay ?? 1).padStart(2, '0')}` };
  }
  return { key: `D:${clock.date}`, sendDay: clock.date };
}

/**
 * The period due at `clock` (the mall's wall clock), if any: its send day and hour have come, and they came after
 * the subscription was made (`createdAt`, the mall's wall clock then), so a subscription made at 10:00 for 08:00
 * starts the next day. A period missed (a downtime) is not sent later: the next one is.
 */
export function duePeriod(
  schedule: SubscriptionSchedule,
  clock: LocalClock,
  createdAt: LocalClock,
): SubscriptionPeriod | undefined {
  const period = currentPeriod(schedule, clock);
  const sendAt = `${period.sendDay} ${hourText(schedule.hour)}`;
  const now = `${clock.date} ${hourText(clock.hour)}`;
  if (now < sendAt) return undefined;
  const made = `${createdAt.date} ${hourText(createdAt.hour)}:${String(createdAt.minute).padStart(2, '0')}`;
  if (made >= `${sendAt}:00`) return undefined;
  return period;
}

/**
 * The filters as sent on `sendDay`: the page's range keeps its number of days and ends the day before (the last
 * whole day in the mall's zone), so a daily subscription of 'last 7 days' reports the 7 days up to yesterday; a
 * page's month becomes the month of that day (a monthly subscription sent on the 1st reports the month just ended;
 * a page of complete months only, the month before the send day's), and its year (`year=`) the year of that day, which a page of the year shown (`period` 'year': Sales Trends) is
 * always given, its filters holding one or not (sent on 1 January 2027, it shows 2026, as its workbook does).
 * Every other filter is kept as it is.
 */
export function rolledFilters(filters: string, sendDay: string, period?: SubscriptionPeriodKind): string {
  const params = new URLSearchParams(filters);
  const from = params.get(FILTER_QUERY_KEYS.from);
  const to = params.get(FILTER_QUERY_KEYS.to);
  const end = addDays(sendDay, -1);
  if (from !== null && to !== null && from <= to) {
    params.set(FILTER_QUERY_KEYS.from, addDays(end, -(rangeDays({ start: from, end: to }) - 1)));
    params.set(FILTER_QUERY_KEYS.to, end);
  }
  if (params.has(FILTER_QUERY_KEYS.month)) {
    const lastComplete = addDays(`${sendDay.slice(0, 7)}-01`, -1);
    params.set(FILTER_QUERY_KEYS.month, (period === 'complete-month' ? lastComplete : end).slice(0, 7));
  }
  if (period === 'year' || params.has(YEAR_QUERY_KEY)) params.set(YEAR_QUERY_KEY, end.slice(0, 4));
  return params.toString().replace(/%2C/gi, ',');
}

/** The days a page's filters report: its range, or its month's days; none for a page of the year shown. */
export function daysOfFilters(filters: string): { start: string; end: string } | undefined {
  const params = new URLSearchParams(filters);
  const from = params.get(FILTER_QUERY_KEYS.from);
  const to = params.get(FILTER_QUERY_KEYS.to);
  if (from !== null && to !== null) return { start: from, end: to };
  const month = params.get(FILTER_QUERY_KEYS.month);
  return month !== null && isValidMonth(month) ? monthDays(month) : undefined;
}

/** What a subscription's figures are of: its client and malls, and the outlet of an outlet page. */
export interface SubscriptionScope {
  readonly clientId: number;
  /**
   * The malls of its filters; an outlet page's may name none (the server keeps the outlet's mall), a client page's
   * names none (the server keeps the client's malls the subscriber sees).
   */
  readonly mallIds: number[];
  readonly outletId?: number | undefined;
  /** The second outlet of a page of a pair (its `pairedOutletKey`), another than `outletId`. */
  readonly pairedOutletId?: number | undefined;
}

const isId = (id: number) => Number.isInteger(id) && id >= 1 && id <= 2_147_483_647;

/**
 * The client and malls a page's filters name, and for an outlet page its outlet (`pathOutlet` when the page's path
 * names it, else the filters' `outlet=`), and a page of a pair its second outlet (`pairedOutletKey`); undefined when
 * they name none or not as ids: a mall page needs its malls, an outlet page one outlet, a page of a pair two, a
 * client page its client alone (any `malls=` it carries is not its: no malls).
 */
export function scopeOfFilters(
  filters: string,
  scope: SubscribablePage['scope'] = 'malls',
  pathOutlet?: number,
  pairedOutletKey?: string,
): SubscriptionScope | undefined {
  const params = new URLSearchParams(filters);
  const client = Number(params.get(FILTER_QUERY_KEYS.client));
  const mallText = params.get(FILTER_QUERY_KEYS.malls) ?? '';
  const malls = mallText === '' ? [] : mallText.split(',').map(Number);
  if (!isId(client) || !malls.every(isId)) return undefined;
  const mallIds = [...new Set(malls)];
  if (scope === 'outlet') {
    const outlet = pathOutlet ?? Number(params.get(FILTER_QUERY_KEYS.outlet));
    if (!isId(outlet)) return undefined;
    if (pairedOutletKey === undefined) return { clientId: client, mallIds, outletId: outlet };
    const paired = Number(params.get(pairedOutletKey));
    return isId(paired) && paired !== outlet
      ? { clientId: client, mallIds, outletId: outlet, pairedOutletId: paired }
      : undefined;
  }
  if (scope === 'client') return { clientId: client, mallIds: [] };
  return mallIds.length > 0 ? { clientId: client, mallIds } : undefined;
}

/**
 * The start of a subscription's file names: the page's last path part ('refunds'), with its id ('mall-outlet-12');
 * a breakeven page's as its workbook's, with the recipient's department ('breakeven-target-marcom'); a page's own
 * where its path does not say it ('cross-spending-details').
 */
export function subscriptionFileBase(pagePath: string, department?: Department): string {
  const workbook = workbookOfPagePath(pagePath);
  if (department !== undefined && workbook !== undefined) return `${workbook.fileBase}-${department}`;
  const named = subscribablePage(pagePath)?.fileBase;
  if (named !== undefined) return named;
  const parts = pagePath.split('/').filter((part) => part !== '');
  const last = parts.at(-1) ?? 'report';
  return /^\d+$/.test(last) && parts.length > 1 ? `${parts.at(-2)}-${last}` : last;
}

/**
 * The filters a subscription of the page at `pagePath` keeps: as given, but a client page's (the GTO Review's)
 * without the header's malls and outlet, which are not its (the page would read an `outlet=` of its address as the
 * outlet it was opened for, and print that outlet's rows alone while its workbook is the whole list).
 */
export function subscriptionFiltersOf(pagePath: string, filters: string): string {
  if (subscribablePage(pagePath)?.scope !== 'client') return filters;
  const params = new URLSearchParams(filters);
  params.delete(FILTER_QUERY_KEYS.malls);
  params.delete(FILTER_QUERY_KEYS.outlet);
  return params.toString().replace(/%2C/gi, ',');
}

/** What a subscription of the page at `pagePath` with `filters` is of; undefined for no such page or scope. */
export function scopeOfSubscription(pagePath: string, filters: string): SubscriptionScope | undefined {
  const page = subscribablePage(pagePath);
  // The id a page's path names where its route has `:id` ('/shopper-connect/mall-outlet/12': 12).
  return page && scopeOfFilters(filters, page.scope, routePathId(page.path, pagePath), page.pairedOutletKey);
}

/* ---------------------------------------------------------------- the subscribe dialog */

/** The page a subscription is made of: its client, path and title, and the header's query string as shown. */
export interface SubscriptionTarget {
  readonly clientId: number;
  readonly pagePath: string;
  readonly pageTitle: string;
  /** The page's query without '?' ('client=1&malls=2&from=...'). */
  readonly filters: string;
}

/** What the subscribe dialog edits. */
export interface SubscriptionDraft {
  readonly name: string;
  readonly frequency: SubscriptionFrequency;
  /** 1 Monday .. 7 Sunday, used when weekly. */
  readonly weekday: number;
  /** 1..28, used when monthly. */
  readonly monthDay: number;
  readonly hour: number;
  readonly formats: readonly SubscriptionFormat[];
  readonly recipientIds: readonly number[];
  readonly active: boolean;
}

/** What a draft lacks, by field (the dialog shows each at its field). */
export interface SubscriptionDraftProblems {
  readonly name?: string;
  readonly formats?: string;
  readonly recipients?: string;
}

/** The largest day of the month a monthly subscription may name (every month has it). */
export const LAST_MONTH_DAY = 28;

/** The page's query as a subscription keeps it: without the leading '?', commas readable. */
export function filtersOfSearch(search: string): string {
  return (search.startsWith('?') ? search.slice(1) : search).replace(/%2C/gi, ',');
}

/**
 * The subscription of a page shown with `search`, or undefined for a page that cannot be subscribed to or a query
 * that names no client and mall.
 */
export function subscriptionTargetOf(pagePath: string, search: string): SubscriptionTarget | undefined {
  const page = subscribablePage(pagePath);
  if (!page) return undefined;
  const filters = subscriptionFiltersOf(pagePath, filtersOfSearch(search));
  const scope = scopeOfSubscription(pagePath, filters);
  if (!scope) return undefined;
  return { clientId: scope.clientId, pagePath, pageTitle: page.title, filters };
}

/** A new subscription of the page: named after it, daily at 08:00, every format the page has, to nobody yet. */
export function newSubscriptionDraft(target: SubscriptionTarget): SubscriptionDraft {
  return {
    name: target.pageTitle,
    frequency: 'daily',
    weekday: 1,
    monthDay: 1,
    hour: 8,
    formats: formatsOfPage(target.pagePath),
    recipientIds: [],
    active: true,
  };
}

/** The subscription as stored, for the dialog that changes it. */
export function draftOfSubscription(subscription: {
  readonly name: string;
  readonly frequency: SubscriptionFrequency;
  readonly weekday: number | null;
  readonly month_day: number | null;
  readonly hour: number;
  readonly formats: readonly SubscriptionFormat[];
  readonly recipients: readonly { readonly id: number }[];
  readonly active: boolean;
}): SubscriptionDraft {
  return {
    name: subscription.name,
    frequency: subscription.frequency,
    weekday: subscription.weekday ?? 1,
    monthDay: subscription.month_day ?? 1,
    hour: subscription.hour,
    formats: [...subscription.formats],
    recipientIds: subscription.recipients.map((recipient) => recipient.id),
    active: subscription.active,
  };
}

/** The draft's problems: a name, at least one format the page has, at least one recipient. */
export function subscriptionDraftProblems(draft: SubscriptionDraft, pagePath: string): SubscriptionDraftProblems {
  const offered = formatsOfPage(pagePath);
  return {
    ...(draft.name.trim() === '' ? { name: 'Please enter a name.' } : {}),
    ...(draft.formats.length === 0 || !draft.formats.every((format) => offered.includes(format))
      ? { formats: 'Please choose at least one format.' }
      : {}),
    ...(draft.recipientIds.length === 0 ? { recipients: 'Please choose at least one recipient.' } : {}),
  };
}

/** Whether the draft can be saved. */
export function isSubscriptionDraftValid(draft: SubscriptionDraft, pagePath: string): boolean {
  return Object.keys(subscriptionDraftProblems(draft, pagePath)).length === 0;
}

/** The draft as the call's body (weekday only when weekly, day of the month only when monthly). */
export function subscriptionInputOf(target: SubscriptionTarget, draft: SubscriptionDraft) {
  return {
    client_id: target.clientId,
    name: draft.name.trim(),
    page_path: target.pagePath,
    filters: target.filters,
    formats: [...draft.formats],
    frequency: draft.frequency,
    weekday: draft.frequency === 'weekly' ? draft.weekday : null,
    month_day: draft.frequency === 'monthly' ? draft.monthDay : null,
    hour: draft.hour,
    recipient_ids: [...draft.recipientIds],
    active: draft.active,
  };
}

/** 'PDF', 'PDF, Workbook'. */
export function formatsText(formats: readonly SubscriptionFormat[]): string {
  return formats.map((format) => (format === 'pdf' ? 'PDF' : 'Workbook')).join(', ');
}
