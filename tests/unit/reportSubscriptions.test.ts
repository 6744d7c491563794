import { describe, expect, it } from 'vitest';
import {
  daysOfFilters,
  departmentForRecipient,
  draftOfSubscription,
  duePeriod,
  filtersOfSearch,
  formatsOfPage,
  formatsText,
  localClock,
  newSubscriptionDraft,
  rolledFilters,
  SUBSCRIBABLE_PAGES,
  scheduleText,
  scopeOfFilters,
  scopeOfSubscription,
  subscribablePage,
  subscriptionDraftProblems,
  subscriptionFileBase,
  subscriptionFiltersOf,
  subscriptionInputOf,
  subscriptionTargetOf,
} from '../../src/domain/reportSubscriptions';
import { workbookOfPagePath } from '../../src/domain/reportWorkbooks';

const clock = (iso: string, zone = 'Asia/Singapore') => localClock(new Date(iso), zone);

describe('report subscription schedules', () => {
  it('reads the wall clock of the mall’s zone', () => {
    expect(clock('2026-03-08T16:30:00Z')).toEqual({ date: '2026-03-09', hour: 0, minute: 30, weekday: 1 });
    expect(clock('2026-03-08T16:30:00Z', 'America/New_York')).toEqual({
      date: '2026-03-08',
      hour: 12,
      minute: 30,
      weekday: 7,
    });
  });

  it('is due from its hour, and not in the period it was made in after that hour', () => {
    const daily = { frequency: 'daily', hour: 8 } as const;
    const made = clock('2026-03-08T00:00:00Z');
    expect(duePeriod(daily, clock('2026-03-08T23:59:00Z'), made)).toBeUndefined();
    expect(duePeriod(daily, clock('2026-03-09T00:00:00Z'), made)).toEqual({
      key: 'D:2026-03-09',
      sendDay: '2026-03-09',
    });
    // Made at 10:00 for 08:00: its first period is the next day's.
    expect(duePeriod(daily, clock('2026-03-09T03:00:00Z'), clock('2026-03-09T02:00:00Z'))).toBeUndefined();
  });

  it('weekly on its weekday, monthly on its day', () => {
    const made = clock('2026-03-01T00:00:00Z');
    const weekly = { frequency: 'weekly', hour: 8, weekday: 3 } as const;
    expect(duePeriod(weekly, clock('2026-03-10T03:00:00Z'), made)).toEqual({
      key: 'W:2026-03-04',
      sendDay: '2026-03-04',
    });
    expect(duePeriod(weekly, clock('2026-03-11T03:00:00Z'), made)?.key).toBe('W:2026-03-11');
    const monthly = { frequency: 'monthly', hour: 8, monthDay: 15 } as const;
    expect(duePeriod(monthly, clock('2026-03-14T03:00:00Z'), made)).toBeUndefined();
    expect(duePeriod(monthly, clock('2026-03-20T03:00:00Z'), made)).toEqual({
      key: 'M:2026-03',
      sendDay: '2026-03-15',
    });
    expect(scheduleText(weekly)).toBe('Weekly on Wednesday at 08:00');
    expect(scheduleText(monthly)).toBe('Monthly on day 15 at 08:00');
  });

  it('rolls the range to end the day before sending, keeping its length and the other filters', () => {
    expect(
      rolledFilters('client=1&malls=1,2&from=2026-03-02&to=2026-03-08&compare=festival_aligned', '2026-03-20'),
    ).toBe('client=1&malls=1,2&from=2026-03-13&to=2026-03-19&compare=festival_aligned');
    // A month page reports the month of the last whole day: on the 1st, the month just ended.
    expect(rolledFilters('client=1&malls=1&month=2026-01', '2026-03-01')).toBe('client=1&malls=1&month=2026-02');
    expect(rolledFilters('client=1&malls=1&month=2026-01', '2026-03-20')).toBe('client=1&malls=1&month=2026-03');
    // The days a subscription's files are named after and its workbook made of: the range, or the month's days.
    expect(daysOfFilters('client=1&from=2026-03-02&to=2026-03-08')).toEqual({ start: '2026-03-02', end: '2026-03-08' });
    expect(daysOfFilters('client=1&month=2024-02')).toEqual({ start: '2024-02-01', end: '2024-02-29' });
    expect(daysOfFilters('client=1&malls=1')).toBeUndefined();
    // Without a year, a page that is not of the year shown keeps its filters as they are.
    expect(rolledFilters('client=1&malls=1&compare=same_month_last_year', '2026-03-20')).toBe(
      'client=1&malls=1&compare=same_month_last_year',
    );
    expect(scopeOfFilters('client=1&malls=1,2')).toEqual({ clientId: 1, mallIds: [1, 2] });
    expect(scopeOfFilters('client=1')).toBeUndefined();
    // An outlet page names its outlet; its malls may be left out.
    expect(scopeOfFilters('client=1&outlet=12&from=2026-03-02&to=2026-03-08', 'outlet')).toEqual({
      clientId: 1,
      mallIds: [],
      outletId: 12,
    });
    expect(scopeOfFilters('client=1&malls=2&outlet=all', 'outlet')).toBeUndefined();
    expect(scopeOfFilters('client=1&malls=2,x', 'malls')).toBeUndefined();
  });
});

