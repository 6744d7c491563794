import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page, type Response, test } from '@playwright/test';
import JSZip from 'jszip';
import { openAs, openPage, toggleMall, waitForPopoversClosed } from './session';

/*
 * The refunds and voucher redemption pages against the real server and demo data, as the demo operator of
 * Harbourfront Malls (Harbourfront Centre in SGD, Bukit Bintang Plaza in MYR, reported in SGD): opened from the
 * sidebar, with their own malls and date range (no mall header). The KPI amount is the sum of the by-day table and
 * the server's; the top outlet row is the server's first outlet; a column sorts from the keyboard; Export CSV
 * downloads the KPIs, the days and the outlets. Every figure is the server's answer, read as the page asked it.
 */

interface AmountReport {
  readonly current: { amount: number; count: number; gmv: number; transactions: number };
  readonly daily: readonly { date: string; amount: number; count: number }[];
  readonly outlets: readonly {
    outlet_name: string;
    mall_name: string;
    amount: number;
    count: number;
    gmv: number;
  }[];
}

const amountOf = (text: string | null) => Number((text ?? '').replace(/[^\d.-]/g, ''));
/** Money in SGD as the page writes it ('$1,234.50'). */
const money = (value: number) =>
  `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const cents = (value: number) => Math.round(value * 100);

/** The answers of a report path, by the malls and days asked ('1,2|2026-03-01|2026-03-30'). */
function recordAnswers(page: Page, path: string): Map<string, AmountReport> {
  const answers = new Map<string, AmountReport>();
  page.on('response', async (response: Response) => {
    const url = new URL(response.url());
    if (url.pathname !== path || response.status() !== 200) return;
    const key = `${url.searchParams.getAll('mall_ids').join(',')}|${url.searchParams.get('start_time')}|${url.searchParams.get('end_time')}`;
    answers.set(key, (await response.json()) as AmountReport);
  });
  return answers;
}

/** The answer of the range the page shows now (its address: malls, from, to), once it has come. */
async function shownAnswer(page: Page, answers: Map<string, AmountReport>): Promise<AmountReport> {
  const address = new URL(page.url()).searchParams;
  const key = `${address.get('malls')}|${address.get('from')}|${address.get('to')}`;
  await expect.poll(() => answers.has(key)).toBe(true);
  const answer = answers.get(key);
  if (!answer) throw new Error(`no answer for ${key}`);
  return answer;
}

/** Waits until no panel loads, the page's filters are enabled again and their popovers have closed. */
async function waitForReport(page: Page): Promise<void> {
  await waitForPopoversClosed(page);
  await expect(page.getByTestId('report-loading')).toHaveCount(0);
  await expect(page.getByTestId('amount-header')).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('panel-loading')).toHaveCount(0);
}

async function cellTexts(rows: Locator, column: number): Promise<string[]> {
  return rows.locator(`td:nth-child(${column})`).allTextContents();
}

/**
 * What both pages show of `answer`: the KPI amount (the sum of the by-day table, within the days' rounding when
 * amounts are converted), the by-day table, the top outlet row; a column sorted from the keyboard.
 */
async function checkFigures(page: Page, answer: AmountReport, labels: { count: string }, converted: boolean) {
  expect(answer.daily.length).toBeGreaterThan(0);
  // The demo data has some in the last 30 days.
  expect(answer.current.amount).toBeGreaterThan(0);
  expect(answer.current.count).toBeGreaterThan(0);
  expect(answer.outlets.length).toBeGreaterThan(0);

  const kpi = await page.getByTestId('kpi-amount-value').textContent();
  expect(kpi).toBe(money(answer.current.amount));
  await expect(page.getByTestId('kpi-count-value')).toHaveText(answer.current.count.toLocaleString('en-US'));
  await expect(page.getByTestId('kpi-rate-value')).toHaveText(
    `${((answer.current.amount / answer.current.gmv) * 100).toFixed(1)}%`,
  );
  await expect(page.getByTestId('kpi-amount-growth')).toHaveText(/%|No complete day/);

  const dayRows = page.getByTestId('amount-daily-table').locator('tbody tr');
  await expect(dayRows).toHaveCount(answer.daily.length);
  const dates = await cellTexts(dayRows, 1);
  expect(dates.map((date) => date.replace(' (so far)', ''))).toEqual(answer.daily.map((day) => day.date));
  // Only the last day can be today.
  expect(dates.slice(0, -1).some((date) => date.includes('so far'))).toBe(false);
  const dayAmounts = (await cellTexts(dayRows, 2)).map(amountOf);
  expect(dayAmounts).toEqual(answer.daily.map((day) => day.amount));
  const sum = dayAmounts.reduce((total, value) => total + cents(value), 0);
  if (converted) {
    // Each converted day is rounded to the cent on its own.
    expect(Math.abs(sum - cents(amountOf(kpi)))).toBeLessThanOrEqual(Math.ceil(answer.daily.length / 2));
  } else {
    expect(sum).toBe(cents(amountOf(kpi)));
  }

  const outletRows = page.getByTestId('amount-outlets-table').locator('tbody tr');
  await expect(outletRows).toHaveCount(answer.outlets.length);
  const top = answer.outlets[0];
  if (!top) throw new Error('no outlet');
  await expect(outletRows.first().locator('td')).toHaveText([
    top.outlet_name,
    top.mall_name,
    money(top.amount),
    top.count.toLocaleString('en-US'),
    `${(top.gmv === 0 ? 0 : (top.amount / top.gmv) * 100).toFixed(1)}%`,
    money(top.gmv),
  ]);

  // The count column, sorted from the keyboard: the largest first, then the smallest.
  const table = page.getByTestId('amount-outlets-table');
  const header = table.getByRole('columnheader', { name: new RegExp(`^${labels.count}`) });
  const sortButton = header.getByRole('button');
  await sortButton.focus();
  await page.keyboard.press('Enter');
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  const descending = (await cellTexts(outletRows, 4)).map(amountOf);
  expect(descending).toEqual([...descending].sort((a, b) => b - a));
  expect(descending[0]).toBe(Math.max(...answer.outlets.map((row) => row.count)));
  await expect(sortButton).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  const ascending = (await cellTexts(outletRows, 4)).map(amountOf);
  expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
}

/** Export CSV: the zip of the KPIs, the days and the outlets, with title-cased headers and the server's rows. */
async function checkExport(
  page: Page,
  base: string,
  answer: AmountReport,
  headers: { daily: string; outlets: string },
) {
  const address = new URL(page.url()).searchParams;
  const range = `${address.get('from')}_${address.get('to')}`;
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  expect(download.suggestedFilename()).toBe(`${base}_${range}.zip`);
  const zip = await JSZip.loadAsync(await readFile(await download.path()));
  expect(Object.keys(zip.files).sort()).toEqual([`daily_${range}.csv`, `kpis_${range}.csv`, `outlets_${range}.csv`]);
  const linesOf = async (name: string) => {
    const text = (await zip.file(`${name}_${range}.csv`)?.async('string')) ?? '';
    // Each file starts with the UTF-8 BOM (for Excel), not part of its first line.
    expect(text.startsWith('\uFEFF')).toBe(true);
    return text
      .slice(1)
      .split('\r\n')
      .filter((line) => line !== '');
  };
  const daily = await linesOf('daily');
  expect(daily).toEqual([
    `${headers.daily},Currency`,
    ...answer.daily.map((day) => `${day.date},${day.amount},${day.count},SGD`),
  ]);
  const outlets = await linesOf('outlets');
  expect(outlets[0]).toBe(`${headers.outlets},Currency`);
  expect(outlets).toHaveLength(answer.outlets.length + 1);
  const top = answer.outlets[0];
  expect(outlets[1]?.split(',').slice(-4)).toEqual([
    String(top?.count),
    expect.stringMatching(/^\d+(\.\d)?$/),
    String(top?.gmv),
    'SGD',
  ]);
  const kpis = await linesOf('kpis');
  expect(kpis[0]).toBe('Measure,Current,Compared Period,Compared,Previous Period,Previous,Currency');
  expect(kpis[1]?.split(',').slice(0, 2)).toEqual([expect.any(String), String(answer.current.amount)]);
}

test('refunds and voucher redemption show, sort and export the server’s figures', async ({ page }) => {
  test.setTimeout(90_000);
  const refunds = recordAnswers(page, '/api/mall_report/refund');
  const vouchers = recordAnswers(page, '/api/mall_report/voucher');
  await openAs(page, 'operator@demo.mall');

  // Refunds, from the sidebar: its own Malls select and date range, no mall header (§2).
  await openPage(page, 'Refunds', 'Shopper Connect');
  await expect(page).toHaveURL(/\/shopper-connect\/refunds(\?|$)/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Refunds');
  await expect(page.getByRole('main')).toHaveCount(1);
  await expect(page.getByTestId('mall-header')).toHaveCount(0);
  await expect(page.getByTestId('malls-select')).toHaveAttribute('title', /\S/);
  await waitForReport(page);

  // Harbourfront Centre alone (SGD: nothing converted), the last 30 days.
  await page.getByTestId('malls-select').click();
  await page.getByTestId('malls-deselect-all').click();
  await toggleMall(page, 'Harbourfront Centre', true);
  await page.getByTestId('malls-apply').click();
  await expect(page.getByTestId('malls-select')).toHaveAttribute('title', 'Harbourfront Centre');
  await waitForReport(page);
  await page.getByTestId('date-range-button').click();
  await page.getByText('Last 30 days', { exact: true }).click();
  await page.getByTestId('date-range-apply').click();
  await expect(page).toHaveURL(/[?&]from=\d{4}-\d{2}-\d{2}/);
  await waitForReport(page);
  await expect(page.getByTestId('currency-note')).toHaveCount(0);
  const refundAnswer = await shownAnswer(page, refunds);
  await checkFigures(page, refundAnswer, { count: 'Refund Transactions' }, false);
  await checkExport(page, 'refunds', refundAnswer, {
    daily: 'Date,Refund Amount,Refund Transactions',
    outlets: 'Outlet,Mall,Refund Amount,Refund Transactions,Refund Rate Percent,GMV',
  });

  // Voucher redemption: the same filters, then both malls (MYR converted to SGD).
  await openPage(page, 'Voucher Redemption', 'Shopper Connect');
  await expect(page).toHaveURL(/\/shopper-connect\/voucher-redemption(\?|$)/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Voucher Redemption');
  await expect(page.getByTestId('mall-header')).toHaveCount(0);
  await waitForReport(page);
  const oneMall = await shownAnswer(page, vouchers);
  await checkFigures(page, oneMall, { count: 'Voucher Transactions' }, false);
  await page.getByTestId('malls-select').click();
  await page.getByTestId('malls-select-all').click();
  await page.getByTestId('malls-apply').click();
  await expect(page.getByTestId('malls-select')).toHaveAttribute('title', /, /);
  await waitForReport(page);
  await expect(page.getByTestId('currency-note')).toHaveText(
    'Figures in SGD; MYR converted per outlet and day at each month’s rate and rounded only for display, so the breakdowns add up to the totals.',
  );
  const bothMalls = await shownAnswer(page, vouchers);
  expect(bothMalls.current.amount).toBeGreaterThanOrEqual(oneMall.current.amount);
  await checkFigures(page, bothMalls, { count: 'Voucher Transactions' }, true);
  await checkExport(page, 'voucher_redemption', bothMalls, {
    daily: 'Date,Voucher Amount,Voucher Transactions',
    outlets: 'Outlet,Mall,Voucher Amount,Voucher Transactions,Voucher Share Percent,GMV',
  });
});
