import { describe, expect, it } from 'vitest';
import {
  type CrossSpendingAnswer,
  type CrossSpendingPairAnswer,
  categoriesBySharedShoppers,
  categoryLabel,
  crossSpendingCategoriesCsv,
  crossSpendingDetailsHref,
  crossSpendingHeadline,
  crossSpendingHref,
  crossSpendingOutletsCsv,
  formatSharePercent,
  isCrossSpendingEmpty,
  isPairEmpty,
  lookUpPair,
  otherOutletOf,
  pairDailyCsv,
  pairDays,
  pairHeadline,
  pairOf,
  pairQuery,
  pairRefusalMessage,
  pairRefusalTitle,
  pairTotals,
  topOutletsBySharedShoppers,
} from '../../src/domain/crossSpending';
import { csvFileTexts } from '../../src/domain/csv';
import { currencyFormat } from '../../src/domain/format';

/*
 * Cross spending's pure parts: what is empty, the headlines in the mall's currency, the chart's outlets, the links
 * between the page and its details keeping the header's filters, which pair the details page may ask for (never an
 * id the user does not see), today's day marked partial, the totals to the cent, and the CSV files.
 */

const CENTRAL = { mall_id: 1, mall_name: 'Central', currency: 'SGD' };
const KOPI_REF = { outlet_id: 12, outlet_name: 'Kopi Corner', category: 'F&B', ...CENTRAL };
const TEA_REF = { outlet_id: 13, outlet_name: 'Tea Time', category: 'F&B', ...CENTRAL };

const ANSWER: CrossSpendingAnswer = {
  outlet: KOPI_REF,
  shoppers: 12,
  spend: 1234.5,
  outlets: [
    {
      outlet_id: 13,
      outlet_name: 'Tea Time',
      category: 'F&B',
      shared_shoppers: 4,
      share_percent: 33.3,
      spend: 88.1,
      visits: 6,
    },
    {
      outlet_id: 30,
      outlet_name: 'Shoe Box',
      category: null,
      shared_shoppers: 4,
      share_percent: 33.3,
      spend: 410,
      visits: 4,
    },
    {
      outlet_id: 31,
      outlet_name: 'Books',
      category: 'Retail',
      shared_shoppers: 1,
      share_percent: 8.3,
      spend: 12,
      visits: 1,
    },
  ],
  categories: [
    { category: 'Retail', shared_shoppers: 1, share_percent: 8.3, spend: 12, visits: 1 },
    { category: null, shared_shoppers: 4, share_percent: 33.3, spend: 410, visits: 4 },
    { category: 'F&B', shared_shoppers: 4, share_percent: 33.3, spend: 88.1, visits: 6 },
  ],
};

const PAIR: CrossSpendingPairAnswer = {
  outlet: KOPI_REF,
  other_outlet: TEA_REF,
  shoppers: 12,
  shared_shoppers: 4,
  daily: [
    { date: '2024-03-13', shoppers: 2, visits: 3, spend: 30.1 },
    { date: '2024-03-14', shoppers: 0, visits: 0, spend: 0 },
    { date: '2024-03-15', shoppers: 2, visits: 3, spend: 58 },
  ],
};

const RANGE = { start: '2024-03-09', end: '2024-03-15' };
const FILTERS = { clientId: 3, mallIds: [1, 2], outlet: 12 as const, dateRange: RANGE };

