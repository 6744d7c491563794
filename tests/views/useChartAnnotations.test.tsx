import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChartAnnotation } from '../../src/domain/chartAnnotations';
import { useChartAnnotations } from '../../src/views/charts/chartAnnotations';

const ITEMS: readonly ChartAnnotation[] = [
  { start: '2026-02-17', end: '2026-02-18', label: 'Chinese New Year', kind: 'festival' },
];

describe('useChartAnnotations', () => {
  it('keeps one object while the items and the days are the same, so a chart is not drawn again on every render', () => {
    const { result, rerender } = renderHook(
      ({ items, days }: { items: readonly ChartAnnotation[] | undefined; days: string[] }) =>
        useChartAnnotations(items, days),
      { initialProps: { items: ITEMS as readonly ChartAnnotation[] | undefined, days: ['2026-02-17', '2026-02-18'] } },
    );
    const first = result.current;
    expect(first).toEqual({ days: ['2026-02-17', '2026-02-18'], items: ITEMS });
    // A new array of the same days (a page maps its rows on every render): the same object.
    rerender({ items: ITEMS, days: ['2026-02-17', '2026-02-18'] });
    expect(result.current).toBe(first);
    rerender({ items: ITEMS, days: ['2026-02-17'] });
    expect(result.current).not.toBe(first);
    expect(result.current?.days).toEqual(['2026-02-17']);
    rerender({ items: undefined, days: ['2026-02-17'] });
    expect(result.current).toBeUndefined();
  });
});
