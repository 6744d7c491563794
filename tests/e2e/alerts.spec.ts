import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, request, test } from '@playwright/test';
import { countRows, runAlertCheck } from './alertCheck';
import { MAIL_DIR, parseMail, waitForMail } from './mailbox';
import { openAs } from './session';

/*
 * Alert rules (issue 34) in Chromium against the real server and its demo data. The operator opens Mall Home on one
 * mall, clicks 'Alert me when…' and makes a rule there: GMV above 1,000.00, daily at 08:00, to themselves (the
 * editor's default). The demo's receipts end yesterday, so today's GMV of the mall is what a till sends now: a
 * device key the super admin makes, and two receipts of 600.00. The check is then run as if it were 08:05 the next
 * morning in the mall's zone (tests/e2e/alertCheck.ts: the job's own function on the server's database), twice:
 * one firing, one mail, which the SMTP sink receives once. The Alerts page shows the firing in the rule's history
 * and the operator acknowledges it.
 */

interface Mall {
  id: number;
  name: string;
  time_zone: string;
}
interface Outlet {
  id: number;
  name: string;
  mall_id: number;
}

const OPERATOR = 'operator@demo.mall';

/** The local calendar day ('YYYY-MM-DD') of `instant` in `zone`. */
function localDay(instant: Date, zone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );
}

