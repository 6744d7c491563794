import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { pdfPlainText } from '../support/pdfText';
import { settled } from './everyRoute';
import { mailsTo, waitForMail } from './mailbox';
import { tenantOutlet } from './outletWeek';
import { readabilityProblems } from './readable';
import { openAs, PHONE_USER_AGENT } from './session';

/*
 * Report subscriptions (issue 34) in Chromium against the real server, its demo data and its SMTP stand-in. The
 * operator opens Mall Home on the seven days up to yesterday (the demo's receipts end yesterday, and a subscription
 * reports up to the day before it is sent, so the page and the mail show the same days), subscribes itself to the
 * page's PDF and workbook through the toolbar's Subscribe, and presses Send now on the Subscriptions page. The
 * server's own browser renders the page as the operator with a render-only session; the mail arrives once, with
 * both files, and their text and cells read back give the figures the page shows.
 */

const OPERATOR = 'operator@demo.mall';

interface Mall {
  id: number;
  time_zone: string;
}

/** The day before `instant`'s day in `zone`, and the six days before it. */
function lastSevenDays(instant: Date, zone: string): { from: string; to: string } {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(instant);
  const day = (back: number) => {
    const date = new Date(`${today}T00:00:00Z`);
    date.setUTCDate(date.getUTCDate() - back);
    return date.toISOString().slice(0, 10);
  };
  return { from: day(7), to: day(1) };
}

/** The number a figure of the page shows ('S$1,234.50' -> 1234.5). */
const amountOf = (text: string) => Number(text.replace(/[^\d.-]/g, ''));

/** A client's mall's time zone, read through the page's session. */
async function mallZone(page: Page, clientId: number, mallId: number): Promise<{ zone: string }> {
  const malls = (await (await page.request.get(`/malls?client_id=${clientId}`)).json()) as Mall[];
  const zone = malls.find((mall) => mall.id === mallId)?.time_zone;
  if (zone === undefined) throw new Error(`mall ${mallId} has no zone`);
  return { zone };
}

/** The mall of a client's outlet and its time zone, read through the page's session. */
async function mallOfOutlet(page: Page, clientId: number, outletId: number): Promise<{ mallId: number; zone: string }> {
  const outlets = (await (await page.request.get(`/outlets?client_id=${clientId}`)).json()) as {
    id: number;
    mall_id: number;
  }[];
  const mallId = outlets.find((outlet) => outlet.id === outletId)?.mall_id;
  if (mallId === undefined) throw new Error(`outlet ${outletId} has no mall`);
  return { mallId, ...(await mallZone(page, clientId, mallId)) };
}

/** The operator's client and its first mall, and the seven days up to yesterday in that mall's zone. */
async function firstMallWeek(page: Page) {
  const { user } = (await (await page.request.get('/api/credential')).json()) as {
    user: { client_id: number | null; clients: number[] };
  };
  const clientId = user.client_id ?? user.clients[0] ?? 1;
  const answer = await page.request.get(`/malls?client_id=${clientId}`);
  expect(answer.status(), await answer.text()).toBe(200);
  const [first] = (await answer.json()) as Mall[];
  if (!first) throw new Error(`client ${clientId} has no mall`);
  return { clientId, mallId: first.id, ...lastSevenDays(new Date(), first.time_zone) };
}

/**
 * Subscribes the operator to the page shown through the toolbar's Subscribe (both formats), finds it on the
 * Subscriptions page under `title`, presses Send now, and answers the one mail it sends.
 */
