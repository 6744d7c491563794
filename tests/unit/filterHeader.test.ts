import { describe, expect, it } from 'vitest';
import type { DateWindow } from '../../src/domain/dateLimits';
import {
  type CommittedFilters,
  DEFAULT_FILTER_PAGE,
  defaultMonth,
  type FilterHeaderContext,
  type FilterPageConfig,
  filterLinkSearch,
  filterQueryOf,
  filtersFromUrl,
  filtersOnPage,
  fitRange,
  fitsRange,
  initialFilterHeaderContext,
  inMallOrder,
  isClientAllowed,
  maxDaysFor,
  maxDaysOf,
  metricFor,
  pageOf,
  requireClientId,
  searchWithFilters,
  selectedOutletIds,
  stripQuestionMark,
} from '../../src/domain/filterHeader';

const TODAY = '2024-03-15';
const WINDOW: DateWindow = { earliest: undefined, latest: TODAY };
const V2: FilterPageConfig = { ...DEFAULT_FILTER_PAGE, headerV2: true, averageTransactionValue: true };

const FILTERS: CommittedFilters = {
  clientId: 3,
  mallIds: [1, 2],
  outlet: 'all',
  dateRange: { start: '2024-03-09', end: TODAY },
  hours: { from: 0, to: 23 },
  timeRange: 'daily',
  metric: 'gmv',
  month: '2024-03',
};

function context(overrides: Partial<FilterHeaderContext> = {}): FilterHeaderContext {
  return { ...initialFilterHeaderContext({ today: TODAY, clientIds: [3, 4], defaultClientId: 3 }), ...overrides };
}

describe('the page configuration', () => {
  it('fills what a page does not say with the defaults', () => {
    expect(pageOf(undefined)).toEqual(DEFAULT_FILTER_PAGE);
    expect(pageOf({ headerV2: true })).toEqual({ ...DEFAULT_FILTER_PAGE, headerV2: true });
  });

  it('turns a metric the page does not offer into GMV', () => {
    expect(metricFor(DEFAULT_FILTER_PAGE, 'average_transaction_value')).toBe('gmv');
    expect(metricFor(V2, 'average_transaction_value')).toBe('average_transaction_value');
    expect(metricFor(DEFAULT_FILTER_PAGE, 'transactions')).toBe('transactions');
  });
});

describe('the longest range (§9)', () => {
  it('is 31 days on breakeven pages and pages without Header V2, else by time range and metric', () => {
    expect(maxDaysFor({ ...V2, breakeven: true }, 'monthly', 'gmv')).toBe(31);
    expect(maxDaysFor(DEFAULT_FILTER_PAGE, 'monthly', 'gmv')).toBe(31);
    expect(maxDaysFor(V2, 'monthly', 'gmv')).toBe(366);
    expect(maxDaysFor(V2, 'hourly', 'average_transaction_value')).toBe(1);
    expect(maxDaysOf({ page: V2, filters: { ...FILTERS, timeRange: 'weekly' } })).toBe(93);
  });

  it('tells whether the committed range fits a time range and metric', () => {
    const header = context({ page: V2, filters: FILTERS });
    expect(fitsRange(header, 'daily', 'gmv')).toBe(true);
    expect(fitsRange(header, 'hourly', 'average_transaction_value')).toBe(false);
  });

  it('keeps a range that fits, clamps one too long and replaces an invalid one', () => {
    const range = { start: '2024-03-09', end: TODAY };
    expect(fitRange(range, WINDOW, 31)).toEqual(range);
    expect(fitRange({ start: '2024-01-01', end: TODAY }, WINDOW, 7)).toEqual({ start: '2024-03-09', end: TODAY });
    expect(fitRange({ start: '2024-03-10', end: '2024-03-01' }, WINDOW, 7).end).toBe(TODAY);
  });
});

