import { type Browser, expect, type Page, request } from '@playwright/test';
import { day, openAs } from './session';

/*
 * Data a browser path pins for itself instead of reading the demo's random receipts of the current week (which
 * passes or fails with the calendar: an outlet that sold one SKU, or nothing, in the last seven days).
 */

/** The one outlet (and its client) a tenant account sees, read through its own session. */
export async function tenantOutlet(page: Page): Promise<{ clientId: number; outletId: number }> {
  const credential = (await (await page.request.get('/api/credential')).json()) as { user: { clients: number[] } };
  const clientId = credential.user.clients[0];
  if (clientId === undefined) throw new Error('the tenant sees no client');
  const outlets = (await (await page.request.get(`/outlets?client_id=${clientId}`)).json()) as { id: number }[];
  const outletId = outlets[0]?.id;
  if (outletId === undefined) throw new Error('the tenant sees no outlet');
  return { clientId, outletId };
}

/**
 * Sends receipts of three SKUs of the outlet for each of the malls' last seven days, today included (through a
 * device key the super admin makes, as a till would), so that every panel of an outlet page over the default week
 * has figures, whatever the day. The instants are in the malls' zone (UTC+8): noon on the past days, a minute ago
 * today.
 */
export async function sellAllWeek(browser: Browser, outlet: { clientId: number; outletId: number }): Promise<void> {
  const context = await browser.newContext();
  try {
    const admin = await context.newPage();
    await openAs(admin, 'admin@demo.mall');
    const { csrfToken } = (await (await admin.request.get('/api/credential')).json()) as { csrfToken: string };
    const created = await admin.request.post('/api/deviceKeys', {
      headers: { 'X-CSRF-Token': csrfToken },
      data: { client_id: outlet.clientId, outlet_id: outlet.outletId, name: `E2E week ${Date.now() % 100_000}` },
    });
    expect(created.status(), await created.text()).toBe(200);
    const { key } = (await created.json()) as { key: string };
    const skus = (await (
      await admin.request.get(`/outlets/sku?client_id=${outlet.clientId}&id=${outlet.outletId}`)
    ).json()) as { id: number }[];
    const skuIds = skus.slice(0, 3).map((sku) => sku.id);
    expect(skuIds.length).toBeGreaterThan(0);

    const stamp = Date.now() % 1_000_000;
    const receipts = [-6, -5, -4, -3, -2, -1, 0].flatMap((offset) =>
      skuIds.map((_, n) => {
        const at =
          offset === 0 ? new Date(Date.now() - 60_000 - n * 1000) : new Date(`${day(offset)}T12:0${n}:00+08:00`);
        const items = skuIds.slice(0, n + 1).map((sku_id) => ({ sku_id, quantity: 1, unit_price: 4.5, amount: 4.5 }));
        const total = 4.5 * items.length;
        return {
          receipt_id: `E2E-WEEK-${stamp}-${offset + 6}-${n}`,
          datetime: at.toISOString(),
          total_amount: total,
          payments: [{ method: 'visa', amount: total }],
          items,
        };
      }),
    );
    // The till: its key alone, no session.
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
    }
  } finally {
    await context.close();
  }
}