async function subscribeAndSendNow(
  page: Page,
  clientId: number,
  title: string,
  { recipient = OPERATOR }: { recipient?: string } = {},
) {
  const name = `E2E ${title} ${Date.now() % 100_000}`;
  await page.getByTestId('report-subscribe').click();
  const form = page.getByTestId('subscription-form');
  await expect(form.getByTestId('subscription-name')).toBeVisible();
  await expect(form.getByTestId('subscription-unavailable')).toHaveCount(0);
  await form.getByTestId('subscription-name').fill(name);
  await expect(form.getByTestId('subscription-format-pdf')).toBeChecked();
  // Every page that may be subscribed to has its workbook, offered beside its PDF.
  await expect(form.getByTestId('subscription-format-workbook')).toBeChecked();
  await form.locator('label').filter({ hasText: recipient }).click();
  await expect(form.locator(`[data-testid="subscription-recipient"][data-email="${recipient}"]`)).toBeChecked();
  await form.getByTestId('subscription-save').click();
  await expect(form).toHaveCount(0);
  await expect(page.getByText('Save Successfully.')).toBeVisible();

  // The Subscriptions page lists it; Send now queues its delivery.
  await page.goto(`/shopper-connect/report-subscriptions?client=${clientId}`);
  const row = page.getByTestId('subscription-row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row.locator('td[data-col="page"]')).toHaveText(title);
  await expect(row.locator('td[data-col="formats"]')).toHaveText('PDF, Workbook');
  const since = Date.now();
  await row.getByTestId('subscription-send').click();
  await expect(page.getByText(/Sending now/)).toBeVisible();

  const mail = await waitForMail(recipient, { since, matching: new RegExp(name), timeoutMs: 90_000 });
  // Once: no second mail of the subscription a moment later.
  await page.waitForTimeout(3_000);
  expect((await mailsTo(recipient, since)).filter((each) => each.subject.includes(name))).toHaveLength(1);
  // The list says it was sent.
  await page.reload();
  await expect(row.getByTestId('subscription-last-delivery')).toHaveAttribute('data-state', 'sent');
  return mail;
}

/** The first column's names against the second column's values of a sheet (the key figures, the filters). */
async function sheetFigures(content: Buffer, sheet: string): Promise<Map<string, unknown>> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(content as unknown as ExcelJS.Buffer);
  const figures = new Map<string, unknown>();
  workbook.getWorksheet(sheet)?.eachRow((sheetRow) => {
    figures.set(String(sheetRow.getCell(1).value), sheetRow.getCell(2).value);
  });
  return figures;
}

test('an operator subscribes to Mall Home, sends it now, and the mailed PDF and workbook match the page', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await openAs(page, OPERATOR, '/shopper-connect/mall-home');
  const { clientId, mallId, from, to } = await firstMallWeek(page);
  await page.goto(`/shopper-connect/mall-home?client=${clientId}&malls=${mallId}&from=${from}&to=${to}`);
  const toolbar = page.locator('.report-toolbar');
  await expect(toolbar).toHaveAttribute('data-report-ready', 'true');
  const gmv = (await page.getByTestId('kpi-gmv-value').innerText()).trim();
  const transactions = (await page.getByTestId('kpi-transactions-value').innerText()).trim();
  expect(amountOf(gmv)).toBeGreaterThan(0);

  const mail = await subscribeAndSendNow(page, clientId, 'Mall Home');
  expect(mail.attachments.map((file) => file.filename)).toEqual([
    `mall-home_${from}_${to}.pdf`,
    expect.stringMatching(/\.xlsx$/),
  ]);
  const [pdf, xlsx] = mail.attachments;
  if (!pdf || !xlsx) throw new Error('the mail lacks its files');

  // The PDF opens, and its text holds the page's headline figures as the page shows them.
  expect(pdf.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await testInfo.attach('subscription.pdf', { body: pdf.content, contentType: 'application/pdf' });
  const text = (await pdfPlainText(pdf.content)).replace(/\s+/g, '');
  expect(text).toContain('GMV');
  expect(text).toContain(gmv.replace(/\s+/g, ''));
  expect(text).toContain(transactions.replace(/\s+/g, ''));

  // The workbook's key figures give the same totals.
  const figures = await sheetFigures(xlsx.content, 'Key figures');
  expect(Number(figures.get('GMV'))).toBeCloseTo(amountOf(gmv), 2);
  expect(Number(figures.get('Transactions'))).toBe(amountOf(transactions));
});

test('an operator subscribes to Refunds: the mailed PDF and workbook give the page’s refund figures', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await openAs(page, OPERATOR, '/shopper-connect/refunds');
  const { clientId, mallId, from, to } = await firstMallWeek(page);
  await page.goto(`/shopper-connect/refunds?client=${clientId}&malls=${mallId}&from=${from}&to=${to}`);
  await expect(page.locator('.report-toolbar')).toHaveAttribute('data-report-ready', 'true');
  const amount = (await page.getByTestId('kpi-amount-value').innerText()).trim();
  const count = (await page.getByTestId('kpi-count-value').innerText()).trim();

  const mail = await subscribeAndSendNow(page, clientId, 'Refunds');
  expect(mail.attachments.map((file) => file.filename)).toEqual([
    `refunds_${from}_${to}.pdf`,
    `refunds_${from}_${to}.xlsx`,
  ]);
  const [pdf, xlsx] = mail.attachments;
  if (!pdf || !xlsx) throw new Error('the mail lacks its files');
  await testInfo.attach('refunds.pdf', { body: pdf.content, contentType: 'application/pdf' });
  const text = (await pdfPlainText(pdf.content)).replace(/\s+/g, '');
  expect(text).toContain('RefundAmount');
  expect(text).toContain(amount.replace(/\s+/g, ''));
  const figures = await sheetFigures(xlsx.content, 'Key figures');
  expect(Number(figures.get('Refund Amount'))).toBeCloseTo(amountOf(amount), 2);
  expect(Number(figures.get('Refund Transactions'))).toBe(amountOf(count));
});