describe('the year of a page of the year shown', () => {
  it('becomes the year of the last whole day: on 1 January, the year just ended', () => {
    // Its filters' year rolls, in place, as a month does.
    expect(rolledFilters('client=1&malls=1,2&year=2024&compare=previous', '2027-01-01')).toBe(
      'client=1&malls=1,2&year=2026&compare=previous',
    );
    expect(rolledFilters('year=2024&client=1&malls=1', '2026-03-20')).toBe('year=2026&client=1&malls=1');
    expect(rolledFilters('year=2026&client=1&malls=1', '2026-01-02')).toBe('year=2026&client=1&malls=1');
    // Sales Trends (a page of the year) is always given it, its filters holding one or not.
    const period = SUBSCRIBABLE_PAGES.find((page) => page.path === '/shopper-connect/sales-trends')?.period;
    expect(period).toBe('year');
    expect(rolledFilters('client=1&malls=1,2', '2027-01-01', period)).toBe('client=1&malls=1,2&year=2026');
    expect(rolledFilters('client=1&malls=1,2', '2026-03-20', period)).toBe('client=1&malls=1,2&year=2026');
    expect(rolledFilters('client=1&malls=1,2', '2026-01-01', 'year')).toBe('client=1&malls=1,2&year=2025');
    // The other pages roll as before, given their kind of period or not.
    expect(rolledFilters('client=1&malls=1&month=2026-01', '2027-01-01', 'month')).toBe(
      'client=1&malls=1&month=2026-12',
    );
    expect(rolledFilters('client=1&malls=1&from=2026-03-02&to=2026-03-08', '2027-01-01', 'range')).toBe(
      'client=1&malls=1&from=2026-12-25&to=2026-12-31',
    );
    // Its days are none of the filters': the job reads the year.
    expect(daysOfFilters('client=1&malls=1&year=2026')).toBeUndefined();
  });
});

