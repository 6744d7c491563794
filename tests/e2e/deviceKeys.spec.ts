import { expect, type Page, test } from '@playwright/test';
import { seriousFindings } from './axe';
import { waitForMail } from './mailbox';
import { openAs } from './session';

/*
 * Settings' Point-of-sale devices in Chromium against the real server and its demo data, as the demo super admin:
 * a key is created for an outlet of the header outlet's mall and read from the dialog that shows it once; a device
 * (Playwright's own request context: no browser session, no CSRF token) sends a batch with it, one receipt void;
 * the receipts page shows the batch, the void alert reaches the void subscriber (operator@demo.mall) by mail, and
 * the key, revoked, is refused.
 */

const INGEST = '/api/ingest/receipts';
const toast = (page: Page, text: string) => page.locator('.bp6-toast').filter({ hasText: text });

test('a key is created for an outlet, shown once, used by a device, and revoked', async ({ page, request }) => {
  test.setTimeout(180_000);
  page.on('pageerror', (error) => console.log(`page error: ${error.message}`));
  await openAs(page, 'admin@demo.mall', '/settings');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Settings');
  const section = page.getByTestId('settings-devices');
  await expect(section.getByRole('heading', { level: 2, name: 'Point-of-sale devices' })).toBeVisible();
  // The list has loaded (rows or 'No Data') when the create button is enabled and no skeleton is left.
  const create = section.getByRole('button', { name: 'Create device key' });
  await expect(create).toBeEnabled();
  await expect(section.getByTestId('device-keys-skeleton')).toHaveCount(0);

  // Create a key for the second outlet offered (the first is the header's), by keyboard.
  const name = `E2E till ${Date.now() % 100_000}`;
  await create.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Create a device key' });
  await expect(dialog).toBeVisible();
  const outlet = dialog.getByLabel('Outlet');
  await expect(outlet.locator('option').first()).toHaveText('Choose an Outlet');
  const offered = outlet.locator('option:not([disabled])');
  const choice = (await offered.count()) > 1 ? offered.nth(1) : offered.first();
  const outletLabel = (await choice.textContent())?.trim() ?? '';
  const outletName = outletLabel.replace(/ \(\d+\)$/, '');
  await outlet.selectOption({ label: outletLabel });
  await dialog.getByLabel('Name').fill(name);
  expect(await seriousFindings(page)).toEqual([]);
  const created = page.waitForResponse(
    (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/deviceKeys',
  );
  await dialog.getByLabel('Name').press('Enter');
  const createdAnswer = await created;
  expect(createdAnswer.status()).toBe(200);
  const clientId = (createdAnswer.request().postDataJSON() as { client_id: number }).client_id;
  const outletId = ((await createdAnswer.json()) as { device_key: { outlet_id: number } }).device_key.outlet_id;

  // The key, shown once, read-only, with Copy and the example call.
  const shown = page.getByRole('dialog', { name: 'Device key created' });
  await expect(shown).toBeVisible();
  await expect(shown.getByText('Copy this key now: it will not be shown again.')).toBeVisible();
  const field = shown.getByLabel('Device key');
  await expect(field).toHaveAttribute('readonly', '');
  const key = await field.inputValue();
  expect(key).toMatch(/^pos_[A-Za-z0-9_-]{43}$/);
  await expect(shown.getByTestId('device-key-example')).toHaveValue(
    new RegExp(`POST '[^']*${INGEST}' -H 'Authorization: Bearer ${key}'`),
  );
  await expect(shown.getByRole('button', { name: 'Copy the key' })).toBeEnabled();
  expect(await seriousFindings(page)).toEqual([]);
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText(key);

  // The key is in the list, by its prefix only.
  const row = section.getByTestId('device-key-row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(outletName);
  await expect(row).toContainText(`${key.slice(0, 12)}…`);
  await expect(row).toHaveAttribute('data-status', 'active');

  await test.step('a device sends a batch with the key; the receipts page shows it; the void is mailed', async () => {
    const since = Date.now();
    const stamp = Date.now() % 1_000_000;
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    const receipts = [
      {
        receipt_id: `E2E-${stamp}-1`,
        datetime: at(3),
        total_amount: 12.5,
        payments: [{ method: 'visa', amount: 12.5 }],
      },
      { receipt_id: `E2E-${stamp}-2`, datetime: at(2), total_amount: 30, void: true },
      { receipt_id: `E2E-${stamp}-3`, datetime: at(1), total_amount: 'not a number' },
    ];
    const response = await request.post(INGEST, { headers: { Authorization: `Bearer ${key}` }, data: { receipts } });
    expect(response.status(), await response.text()).toBe(200);
    const result = (await response.json()) as {
      new: number;
      stored: number[];
      rejected: { index: number; field: string }[];
    };
    expect(result).toMatchObject({ new: 2, stored: [0, 1], rejected: [{ index: 2, field: 'total_amount' }] });
    // Sent again (the device had no answer): nothing new.
    const again = await request.post(INGEST, { headers: { Authorization: `Bearer ${key}` }, data: { receipts } });
    expect(await again.json()).toMatchObject({ new: 0, already_stored: 2 });

    // The receipts page of the outlet, on the mall's today, lists them.
    const outlets = (await (await page.request.get(`/outlets?client_id=${clientId}`)).json()) as {
      id: number;
      mall_id: number;
    }[];
    const malls = (await (await page.request.get(`/malls?client_id=${clientId}`)).json()) as {
      id: number;
      time_zone: string;
    }[];
    const mallId = outlets.find((candidate) => candidate.id === outletId)?.mall_id;
    const zone = malls.find((mall) => mall.id === mallId)?.time_zone ?? 'UTC';
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date(Date.now() - 3 * 60_000));
    await page.goto(`/receipts?client=${clientId}&outlet=${outletId}&from=${today}&to=${today}`);
    await expect(page.getByTestId('receipts-table')).toHaveAttribute('aria-busy', 'false');
    await page.getByTestId('receipt-id-search').fill(`E2E-${stamp}`);
    await page.getByTestId('receipt-id-search-button').click();
    // Receipts without a printed text have no image link: their ids are plain cells.
    const table = page.getByTestId('receipts-table');
    await expect(table.getByText(`E2E-${stamp}-1`, { exact: true })).toBeVisible();
    await expect(table.getByText(`E2E-${stamp}-2`, { exact: true })).toBeVisible();
    await expect(page.getByTestId('summary-total')).toHaveText('2');

    // The void receipt's alert reaches its subscriber within the job's minute.
    const mail = await waitForMail('operator@demo.mall', {
      since,
      matching: new RegExp(`E2E-${stamp}-2`),
      timeoutMs: 120_000,
    });
    expect(mail.text).toContain(`E2E-${stamp}-2`);
    expect(mail.text).not.toContain(`E2E-${stamp}-1`);
    await page.goto('/settings');
    await expect(create).toBeEnabled();
  });

  // Revoke it, after a confirmation.
  await row.getByRole('button', { name: /^Revoke / }).click();
  const question = page.getByTestId('device-key-revoke-question');
  await expect(question).toContainText(`Revoke the device key "${name}" of ${outletName}`);
  await page.getByRole('button', { name: 'Revoke', exact: true }).click();
  await expect(toast(page, `The device key "${name}" has been revoked.`)).toBeVisible();
  await expect(row).toHaveAttribute('data-status', 'revoked');
  await expect(row.getByTestId('device-key-status')).toHaveText('Revoked');
  await expect(row.getByRole('button', { name: /^Revoke / })).toHaveCount(0);

  await test.step('the revoked key is refused', async () => {
    const response = await request.post(INGEST, {
      headers: { Authorization: `Bearer ${key}` },
      data: { receipts: [{ receipt_id: `E2E-${Date.now()}`, datetime: new Date().toISOString(), total_amount: 1 }] },
    });
    expect(response.status()).toBe(401);
  });
});