test('an operator subscribes to Rent Statements: the PDF mailed shows the month of the last whole day', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await openAs(page, OPERATOR, '/tenant-connect/rent-statements');
  const { clientId, mallId, to } = await firstMallWeek(page);
  // Sent now, the page's month becomes the month of yesterday in the mall's zone: open that month.
  const month = to.slice(0, 7);
  await page.goto(`/tenant-connect/rent-statements?client=${clientId}&malls=${mallId}&month=${month}`);
  await expect(page.locator('[data-report-ready]')).toHaveAttribute('data-report-ready', 'true');
  const firstOutlet = (
    await page.getByTestId('rent-statements-table').locator('tbody tr td').first().innerText()
  ).trim();
  expect(firstOutlet).not.toBe('');

  const mail = await subscribeAndSendNow(page, clientId, 'Rent Statements');
  expect(mail.attachments.map((file) => file.filename)).toEqual([
    `rent-statements_${month}.pdf`,
    `rent-statements_${month}.xlsx`,
  ]);
  const [pdf, xlsx] = mail.attachments;
  if (!pdf || !xlsx) throw new Error('the mail lacks its files');
  await testInfo.attach('rent-statements.pdf', { body: pdf.content, contentType: 'application/pdf' });
  const text = (await pdfPlainText(pdf.content)).replace(/\s+/g, '');
  expect(text).toContain('RentStatements');
  expect(text).toContain(firstOutlet.replace(/\s+/g, ''));
  // The workbook's first statement is the page's first row.
  const statements = await sheetFigures(xlsx.content, 'Statements');
  expect([...statements.keys()][1]).toBe(firstOutlet);
});

test('an operator subscribes to an outlet’s Mall Outlet page: the PDF shows that outlet’s GMV', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await openAs(page, OPERATOR, '/shopper-connect/mall-home');
  const { clientId, mallId, from, to } = await firstMallWeek(page);
  const outlets = (await (await page.request.get(`/outlets?client_id=${clientId}`)).json()) as {
    id: number;
    mall_id: number;
  }[];
  // One that sold in the week: the demo world is planned from today, so the mall's first outlet may not have (a
  // newcomer not yet open, a renovation), and its page would rightly say No Data.
  const week = await page.request.get(
    `/api/mall_report/outlet?client_id=${clientId}&mall_ids=${mallId}&start_time=${from}&end_time=${to}&group_by=outlet`,
  );
  expect(week.status(), await week.text()).toBe(200);
  const sold = new Set(
    ((await week.json()) as { data: { key: string; gmv: number }[] }).data
      .filter((row) => row.gmv > 0)
      .map((row) => Number(row.key)),
  );
  const outletId = outlets.find((outlet) => outlet.mall_id === mallId && sold.has(outlet.id))?.id;
  if (outletId === undefined) throw new Error(`no outlet of the mall sold from ${from} to ${to}`);
  await page.goto(`/shopper-connect/mall-outlet/${outletId}?client=${clientId}&malls=${mallId}&from=${from}&to=${to}`);
  await expect(page.locator('[data-report-ready]').first()).toBeAttached();
  await expect(page.locator('[data-report-ready]:not([data-report-ready="true"])')).toHaveCount(0);
  const gmv = (await page.getByTestId('kpi-gmv-value').innerText()).trim();

  const mail = await subscribeAndSendNow(page, clientId, 'Mall Outlet');
  expect(mail.attachments.map((file) => file.filename)).toEqual([
    `mall-outlet-${outletId}_${from}_${to}.pdf`,
    `mall-outlet-${outletId}_${from}_${to}.xlsx`,
  ]);
  expect(mail.text).toContain(`/shopper-connect/mall-outlet/${outletId}?`);
  const [pdf, xlsx] = mail.attachments;
  if (!pdf || !xlsx) throw new Error('the mail lacks its files');
  await testInfo.attach('mall-outlet.pdf', { body: pdf.content, contentType: 'application/pdf' });
  const text = (await pdfPlainText(pdf.content)).replace(/\s+/g, '');
  expect(text).toContain(gmv.replace(/\s+/g, ''));
  // The workbook's GMV is the card's.
  expect((await sheetFigures(xlsx.content, 'Key figures')).get('GMV')).toBeCloseTo(amountOf(gmv), 2);
});

