/** The 18 chart colours (§9), used in order by every chart, and the chart limits. */
export const CHART_COLORS: readonly string[] = [
  '#2D72D2',
  '#238551',
  '#C87619',
  '#CD4246',
  '#7961DB',
  '#00A396',
  '#D1980B',
  '#DB2C6F',
  '#147EB3',
  '#29A634',
  '#D33D17',
  '#9D3F9D',
  '#8EB125',
  '#634DBF',
  '#00A5A5',
  '#C5D71E',
  '#A67908',
  '#5F6B7C',
];

/** §9: at most 11 grid lines and 6 labels on an axis. */
export const GRID_LINE_LIMIT = 11;
export const LABEL_LIMIT = 6;

export const NO_DATA_TEXT = 'No Data';

/** Animations make screenshots flaky: off when a browser is driven by automation (tests). */
export function chartAnimationsEnabled(): boolean {
  return !(typeof navigator !== 'undefined' && navigator.webdriver);
}
