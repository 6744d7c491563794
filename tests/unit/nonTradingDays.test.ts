import { describe, expect, it } from 'vitest';
import {
  declarationProblem,
  isSalesReviewEmpty,
  isWithdrawable,
  latestDeclarableDay,
  nonTradingDaysHrefOf,
  nonTradingWindow,
  type SalesReviewDay,
  salesReviewCsv,
  salesReviewMarks,
  salesReviewNote,
} from '../../src/domain/nonTradingDays';

const TODAY = '2026-11-25';
const DAYS: SalesReviewDay[] = [
  { date: '2026-11-23', gmv: 120.5, transactions: 4, non_trading: null },
  { date: '2026-11-24', gmv: 0, transactions: 0, non_trading: { reason: 'Renovation', declared_by: 'mall' } },
  { date: '2026-11-25', gmv: 10, transactions: 1, non_trading: null },
];
const label = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}`;

describe('the declaration form', () => {
  const draft = { outletId: 12, day: '2026-12-01', reason: 'Renovation' };

  it('says what is missing, in the form’s order', () => {
    expect(declarationProblem({ ...draft, outletId: undefined }, TODAY)).toBe('Choose an outlet.');
    expect(declarationProblem({ ...draft, day: '' }, TODAY)).toBe('Choose a day.');
    expect(declarationProblem({ ...draft, day: '2026-02-30' }, TODAY)).toBe('Choose a day.');
    expect(declarationProblem({ ...draft, reason: '  ' }, TODAY)).toBe('Give a reason.');
    expect(declarationProblem({ ...draft, reason: 'x'.repeat(201) }, TODAY)).toBe(
      'A reason has at most 200 characters.',
    );
    expect(declarationProblem({ ...draft, reason: ` ${'x'.repeat(200)} ` }, TODAY)).toBeUndefined();
  });

  it('takes days up to 366 days after today', () => {
    expect(latestDeclarableDay(TODAY)).toBe('2027-11-26');
    expect(declarationProblem({ ...draft, day: '2027-11-26' }, TODAY)).toBeUndefined();
    expect(declarationProblem({ ...draft, day: '2027-11-27' }, TODAY)).toBe('Choose a day up to 26 Nov 2027.');
  });
});

describe('the days listed', () => {
  it('are the range, or tomorrow to the latest day that may be declared (366 days)', () => {
    const range = { start: '2026-11-19', end: TODAY };
    expect(nonTradingWindow('range', range, TODAY)).toEqual({ from: '2026-11-19', to: TODAY });
    expect(nonTradingWindow('upcoming', range, TODAY)).toEqual({ from: '2026-11-26', to: '2027-11-26' });
  });

  it('links the GTO review’s month to the mall’s list of every outlet’s days of the month, up to today', () => {
    const href = new URL(nonTradingDaysHrefOf(3, '2026-11', TODAY), 'http://app.test');
    expect(href.pathname).toBe('/tenant-connect/non-trading-days');
    expect(href.searchParams.get('client')).toBe('3');
    expect([...href.searchParams.values()]).toContain('2026-11-01');
    expect([...href.searchParams.values()]).toContain(TODAY);
    expect(nonTradingDaysHrefOf(3, '2026-10', TODAY)).toContain('2026-10-31');
  });

  it('lets the tenant withdraw only its own days', () => {
    expect(isWithdrawable({ declared_by: 'tenant' })).toBe(true);
    expect(isWithdrawable({ declared_by: 'mall' })).toBe(false);
  });
});

describe('the sales review', () => {
  it('marks today as so far and a non-trading day as not trading', () => {
    expect(salesReviewMarks(DAYS, TODAY, label)).toEqual([
      { label: '23/11', partial: false, open: false },
      { label: '24/11 (not trading)', partial: false, open: false },
      { label: '25/11 (so far)', partial: true, open: true },
    ]);
    expect(DAYS.map((day) => salesReviewNote(day, TODAY))).toEqual([
      '',
      'Not trading: Renovation (declared by the mall)',
      'Today, so far',
    ]);
  });

  it('is empty only without sales and without a non-trading day', () => {
    expect(isSalesReviewEmpty(DAYS)).toBe(false);
    const quiet = DAYS.map((day) => ({ ...day, gmv: 0, transactions: 0 }));
    expect(isSalesReviewEmpty(quiet)).toBe(false);
    expect(isSalesReviewEmpty(quiet.map((day) => ({ ...day, non_trading: null })))).toBe(true);
  });

  it('exports the days shown with their note', () => {
    expect(salesReviewCsv(DAYS, TODAY)).toEqual({
      name: 'sales_review',
      keys: ['date', 'gmv', 'transactions', 'note'],
      rows: [
        { date: '2026-11-23', gmv: 120.5, transactions: 4, note: '' },
        { date: '2026-11-24', gmv: 0, transactions: 0, note: 'Not trading: Renovation (declared by the mall)' },
        { date: '2026-11-25', gmv: 10, transactions: 1, note: 'Today, so far' },
      ],
    });
  });
});