describe('what is shown', () => {
  it('is empty only when no member bought at the outlet, or none of them at the other outlet', () => {
    expect(isCrossSpendingEmpty(ANSWER)).toBe(false);
    expect(isCrossSpendingEmpty({ ...ANSWER, outlets: [], categories: [] })).toBe(false);
    expect(isCrossSpendingEmpty({ ...ANSWER, shoppers: 0, spend: 0, outlets: [], categories: [] })).toBe(true);
    expect(isPairEmpty({ kind: 'pair', details: PAIR })).toBe(false);
    expect(isPairEmpty({ kind: 'pair', details: { ...PAIR, shared_shoppers: 0 } })).toBe(true);
    // A refusal is shown as a message, not 'No Data'.
    expect(isPairEmpty({ kind: 'refused', message: 'no such outlet' })).toBe(false);
  });

  it('says the outlet’s members and their spend in the mall’s currency and its minor units', () => {
    expect(crossSpendingHeadline(ANSWER, RANGE, currencyFormat('SGD'))).toBe(
      '12 members bought at Kopi Corner from 9 Mar 2024 to 15 Mar 2024; they spent $1,234.50 there.',
    );
    expect(
      crossSpendingHeadline(
        { ...ANSWER, shoppers: 1, spend: 1234567.4, outlet: { ...KOPI_REF, currency: 'IDR' } },
        { start: RANGE.end, end: RANGE.end },
        currencyFormat('IDR'),
      ),
    ).toBe('1 member bought at Kopi Corner on 15 Mar 2024; they spent Rp1,234,567 there.');
    expect(crossSpendingHeadline({ ...ANSWER, shoppers: 0, spend: 0 }, RANGE, currencyFormat('SGD'))).toBe(
      'No member bought at Kopi Corner from 9 Mar 2024 to 15 Mar 2024.',
    );
  });

  it('says how many of the outlet’s members also bought at the other outlet', () => {
    expect(pairHeadline(PAIR, RANGE)).toBe(
      '4 of the 12 members who bought at Kopi Corner from 9 Mar 2024 to 15 Mar 2024 also bought at Tea Time (33.3%).',
    );
    expect(pairHeadline({ ...PAIR, shared_shoppers: 0 }, RANGE)).toBe(
      'None of the 12 members who bought at Kopi Corner from 9 Mar 2024 to 15 Mar 2024 also bought at Tea Time.',
    );
    expect(pairHeadline({ ...PAIR, shoppers: 1, shared_shoppers: 1 }, RANGE)).toBe(
      '1 of the 1 member who bought at Kopi Corner from 9 Mar 2024 to 15 Mar 2024 also bought at Tea Time (100.0%).',
    );
    expect(pairHeadline({ ...PAIR, shoppers: 0, shared_shoppers: 0 }, RANGE)).toBe(
      'No member bought at Kopi Corner from 9 Mar 2024 to 15 Mar 2024.',
    );
  });

  it('writes shares with 1 decimal and an outlet without a category as Uncategorised', () => {
    expect(formatSharePercent(33.3)).toBe('33.3%');
    expect(formatSharePercent(100)).toBe('100.0%');
    expect(formatSharePercent(Number.NaN)).toBe('0.0%');
    expect(categoryLabel(null)).toBe('Uncategorised');
    expect(categoryLabel('F&B')).toBe('F&B');
  });

  it('charts the outlets with the most shared shoppers, ties in the server’s order', () => {
    const reversed = [...ANSWER.outlets].reverse();
    expect(topOutletsBySharedShoppers(reversed).map((row) => row.outlet_id)).toEqual([30, 13, 31]);
    expect(topOutletsBySharedShoppers(ANSWER.outlets, 2).map((row) => row.outlet_id)).toEqual([13, 30]);
    expect(categoriesBySharedShoppers(ANSWER.categories).map((row) => row.category)).toEqual([null, 'F&B', 'Retail']);
  });
});

describe('the links between the page and its details', () => {
  it('keep the header’s client, malls, outlet and days, commas readable', () => {
    expect(crossSpendingDetailsHref(13, FILTERS)).toBe(
      '/shopper-connect/cross-spending/details?other=13&client=3&malls=1,2&outlet=12&from=2024-03-09&to=2024-03-15',
    );
    expect(crossSpendingHref(FILTERS)).toBe(
      '/shopper-connect/cross-spending?client=3&malls=1,2&outlet=12&from=2024-03-09&to=2024-03-15',
    );
    expect(crossSpendingHref({ ...FILTERS, clientId: undefined, mallIds: [], outlet: undefined })).toBe(
      '/shopper-connect/cross-spending?from=2024-03-09&to=2024-03-15',
    );
  });

  it('read the other outlet of the address: its text, and its id when it is one', () => {
    expect(otherOutletOf('?other=13&client=3')).toEqual({ text: '13', id: 13 });
    expect(otherOutletOf('client=3&other=abc')).toEqual({ text: 'abc', id: undefined });
    expect(otherOutletOf('other=-4')).toEqual({ text: '-4', id: undefined });
    expect(otherOutletOf('')).toEqual({ text: undefined, id: undefined });
  });
});