test('an operator subscribes to Cross Spending of an outlet: the PDF says what its members spent', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await openAs(page, OPERATOR, '/shopper-connect/mall-home');
  const { clientId, mallId, from, to } = await firstMallWeek(page);
  await page.goto(`/shopper-connect/cross-spending?client=${clientId}&malls=${mallId}&from=${from}&to=${to}`);
  await expect(page).toHaveURL(/[?&]outlet=\d+/);
  await expect(page.locator('[data-report-ready]')).toHaveAttribute('data-report-ready', 'true');
  const headline = (await page.getByTestId('cross-spending-headline').innerText()).trim();

  const mail = await subscribeAndSendNow(page, clientId, 'Cross Spending');
  expect(mail.attachments.map((file) => file.filename)).toEqual([
    `cross-spending_${from}_${to}.pdf`,
    `cross-spending_${from}_${to}.xlsx`,
  ]);
  const [pdf, xlsx] = mail.attachments;
  if (!pdf || !xlsx) throw new Error('the mail lacks its files');
  await testInfo.attach('cross-spending.pdf', { body: pdf.content, contentType: 'application/pdf' });
  const text = (await pdfPlainText(pdf.content)).replace(/\s+/g, '');
  expect(text).toContain('CrossSpending');
  // The headline as the page shows it (or the page's 'No Data' for an outlet no member bought at).
  expect(text).toContain((headline || 'No Data').replace(/\s+/g, ''));
  // The workbook's Shoppers row is the headline's outlet and its members.
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(xlsx.content as unknown as ExcelJS.Buffer);
  const shoppersRow = workbook.getWorksheet('Shoppers')?.getRow(2);
  const shoppers = Number(shoppersRow?.getCell(3).value);
  if (headline === '') expect(shoppers).toBe(0);
  else {
    expect(headline).toContain(`at ${String(shoppersRow?.getCell(2).value)} `);
    expect(headline.startsWith(shoppers === 0 ? 'No member' : `${shoppers.toLocaleString('en-US')} member`)).toBe(true);
  }
});

test('an operator subscribes to the details of a pair of outlets: the PDF says what their shared shoppers did', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await openAs(page, OPERATOR, '/shopper-connect/mall-home');
  const { clientId, mallId, to } = await firstMallWeek(page);
  // Thirty days up to yesterday, so that the outlet's members also bought elsewhere.
  const start = new Date(`${to}T00:00:00Z`);
  start.setUTCDate(start.getUTCDate() - 29);
  const from = start.toISOString().slice(0, 10);
  await page.goto(`/shopper-connect/cross-spending?client=${clientId}&malls=${mallId}&from=${from}&to=${to}`);
  await expect(page).toHaveURL(/[?&]outlet=\d+/);
  await expect(page.locator('[data-report-ready]')).toHaveAttribute('data-report-ready', 'true');
  await page.locator('[data-testid^="cross-spending-link-"]').first().click();
  await expect(page).toHaveURL(/\/shopper-connect\/cross-spending\/details\?other=\d+&/);
  await expect(page.locator('[data-report-ready]').first()).toBeAttached();
  await expect(page.locator('[data-report-ready]:not([data-report-ready="true"])')).toHaveCount(0);
  const pair = (await page.getByTestId('cross-spending-pair').innerText()).trim();
  const other = new URL(page.url()).searchParams.get('other');

  const shared = (await page.getByTestId('kpi-shared-value').innerText()).trim();
  const mail = await subscribeAndSendNow(page, clientId, 'Cross Spending Details');
  expect(mail.attachments.map((file) => file.filename)).toEqual([
    `cross-spending-details_${from}_${to}.pdf`,
    `cross-spending-details_${from}_${to}.xlsx`,
  ]);
  expect(mail.text).toContain(`other=${other}`);
  const [pdf, xlsx] = mail.attachments;
  if (!pdf || !xlsx) throw new Error('the mail lacks its files');
  // The workbook's shared shoppers are the card's.
  const pairBook = new ExcelJS.Workbook();
  await pairBook.xlsx.load(xlsx.content as unknown as ExcelJS.Buffer);
  expect(pairBook.getWorksheet('Pair')?.getRow(2).getCell(4).value).toBe(amountOf(shared));
  await testInfo.attach('cross-spending-details.pdf', { body: pdf.content, contentType: 'application/pdf' });
  const text = (await pdfPlainText(pdf.content)).replace(/\s+/g, '');
  expect(text).toContain('CrossSpendingDetails');
  expect(text).toContain(pair.replace(/\s+/g, ''));
});