describe('the URL', () => {
  it('shows client, malls and outlet always, the period and Header V2 fields where the page has them', () => {
    expect(filterQueryOf({ page: DEFAULT_FILTER_PAGE, filters: FILTERS })).toEqual({
      clientId: 3,
      mallIds: [1, 2],
      outlet: 'all',
      dateRange: FILTERS.dateRange,
      month: undefined,
      hours: undefined,
      timeRange: undefined,
      metric: undefined,
    });
    const monthly = filterQueryOf({ page: { ...V2, period: 'month' }, filters: FILTERS });
    expect(monthly).toMatchObject({ dateRange: undefined, month: '2024-03', timeRange: 'daily', metric: 'gmv' });
  });

  it('writes the filters into the query, keeping other parameters and readable commas', () => {
    expect(searchWithFilters({ page: DEFAULT_FILTER_PAGE, filters: FILTERS, search: 'tab=2' })).toBe(
      'tab=2&client=3&malls=1,2&outlet=all&from=2024-03-09&to=2024-03-15',
    );
    expect(stripQuestionMark('?a=1')).toBe('a=1');
    expect(stripQuestionMark('a=1')).toBe('a=1');
  });

  it("gives a link the filters as the linked page will show them, and none of this page's other parameters", () => {
    const outlets = [{ id: 12, name: 'Kopi Corner' }];
    const here = {
      filters: { ...FILTERS, timeRange: 'weekly' as const, metric: 'average_transaction_value' as const },
    };
    const long = { ...here, filters: { ...here.filters, dateRange: { start: '2024-01-01', end: TODAY } } };
    // A page without Header V2: at most 31 days, GMV; the range keeps its end.
    expect(filtersOnPage({ ...long, window: WINDOW, outlets }, DEFAULT_FILTER_PAGE)).toMatchObject({
      dateRange: { start: '2024-02-14', end: TODAY },
      metric: 'gmv',
      outlet: 'all',
    });
    expect(filterLinkSearch({ ...long, window: WINDOW, outlets }, DEFAULT_FILTER_PAGE)).toBe(
      'client=3&malls=1,2&outlet=all&from=2024-02-14&to=2024-03-15',
    );
    // Header V2 (weekly: 93 days) keeps the range and adds its fields; an outlet-level page takes the first outlet.
    expect(filterLinkSearch({ ...long, window: WINDOW, outlets }, V2)).toBe(
      'client=3&malls=1,2&outlet=all&from=2024-01-01&to=2024-03-15&hours=0-23&time_range=weekly&metric=average_transaction_value',
    );
    expect(
      filterLinkSearch({ ...here, window: WINDOW, outlets }, { ...DEFAULT_FILTER_PAGE, outletMode: 'single' }),
    ).toBe('client=3&malls=1,2&outlet=12&from=2024-03-09&to=2024-03-15');
    // A monthly page carries the month, no dates.
    expect(filterLinkSearch({ ...here, window: WINDOW, outlets }, { ...DEFAULT_FILTER_PAGE, period: 'month' })).toBe(
      'client=3&malls=1,2&outlet=all&month=2024-03',
    );
  });
});

describe('the month a monthly page opens on', () => {
  const MONTHLY: FilterPageConfig = { ...DEFAULT_FILTER_PAGE, period: 'month' };
  const LAST_COMPLETE: FilterPageConfig = { ...MONTHLY, lastCompleteMonth: true };
  const outlets = [{ id: 12, name: 'Kopi Corner' }];

  it('is the current month, or the last complete one on GTO review and submission (also across a year)', () => {
    expect(defaultMonth(MONTHLY, TODAY)).toBe('2024-03');
    expect(defaultMonth(LAST_COMPLETE, TODAY)).toBe('2024-02');
    expect(defaultMonth(LAST_COMPLETE, '2026-01-01')).toBe('2025-12');
    expect(initialFilterHeaderContext({ today: TODAY, page: LAST_COMPLETE }).filters.month).toBe('2024-02');
    expect(initialFilterHeaderContext({ today: TODAY, page: MONTHLY }).filters.month).toBe('2024-03');
    // A month the address names wins.
    expect(
      initialFilterHeaderContext({ today: TODAY, page: LAST_COMPLETE, search: 'month=2024-03' }).filters.month,
    ).toBe('2024-03');
  });

  it('leaves the unfinished month for the last complete one when such a page is reached from another', () => {
    const here = { filters: FILTERS, window: WINDOW, outlets };
    expect(filtersOnPage({ ...here, page: MONTHLY }, LAST_COMPLETE).month).toBe('2024-02');
    expect(filterLinkSearch({ ...here, page: MONTHLY }, LAST_COMPLETE)).toBe(
      'client=3&malls=1,2&outlet=all&month=2024-02',
    );
    // A month chosen on such a page stays from one of them to the other, and a past month stays everywhere.
    expect(filtersOnPage({ ...here, page: LAST_COMPLETE }, LAST_COMPLETE).month).toBe('2024-03');
    const january = { ...here, filters: { ...FILTERS, month: '2024-01' } };
    expect(filtersOnPage({ ...january, page: MONTHLY }, LAST_COMPLETE).month).toBe('2024-01');
    expect(filtersOnPage({ ...here, page: LAST_COMPLETE }, MONTHLY).month).toBe('2024-03');
  });
});