describe('the pair the details page asks for', () => {
  const kopi = { id: 12, name: 'Kopi Corner', mall_id: 1, currency: 'SGD' };
  const tea = { id: 13, name: 'Tea Time', mall_id: 1, currency: 'SGD' };
  const east = { id: 40, name: 'East Deli', mall_id: 2, currency: 'SGD' };
  const online = { id: 50, name: 'Online', mall_id: null, currency: 'SGD' };
  const OUTLETS = [kopi, tea, east, online];
  const other = (text: string | undefined) => otherOutletOf(text === undefined ? '' : `other=${text}`);

  it('is two different outlets of one mall, both the user’s', () => {
    expect(lookUpPair(12, other('13'), OUTLETS, 'loaded')).toEqual({ kind: 'found', outlet: kopi, other: tea });
  });

  it('is refused without asking for an id the user does not see, the outlet itself or another mall’s outlet', () => {
    expect(lookUpPair(12, other(undefined), OUTLETS, 'loading')).toEqual({ kind: 'refused', reason: 'missing' });
    expect(lookUpPair(12, other('x1'), OUTLETS, 'loading')).toEqual({ kind: 'refused', reason: 'invalid' });
    expect(lookUpPair(12, other('99'), OUTLETS, 'loaded')).toEqual({
      kind: 'refused',
      reason: 'notVisible',
      outlet: kopi,
    });
    // An outlet of no mall is none of a mall's.
    expect(lookUpPair(12, other('50'), OUTLETS, 'loaded')).toMatchObject({ kind: 'refused', reason: 'notVisible' });
    expect(lookUpPair(12, other('12'), OUTLETS, 'loaded')).toEqual({
      kind: 'refused',
      reason: 'same',
      outlet: kopi,
      other: kopi,
    });
    expect(lookUpPair(12, other('40'), OUTLETS, 'loaded')).toEqual({
      kind: 'refused',
      reason: 'otherMall',
      outlet: kopi,
      other: east,
    });
  });

  it('waits for the client’s outlets and for one outlet chosen in the header', () => {
    expect(lookUpPair(12, other('13'), [], 'loading')).toEqual({ kind: 'waiting' });
    expect(lookUpPair(12, other('13'), [], 'failed')).toEqual({ kind: 'failed' });
    expect(lookUpPair('all', other('13'), OUTLETS, 'loaded')).toEqual({ kind: 'choose' });
    expect(lookUpPair(undefined, other('13'), OUTLETS, 'loaded')).toEqual({ kind: 'choose' });
  });

  it('says why in words', () => {
    expect(pairRefusalTitle('missing')).toBe('No outlet to compare');
    expect(pairRefusalTitle('notVisible')).toBe('Outlet not available');
    const names = { otherText: '99', outlet: 'Kopi Corner', other: 'East Deli' };
    expect(pairRefusalMessage('missing', {})).toBe(
      'No outlet to compare with: choose one of the outlets listed on Cross Spending.',
    );
    expect(pairRefusalMessage('invalid', { otherText: 'x1' })).toBe('“x1” is not an outlet id.');
    expect(pairRefusalMessage('notVisible', { otherText: '99' })).toBe(
      'Outlet 99 is not one of the outlets you can see in this client.',
    );
    expect(pairRefusalMessage('same', { other: 'Kopi Corner' })).toBe(
      'Kopi Corner is the outlet chosen above: choose another outlet to compare it with.',
    );
    expect(pairRefusalMessage('otherMall', names)).toBe(
      'East Deli is not in the mall of Kopi Corner: cross spending compares the outlets of one mall.',
    );
    expect(pairRefusalMessage('server', { otherText: '13', outlet: 'Kopi Corner' })).toBe(
      'There are no figures for Kopi Corner and Outlet 13: the server does not know them as two outlets of one mall you can see.',
    );
  });

  it('asks for the pair over the header’s days, the outlet’s mall the only one', () => {
    const query = pairQuery({ clientId: 3, dateRange: RANGE }, { outlet: kopi, other: tea }, RANGE.end);
    expect(query).toEqual({
      clientId: 3,
      mallIds: [1],
      start: RANGE.start,
      end: RANGE.end,
      startHour: 0,
      endHour: 23,
      timeRange: 'daily',
      metric: 'gmv',
      today: RANGE.end,
      outletId: 12,
      otherOutletId: 13,
    });
    expect(query && pairOf(query)).toEqual({ outletId: 12, otherOutletId: 13 });
    expect(
      pairQuery({ clientId: undefined, dateRange: RANGE }, { outlet: kopi, other: tea }, undefined),
    ).toBeUndefined();
    expect(() => pairOf({ ...(query ?? RANGE), otherOutletId: undefined } as never)).toThrow('no pair');
  });
});

