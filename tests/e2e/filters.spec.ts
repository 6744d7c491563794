import { expect, type Page, test } from '@playwright/test';
import {
  DEVICES,
  day,
  expectMalls,
  hrefOf,
  openAs,
  queryOf,
  rangeLabel,
  signIn,
  toggleMall,
  waitForFilters,
} from './session';

/*
 * The filter header in the browser (§2, §4, §5, §9) against the real server: the date-range picker's
 * messages and Cancel (the desktop panel and the phone's dialog of selects), the hour picker, the filters in
 * the URL (a shared link restores them exactly, after the same checks; back and forward walk through the
 * changes). What the header committed is read from its own controls and the URL, so the pages may be built
 * or not.
 */

const FUTURE_DATE = 'You have selected a future date. Please try again with another date.';
const START_AFTER_END = 'Date must be before End Date.';
const EXCEEDED_TITLE = 'Date Range Exceeded';
const EXCEEDED_31 = 'You have selected a date range more than 31 days. Please try again.';
const HOUR_ORDER = 'From must be at or before To.';

async function applyRange(page: Page): Promise<void> {
  await page.getByTestId('date-range-apply').click();
}

/** Desktop: types a day into From or To. */
async function typeDate(page: Page, field: 'from' | 'to', date: string): Promise<void> {
  const input = page.locator(`#date-range-${field}`);
  await input.fill(date);
  await input.press('Enter');
}

/** Desktop: types a day into From or To and leaves the field without Enter. */
async function typeDateAndLeave(page: Page, field: 'from' | 'to', date: string): Promise<void> {
  const input = page.locator(`#date-range-${field}`);
  await input.fill(date);
  await input.blur();
}

/** Phone: sets a day with the dialog's year, month and day selects. */
async function selectDate(page: Page, field: 'From' | 'To', date: string): Promise<void> {
  const [year, month, dayOfMonth] = date.split('-').map(Number);
  const title = `Set Date ${field}`;
  await page.getByLabel(`${title} year`).selectOption(String(year));
  await page.getByLabel(`${title} month`).selectOption(String(month));
  await page.getByLabel(`${title} day`).selectOption(String(dayOfMonth));
}

async function expectExceededAlert(page: Page): Promise<void> {
  const alert = page.getByTestId('date-range-exceeded');
  await expect(alert).toBeVisible();
  await expect(alert.getByRole('heading')).toHaveText(EXCEEDED_TITLE);
  await expect(alert.locator('p')).toHaveText(EXCEEDED_31);
  await page.getByRole('button', { name: 'OK', exact: true }).click();
  await expect(alert).toBeHidden();
}

async function chooseOnlyMall(page: Page, name: string): Promise<void> {
  await page.getByTestId('malls-select').click();
  await page.getByTestId('malls-deselect-all').click();
  // Apply with none ticked says so, and keeps the panel open.
  await page.getByTestId('malls-apply').click();
  await expect(page.getByTestId('malls-error')).toHaveText('Please select a mall');
  await toggleMall(page, name, true);
  await expect(page.getByTestId('malls-error')).toBeHidden();
  await page.getByTestId('malls-apply').click();
  await expectMalls(page, [name]);
}

async function chooseHours(page: Page, from: number, to: number): Promise<void> {
  await page.getByTestId('hour-picker').click();
  await page.getByTestId('hour-picker-from').selectOption(String(from));
  await page.getByTestId('hour-picker-to').selectOption(String(to));
  await page.getByTestId('hour-picker-apply').click();
}