describe('clients, malls and outlets', () => {
  it('allows any client when the user lists none', () => {
    expect(isClientAllowed([], 9)).toBe(true);
    expect(isClientAllowed([3], 9)).toBe(false);
    expect(isClientAllowed([3], null)).toBe(false);
  });

  it('orders mall ids as the malls come', () => {
    expect(inMallOrder([{ id: 3 }, { id: 1 }, { id: 2 }], [2, 3])).toEqual([3, 2]);
  });

  it('gives the outlet ids the pages query with', () => {
    const outlets = [
      { id: 12, name: 'Kopi' },
      { id: 7, name: 'Noodle' },
    ];
    expect(selectedOutletIds({ filters: FILTERS, outlets })).toBe('12,7');
    expect(selectedOutletIds({ filters: { ...FILTERS, outlet: 7 }, outlets })).toBe('7');
  });

  it('needs a client where one is required', () => {
    expect(requireClientId(context())).toBe(3);
    expect(() => requireClientId(context({ filters: { ...FILTERS, clientId: undefined } }))).toThrow();
  });
});

describe('the start (URL → cookies → defaults)', () => {
  it('takes the defaults: the default client, the last 7 days, all day, daily GMV', () => {
    const header = initialFilterHeaderContext({ today: TODAY, clientIds: [3, 4], defaultClientId: 3 });
    expect(header.filters).toEqual({ ...FILTERS, mallIds: [], outlet: undefined });
    expect(header.urlReasons).toEqual([]);
    expect(header.malls).toEqual([]);
  });

  it("takes the cookies' client, malls and outlet", () => {
    const header = initialFilterHeaderContext({
      today: TODAY,
      clientIds: [3, 4],
      defaultClientId: 3,
      cookies: 'client_id=4; outlet_id=20; mall_ids=5',
    });
    expect(header.filters).toMatchObject({ clientId: 4, mallIds: [5], outlet: 20 });
  });

  it("prefers the URL's values, and ignores the cookies' malls when the URL names another client", () => {
    const header = initialFilterHeaderContext({
      today: TODAY,
      clientIds: [3, 4],
      defaultClientId: 3,
      search: '?client=3&from=2024-03-01&to=2024-03-02',
      cookies: 'client_id=4; outlet_id=20; mall_ids=5',
      page: V2,
    });
    expect(header.search).toBe('client=3&from=2024-03-01&to=2024-03-02');
    expect(header.filters).toMatchObject({
      clientId: 3,
      mallIds: [],
      outlet: undefined,
      dateRange: { start: '2024-03-01', end: '2024-03-02' },
    });
  });

  it('says why URL values were not used', () => {
    const header = initialFilterHeaderContext({ today: TODAY, clientIds: [3], search: 'client=x' });
    expect(header.urlReasons.length).toBeGreaterThan(0);
    expect(header.filters.clientId).toBe(3);
  });
});

describe('a URL change', () => {
  it("takes the URL's good values and keeps the rest", () => {
    const header = context({ page: V2, filters: FILTERS });
    const { filters, reasons } = filtersFromUrl(header, 'from=2024-03-10&to=2024-03-11&metric=transactions');
    expect(reasons).toEqual([]);
    expect(filters).toEqual({
      ...FILTERS,
      dateRange: { start: '2024-03-10', end: '2024-03-11' },
      metric: 'transactions',
    });
  });

  it('clears malls and outlet when the client changes', () => {
    const header = context({ filters: FILTERS });
    expect(filtersFromUrl(header, 'client=4').filters).toMatchObject({ clientId: 4, mallIds: [], outlet: undefined });
  });

  it('keeps only known malls once the malls are loaded', () => {
    const header = context({ filters: FILTERS, malls: [{ id: 1 }, { id: 2 }] });
    expect(filtersFromUrl(header, 'malls=2,9').filters.mallIds).toEqual([2]);
  });
});