/** The instant of `day` at `time` ('HH:mm') in `zone` (the demo's zones keep one offset all year). */
function instantAt(day: string, time: string, zone: string): Date {
  const asUtc = new Date(`${day}T${time}:00Z`);
  const local = new Date(
    new Intl.DateTimeFormat('sv-SE', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .format(asUtc)
      .replace(' ', 'T')
      .concat('Z'),
  );
  return new Date(asUtc.getTime() - (local.getTime() - asUtc.getTime()));
}

/** The day after 'YYYY-MM-DD'. */
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The mails the SMTP sink holds whose subject holds `text`. */
async function mailsWithSubject(text: string): Promise<number> {
  const files = (await readdir(MAIL_DIR).catch(() => [] as string[])).filter((file) => file.endsWith('.eml'));
  let count = 0;
  for (const file of files) {
    const mail = parseMail(file, await readFile(path.join(MAIL_DIR, file), 'utf8'));
    if (mail.subject.includes(text)) count += 1;
  }
  return count;
}

test('an operator makes an alert from Mall Home, a till crosses it, the mail comes once and is acknowledged', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const stamp = Date.now() % 1_000_000;
  const ruleName = `E2E GMV above ${stamp}`;

  // The operator's client and its first mall, and an outlet of it.
  const page = await browser.newPage();
  await openAs(page, OPERATOR);
  const { user } = (await (await page.request.get('/api/credential')).json()) as {
    user: { client_id: number | null; clients: number[] };
  };
  const clientId = user.client_id ?? user.clients[0] ?? 1;
  const malls = (await (await page.request.get(`/malls?client_id=${clientId}`)).json()) as Mall[];
  const mall = malls[0];
  if (!mall) throw new Error('the operator sees no mall');
  const outlets = (await (await page.request.get(`/outlets?client_id=${clientId}`)).json()) as Outlet[];
  const outlet = outlets.find((candidate) => candidate.mall_id === mall.id);
  if (!outlet) throw new Error(`${mall.name} has no outlet`);

  // Mall Home on that mall: 'Alert me when…' opens the editor with the page's mall, metric and the operator.
  await page.goto(`/shopper-connect/mall-home?client=${clientId}&malls=${mall.id}`);
  await expect(page.getByTestId('mall-header')).toHaveAttribute('aria-busy', 'false');
  await page.getByTestId('mall-home-alert-me').click();
  const editor = page.getByTestId('alert-editor');
  await expect(editor).toBeVisible();
  await expect(editor.getByTestId('alert-metric')).toHaveValue('gmv');
  await expect(editor.getByLabel(mall.name, { exact: true })).toBeChecked();
  await expect(editor.getByLabel('Olivia Tan', { exact: true })).toBeChecked();
  await editor.getByTestId('alert-name').fill(ruleName);
  await editor.getByTestId('alert-condition').selectOption('above');
  await editor.getByTestId('alert-value').fill('1000');
  await expect(editor.getByTestId('alert-schedule')).toHaveValue('daily');
  await expect(editor.getByTestId('alert-time')).toHaveValue('08:00');
  await page.getByTestId('alert-save').click();
  await expect(editor).toHaveCount(0);
  const toast = page.locator('.bp6-toast').filter({ hasText: 'Save Successfully.' });
  await expect(toast).toBeVisible();

  // The toast's link opens the Alerts page, where the rule is listed without a firing.
  await toast.getByRole('button', { name: 'Open Alerts' }).click();
  await expect(page).toHaveURL(/\/shopper-connect\/alerts(\?.*)?$/);
  const row = page.getByTestId('alert-rule-row').filter({ hasText: ruleName });
  await expect(row).toBeVisible();
  await expect(row.locator('td[data-col="condition"]')).toContainText('GMV above');
  await expect(row.locator('td[data-col="firings"]')).toHaveText('0');

  // Before the till sends anything, today's GMV of the mall (the demo's receipts end yesterday) is under the value.
  const sentAt = new Date(Date.now() - 5_000);
  const day = localDay(sentAt, mall.time_zone);
  const checkAt = instantAt(nextDay(day), '08:05', mall.time_zone);
  expect((await runAlertCheck(checkAt)).fired).toBe(0);

  // A till of the mall sends two receipts of 600.00 now (after the rule was made).
  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  const till = await request.newContext({ baseURL: new URL(page.url()).origin });
  try {
    await openAs(adminPage, 'admin@demo.mall');
    const { csrfToken } = (await (await adminPage.request.get('/api/credential')).json()) as { csrfToken: string };
    const created = await adminPage.request.post('/api/deviceKeys', {
      headers: { 'X-CSRF-Token': csrfToken },
      data: { client_id: clientId, outlet_id: outlet.id, name: `E2E alert ${stamp}` },
    });
    expect(created.status(), await created.text()).toBe(200);
    const { key } = (await created.json()) as { key: string };
    const sent = await till.post('/api/ingest/receipts', {
      headers: { Authorization: `Bearer ${key}` },
      data: {
        receipts: [1, 2].map((n) => ({
          receipt_id: `E2E-ALERT-${stamp}-${n}`,
          datetime: sentAt.toISOString(),
          total_amount: 600,
          payments: [{ method: 'visa', amount: 600 }],
        })),
      },
    });
    expect(sent.status(), await sent.text()).toBe(200);
    expect(((await sent.json()) as { rejected: unknown[] }).rejected).toEqual([]);
  } finally {
    await till.dispose();
    await admin.close();
  }

  // The check at 08:05 the next morning in the mall's zone, twice: the day fires once, one mail to the operator.
  const since = Date.now();
  const first = await runAlertCheck(checkAt);
  expect(first.fired).toBeGreaterThanOrEqual(1);
  const mail = await waitForMail(OPERATOR, { since, matching: new RegExp(ruleName), timeoutMs: 20_000 });
  expect(mail.subject).toBe(`Alert: ${ruleName} (${day})`);
  expect(mail.text).toContain(`Your alert rule "${ruleName}" fired`);
  expect(mail.text).toContain('/shopper-connect/alerts');
  const second = await runAlertCheck(checkAt);
  expect(second.fired).toBe(0);
  const subject = `Alert: ${ruleName} (${day})`;
  await expect.poll(() => countRows('scheduled_mails WHERE subject = $1 AND delivered_at IS NULL', [subject])).toBe(0);
  expect(await countRows('scheduled_mails WHERE subject = $1', [subject])).toBe(1);
  expect(await mailsWithSubject(ruleName)).toBe(1);

  // The Alerts page: one firing, its value, acknowledged by the operator.
  await page.reload();
  await expect(row.locator('td[data-col="firings"]')).toHaveText('1');
  await row.getByTestId('alert-history').click();
  const history = page.getByTestId('alert-history-panel');
  await expect(history).toContainText(`History of ${ruleName}`);
  const firing = history.getByTestId('alert-firing-row');
  await expect(firing).toHaveCount(1);
  await expect(firing.locator('td[data-col="period"]')).toHaveText(day);
  await expect(firing.locator('td[data-col="value"]')).toContainText('1,200.00');
  await firing.getByTestId('alert-acknowledge').click();
  await expect(page.locator('.bp6-toast').filter({ hasText: 'Firing has been acknowledged.' })).toBeVisible();
  await expect(firing.getByTestId('alert-acknowledge')).toHaveCount(0);
  await expect(firing.locator('td[data-col="acknowledged"]')).toContainText('Olivia Tan');
  await page.close();
});