test.describe('the date-range picker on a desktop', () => {
  test('says why it refuses a range, and Cancel restores the range', async ({ page }) => {
    await openAs(page, 'operator@demo.mall');
    await waitForFilters(page);
    const button = page.getByTestId('date-range-button');
    await expect(button).toHaveText(rangeLabel(-6, 0));

    await button.click();
    await expect(page.getByTestId('date-range-panel')).toContainText('(Max range of 31 days)');
    await typeDate(page, 'from', day(-2));
    await typeDate(page, 'to', day(-5));
    await applyRange(page);
    await expect(page.getByTestId('date-range-error')).toHaveText(START_AFTER_END);

    await typeDate(page, 'from', day(-3));
    await typeDate(page, 'to', day(3));
    await applyRange(page);
    await expect(page.getByTestId('date-range-error')).toHaveText(FUTURE_DATE);

    await typeDate(page, 'from', day(-40));
    await typeDate(page, 'to', day(0));
    // Said in the panel as the dates are picked, before Apply.
    const warning = page.getByTestId('date-range-panel').getByTestId('date-range-warning');
    await expect(warning).toContainText(EXCEEDED_TITLE);
    await expect(warning).toContainText(EXCEEDED_31);
    await applyRange(page);
    await expectExceededAlert(page);

    // A future date typed and left without Enter is said too, not dropped.
    await typeDateAndLeave(page, 'to', day(2));
    await applyRange(page);
    await expect(page.getByTestId('date-range-error')).toHaveText(FUTURE_DATE);

    // Cancel: the range before stays, and the panel opens on it again.
    await page.getByTestId('date-range-cancel').click();
    await expect(page.getByTestId('date-range-panel')).toBeHidden();
    await expect(button).toHaveText(rangeLabel(-6, 0));
    expect(hrefOf(page)).toBe('/shopper-connect/mall-home');
    await button.click();
    await expect(page.locator('#date-range-from')).toHaveValue(day(-6));
    await expect(page.getByLabel('Last 7 days')).toBeChecked();

    // A good range is applied.
    await page.getByText('Last 30 days', { exact: true }).click();
    await applyRange(page);
    await expect(button).toHaveText(rangeLabel(-29, 0));
    await expect.poll(() => queryOf(page)).toMatchObject({ from: day(-29), to: day(0) });
  });
});

test.describe('the date presets on a Header V2 page', () => {
  test('Year to date switches the time range to the smallest one whose maximum fits', async ({ page }) => {
    await openAs(page, 'operator@demo.mall', '/shopper-connect/mall-peak-hours');
    await waitForFilters(page);
    const timeRange = page.getByTestId('time-range-select');
    await expect(timeRange).toHaveValue('daily');
    const today = day(0);
    const firstOfYear = `${today.slice(0, 4)}-01-01`;
    const days = Math.round((Date.parse(today) - Date.parse(firstOfYear)) / 86_400_000) + 1;
    // §9: Daily 31 days, Weekly 93, Monthly 366 (Monthly from 3 Apr on, the demo's usual case).
    const expected = days > 93 ? 'monthly' : days > 31 ? 'weekly' : 'daily';

    await page.getByTestId('date-range-button').click();
    const panel = page.getByTestId('date-range-panel');
    await panel.getByText('Year to date', { exact: true }).click();
    await expect(page.locator('#date-range-from')).toHaveValue(firstOfYear);
    await expect(panel.getByTestId('date-range-warning')).toBeHidden();
    await applyRange(page);
    await expect(timeRange).toHaveValue(expected);
    await expect.poll(() => queryOf(page)).toMatchObject({ from: firstOfYear, to: today, time_range: expected });
  });
});

