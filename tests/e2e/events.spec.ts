import { type Browser, expect, type Page, test } from '@playwright/test';
import { day, openAs } from './session';

/*
 * A mall event in Chromium against the real server and its demo data (issue 31): the demo operator adds an event on
 * Mall Home ('Add event' by the daily chart, prefilled with the page's first mall and days), and its chart draws
 * it; a second user of the same client (the super admin) opens Mall Home on the same days and finds the event on
 * the chart too; the operator finds it on the Events page and removes it.
 */

const TITLE = `Browser test fair ${Date.now() % 100_000}`;
const RANGE = `?from=${day(-6)}&to=${day(0)}`;

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`page error: ${error.message}`));
  return page;
}

/** The daily chart's key of festivals, holidays and events, once the chart has drawn. */
async function dailyKey(page: Page) {
  const block = page.getByTestId('daily-trend');
  await expect(block.getByTestId('daily-trend-chart').locator('.highcharts-container')).toBeAttached();
  return block.getByTestId('chart-annotation-key');
}

test('an operator adds an event on Mall Home and a second user sees it on the chart', async ({ browser }) => {
  const operator = await newPage(browser);
  // Mall Home asks the malls' events for its chart only: the Add event dialog lists none.
  const eventLists: string[] = [];
  operator.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/mall_events' && request.method() === 'GET') {
      eventLists.push(request.url());
    }
  });
  await openAs(operator, 'operator@demo.mall', `/shopper-connect/mall-home${RANGE}`);
  await expect(operator).toHaveURL(/\/shopper-connect\/mall-home/);
  const add = operator.getByTestId('mall-home-add-event');
  await expect(add).toBeEnabled();
  await add.click();
  const form = operator.getByTestId('event-form');
  await expect(form).toBeVisible();
  await expect(form.getByTestId('event-start')).toHaveValue(day(-6));
  await expect(form.getByTestId('event-end')).toHaveValue(day(0));
  await expect(operator.getByTestId('event-submit')).toBeDisabled();
  await form.getByTestId('event-title').fill(TITLE);
  await form.getByTestId('event-kind').selectOption('sale');
  const saved = operator.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/mall_events' && response.request().method() === 'POST',
  );
  await operator.getByTestId('event-submit').click();
  expect((await saved).status()).toBe(200);
  await expect(operator.getByText('Event has been added successfully.')).toBeVisible();
  await expect(form).toBeHidden();
  await expect(await dailyKey(operator)).toContainText(TITLE);
  // Once for the chart when the page opened, once again after the save.
  expect(eventLists).toHaveLength(2);
  // The label is drawn as the chart's own text, never markup.
  await expect(operator.getByTestId('daily-trend-chart').getByText(TITLE).first()).toBeAttached();

  const admin = await newPage(browser);
  await openAs(admin, 'admin@demo.mall', `/shopper-connect/mall-home${RANGE}`);
  await expect(admin).toHaveURL(/\/shopper-connect\/mall-home/);
  await expect(await dailyKey(admin)).toContainText(TITLE);

  await operator.goto(`/shopper-connect/events${RANGE}`);
  const events = operator.getByTestId('events-page');
  const row = events.locator('tr', { hasText: TITLE });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Sale');
  await row.getByRole('button', { name: `Delete ${TITLE}` }).click();
  await expect(operator.getByTestId('event-delete-question')).toHaveText(`Delete ${TITLE}?`);
  await operator.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(operator.getByText(`${TITLE} has been deleted successfully.`)).toBeVisible();
  await expect(events.locator('tr', { hasText: TITLE })).toHaveCount(0);
});
