import { describe, expect, it } from 'vitest';
import { COMPARE_RULES, DEFAULT_COMPARISON } from '../../src/domain/comparisons';
import {
  COMPARISON_QUERY_KEYS,
  parseComparisonQuery,
  saysComparison,
  toComparisonParams,
  withComparisonQuery,
} from '../../src/domain/comparisonUrl';
import { parseFilterQuery, withFilterQuery } from '../../src/domain/filterUrl';
import { COMPARISON_MODES, COMPARISON_RULES, comparisonModeOf } from '../../src/domain/salesAnalysis';

const FESTIVAL = { rule: 'festival_aligned', likeForLike: true } as const;

describe('writing the comparison', () => {
  it('says nothing of the default, the rule and like-for-like otherwise', () => {
    expect(toComparisonParams(DEFAULT_COMPARISON).toString()).toBe('');
    expect(toComparisonParams({ rule: 'same_weekday_last_year', likeForLike: false }).toString()).toBe(
      'compare=same_weekday_last_year',
    );
    expect(toComparisonParams({ rule: 'previous', likeForLike: true }).toString()).toBe('like_for_like=1');
    expect(toComparisonParams(FESTIVAL).toString()).toBe('compare=festival_aligned&like_for_like=1');
    expect(Object.values(COMPARISON_QUERY_KEYS)).toEqual(['compare', 'like_for_like']);
  });

  it("replaces only its own keys of a query, the others kept in their order, its own before the filters'", () => {
    expect(withComparisonQuery('?inspect=1&compare=previous&client=3&from=2024-03-01&like_for_like=1', FESTIVAL)).toBe(
      'inspect=1&compare=festival_aligned&like_for_like=1&client=3&from=2024-03-01',
    );
    expect(withComparisonQuery('client=3&compare=festival_aligned&tab=x&like_for_like=1', DEFAULT_COMPARISON)).toBe(
      'tab=x&client=3',
    );
    expect(withComparisonQuery('', DEFAULT_COMPARISON)).toBe('');
  });

  it("is left alone by the filters' writes, and leaves theirs alone: neither moves the other's keys", () => {
    const search = withComparisonQuery('inspect=1&client=3&malls=1', FESTIVAL);
    expect(search).toBe('inspect=1&compare=festival_aligned&like_for_like=1&client=3&malls=1');
    // The header writing the same filters again changes nothing, nor does the comparison written again.
    expect(withFilterQuery(search, { clientId: 3, mallIds: [1] })).toBe(search);
    expect(withComparisonQuery(search, FESTIVAL)).toBe(search);
    expect(withFilterQuery(search, { clientId: 4 })).toBe(
      'inspect=1&compare=festival_aligned&like_for_like=1&client=4',
    );
    const rules = { window: { earliest: '2023-01-01', latest: '2024-03-15' }, maxDays: () => 31 };
    expect(parseFilterQuery(search, rules)).toEqual({ ok: true, value: { clientId: 3, mallIds: [1] } });
  });
});

describe('reading the comparison', () => {
  it('round-trips every choice', () => {
    for (const rule of COMPARE_RULES) {
      for (const likeForLike of [false, true]) {
        const choice = { rule, likeForLike };
        expect(parseComparisonQuery(withComparisonQuery('client=3', choice))).toEqual(choice);
        expect(parseComparisonQuery(`?${withComparisonQuery('', choice)}`)).toEqual(choice);
      }
    }
  });

  it('is the default without its keys', () => {
    expect(parseComparisonQuery('')).toEqual(DEFAULT_COMPARISON);
    expect(parseComparisonQuery('?client=3&malls=1,2')).toEqual(DEFAULT_COMPARISON);
  });

  it('falls back to the default for a value it does not know, each key on its own', () => {
    expect(parseComparisonQuery('compare=last_week&like_for_like=1')).toEqual({ rule: 'previous', likeForLike: true });
    expect(parseComparisonQuery('compare=FESTIVAL_ALIGNED')).toEqual(DEFAULT_COMPARISON);
    expect(parseComparisonQuery('compare=festival_aligned&like_for_like=yes')).toEqual({
      rule: 'festival_aligned',
      likeForLike: false,
    });
    expect(parseComparisonQuery('compare=&like_for_like=')).toEqual(DEFAULT_COMPARISON);
  });

  it('tells whether a query already says a choice', () => {
    expect(saysComparison('client=3', DEFAULT_COMPARISON)).toBe(true);
    expect(saysComparison('compare=nonsense', DEFAULT_COMPARISON)).toBe(true);
    expect(saysComparison('like_for_like=1&compare=festival_aligned', FESTIVAL)).toBe(true);
    expect(saysComparison('compare=festival_aligned', FESTIVAL)).toBe(false);
  });

  it("gives the sales analysis the mode of each rule (its comparisons are the mall pages' rules)", () => {
    for (const mode of COMPARISON_MODES) expect(comparisonModeOf(COMPARISON_RULES[mode])).toBe(mode);
  });
});