describe('the subscribe dialog', () => {
  const target = subscriptionTargetOf(
    '/shopper-connect/mall-home',
    '?client=1&malls=2%2C3&from=2026-03-01&to=2026-03-07',
  );

  it('subscribes a report page with its query as shown, never another page or a query without its malls', () => {
    expect(target).toEqual({
      clientId: 1,
      pagePath: '/shopper-connect/mall-home',
      pageTitle: 'Mall Home',
      filters: 'client=1&malls=2,3&from=2026-03-01&to=2026-03-07',
    });
    expect(subscriptionTargetOf('/shopper-connect/export', '?client=1&malls=2')).toBeUndefined();
    expect(subscriptionTargetOf('/shopper-connect/mall-gmv', '?client=1')).toBeUndefined();
    expect(subscriptionTargetOf('/tenant-connect/sales-analysis', '?client=1&malls=2&outlet=12')).toMatchObject({
      pageTitle: 'Sales Analysis',
      filters: 'client=1&malls=2&outlet=12',
    });
    expect(subscriptionTargetOf('/tenant-connect/sales-analysis', '?client=1&malls=2')).toBeUndefined();
    expect(subscriptionTargetOf('/shopper-connect/cross-spending', '?client=1&outlet=12')).toMatchObject({
      pageTitle: 'Cross Spending',
    });
    // The Mall Outlet page's outlet is its path's.
    expect(subscriptionTargetOf('/shopper-connect/mall-outlet/12', '?client=1&malls=2')).toMatchObject({
      pagePath: '/shopper-connect/mall-outlet/12',
      pageTitle: 'Mall Outlet',
    });
    expect(scopeOfSubscription('/shopper-connect/mall-outlet/12', 'client=1&malls=2')).toEqual({
      clientId: 1,
      mallIds: [2],
      outletId: 12,
    });
    expect(subscriptionTargetOf('/shopper-connect/mall-outlet/0', '?client=1&malls=2')).toBeUndefined();
    // Cross Spending Details is of a pair: the header's outlet and its other (other=), another one.
    expect(
      scopeOfSubscription('/shopper-connect/cross-spending/details', 'client=1&malls=2&outlet=12&other=13'),
    ).toEqual({ clientId: 1, mallIds: [2], outletId: 12, pairedOutletId: 13 });
    expect(scopeOfSubscription('/shopper-connect/cross-spending/details', 'client=1&outlet=12')).toBeUndefined();
    expect(
      scopeOfSubscription('/shopper-connect/cross-spending/details', 'client=1&outlet=12&other=12'),
    ).toBeUndefined();
    expect(subscriptionFileBase('/shopper-connect/cross-spending/details')).toBe('cross-spending-details');
    // The tenant's pages of an outlet and a month.
    expect(subscriptionTargetOf('/tenants/rent-statement', '?client=1&outlet=12&month=2026-02')).toMatchObject({
      pageTitle: 'Rent Statement',
      filters: 'client=1&outlet=12&month=2026-02',
    });
    expect(subscriptionTargetOf('/tenants/gross-turnover', '?client=1&month=2026-02')).toBeUndefined();
    expect(rolledFilters('client=1&outlet=12&month=2026-01', '2026-03-01')).toBe('client=1&outlet=12&month=2026-02');
    // The tenant's Rent Statement shows complete months only: any day of March sends February.
    for (const sendDay of ['2026-03-01', '2026-03-02', '2026-03-31']) {
      expect(rolledFilters('client=1&outlet=12&month=2026-01', sendDay, 'complete-month')).toBe(
        'client=1&outlet=12&month=2026-02',
      );
    }
    expect(rolledFilters('client=1&outlet=12&month=2026-01', '2026-03-02', 'month')).toBe(
      'client=1&outlet=12&month=2026-03',
    );
    // The GTO Review is of the client's outlets each recipient sees: its client alone (no malls), of the last
    // complete month as its month picker shows it (any day of March sends February; on 1 January, December).
    const gtoReview = SUBSCRIBABLE_PAGES.find((page) => page.path === '/tenant-connect/gto-review');
    expect(gtoReview).toMatchObject({
      title: 'GTO Review',
      read: '/api/gtoReport/summary',
      period: 'complete-month',
      scope: 'client',
    });
    expect(subscriptionTargetOf('/tenant-connect/gto-review', '?client=3&month=2026-02')).toEqual({
      clientId: 3,
      pagePath: '/tenant-connect/gto-review',
      pageTitle: 'GTO Review',
      filters: 'client=3&month=2026-02',
    });
    expect(subscriptionTargetOf('/tenant-connect/gto-review', '?month=2026-02')).toBeUndefined();
    // The header's malls and outlet are not its: kept, the outlet would narrow its PDF to one outlet's row.
    expect(
      subscriptionTargetOf('/tenant-connect/gto-review', '?client=3&malls=1%2C2&outlet=12&month=2026-02')?.filters,
    ).toBe('client=3&month=2026-02');
    expect(subscriptionFiltersOf('/tenants/rent-statement', 'client=1&outlet=12&month=2026-02')).toBe(
      'client=1&outlet=12&month=2026-02',
    );
    expect(scopeOfFilters('client=3&month=2026-02', 'client')).toEqual({ clientId: 3, mallIds: [] });
    // Malls the header carries are not the page's: the figures are the client's outlets the recipient sees.
    expect(scopeOfFilters('client=3&malls=1,2&month=2026-02', 'client')).toEqual({ clientId: 3, mallIds: [] });
    expect(scopeOfFilters('client=x&month=2026-02', 'client')).toBeUndefined();
    expect(scopeOfFilters('client=3&malls=1,x', 'client')).toBeUndefined();
    for (const sendDay of ['2026-03-01', '2026-03-15', '2026-03-31']) {
      expect(rolledFilters('client=3&month=2025-11', sendDay, gtoReview?.period)).toBe('client=3&month=2026-02');
    }
    expect(rolledFilters('client=3&month=2026-05', '2027-01-01', gtoReview?.period)).toBe('client=3&month=2026-12');
    expect(subscriptionFileBase('/tenant-connect/gto-review')).toBe('gto-review');
    expect(formatsOfPage('/tenant-connect/gto-review')).toEqual(['pdf', 'workbook']);
    expect(subscriptionFileBase('/shopper-connect/mall-outlet/12')).toBe('mall-outlet-12');
    expect(subscriptionFileBase('/tenant-connect/rent-statements')).toBe('rent-statements');
    expect(subscriptionFileBase('/shopper-connect/breakeven-target/marcom', 'marcom')).toBe('breakeven-target-marcom');
    expect(subscriptionFileBase('/tenant-connect/breakeven-target', 'finance')).toBe('breakeven-target-finance');
    expect(subscriptionTargetOf('/shopper-connect/mall-outlet/12/x', '?client=1&malls=2')).toBeUndefined();
    expect(filtersOfSearch('client=1&malls=1%2c2')).toBe('client=1&malls=1,2');
  });

  it('shows a breakeven page’s recipient the department the page would show them', () => {
    const page = (path: string) => {
      const found = subscribablePage(path);
      if (!found) throw new Error(`no page ${path}`);
      return found;
    };
    const marcom = page('/shopper-connect/breakeven-target/marcom');
    const own = page('/tenant-connect/breakeven-target');
    expect(departmentForRecipient(marcom, ['Operator'])).toBe('marcom');
    expect(departmentForRecipient(marcom, ['Marcom team'])).toBe('marcom');
    // Another department may not read Marcom's targets: nothing is sent to them.
    expect(departmentForRecipient(marcom, ['Leasing'])).toBeNull();
    expect(departmentForRecipient(own, ['Finance'])).toBe('finance');
    // An operator's page starts on Leasing, the first department.
    expect(departmentForRecipient(own, ['Operator'])).toBe('leasing');
    expect(departmentForRecipient(page('/shopper-connect/refunds'), ['Leasing'])).toBeUndefined();
  });

  it('starts daily at 08:00 with every format of the page, and asks a name, a format and a recipient', () => {
    if (!target) throw new Error('no target');
    const draft = newSubscriptionDraft(target);
    expect(draft).toMatchObject({ name: 'Mall Home', frequency: 'daily', hour: 8, formats: ['pdf', 'workbook'] });
    expect(subscriptionDraftProblems(draft, target.pagePath)).toEqual({
      recipients: 'Please choose at least one recipient.',
    });
    expect(
      Object.keys(subscriptionDraftProblems({ ...draft, name: ' ', formats: [], recipientIds: [2] }, target.pagePath)),
    ).toEqual(['name', 'formats']);
    // Every page that may be subscribed to has its workbook (issue 34), offered beside its PDF.
    for (const { path } of SUBSCRIBABLE_PAGES) {
      const formats = formatsOfPage(path);
      expect(formats).toEqual(['pdf', 'workbook']);
      expect(subscriptionDraftProblems({ ...draft, formats, recipientIds: [2] }, path)).toEqual({});
    }
    // The page of an id (its path's, not its route's) offers its workbook too, and so do the tenant's month pages.
    expect(formatsOfPage('/shopper-connect/mall-outlet/12')).toEqual(['pdf', 'workbook']);
    expect(formatsOfPage('/tenants/rent-statement')).toEqual(['pdf', 'workbook']);
    expect(formatsOfPage('/tenants/gross-turnover')).toEqual(['pdf', 'workbook']);
    expect(SUBSCRIBABLE_PAGES.filter(({ path }) => !workbookOfPagePath(path))).toEqual([]);
  });

  it('sends the weekday only when weekly and the day of the month only when monthly', () => {
    if (!target) throw new Error('no target');
    const draft = { ...newSubscriptionDraft(target), name: ' Weekly ', weekday: 3, monthDay: 9, recipientIds: [2] };
    expect(subscriptionInputOf(target, { ...draft, frequency: 'weekly' })).toMatchObject({
      name: 'Weekly',
      weekday: 3,
      month_day: null,
    });
    expect(subscriptionInputOf(target, { ...draft, frequency: 'monthly' })).toMatchObject({
      weekday: null,
      month_day: 9,
    });
    expect(subscriptionInputOf(target, draft)).toMatchObject({ weekday: null, month_day: null, recipient_ids: [2] });
    expect(
      draftOfSubscription({
        name: 'A',
        frequency: 'monthly',
        weekday: null,
        month_day: 15,
        hour: 6,
        formats: ['pdf'],
        recipients: [{ id: 4 }],
        active: false,
      }),
    ).toEqual({
      name: 'A',
      frequency: 'monthly',
      weekday: 1,
      monthDay: 15,
      hour: 6,
      formats: ['pdf'],
      recipientIds: [4],
      active: false,
    });
    expect(formatsText(['pdf', 'workbook'])).toBe('PDF, Workbook');
  });
});
