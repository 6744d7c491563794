import { expect, request, test } from '@playwright/test';
import { openAs } from './session';

/*
 * Data Feeds (issue 34) in Chromium against the real server and its demo data. The demo's receipts end yesterday,
 * so whether an outlet usually trades at this hour depends on the clock; the path pins it instead: a till (a device
 * key the super admin makes) sends one outlet's receipts of this hour and of an hour ago on each of the four same
 * weekdays before, and none today. The operator opens the page, keeps the silent outlets, and finds it silent.
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

/** The local hour of `instant` in `zone`. */
function localHour(instant: Date, zone: string): number {
  return Number(
    new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone: zone }).format(instant),
  );
}

test('an operator opens Data Feeds and sees an outlet whose till went silent', async ({ browser }) => {
  test.setTimeout(60_000);
  const context = await browser.newContext();
  const admin = await context.newPage();
  await openAs(admin, 'admin@demo.mall');
  const { csrfToken, user } = (await (await admin.request.get('/api/credential')).json()) as {
    csrfToken: string;
    user: { client_id: number | null; clients: number[] };
  };
  // An hour ago must be the same day in the mall's zone (the rule reads today's hours only). The demo's malls are in
  // UTC+8 and UTC+7 (another client's), so at any hour one of them is past 1 am.
  const now = new Date();
  const clientIds = [...new Set([user.client_id ?? 1, ...user.clients])];
  let chosen: { clientId: number; mall: Mall } | undefined;
  for (const clientId of clientIds) {
    const malls = (await (await admin.request.get(`/malls?client_id=${clientId}`)).json()) as Mall[];
    const mall = malls.find((candidate) => localHour(now, candidate.time_zone) >= 1);
    if (mall) {
      chosen = { clientId, mall };
      break;
    }
  }
  if (!chosen) throw new Error('no demo mall is past 1 am');
  const { clientId, mall } = chosen;
  const outlets = (await (await admin.request.get(`/outlets?client_id=${clientId}`)).json()) as Outlet[];
  const outlet = outlets.filter((candidate) => candidate.mall_id === mall.id).at(-1);
  if (!outlet) throw new Error(`${mall.name} has no outlet`);

  const created = await admin.request.post('/api/deviceKeys', {
    headers: { 'X-CSRF-Token': csrfToken },
    data: { client_id: clientId, outlet_id: outlet.id, name: `E2E feed ${Date.now() % 100_000}` },
  });
  expect(created.status(), await created.text()).toBe(200);
  const { key } = (await created.json()) as { key: string };
  const stamp = Date.now() % 1_000_000;
  const receipts = [1, 2, 3, 4].flatMap((weeks) =>
    [0, 60].map((minutesBefore) => {
      const at = new Date(now.getTime() - weeks * 7 * 86_400_000 - minutesBefore * 60_000);
      return {
        receipt_id: `E2E-FEED-${stamp}-${weeks}-${minutesBefore}`,
        datetime: at.toISOString(),
        total_amount: 12.5,
        payments: [{ method: 'visa', amount: 12.5 }],
      };
    }),
  );
  const till = await request.newContext({ baseURL: new URL(admin.url()).origin });
  try {
    const sent = await till.post('/api/ingest/receipts', {
      headers: { Authorization: `Bearer ${key}` },
      data: { receipts },
    });
    expect(sent.status(), await sent.text()).toBe(200);
    expect(((await sent.json()) as { rejected: unknown[] }).rejected).toEqual([]);
  } finally {
    await till.dispose();
    await context.close();
  }

  const page = await browser.newPage();
  // The mall's client's operator; the super admin for the other client's mall (the demo operator sees one client).
  const operator = clientId === (user.client_id ?? 1) ? 'operator@demo.mall' : 'admin@demo.mall';
  await openAs(page, operator, `/shopper-connect/data-feeds?client=${clientId}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Data Feeds');
  const feeds = page.getByTestId('data-feeds-page');
  await expect(feeds.getByTestId('data-feed-row').first()).toBeVisible();
  await feeds.getByTestId('data-feeds-filter').selectOption('silent');
  const row = feeds.locator(`[data-testid="data-feed-row"][data-outlet-id="${outlet.id}"]`);
  await expect(row).toBeVisible();
  await expect(row).toHaveAttribute('data-state', 'silent');
  await expect(row.locator('td[data-col="state"]')).toHaveText('Silent');
  await expect(row.locator('td[data-col="outlet"]')).toHaveText(outlet.name);
  await expect(feeds.getByTestId('data-feeds-note')).toContainText('after 60 minutes without a receipt');
  await page.close();
});
