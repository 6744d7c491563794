import { describe, expect, it } from 'vitest';
import {
  changedOutletCodes,
  isOutletCodeDraftValid,
  normaliseOutletCode,
  type OutletCodeDraft,
  outletCodeDraftOf,
  outletCodeProblem,
  refusalAt,
  refusedItemOf,
  savedOutletCodeDraft,
} from '../../src/domain/outletCodes';

/* The Outlet Code page's rules: codes trimmed, blank as none, the codes a save sends, where a refusal points. */

const draft = (texts: readonly string[]): OutletCodeDraft => {
  const base = outletCodeDraftOf(3, [
    { outlet_id: 1, outlet_name: 'A', mall_id: 1, mall_name: 'M', outlet_code: 'A-1' },
    { outlet_id: 2, outlet_name: 'B', mall_id: 1, mall_name: 'M', outlet_code: null },
  ]);
  return { ...base, rows: base.rows.map((row, index) => ({ ...row, text: texts[index] ?? row.text })) };
};

describe('outlet codes', () => {
  it('trims a code and reads a blank one as none', () => {
    expect(normaliseOutletCode('  X-1 ')).toBe('X-1');
    expect(normaliseOutletCode('   ')).toBeNull();
    expect(normaliseOutletCode('')).toBeNull();
    expect(normaliseOutletCode(null)).toBeNull();
  });

  it('sends only the codes changed, trimmed, null to clear one', () => {
    expect(changedOutletCodes(draft(['A-1 ', '']))).toEqual([]);
    expect(changedOutletCodes(draft(['', ' B-2']))).toEqual([
      { outlet_id: 1, outlet_code: null },
      { outlet_id: 2, outlet_code: 'B-2' },
    ]);
  });

  it('may save a draft with a change and no code past 50 characters or with a control character', () => {
    expect(isOutletCodeDraftValid(draft(['A-1', '']))).toBe(false);
    expect(isOutletCodeDraftValid(draft(['A-2', '']))).toBe(true);
    expect(isOutletCodeDraftValid(draft(['A-2', 'x'.repeat(51)]))).toBe(false);
    expect(outletCodeProblem('x'.repeat(51))).toBe('A code has at most 50 characters.');
    expect(outletCodeProblem('a\u0007')).toBe('A code cannot hold control characters.');
    expect(outletCodeProblem(` ${'x'.repeat(50)} `)).toBeUndefined();
  });

  it('keeps each code as saved once the save is done', () => {
    expect(savedOutletCodeDraft(draft([' A-9 ', ' '])).rows.map(({ saved, text }) => ({ saved, text }))).toEqual([
      { saved: 'A-9', text: 'A-9' },
      { saved: null, text: '' },
    ]);
  });

  it('reads the item a refusal names, and shows it at that field while it holds the refused code', () => {
    expect(refusedItemOf('data[2].outlet_code: "X" is already the code of A in M.')).toEqual({
      index: 2,
      reason: '"X" is already the code of A in M.',
    });
    expect(refusedItemOf('data[0].outlet_id: outlet 1 is given twice.')).toEqual({
      index: 0,
      reason: 'outlet 1 is given twice.',
    });
    expect(refusedItemOf('client_id: wrong.')).toBeUndefined();
    const refusal = { outletId: 2, text: 'X', message: 'taken' };
    expect(refusalAt({ outletId: 2, text: 'X' }, refusal)).toBe('taken');
    expect(refusalAt({ outletId: 2, text: 'Y' }, refusal)).toBeUndefined();
    expect(refusalAt({ outletId: 1, text: 'X' }, refusal)).toBeUndefined();
    expect(refusalAt({ outletId: 2, text: 'X' }, undefined)).toBeUndefined();
  });
});
