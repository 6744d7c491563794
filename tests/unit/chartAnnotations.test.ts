import type Highcharts from 'highcharts';
import { describe, expect, it } from 'vitest';
import { annotationSpans, chartAnnotationsOf } from '../../src/domain/chartAnnotations';
import { annotationMarks, withAnnotations } from '../../src/views/charts/chartAnnotations';
import { textOnlyOptions } from '../../src/views/charts/chartText';

const DAYS = ['2026-02-15', '2026-02-16', '2026-02-17', '2026-02-18', '2026-02-19'];

describe('the time charts’ annotations', () => {
  it('takes the holidays once (the same name and days in two countries) and the events, by first day', () => {
    const cny = {
      name: 'Chinese New Year',
      start_date: '2026-02-17',
      end_date: '2026-02-18',
      kind: 'festival' as const,
    };
    expect(
      chartAnnotationsOf({
        holidays: [cny, { ...cny }],
        events: [{ title: 'Lunar sale', start_date: '2026-02-10', end_date: '2026-02-20' }],
      }),
    ).toEqual([
      { start: '2026-02-10', end: '2026-02-20', label: 'Lunar sale', kind: 'mall_event' },
      { start: '2026-02-17', end: '2026-02-18', label: 'Chinese New Year', kind: 'festival' },
    ]);
  });

  it('places each on the chart’s days, clipped to them, and leaves out those outside', () => {
    const spans = annotationSpans(DAYS, [
      { start: '2026-02-10', end: '2026-02-16', label: 'Before', kind: 'school_holiday' },
      { start: '2026-02-17', end: '2026-02-17', label: 'Day', kind: 'public_holiday' },
      { start: '2026-03-01', end: '2026-03-02', label: 'After', kind: 'mall_event' },
    ]);
    expect(spans.map(({ annotation, from, to }) => [annotation.label, from, to])).toEqual([
      ['Before', 0, 1],
      ['Day', 2, 2],
    ]);
    expect(annotationSpans([], [{ start: '2026-02-17', end: '2026-02-17', label: 'x', kind: 'festival' }])).toEqual([]);
  });

  it('draws a range as a band and a day as a line, their labels text (useHTML off, escaped by Chart)', () => {
    const annotations = {
      days: DAYS,
      items: [
        {
          start: '2026-02-17',
          end: '2026-02-18',
          label: '<a href="https://x.test">CNY</a>',
          kind: 'festival' as const,
        },
        { start: '2026-02-19', end: '2026-02-19', label: '<i>Sale</i>', kind: 'mall_event' as const },
      ],
    };
    const marks = annotationMarks(annotations, 'light');
    expect(marks.plotBands).toHaveLength(1);
    expect(marks.plotBands?.[0]).toMatchObject({ from: 1.5, to: 3.5, label: { useHTML: false } });
    expect(marks.plotLines?.[0]).toMatchObject({ value: 4, label: { useHTML: false } });
    const options = textOnlyOptions(
      withAnnotations({ xAxis: { categories: DAYS, plotLines: [{ value: 0 }] } }, annotations, 'light'),
    );
    const axis = options.xAxis as Highcharts.XAxisOptions;
    expect(axis.plotBands?.[0]?.label?.text).toBe('&lt;a href=&quot;https://x.test&quot;&gt;CNY&lt;/a&gt;');
    expect(axis.plotLines?.map((line) => line.label?.text)).toEqual([undefined, '&lt;i&gt;Sale&lt;/i&gt;']);
  });

  it('leaves a chart without annotations as it is', () => {
    const options: Highcharts.Options = { xAxis: { categories: DAYS } };
    expect(withAnnotations(options, undefined, 'dark')).toBe(options);
    expect(withAnnotations(options, { days: DAYS, items: [] }, 'dark')).toBe(options);
  });
});