test('the super admin sends the tenant-only account its outlet’s Sales Analysis, as that account sees it', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(150_000);
  const TENANT = 'tenant-only@demo.mall';
  // The tenant's outlet, and the seven days up to yesterday in its mall's zone.
  const tenantContext = await browser.newContext();
  const tenantPage = await tenantContext.newPage();
  await openAs(tenantPage, TENANT);
  const { clientId, outletId } = await tenantOutlet(tenantPage);
  await tenantContext.close();
  await openAs(page, 'admin@demo.mall', '/tenant-connect/sales-analysis');
  const { mallId, zone } = await mallOfOutlet(page, clientId, outletId);
  const { from, to } = lastSevenDays(new Date(), zone);
  await page.goto(
    `/tenant-connect/sales-analysis?client=${clientId}&malls=${mallId}&outlet=${outletId}&from=${from}&to=${to}`,
  );
  // Loaded as the server's browser waits for it: a report toolbar, and none of the page's not ready.
  await expect(page.locator('[data-report-ready]').first()).toBeAttached();
  await expect(page.locator('[data-report-ready]:not([data-report-ready="true"])')).toHaveCount(0);
  // Subscribe is offered once, however many sections the page has.
  await expect(page.getByTestId('report-subscribe')).toHaveCount(1);
  const revenue = (await page.getByTestId('sa-kpi-revenue-value').innerText()).trim();

  const mail = await subscribeAndSendNow(page, clientId, 'Sales Analysis', { recipient: TENANT });
  expect(mail.attachments.map((file) => file.filename)).toEqual([
    `sales-analysis_${from}_${to}.pdf`,
    `sales-analysis_${from}_${to}.xlsx`,
  ]);
  expect(mail.text).toContain(`outlet=${outletId}`);
  const [pdf, xlsx] = mail.attachments;
  if (!pdf || !xlsx) throw new Error('the mail lacks its files');
  // The workbook's revenue (the key figures' first row: the previous period's comparison) is the card's.
  const keyFigures = new ExcelJS.Workbook();
  await keyFigures.xlsx.load(xlsx.content as unknown as ExcelJS.Buffer);
  const first = keyFigures.getWorksheet('Key figures')?.getRow(2);
  expect(first?.getCell(2).value).toBe('Revenue');
  expect(Number(first?.getCell(3).value)).toBeCloseTo(amountOf(revenue), 2);
  await testInfo.attach('sales-analysis.pdf', { body: pdf.content, contentType: 'application/pdf' });
  const text = (await pdfPlainText(pdf.content)).replace(/\s+/g, '');
  expect(text).toContain('SalesAnalysis');
  expect(text).toContain(revenue.replace(/\s+/g, ''));
});

