import { describe, expect, it } from 'vitest';
import {
  addedMessage,
  addFailedMessage,
  appendOptions,
  areMealTimingsValid,
  categoryNameOf,
  changedMealTimings,
  defaultFeeRange,
  deletedMessage,
  deleteFailedMessage,
  firstMatchIndex,
  formatFee,
  hasMoreOptions,
  mealTimingProblems,
  parseFee,
  parseTarget,
  settingsScopeOf,
  splitMatch,
  stripTargetInput,
  targetMonths,
  targetText,
  uniqueIds,
} from '../../src/domain/settings';

describe('processing fees (§5, §9)', () => {
  it('parses a fee from 0 to 100 with at most 2 decimals', () => {
    expect(parseFee('2.5')).toBe(2.5);
    expect(parseFee(' 2.55 % ')).toBe(2.55);
    expect(parseFee('0')).toBe(0);
    expect(parseFee('100')).toBe(100);
    expect(parseFee('100.00')).toBe(100);
    expect(parseFee('.5')).toBe(0.5);
    expect(parseFee('3.')).toBe(3);
  });

  it('refuses what is no fee', () => {
    for (const text of ['', ' ', '-1', '100.01', '101', '2.555', 'abc', '1e2', '1,5', '0x10']) {
      expect(parseFee(text), text).toBeUndefined();
    }
  });

  it('sends the fee as a 2-decimal string', () => {
    expect(formatFee(2.5)).toBe('2.50');
    expect(formatFee(0)).toBe('0.00');
    expect(formatFee(100)).toBe('100.00');
    expect(formatFee(1.005)).toBe('1.01');
  });

  it('looks fees up from one month ago to today by default', () => {
    expect(defaultFeeRange('2024-03-15')).toEqual({ start: '2024-02-15', end: '2024-03-15' });
    expect(defaultFeeRange('2024-03-31')).toEqual({ start: '2024-02-29', end: '2024-03-31' });
  });
});

describe('sales targets (§5, §9)', () => {
  it('strips $ and commas', () => {
    expect(stripTargetInput('$1,234,567.50')).toBe('1234567.50');
    expect(stripTargetInput(' $ 12 ')).toBe('12');
  });

  it('sends a number with 2 decimals; empty is no target; anything else is refused', () => {
    expect(parseTarget('$1,234.5')).toBe(1234.5);
    expect(parseTarget('1234.567')).toBe(1234.57);
    expect(parseTarget('')).toBeNull();
    expect(parseTarget('$')).toBeNull();
    expect(parseTarget('12a')).toBeUndefined();
    expect(parseTarget('-5')).toBeUndefined();
    expect(parseTarget('1e5')).toBeUndefined();
    expect(parseTarget('9999999999999')).toBeUndefined();
  });

  it('shows a stored target with 2 decimals, none as empty', () => {
    expect(targetText(1500)).toBe('1500.00');
    expect(targetText(null)).toBe('');
  });

  it('offers months around today, latest first', () => {
    const months = targetMonths('2024-03-15', 2, 1);
    expect(months).toEqual(['2024-04', '2024-03', '2024-02', '2024-01']);
  });
});

describe('categories and assignments (§5, §8, §9)', () => {
  it('needs a name: an empty or blank one aborts', () => {
    expect(categoryNameOf('  Drinks ')).toBe('Drinks');
    expect(categoryNameOf('')).toBeUndefined();
    expect(categoryNameOf('   ')).toBeUndefined();
  });

  it('has the exact toasts', () => {
    expect(addedMessage('Drinks')).toBe('Drinks has been added successfully.');
    expect(addFailedMessage('Drinks')).toBe('Add Drinks failed.');
    expect(deletedMessage('Drinks')).toBe('Drinks has been deleted successfully.');
    expect(deleteFailedMessage('Drinks')).toBe('Delete Drinks failed.');
  });

  it('parses ids as integers and de-duplicates them', () => {
    expect(uniqueIds(['3', 3, '04', 'x', '7.9', 0, -2, 7])).toEqual([3, 4, 7]);
    expect(uniqueIds([])).toEqual([]);
  });

  it('stops paging name options after a page of fewer than 20', () => {
    expect(hasMoreOptions(20)).toBe(true);
    expect(hasMoreOptions(19)).toBe(false);
    expect(hasMoreOptions(0)).toBe(false);
  });

  it('highlights the first case-insensitive match', () => {
    expect(firstMatchIndex(['Tea', 'Coffee', 'Iced coffee'], 'COF')).toBe(1);
    expect(firstMatchIndex(['Tea'], 'x')).toBe(-1);
    expect(firstMatchIndex(['Tea'], ' ')).toBe(-1);
    expect(splitMatch('Iced Coffee', 'coffee')).toEqual({ before: 'Iced ', match: 'Coffee', after: '' });
    expect(splitMatch('Tea', '')).toEqual({ before: 'Tea', match: '', after: '' });
  });

  it('appends a page of options without repeating an id', () => {
    expect(
      appendOptions(
        [
          { id: 1, name: 'a' },
          { id: 2, name: 'b' },
        ],
        [
          { id: 2, name: 'b' },
          { id: 3, name: 'c' },
        ],
      ).map((option) => option.id),
    ).toEqual([1, 2, 3]);
  });
});

describe('meal timings', () => {
  const breakfast = { id: 1, name: 'Breakfast', start_time: '07:00', end_time: '10:00' };
  const lunch = { id: 2, name: 'Lunch', start_time: '11:00', end_time: '14:00' };

  it('accepts timings in order that do not overlap (touching ends allowed)', () => {
    expect(areMealTimingsValid([breakfast, lunch, { ...lunch, id: 3, start_time: '14:00', end_time: '15:00' }])).toBe(
      true,
    );
  });

  it('names the problem of each row', () => {
    expect(mealTimingProblems([{ ...breakfast, start_time: '10:00' }]).get(1)).toBe('order');
    expect(mealTimingProblems([{ ...breakfast, end_time: '06:00' }]).get(1)).toBe('order');
    expect(mealTimingProblems([{ ...breakfast, name: ' ' }]).get(1)).toBe('name');
    expect(mealTimingProblems([{ ...breakfast, end_time: '25:00' }]).get(1)).toBe('time');
    const overlap = mealTimingProblems([breakfast, { ...lunch, start_time: '09:30' }]);
    expect(overlap.get(1)).toBe('overlap');
    expect(overlap.get(2)).toBe('overlap');
  });

  it('sends only the changed rows, names trimmed', () => {
    expect(changedMealTimings([breakfast, lunch], [breakfast, { ...lunch, name: ' Brunch ' }])).toEqual([
      { ...lunch, name: 'Brunch' },
    ]);
    expect(changedMealTimings([breakfast], [{ ...breakfast, name: 'Breakfast ' }])).toEqual([]);
  });
});

describe('the page scope', () => {
  it('is the client and its one outlet', () => {
    expect(settingsScopeOf({ clientId: 3, outlet: 12 }, '2024-03-15')).toEqual({
      clientId: 3,
      outletId: 12,
      today: '2024-03-15',
    });
    expect(settingsScopeOf({ clientId: 3, outlet: 'all' }, '2024-03-15')?.outletId).toBeUndefined();
    expect(settingsScopeOf({ clientId: undefined, outlet: 12 }, '2024-03-15')).toBeUndefined();
  });
});
