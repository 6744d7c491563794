import { expect, type Locator } from '@playwright/test';

/*
 * Helpers of the specs that check a chart's layout: no two labels of an axis overlap, and the export (menu) button
 * sits on no axis label.
 */

interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly text: string;
}

/** The boxes of the texts under `selector` in `chart` (a chart's container), as the page draws them. */
export async function boxesOf(chart: Locator, selector: string): Promise<Box[]> {
  return chart.locator(selector).evaluateAll((elements) =>
    elements
      .filter((element) => getComputedStyle(element).visibility !== 'hidden')
      .map((element) => {
        const rect = element.getBoundingClientRect();
        return { x: rect.x, y: rect.y, width: rect.width, height: rect.height, text: element.textContent ?? '' };
      })
      // Labels thinned out are drawn empty or hidden.
      .filter((box) => box.width > 0 && box.height > 0),
  );
}

/** Whether two boxes share any area (touching edges do not count). */
export function intersects(a: Box, b: Box): boolean {
  return (
    a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5
  );
}

/** The pairs of boxes that overlap, as their texts ('26/11 × 28/11'). */
export function overlaps(boxes: readonly Box[]): string[] {
  const found: string[] = [];
  boxes.forEach((a, index) => {
    for (const b of boxes.slice(index + 1)) if (intersects(a, b)) found.push(`${a.text} × ${b.text}`);
  });
  return found;
}

/** No two x axis labels of the chart overlap, and at least one is drawn. */
export async function expectXLabelsApart(chart: Locator): Promise<void> {
  await expect(chart.locator('.highcharts-xaxis-labels text').filter({ hasText: /\S/ }).first()).toBeVisible();
  expect(overlaps(await boxesOf(chart, '.highcharts-xaxis-labels text'))).toEqual([]);
}

/** The chart's export button covers no axis label (of any axis). */
export async function expectExportButtonClear(chart: Locator): Promise<void> {
  const [button] = await boxesOf(chart, '.highcharts-contextbutton');
  if (!button) throw new Error('the chart has no export button');
  const labels = await boxesOf(chart, '.highcharts-axis-labels text, .highcharts-axis-title');
  expect(labels.filter((label) => intersects(button, label)).map((label) => label.text)).toEqual([]);
}
