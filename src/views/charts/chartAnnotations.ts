import type Highcharts from 'highcharts';
import { useMemo } from 'react';
import { type AnnotationKind, annotationSpans, type ChartAnnotation } from '../../domain/chartAnnotations';
import type { Theme } from '../../domain/theme';

/**
 * The festivals, holidays and mall events over a chart of days (issue 31): each as an x-axis plot band (a range)
 * or plot line (one day) on the chart's category axis, one category a day. Labels are text: `useHTML` off, and
 * `Chart` escapes every plot band's and line's label (chartText.textOnlyOptions) like the rest of its text.
 */

/** What a time chart is given to annotate: its categories' days in order, and the annotations of its range. */
export interface ChartAnnotations {
  readonly days: readonly string[];
  readonly items: readonly ChartAnnotation[];
}

/**
 * A time chart's annotations: `items` (a page's annotations panel; undefined while it has none) over the chart's
 * `days`. The same object while the items and the days are the same, as `Chart` keeps its options on it.
 */
export function useChartAnnotations(
  items: readonly ChartAnnotation[] | undefined,
  days: readonly string[],
): ChartAnnotations | undefined {
  const key = days.join(',');
  return useMemo(() => (items ? { days: key === '' ? [] : key.split(','), items } : undefined), [items, key]);
}

/** Each kind's colour: the swatch of the key and the band's fill (translucent) or the line. */
export const ANNOTATION_COLORS: Readonly<Record<AnnotationKind, string>> = {
  festival: '#D1980B',
  public_holiday: '#CD4246',
  school_holiday: '#2D72D2',
  mall_event: '#238551',
};

/** A colour with an alpha (a `#RRGGBB` colour). */
function translucent(color: string, alpha: number): string {
  const value = Number.parseInt(color.slice(1), 16);
  return `rgba(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255}, ${alpha})`;
}

/** The x-axis bands and lines of the annotations over `days`; labels rotated, as text. */
export function annotationMarks(
  annotations: ChartAnnotations,
  theme: Theme,
): Pick<Highcharts.XAxisOptions, 'plotBands' | 'plotLines'> {
  const plotBands: Highcharts.XAxisPlotBandsOptions[] = [];
  const plotLines: Highcharts.XAxisPlotLinesOptions[] = [];
  const labelColor = theme === 'dark' ? '#D3D8DE' : '#404854';
  for (const { annotation, from, to } of annotationSpans(annotations.days, annotations.items)) {
    const color = ANNOTATION_COLORS[annotation.kind];
    const label: Highcharts.XAxisPlotBandsLabelOptions = {
      text: annotation.label,
      useHTML: false,
      rotation: 270,
      textAlign: 'right',
      x: 4,
      y: 6,
      style: { color: labelColor, fontSize: '10px' },
    };
    const className = `app-chart-annotation app-chart-annotation-${annotation.kind}`;
    if (from === to && annotation.start === annotation.end) {
      plotLines.push({ value: from, color, width: 2, dashStyle: 'ShortDash', zIndex: 3, label, className });
    } else {
      const alpha = annotation.kind === 'school_holiday' ? 0.08 : 0.16;
      plotBands.push({ from: from - 0.5, to: to + 0.5, color: translucent(color, alpha), zIndex: 0, label, className });
    }
  }
  return { plotBands, plotLines };
}

/** The chart's options with the annotations on its (first) x axis. */
export function withAnnotations(
  options: Highcharts.Options,
  annotations: ChartAnnotations | undefined,
  theme: Theme,
): Highcharts.Options {
  if (!annotations || annotations.items.length === 0) return options;
  const marks = annotationMarks(annotations, theme);
  if ((marks.plotBands?.length ?? 0) === 0 && (marks.plotLines?.length ?? 0) === 0) return options;
  const axes = options.xAxis;
  const first = Array.isArray(axes) ? axes[0] : axes;
  const annotated: Highcharts.XAxisOptions = {
    ...first,
    plotBands: [...(first?.plotBands ?? []), ...(marks.plotBands ?? [])],
    plotLines: [...(first?.plotLines ?? []), ...(marks.plotLines ?? [])],
  };
  return { ...options, xAxis: Array.isArray(axes) ? [annotated, ...axes.slice(1)] : annotated };
}
