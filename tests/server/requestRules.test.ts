import { describe, expect, it } from 'vitest';
import { HttpError } from '../../server/errors';
import { dayOfMonth, distinct, endAfter, nonBlank, notBoth, percent } from '../../server/routes/rules';

/** What `run` throws, as the answer's status and message. */
function refusalOf(run: () => unknown): { statusCode: number; message: string } | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return { statusCode: error.statusCode, message: error.message };
    throw error;
  }
  return undefined;
}

describe('the request rules of a body, each once in rules.ts', () => {
  it('refuses the first item of a list that repeats an earlier one, naming it, and answers the distinct keys', () => {
    const rows = [{ id: 3 }, { id: 5 }, { id: 3 }, { id: 5 }];
    expect(
      refusalOf(() =>
        distinct(
          rows,
          (row) => row.id,
          (index) => `data[${index}].outlet_id`,
          (id) => `outlet ${id}`,
        ),
      ),
    ).toEqual({ statusCode: 400, message: 'data[2].outlet_id: outlet 3 is given twice.' });
    expect(
      refusalOf(() =>
        distinct(
          ['2026-03-01', '2026-03-01'],
          (day) => day,
          (index) => `days/${index}/date`,
        ),
      ),
    ).toEqual({ statusCode: 400, message: 'days/1/date is given twice.' });
    expect(
      distinct(
        [{ id: 4 }, { id: 1 }],
        (row) => row.id,
        () => 'id',
      ),
    ).toEqual([4, 1]);
  });

  it('answers a text trimmed and refuses one blank once trimmed, in one wording unless the operation has its own', () => {
    expect(nonBlank('  Lunch ', 'name')).toBe('Lunch');
    expect(refusalOf(() => nonBlank(' \t ', 'meal_timing[0].name'))).toEqual({
      statusCode: 400,
      message: 'meal_timing[0].name: must not be blank.',
    });
    expect(refusalOf(() => nonBlank('', 'reason', 'reason must not be blank.'))?.message).toBe(
      'reason must not be blank.',
    );
  });

  it('refuses two parameters of which at most one may be given, naming the second', () => {
    expect(refusalOf(() => notBoth({ category: 'F&B', outlet_id: 3 }, 'category', 'outlet_id'))).toEqual({
      statusCode: 400,
      message: 'outlet_id: give category or outlet_id, not both.',
    });
    expect(refusalOf(() => notBoth({ category: 'F&B' }, 'category', 'outlet_id'))).toBeUndefined();
    expect(refusalOf(() => notBoth({ outlet_id: 3 }, 'category', 'outlet_id'))).toBeUndefined();
  });

  it('refuses an end that is not after its start, naming the end', () => {
    expect(refusalOf(() => endAfter('14:00', '14:00', 'meal_timing[0].end_time', 'start_time'))).toEqual({
      statusCode: 400,
      message: 'meal_timing[0].end_time: must be after start_time (14:00).',
    });
    expect(refusalOf(() => endAfter('11:00', '14:00', 'end_time', 'start_time'))).toBeUndefined();
  });

  it('reads a percent from 0 to 100 and refuses anything else, naming the field', () => {
    expect(percent('2.55', 'fee')).toBe(2.55);
    expect(percent('100', 'fee')).toBe(100);
    for (const text of ['100.01', '-1', 'abc', 'Infinity']) {
      expect(refusalOf(() => percent(text, 'formData[0].processing_fees'))).toEqual({
        statusCode: 400,
        message: 'formData[0].processing_fees: must be a percent from 0 to 100.',
      });
    }
  });

  it('refuses a day outside the month given beside it', () => {
    expect(refusalOf(() => dayOfMonth('2026-04-01', '2026-03', 'days/0/date'))?.message).toBe(
      'days/0/date must be a day of 2026-03.',
    );
    expect(refusalOf(() => dayOfMonth('2026-03-31', '2026-03', 'days/0/date'))).toBeUndefined();
  });
});