describe('the pair’s days', () => {
  const label = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}`;

  it('mark today’s day partial, so far', () => {
    const days = pairDays(PAIR.daily, '2024-03-15', label);
    expect(days.map((day) => [day.mark.label, day.mark.partial, day.note])).toEqual([
      ['13/03', false, ''],
      ['14/03', false, ''],
      ['15/03 (so far)', true, 'Today, so far'],
    ]);
    // A range before today has no partial day.
    expect(pairDays(PAIR.daily, '2024-04-01', label).some((day) => day.mark.partial)).toBe(false);
    expect(pairDays(PAIR.daily, undefined, label).map((day) => day.mark.label)).toEqual(['13/03', '14/03', '15/03']);
  });

  it('add up to the cent', () => {
    expect(pairTotals(PAIR.daily)).toEqual({ spend: 88.1, visits: 6 });
    const tenths = Array.from({ length: 10 }, (_, index) => ({
      date: `2024-03-0${index}`,
      shoppers: 1,
      visits: 1,
      spend: 0.1,
    }));
    expect(pairTotals(tenths)).toEqual({ spend: 1, visits: 10 });
    expect(pairTotals([])).toEqual({ spend: 0, visits: 0 });
  });
});

describe('the CSV files', () => {
  it('list the outlets and categories as the tables do, in the mall’s currency', () => {
    const [outlets, categories] = csvFileTexts('2024-03-09_2024-03-15', [
      { ...crossSpendingOutletsCsv(12, ANSWER.outlets), currency: 'SGD' },
      crossSpendingCategoriesCsv(12, ANSWER.categories.slice(0, 2)),
    ]);
    expect(outlets?.fileName).toBe('cross_spending_12_outlets_2024-03-09_2024-03-15.csv');
    expect(outlets?.text.split('\r\n')).toEqual([
      '\uFEFFOutlet ID,Outlet Name,Category,Shared Shoppers,Share Percent,Spend,Visits,Currency',
      '13,Tea Time,F&B,4,33.3,88.1,6,SGD',
      '30,Shoe Box,Uncategorised,4,33.3,410,4,SGD',
      '31,Books,Retail,1,8.3,12,1,SGD',
      '',
    ]);
    expect(categories?.fileName).toBe('cross_spending_12_categories_2024-03-09_2024-03-15.csv');
    expect(categories?.text.split('\r\n')).toEqual([
      '\uFEFFCategory,Shared Shoppers,Share Percent,Spend,Visits',
      'Retail,1,8.3,12,1',
      'Uncategorised,4,33.3,410,4',
      '',
    ]);
  });

  it('list the pair’s days with today’s noted', () => {
    const days = pairDays(PAIR.daily, '2024-03-15', (date) => date);
    const [file] = csvFileTexts('x', [pairDailyCsv({ outletId: 12, otherOutletId: 13 }, days)]);
    expect(file?.fileName).toBe('cross_spending_12_13_daily_x.csv');
    expect(file?.text.split('\r\n')).toEqual([
      '\uFEFFDate,Shoppers,Visits,Spend,Note',
      '2024-03-13,2,3,30.1,',
      '2024-03-14,0,0,0,',
      '2024-03-15,2,3,58,"Today, so far"',
      '',
    ]);
  });
});
