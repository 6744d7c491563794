import { expect, type Page } from '@playwright/test';

/*
 * Helpers of the layout and filter specs: the demo accounts' sign-in, the two devices they run on, and the
 * filter summary that the pages not built yet show.
 */

export const PASSWORD = 'demo-password-1';

export const PHONE_USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

export interface Device {
  readonly name: 'desktop' | 'phone';
  readonly use: { viewport: { width: number; height: number }; userAgent?: string };
}

/** A desktop browser, and a phone-sized one with a mobile user agent (§2: mobile is told by user agent). */
export const DEVICES: readonly Device[] = [
  { name: 'desktop', use: { viewport: { width: 1440, height: 900 } } },
  { name: 'phone', use: { viewport: { width: 390, height: 844 }, userAgent: PHONE_USER_AGENT } },
];

export async function signIn(page: Page, username: string): Promise<void> {
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
}

/** Opens `path` (through /login when signed out) as `username`, and waits for the page's filters. */
export async function openAs(page: Page, username: string, path = '/login'): Promise<void> {
  await page.goto(path);
  await signIn(page, username);
  await expect(page.getByTestId('app-layout')).toBeVisible();
}

/** The pathname and query the browser shows. */
export function hrefOf(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

/** The query of the address as a plain object. */
export function queryOf(page: Page): Record<string, string> {
  return Object.fromEntries(new URL(page.url()).searchParams.entries());
}

/**
 * One line of the filter summary that pages not built yet show (client, malls, outlet, dates, month, hours,
 * time-range, metric).
 */
export function summary(page: Page, key: string) {
  return page.getByTestId(`filter-summary-${key}`);
}

/** The selected malls, as the mall header's Malls button lists them (its title). */
export async function expectMalls(page: Page, names: readonly string[]): Promise<void> {
  await expect(page.getByTestId('malls-select')).toHaveAttribute('title', names.join(', '));
}

/**
 * Waits until no popover is open or closing. A closing popover gives the focus back to its button when its
 * transition ends, so a key pressed before then can go to that button instead of the control meant.
 */
export async function waitForPopoversClosed(page: Page): Promise<void> {
  await expect(page.locator('.bp6-popover-transition-container')).toHaveCount(0);
}

/**
 * Waits until the mall header knows the client's malls (its Malls button names the selected ones), and on a phone
 * opens the filters under their line (FilterLine), so that the header's controls can be used.
 */
export async function waitForFilters(page: Page): Promise<void> {
  await expect(page.getByTestId('malls-select')).toHaveAttribute('title', /\S/);
  const line = page.getByTestId('filter-line');
  if ((await line.isVisible()) && (await line.getAttribute('aria-expanded')) === 'false') {
    await line.click();
    await expect(line).toHaveAttribute('aria-expanded', 'true');
  }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * The zone of the demo malls of Harbourfront Malls (Singapore and Kuala Lumpur, both UTC+8): the header's today for
 * every account of these tests but Sunrise's (its mall is in Jakarta), whatever the browser's zone (the browser
 * runs in another one: playwright.config.ts) and this machine's.
 */
export const DEMO_MALLS_ZONE = 'Asia/Singapore';

/** The malls' calendar day `offset` days from their today, as a date at UTC midnight (read with getUTC*). */
function dateFrom(offset: number): Date {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: DEMO_MALLS_ZONE }).format(new Date());
  const date = new Date(`${today}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + offset);
  return date;
}

/** A date relative to the malls' today (the header's), `YYYY-MM-DD`. */
export function day(offset: number): string {
  return dateFrom(offset).toISOString().slice(0, 10);
}

/** The date-range button's text for a range of days relative to the malls' today ('15 Nov - 21 Nov'). */
export function rangeLabel(startOffset: number, endOffset: number): string {
  const label = (date: Date) => `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()] ?? ''}`;
  return `${label(dateFrom(startOffset))} - ${label(dateFrom(endOffset))}`;
}

/** Opens the sidebar on a phone (it starts closed there); a no-op when it is open. */
export async function openMenu(page: Page): Promise<void> {
  const layout = page.getByTestId('app-layout');
  if ((await layout.getAttribute('data-sidebar')) === 'opened') return;
  await page.getByTestId('sidebar-toggle').click();
  await expect(layout).toHaveAttribute('data-sidebar', 'opened');
}

/** Follows a sidebar link like a user (opening the menu first on a phone). */
export async function openPage(page: Page, title: string, group?: string): Promise<void> {
  await openMenu(page);
  const nav = page.getByTestId('nav');
  const link = nav.getByRole('menuitem', { name: title, exact: true });
  if (group !== undefined && !(await link.isVisible())) {
    await nav.getByRole('button', { name: group }).click();
  }
  await link.click();
}

/** Ticks or unticks a mall in the open Malls panel (by its label, as a user clicks it). */
export async function toggleMall(page: Page, name: string, checked: boolean): Promise<void> {
  const option = page.getByTestId('malls-panel').locator('label', { hasText: name });
  const input = option.locator('input');
  if ((await input.isChecked()) !== checked) await option.click();
  await expect(input).toBeChecked({ checked });
}