test('the super admin mails a tenant its Rent Statement of the last complete month, as the tenant sees it', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(150_000);
  const TENANT = 'tenant@demo.mall';
  const tenantContext = await browser.newContext();
  const tenantPage = await tenantContext.newPage();
  await openAs(tenantPage, TENANT);
  const { clientId, outletId } = await tenantOutlet(tenantPage);
  await tenantContext.close();
  await openAs(page, 'admin@demo.mall', '/tenants/rent-statement');
  // The page shows complete months only, and a subscription sends the last complete month whatever the day: the
  // month before today's in the outlet's mall's zone.
  const { zone } = await mallOfOutlet(page, clientId, outletId);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
  const first = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
  first.setUTCDate(0);
  const month = first.toISOString().slice(0, 7);
  await page.goto(`/tenants/rent-statement?client=${clientId}&outlet=${outletId}&month=${month}`);
  await expect(page.locator('[data-report-ready]')).toHaveAttribute('data-report-ready', 'true');
  const lines = page.getByTestId('rent-statement-lines');
  await expect(lines).toContainText('Total due');
  const totalDue = (await lines.locator('tr').filter({ hasText: 'Total due' }).locator('td').last().innerText()).trim();
  expect(totalDue).toMatch(/\d/);

  const mail = await subscribeAndSendNow(page, clientId, 'Rent Statement', { recipient: TENANT });
  expect(mail.attachments.map((file) => file.filename)).toEqual([
    `rent-statement_${month}.pdf`,
    `rent-statement_${month}.xlsx`,
  ]);
  expect(mail.text).toContain(`outlet=${outletId}`);
  const [pdf, xlsx] = mail.attachments;
  if (!pdf || !xlsx) throw new Error('the mail lacks its files');
  // The workbook's Rent sheet ends with the total due the page shows, as the tenant's own.
  const rent = await sheetFigures(xlsx.content, 'Rent');
  expect(Number(rent.get('Total due'))).toBeCloseTo(amountOf(totalDue), 2);
  expect((await sheetFigures(xlsx.content, 'Filters')).get('Month')).toBe(month);
  await testInfo.attach('rent-statement.pdf', { body: pdf.content, contentType: 'application/pdf' });
  const text = (await pdfPlainText(pdf.content)).replace(/\s+/g, '');
  expect(text).toContain('RentStatement');
  expect(text).toContain('Totaldue');
  expect(text).toContain(totalDue.replace(/\s+/g, ''));
});

test('an operator subscribes to the GTO Review: the PDF shows its first rows, the workbook its whole list', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await openAs(page, OPERATOR, '/tenant-connect/gto-review');
  const { clientId, mallId } = await firstMallWeek(page);
  // The last complete month in the first mall's zone, as a subscription sends it whatever the day.
  const { zone } = await mallZone(page, clientId, mallId);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
  const first = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
  first.setUTCDate(0);
  const month = first.toISOString().slice(0, 7);
  await page.goto(`/tenant-connect/gto-review?client=${clientId}&month=${month}`);
  await expect(page.locator('[data-report-ready]')).toHaveAttribute('data-report-ready', 'true');
  const count = Number((await page.getByTestId('gto-count').innerText()).replace(/[^\d]/g, ''));
  expect(count).toBeGreaterThan(10);
  const firstOutlet = (await page.getByTestId('gto-review-row').first().locator('td').first().innerText()).trim();

  const mail = await subscribeAndSendNow(page, clientId, 'GTO Review');
  expect(mail.attachments.map((file) => file.filename)).toEqual([
    `gto-review_${month}.pdf`,
    `gto-review_${month}.xlsx`,
  ]);
  const [pdf, xlsx] = mail.attachments;
  if (!pdf || !xlsx) throw new Error('the mail lacks its files');
  await testInfo.attach('gto-review.pdf', { body: pdf.content, contentType: 'application/pdf' });
  const text = (await pdfPlainText(pdf.content)).replace(/\s+/g, '');
  expect(text).toContain('GTOReview');
  expect(text).toContain(firstOutlet.replace(/\s+/g, ''));
  // The workbook holds every outlet the page counts, not its first page, the first of them first.
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(xlsx.content as unknown as ExcelJS.Buffer);
  const sheet = workbook.getWorksheet('GTO review');
  expect((sheet?.rowCount ?? 0) - 1).toBe(count);
  expect(sheet?.getRow(2).getCell(1).value).toBe(firstOutlet);
});

test('the Subscriptions page and the subscribe dialog read well on a workstation and a phone', async ({ browser }) => {
  test.setTimeout(90_000);
  for (const size of [
    { viewport: { width: 1440, height: 900 } },
    { viewport: { width: 390, height: 844 }, userAgent: PHONE_USER_AGENT },
  ]) {
    const context = await browser.newContext(size);
    const page = await context.newPage();
    await openAs(page, OPERATOR, '/shopper-connect/report-subscriptions');
    await expect(page.getByTestId('subscription-row').first()).toBeVisible();
    await settled(page);
    expect(await readabilityProblems(page)).toEqual([]);
    await page.goto('/shopper-connect/mall-home');
    await expect(page.locator('.report-toolbar')).toHaveAttribute('data-report-ready', 'true');
    await page.getByTestId('report-subscribe').click();
    await expect(page.getByTestId('subscription-recipient').first()).toBeVisible();
    expect(await readabilityProblems(page)).toEqual([]);
    await context.close();
  }
});
