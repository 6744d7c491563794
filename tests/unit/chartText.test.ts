import type Highcharts from 'highcharts';
import { describe, expect, it } from 'vitest';
import { escapeChartText, textOnlyOptions } from '../../src/views/charts/chartText';

const LINK = '<a href=//x.invalid/p>PAYLINK</a>';
const ESCAPED_LINK = '&lt;a href=//x.invalid/p&gt;PAYLINK&lt;/a&gt;';

describe('chart text (issue 29)', () => {
  it('escapes the characters Highcharts reads as markup, as the entities it reads back', () => {
    expect(escapeChartText(LINK)).toBe(ESCAPED_LINK);
    expect(escapeChartText('<i>PAY</i>')).toBe('&lt;i&gt;PAY&lt;/i&gt;');
    expect(escapeChartText(`Tom & Jerry's "Diner"`)).toBe('Tom &amp; Jerry&#39;s &quot;Diner&quot;');
    expect(escapeChartText('&lt;')).toBe('&amp;lt;');
    expect(escapeChartText('Kopi 咖啡 é')).toBe('Kopi 咖啡 é');
  });

  it("escapes every text from data: titles, axes' categories and titles, series and point names, value prefixes", () => {
    const options: Highcharts.Options = {
      title: { text: '<b>T</b>' },
      xAxis: {
        categories: [LINK, 'F&B'],
        title: { text: '<i>x</i>' },
        plotLines: [{ value: 1, label: { text: '<a>' } }],
      },
      yAxis: [{ title: { text: 'GMV (<Rp>)' } }, { categories: ['<i>Mon</i>'] }],
      tooltip: { valuePrefix: '<b>$</b>' },
      series: [
        {
          type: 'column',
          id: 'keep <id>',
          name: LINK,
          tooltip: { valueSuffix: '<i>%</i>' },
          data: [1, null, { y: 2, name: '<i>PAY</i>' }, ['<b>n</b>', 3]],
        },
        { type: 'pie', data: [{ name: LINK, y: 1 }] },
      ],
    };
    const before = structuredClone(options);
    expect(textOnlyOptions(options)).toEqual({
      title: { text: '&lt;b&gt;T&lt;/b&gt;' },
      xAxis: {
        categories: [ESCAPED_LINK, 'F&amp;B'],
        title: { text: '&lt;i&gt;x&lt;/i&gt;' },
        plotLines: [{ value: 1, label: { text: '&lt;a&gt;' } }],
      },
      yAxis: [{ title: { text: 'GMV (&lt;Rp&gt;)' } }, { categories: ['&lt;i&gt;Mon&lt;/i&gt;'] }],
      tooltip: { valuePrefix: '&lt;b&gt;$&lt;/b&gt;' },
      series: [
        {
          type: 'column',
          id: 'keep <id>',
          name: ESCAPED_LINK,
          tooltip: { valueSuffix: '&lt;i&gt;%&lt;/i&gt;' },
          data: [1, null, { y: 2, name: '&lt;i&gt;PAY&lt;/i&gt;' }, ['&lt;b&gt;n&lt;/b&gt;', 3]],
        },
        { type: 'pie', data: [{ name: ESCAPED_LINK, y: 1 }] },
      ],
    });
    // The options given are the data table's: left as they were.
    expect(options).toEqual(before);
  });

  it('leaves options without text as they are', () => {
    const options: Highcharts.Options = { chart: { type: 'line' }, title: { text: undefined }, series: [] };
    expect(textOnlyOptions(options)).toEqual(options);
  });
});
