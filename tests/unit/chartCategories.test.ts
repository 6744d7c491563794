import { describe, expect, it } from 'vitest';
import { RANKED_BAR_LIMIT, rankedCategoryAxis, rankedNote, topAndBottom } from '../../src/views/charts/chartCategories';

const outlets = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ name: `Outlet ${index + 1}`, progress: count - index }));

describe('many categories: the top and bottom of a ranking', () => {
  it('draws every category when there are no more than the limit, highest first', () => {
    const rows = [
      { name: 'B', progress: 20 },
      { name: 'A', progress: 90 },
      { name: 'C', progress: null },
    ];
    const selection = topAndBottom(rows, (row) => row.progress);
    expect(selection.shown.map((row) => row.name)).toEqual(['A', 'B']);
    expect(selection).toMatchObject({ top: 0, bottom: 0, total: 2 });
    expect(rankedNote(selection, 'outlets', 'outlet')).toBeUndefined();
  });

  it('draws the top 10 and bottom 10 of 92 outlets, and says so', () => {
    const rows = [...outlets(92)].reverse();
    const selection = topAndBottom(rows, (row) => row.progress);
    expect(RANKED_BAR_LIMIT).toBe(20);
    expect(selection.shown).toHaveLength(20);
    expect(selection.shown.slice(0, 10).map((row) => row.progress)).toEqual([92, 91, 90, 89, 88, 87, 86, 85, 84, 83]);
    expect(selection.shown.slice(10).map((row) => row.progress)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(rankedNote(selection, 'outlets', 'outlet')).toBe(
      'Showing the top 10 and bottom 10 of 92 outlets; every outlet is in the table.',
    );
  });

  it('keeps at most the limit at 300 categories, equal values in the order given', () => {
    const rows = Array.from({ length: 300 }, (_, index) => ({ name: `O${index}`, progress: 50 }));
    const selection = topAndBottom(rows, (row) => row.progress, 6);
    expect(selection.shown.map((row) => row.name)).toEqual(['O0', 'O1', 'O2', 'O297', 'O298', 'O299']);
    expect(selection).toMatchObject({ top: 3, bottom: 3, total: 300 });
  });

  it('names every bar of a ranking, cut with an ellipsis past a width (the tooltip keeps the whole name)', () => {
    const axis = rankedCategoryAxis(['A very long outlet name that would push the bars aside', 'B']);
    expect(axis.categories).toEqual(['A very long outlet name that would push the bars aside', 'B']);
    expect(axis.labels?.step).toBe(1);
    expect(axis.labels?.style).toMatchObject({ textOverflow: 'ellipsis' });
  });
});
