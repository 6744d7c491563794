import type Highcharts from 'highcharts';

/*
 * Highcharts reads every label, legend item, tooltip and data label as markup: `<a href>` in a payment method a
 * device sent is drawn as a working link, `<i>` in italics (its AST keeps a list of tags and attributes, among them
 * a, b, i, span and href). Text from devices and users must reach a chart as text, so the one chart component
 * (`Chart`) escapes every text of the options it is given here: what Highcharts then draws is the literal text
 * (it reads the entities back once, as it reads its own: '&lt;i&gt;' is drawn '<i>', never '&lt;i&gt;').
 */

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as Highcharts draws it literally: &, <, >, " and ' as the entities Highcharts reads back (its `escapes`). */
export function escapeChartText(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
}

type Loose = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Loose {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const escapeIfText = (value: unknown): unknown => (typeof value === 'string' ? escapeChartText(value) : value);

/** A copy of `value` (an object of options) with the text of the given keys escaped; anything else as it is. */
function withText(value: unknown, keys: readonly string[]): unknown {
  if (!isObject(value)) return value;
  const copy: Record<string, unknown> = { ...value };
  for (const key of keys) if (key in copy) copy[key] = escapeIfText(copy[key]);
  return copy;
}

/** A title-like option ({ text }), a plot line's or band's label. */
const titled = (value: unknown) => withText(value, ['text']);

/** One option or a list of them (axes are either). */
function eachOf(value: unknown, map: (entry: unknown) => unknown): unknown {
  return Array.isArray(value) ? value.map(map) : map(value);
}

/** An axis: its categories, its title and its plot lines' and bands' labels. */
function axis(value: unknown): unknown {
  if (!isObject(value)) return value;
  const copy: Record<string, unknown> = { ...value };
  if (Array.isArray(copy.categories)) copy.categories = copy.categories.map(escapeIfText);
  if ('title' in copy) copy.title = titled(copy.title);
  for (const key of ['plotLines', 'plotBands']) {
    const marks = copy[key];
    if (Array.isArray(marks))
      copy[key] = marks.map((mark) =>
        isObject(mark) && 'label' in mark ? { ...mark, label: titled(mark.label) } : mark,
      );
  }
  return copy;
}

/**
 * A point: its name ({ name }, or [name, y] whose first entry is text) and its note ({ custom: { note } }, the line
 * POINT_NOTE_TOOLTIP writes under its value); numbers and null as they are.
 */
function point(value: unknown): unknown {
  if (Array.isArray(value))
    return typeof value[0] === 'string' ? [escapeChartText(value[0]), ...value.slice(1)] : value;
  const named = withText(value, ['name']);
  if (!isObject(named) || !isObject(named.custom)) return named;
  return { ...named, custom: withText(named.custom, ['note']) };
}

/**
 * A series' tooltip that writes a point's note under its value ('+18.63%: $720,447.58, 1–27 Nov, vs …'): the note
 * is a point's `custom.note`, text (escaped with the chart's other texts); a point without one shows its value only.
 * The series' valuePrefix and valueDecimals still format the value.
 */
export const POINT_NOTE_TOOLTIP: Highcharts.SeriesTooltipOptionsObject = {
  pointFormat:
    '<span style="color:{point.color}">\u25CF</span> {series.name}: <b>{point.y}</b><br/>' +
    '{#if point.custom.note}{point.custom.note}<br/>{/if}',
};

/** A point with a note for POINT_NOTE_TOOLTIP (the note is text, never markup). */
export function notedPoint(
  point: Highcharts.PointOptionsObject,
  note: string | undefined,
): Highcharts.PointOptionsObject {
  return note === undefined ? point : { ...point, custom: { ...point.custom, note } };
}

/** The prefix and suffix a tooltip writes around a value (a currency symbol). */
const tooltip = (value: unknown) => withText(value, ['valuePrefix', 'valueSuffix']);

/** A series: its name, its points' names, its tooltip's prefix and suffix. */
function series(value: unknown): unknown {
  if (!isObject(value)) return value;
  const copy: Record<string, unknown> = { ...value };
  if (typeof copy.name === 'string') copy.name = escapeChartText(copy.name);
  if (Array.isArray(copy.data)) copy.data = copy.data.map(point);
  if ('tooltip' in copy) copy.tooltip = tooltip(copy.tooltip);
  return copy;
}

/**
 * The options with every text that Highcharts draws escaped: the chart's title, subtitle and caption, each axis's
 * categories, title and plot line and band labels, each series' name, its points' names and its tooltip's prefix
 * and suffix. Formats and formatters are the app's own (they may hold markup); a formatter that writes text from
 * data escapes it with `escapeChartText`. The options given are not changed (the data table reads them as text).
 */
export function textOnlyOptions(options: Highcharts.Options): Highcharts.Options {
  const loose: Record<string, unknown> = { ...options };
  for (const key of ['title', 'subtitle', 'caption']) if (key in loose) loose[key] = titled(loose[key]);
  for (const key of ['xAxis', 'yAxis', 'zAxis', 'colorAxis']) if (key in loose) loose[key] = eachOf(loose[key], axis);
  if (Array.isArray(loose.series)) loose.series = loose.series.map(series);
  if ('tooltip' in loose) loose.tooltip = tooltip(loose.tooltip);
  return loose as Highcharts.Options;
}
