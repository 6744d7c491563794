import { expect, test } from '@playwright/test';
import pg from 'pg';
import { day, signIn } from './session';

/*
 * The Harbourfront operator's malls are in SGD (Harbourfront Centre) and MYR (Bukit Bintang Plaza), and the client
 * reports in SGD. Mall Home with both malls must show a total in SGD that equals the sum worked out by hand: each
 * mall's GMV per month in its own currency (asked of the server for that mall alone, which converts nothing),
 * times the month's rate from the database.
 */

/** The demo database of the server under test (the embedded PostgreSQL beside it; see playwright.config.ts). */
const DATABASE_URL = `postgres://postgres:postgres@127.0.0.1:${Number(process.env.E2E_PORT ?? 18080) + 1}/postgres`;

const amountOf = (text: string | null) => Number((text ?? '').replace(/[^\d.-]/g, ''));

test('Mall Home adds malls of two currencies in the reporting currency, converted month by month', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, 'operator@demo.mall');
  await expect(page.getByText('operator@demo.mall')).toBeVisible();
  const clients = (await (await page.request.get('/clients')).json()) as { id: number; name: string }[];
  const clientId = clients.find((client) => client.name === 'Harbourfront Malls')?.id;
  const mallsAnswer = await page.request.get(`/malls?client_id=${clientId}`);
  expect(mallsAnswer.status(), await mallsAnswer.text()).toBe(200);
  const selected = (await mallsAnswer.json()) as { id: number; name: string; currency: string }[];
  expect(selected.map((mall) => mall.currency).sort()).toEqual(['MYR', 'SGD']);
  // A week of the demo data's last days (it ends the malls' yesterday), across a month's end when the calendar has one.
  const [from, to] = [day(-10), day(-4)];
  const mallIds = selected.map((mall) => mall.id).join(',');
  await page.goto(`/shopper-connect/mall-home?client=${clientId}&malls=${mallIds}&from=${from}&to=${to}`);
  await expect(page.getByTestId('report-loading')).toHaveCount(0);
  await expect(page.getByTestId('mall-header')).toHaveAttribute('aria-busy', 'false');

  await expect(page.getByTestId('currency-note')).toHaveText(
    'Figures in SGD; MYR converted per outlet and day at each month’s rate and rounded only for display, so the breakdowns add up to the totals.',
  );

  const db = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
  let expected = 0;
  try {
    for (const mall of selected) {
      const monthly = (await (
        await page.request.get(
          `/api/mall_report/monthly?client_id=${clientId}&mall_ids=${mall.id}&start_time=${from}&end_time=${to}`,
        )
      ).json()) as { data: { month: string; gmv: number }[] };
      for (const { month, gmv } of monthly.data) {
        if (mall.currency === 'SGD') {
          expected += gmv;
          continue;
        }
        const { rows } = await db.query<{ rate: string }>(
          `SELECT rate::text FROM exchange_rates WHERE client_id = $1 AND currency = $2 AND month = $3::date`,
          [clientId, mall.currency, `${month}-01`],
        );
        expect(rows, `a ${mall.currency} rate for ${month}`).toHaveLength(1);
        expected += gmv * Number(rows[0]?.rate);
      }
    }
  } finally {
    await db.end();
  }

  const shown = amountOf(await page.getByTestId('kpi-gmv-value').textContent());
  expect(expected).toBeGreaterThan(0);
  // The KPI is the exact converted total rounded once (the malls' rows are rounded together to add up to it).
  expect(Math.abs(shown - expected)).toBeLessThanOrEqual(0.02);
  await expect(page.getByTestId('kpi-gmv-value')).toHaveText(/^\$[\d,]+\.\d\d$/);
});
