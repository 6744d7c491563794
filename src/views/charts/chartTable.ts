import type Highcharts from 'highcharts';

/** A chart's data as rows of text: the text alternative of a chart that has no table of its own. */
export interface ChartTable {
  /** The header of each column; the first names what the rows are. */
  readonly columns: readonly string[];
  /** One row per category (pie: per slice; heat map: per row of the y axis), its label first. */
  readonly rows: readonly (readonly string[])[];
}

interface LooseSeries {
  readonly type?: string;
  readonly name?: string;
  readonly data?: readonly unknown[];
}

interface LooseAxis {
  readonly categories?: readonly string[];
  readonly title?: { readonly text?: string | null };
}

const VALUE_FORMAT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

function firstAxis(axis: unknown): LooseAxis | undefined {
  return (Array.isArray(axis) ? axis[0] : axis) as LooseAxis | undefined;
}

function formatValue(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? VALUE_FORMAT.format(value) : '';
}

/** The value of a point given as a number, [x, y] or { y }. */
function pointValue(point: unknown): unknown {
  if (Array.isArray(point)) return point[point.length - 1];
  if (point !== null && typeof point === 'object') return (point as { y?: unknown }).y;
  return point;
}

function pointName(point: unknown, index: number): string {
  if (point !== null && typeof point === 'object' && 'name' in point) return String(point.name);
  return String(index + 1);
}

/**
 * The table of a chart's options: a pie as name and value, a heat map as its y categories by its x categories,
 * anything else as the x categories by series. No rows when no series has points (the chart says 'No Data').
 */
export function chartTable(options: Highcharts.Options): ChartTable {
  const series = (options.series ?? []) as readonly LooseSeries[];
  const xAxis = firstAxis(options.xAxis);
  const yAxis = firstAxis(options.yAxis);
  const categories = xAxis?.categories ?? [];
  const label = xAxis?.title?.text || 'Category';
  if (series.every((entry) => (entry.data ?? []).length === 0)) {
    return { columns: [label, ...series.map((entry) => entry.name ?? '')], rows: [] };
  }
  const first = series[0];
  const kind = first?.type ?? options.chart?.type;
  if (kind === 'pie') {
    return {
      columns: ['Name', first?.name ?? 'Value'],
      rows: (first?.data ?? []).map((point, index) => [pointName(point, index), formatValue(pointValue(point))]),
    };
  }
  if (kind === 'heatmap') {
    const cells = new Map<string, unknown>();
    for (const point of first?.data ?? []) {
      if (Array.isArray(point)) cells.set(`${point[0]},${point[1]}`, point[2]);
    }
    return {
      columns: [yAxis?.title?.text || 'Row', ...categories],
      rows: (yAxis?.categories ?? []).map((row, y) => [
        row,
        ...categories.map((_, x) => formatValue(cells.get(`${x},${y}`))),
      ]),
    };
  }
  const length = Math.max(categories.length, ...series.map((entry) => (entry.data ?? []).length));
  return {
    columns: [label, ...series.map((entry) => entry.name ?? '')],
    rows: Array.from({ length }, (_, index) => [
      categories[index] ?? String(index + 1),
      ...series.map((entry) => formatValue(pointValue(entry.data?.[index]))),
    ]),
  };
}