test.describe('the date-range picker on a phone', () => {
  const phone = DEVICES.find((device) => device.name === 'phone');
  test.use(phone?.use ?? {});

  test('is a dialog of selects that says why it refuses a range; Cancel restores the range', async ({ page }) => {
    await openAs(page, 'operator@demo.mall');
    await waitForFilters(page);
    const button = page.getByTestId('date-range-button');
    await expect(button).toHaveText(rangeLabel(-6, 0));

    await button.click();
    const dialog = page.getByRole('dialog', { name: 'Date Period' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Set Date From');
    await expect(dialog).toContainText('Set Date To');

    await selectDate(page, 'From', day(0));
    await selectDate(page, 'To', day(-1));
    await applyRange(page);
    await expect(page.getByTestId('date-range-error')).toHaveText(START_AFTER_END);

    await selectDate(page, 'From', day(-1));
    await selectDate(page, 'To', day(1));
    await applyRange(page);
    await expect(page.getByTestId('date-range-error')).toHaveText(FUTURE_DATE);

    await selectDate(page, 'From', day(-40));
    await selectDate(page, 'To', day(0));
    await applyRange(page);
    await expectExceededAlert(page);

    await page.getByTestId('date-range-cancel').click();
    await expect(dialog).toBeHidden();
    await expect(button).toHaveText(rangeLabel(-6, 0));
    expect(hrefOf(page)).toBe('/shopper-connect/mall-home');

    await button.click();
    await expect(page.getByLabel('Set Date From day')).toHaveValue(String(Number(day(-6).slice(8))));
    await selectDate(page, 'From', day(-20));
    await page.getByRole('button', { name: 'Okay' }).click();
    await expect(button).toHaveText(rangeLabel(-20, 0));
    await expect.poll(() => queryOf(page)).toMatchObject({ from: day(-20), to: day(0) });
  });
});

for (const device of DEVICES) {
  test.describe(`on a ${device.name}`, () => {
    test.use(device.use);

    test('the hour picker refuses From after To and applies a custom range', async ({ page }) => {
      await openAs(page, 'operator@demo.mall', '/shopper-connect/mall-peak-hours');
      await waitForFilters(page);
      const button = page.getByTestId('hour-picker');
      await expect(button).toHaveText('12:00am-12:00am');

      await button.click();
      await page.getByTestId('hour-picker-from').selectOption('18');
      await page.getByTestId('hour-picker-to').selectOption('9');
      await expect(page.getByLabel('Custom')).toBeChecked();
      await page.getByTestId('hour-picker-apply').click();
      await expect(page.getByTestId('hour-picker-error')).toHaveText(HOUR_ORDER);
      await page.getByTestId('hour-picker-cancel').click();
      await expect(button).toHaveText('12:00am-12:00am');

      await chooseHours(page, 9, 17);
      await expect(button).toHaveText('09:00 AM - 05:00 PM');
      await expect.poll(() => queryOf(page)).toMatchObject({ hours: '9-17' });

      await button.click();
      await page.getByText('All Day', { exact: true }).click();
      await page.getByTestId('hour-picker-apply').click();
      await expect(button).toHaveText('12:00am-12:00am');
      await expect.poll(() => queryOf(page)).toMatchObject({ hours: '0-23' });
    });

    test('a shared link restores the exact filters', async ({ page, browser }) => {
      await openAs(page, 'operator@demo.mall', '/shopper-connect/mall-peak-hours');
      await waitForFilters(page);
      await chooseOnlyMall(page, 'Harbourfront Centre');
      await page.getByTestId('time-range-select').selectOption('weekly');
      await page.getByTestId('metric-select').selectOption('transactions');
      await chooseHours(page, 10, 20);
      await page.getByTestId('date-range-button').click();
      if (device.name === 'desktop') {
        await typeDate(page, 'from', day(-50));
        await typeDate(page, 'to', day(-10));
      } else {
        await selectDate(page, 'From', day(-50));
        await selectDate(page, 'To', day(-10));
      }
      await applyRange(page);
      await expect(page.getByTestId('date-range-button')).toHaveText(rangeLabel(-50, -10));
      await expect.poll(() => queryOf(page)).toMatchObject({ from: day(-50) });
      const shared = hrefOf(page);
      expect(queryOf(page)).toMatchObject({
        from: day(-50),
        to: day(-10),
        hours: '10-20',
        time_range: 'weekly',
        metric: 'transactions',
        outlet: 'all',
      });

      // Someone else opens the link: through the sign-in, the same filters.
      const other = await browser.newContext(device.use);
      const second = await other.newPage();
      await second.goto(shared);
      await expect(second).toHaveURL(/\/login\?redirect=/);
      await signIn(second, 'operator@demo.mall');
      await waitForFilters(second);
      await expect.poll(() => hrefOf(second)).toBe(shared);
      await expectMalls(second, ['Harbourfront Centre']);
      await expect(second.getByTestId('date-range-button')).toHaveText(rangeLabel(-50, -10));
      await expect(second.getByTestId('hour-picker')).toHaveText('10:00 AM - 08:00 PM');
      await expect(second.getByTestId('time-range-select')).toHaveValue('weekly');
      await expect(second.getByTestId('metric-select')).toHaveValue('transactions');
      expect(queryOf(second)).toMatchObject({ outlet: 'all' });
      await other.close();
    });

    test('back and forward walk through the filter changes', async ({ page }) => {
      await openAs(page, 'operator@demo.mall', '/shopper-connect/mall-peak-hours');
      await waitForFilters(page);
      expect(hrefOf(page)).toBe('/shopper-connect/mall-peak-hours');
      await expectMalls(page, ['Bukit Bintang Plaza', 'Harbourfront Centre']);
      const timeRange = page.getByTestId('time-range-select');
      const metric = page.getByTestId('metric-select');

      await timeRange.selectOption('weekly');
      await expect.poll(() => queryOf(page).time_range).toBe('weekly');
      await metric.selectOption('transactions');
      await expect.poll(() => queryOf(page).metric).toBe('transactions');
      await chooseOnlyMall(page, 'Harbourfront Centre');

      await page.goBack();
      await expectMalls(page, ['Bukit Bintang Plaza', 'Harbourfront Centre']);
      await expect(metric).toHaveValue('transactions');
      await page.goBack();
      await expect(metric).toHaveValue('gmv');
      await expect(timeRange).toHaveValue('weekly');
      await page.goBack();
      await expect(timeRange).toHaveValue('daily');
      // The page's first entry now names the filters it had.
      expect(queryOf(page)).toMatchObject({
        time_range: 'daily',
        metric: 'gmv',
        hours: '0-23',
        from: day(-6),
        to: day(0),
      });

      await page.goForward();
      await expect(timeRange).toHaveValue('weekly');
      await expect(metric).toHaveValue('gmv');
      await page.goForward();
      await expect(metric).toHaveValue('transactions');
      await page.goForward();
      await expectMalls(page, ['Harbourfront Centre']);
    });
  });
}

test('a link is checked like a choice: what the user may not see or pick falls back', async ({ page }) => {
  const link =
    `/shopper-connect/mall-peak-hours?client=999&from=${day(-3)}&to=${day(4)}` +
    '&hours=18-9&time_range=yearly&metric=transactions&outlet=all';
  await openAs(page, 'operator@demo.mall', link);
  await waitForFilters(page);
  await expectMalls(page, ['Bukit Bintang Plaza', 'Harbourfront Centre']);
  await expect(page.getByTestId('date-range-button')).toHaveText(rangeLabel(-6, 0));
  await expect(page.getByTestId('hour-picker')).toHaveText('12:00am-12:00am');
  await expect(page.getByTestId('time-range-select')).toHaveValue('daily');
  // The good values of the link stay.
  await expect(page.getByTestId('metric-select')).toHaveValue('transactions');
  // The address is corrected in place.
  await expect.poll(() => queryOf(page).client).not.toBe('999');
  expect(queryOf(page)).toMatchObject({
    from: day(-6),
    to: day(0),
    hours: '0-23',
    time_range: 'daily',
    metric: 'transactions',
  });
});

test('pages keep the filters, and back returns to the page and its filters', async ({ page }) => {
  await openAs(page, 'operator@demo.mall');
  await waitForFilters(page);
  await chooseOnlyMall(page, 'Harbourfront Centre');
  await page.getByTestId('date-range-button').click();
  await page.getByText('Last 30 days', { exact: true }).click();
  await applyRange(page);
  await expect(page.getByTestId('date-range-button')).toHaveText(rangeLabel(-29, 0));
  const malls = queryOf(page).malls;

  // The sidebar link carries the filters: the next page's address has them, so a reload restores them.
  await page.getByTestId('nav').getByRole('menuitem', { name: 'Mall GMV', exact: true }).click();
  await expect(page).toHaveURL(/\/shopper-connect\/mall-gmv\?/);
  expect(queryOf(page)).toMatchObject({ malls, from: day(-29), to: day(0) });
  await expectMalls(page, ['Harbourfront Centre']);
  await page.reload();
  await waitForFilters(page);
  await expectMalls(page, ['Harbourfront Centre']);
  await expect(page.getByTestId('date-range-button')).toHaveText(rangeLabel(-29, 0));
  expect(queryOf(page)).toMatchObject({ malls, from: day(-29), to: day(0) });

  await page.getByTestId('malls-select').click();
  await page.getByTestId('malls-select-all').click();
  await page.getByTestId('malls-apply').click();
  await expectMalls(page, ['Bukit Bintang Plaza', 'Harbourfront Centre']);

  await page.goBack();
  await expect(page).toHaveURL(/\/shopper-connect\/mall-gmv\?/);
  await expectMalls(page, ['Harbourfront Centre']);
  await page.goBack();
  await expect(page).toHaveURL(/\/shopper-connect\/mall-home\?/);
  await expect(page.getByTestId('page-title')).toHaveText('Mall Home');
  await expectMalls(page, ['Harbourfront Centre']);
  await page.goBack();
  await page.goBack();
  await expectMalls(page, ['Bukit Bintang Plaza', 'Harbourfront Centre']);
});
