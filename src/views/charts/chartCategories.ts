import type Highcharts from 'highcharts';
import { CHART_COLORS } from './chartTheme';

/*
 * Charts of many categories (outlets, days) that stay readable at any count and any width: a ranking shows its
 * top and bottom only (every category stays in the table beside it), long names are cut with an ellipsis (the
 * tooltip and the table keep them whole); `categoryAxis` thins a horizontal axis's labels to its width.
 */

/** How many bars a ranking draws at most: its top half and its bottom half. */
export const RANKED_BAR_LIMIT = 20;

/** The widest a category label is drawn on a vertical axis (a bar chart's names), in px; longer ones end in '…'. */
export const CATEGORY_LABEL_WIDTH = 160;

/** The categories of a ranking a chart draws: the whole list, or its top and bottom. */
export interface RankedSelection<T> {
  /** The categories drawn, highest first: the top ones, then the bottom ones. */
  readonly shown: readonly T[];
  /** How many of the top and of the bottom are drawn; 0 and 0 when every category is. */
  readonly top: number;
  readonly bottom: number;
  readonly total: number;
}

/**
 * The top `limit / 2` and bottom `limit / 2` of `items` by `value` (highest first; items without a value are left
 * out), or all of them when they are no more than `limit`.
 */
export function topAndBottom<T>(
  items: readonly T[],
  value: (item: T) => number | null,
  limit: number = RANKED_BAR_LIMIT,
): RankedSelection<T> {
  const ranked = items
    .map((item, index) => ({ item, index, value: value(item) }))
    .filter((entry): entry is { item: T; index: number; value: number } => entry.value !== null)
    // Stable: equal values keep the order they came in.
    .sort((a, b) => b.value - a.value || a.index - b.index)
    .map((entry) => entry.item);
  const total = ranked.length;
  const cap = Math.max(2, Math.floor(limit));
  if (total <= cap) return { shown: ranked, top: 0, bottom: 0, total };
  const top = Math.ceil(cap / 2);
  const bottom = cap - top;
  return { shown: [...ranked.slice(0, top), ...ranked.slice(total - bottom)], top, bottom, total };
}

/**
 * What a chart of a ranking says when it draws only its top and bottom: 'Showing the top 10 and bottom 10 of 92
 * outlets; every outlet is in the table.'; undefined when it draws them all.
 */
export function rankedNote(selection: RankedSelection<unknown>, plural: string, singular: string): string | undefined {
  if (selection.top === 0 && selection.bottom === 0) return undefined;
  return `Showing the top ${selection.top} and bottom ${selection.bottom} of ${selection.total} ${plural}; every ${singular} is in the table.`;
}

/**
 * The category axis of a ranking (a bar chart's names, one a bar): every name is drawn, each cut with an ellipsis
 * past CATEGORY_LABEL_WIDTH (the tooltip and the table show it whole).
 */
export function rankedCategoryAxis(categories: readonly string[]): Highcharts.XAxisOptions {
  return {
    categories: [...categories],
    title: { text: null },
    labels: {
      step: 1,
      style: { width: CATEGORY_LABEL_WIDTH, textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
    },
    tickInterval: 1,
  };
}

/** The colour of this year's series (and of any current period): the first chart colour. */
export const CURRENT_SERIES_COLOR = CHART_COLORS[0] ?? '#2D72D2';

/** The colour of last year's series: muted, so that it never reads as this year's. */
export const LAST_YEAR_SERIES_COLOR = '#8F99A8';

/**
 * A period still open or cut short (a partial period): its bar hatched in its own series' colour, with an outline
 * of that colour, so that it reads as that series and as incomplete (needs the pattern-fill module, which `Chart`
 * loads).
 */
export function partialPoint(color: string): Highcharts.PointOptionsObject {
  return {
    color: {
      pattern: {
        path: { d: 'M 0 6 L 6 0 M -1 1 L 1 -1 M 5 7 L 7 5', strokeWidth: 2 },
        color,
        backgroundColor: '#FFFFFF',
        width: 6,
        height: 6,
      },
    },
    borderColor: color,
    borderWidth: 1,
  };
}
