import type { CalendarKindName } from './calendar';

/**
 * What the time charts draw over their days (issue 31): the festivals, holidays and school holidays of the malls'
 * countries and the malls' own events, each a range of days with its label, as text.
 */

export type AnnotationKind = CalendarKindName | 'mall_event';

export interface ChartAnnotation {
  /** `YYYY-MM-DD`, both included. */
  readonly start: string;
  readonly end: string;
  readonly label: string;
  readonly kind: AnnotationKind;
}

/** The key under a chart: each kind by name, in this order. */
export const ANNOTATION_KIND_LABELS: Readonly<Record<AnnotationKind, string>> = {
  festival: 'Festival',
  public_holiday: 'Public holiday',
  school_holiday: 'School holidays',
  mall_event: 'Mall event',
};

export const ANNOTATION_KINDS = Object.keys(ANNOTATION_KIND_LABELS) as AnnotationKind[];

interface AnnotationsAnswer {
  readonly events: readonly { readonly title: string; readonly start_date: string; readonly end_date: string }[];
  readonly holidays: readonly {
    readonly name: string;
    readonly start_date: string;
    readonly end_date: string;
    readonly kind: CalendarKindName;
  }[];
}

/**
 * The annotations of a /api/mall_events answer: the holidays (one for the same name and days in several
 * countries), then the events, each by its first day.
 */
export function chartAnnotationsOf(answer: AnnotationsAnswer): ChartAnnotation[] {
  const seen = new Set<string>();
  const holidays: ChartAnnotation[] = [];
  for (const holiday of answer.holidays) {
    const key = `${holiday.kind}|${holiday.start_date}|${holiday.end_date}|${holiday.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    holidays.push({ start: holiday.start_date, end: holiday.end_date, label: holiday.name, kind: holiday.kind });
  }
  const events = answer.events.map(
    (event): ChartAnnotation => ({
      start: event.start_date,
      end: event.end_date,
      label: event.title,
      kind: 'mall_event',
    }),
  );
  return [...holidays, ...events].sort((a, b) => a.start.localeCompare(b.start));
}

/** Where an annotation falls on a chart of `days` (its categories' days, in order): the first and last index. */
export interface AnnotationSpan {
  readonly annotation: ChartAnnotation;
  readonly from: number;
  readonly to: number;
}

/** The annotations that overlap `days`, each as the indexes it covers (clipped to the chart); others left out. */
export function annotationSpans(days: readonly string[], annotations: readonly ChartAnnotation[]): AnnotationSpan[] {
  const first = days[0];
  const last = days[days.length - 1];
  if (first === undefined || last === undefined) return [];
  const spans: AnnotationSpan[] = [];
  for (const annotation of annotations) {
    if (annotation.end < first || annotation.start > last) continue;
    const from = days.findIndex((day) => day >= annotation.start);
    let to = -1;
    for (let index = days.length - 1; index >= 0; index -= 1) {
      if ((days[index] ?? '') <= annotation.end) {
        to = index;
        break;
      }
    }
    if (from === -1 || to === -1 || to < from) continue;
    spans.push({ annotation, from, to });
  }
  return spans;
}

/** The kinds present, in the key's order. */
export function annotationKindsOf(annotations: readonly ChartAnnotation[]): AnnotationKind[] {
  return ANNOTATION_KINDS.filter((kind) => annotations.some((annotation) => annotation.kind === kind));
}
