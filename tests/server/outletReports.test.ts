import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import {
  buildSalesAnalysisWorkbook,
  SALES_ANALYSIS_WORKBOOK_SHEETS,
} from '../../server/exports/salesAnalysisWorkbook.js';
import { moneyFormat } from '../../server/exports/workbook.js';
import { ingestReceipts, type ReceiptItemInput, rollupMismatches } from '../../server/repositories/ingestion.js';
import { currencyFormat } from '../../src/domain/format.js';
import { growthRate } from '../../src/domain/reports.js';
import {
  COMPARISON_MODES,
  hasSales,
  itemRowsOf,
  KPI_LABELS,
  kpiFigures,
  mealTimingsOf,
  type OutletComparisonAnswer,
  type SalesKpis,
  type SeriesAnswer,
  salesKpisOf,
  trendOf,
} from '../../src/domain/salesAnalysis.js';
import { PASSWORD, receiptInput as receipt, seedWorld, WORLD } from './fixtures.js';
import { type Agent, createTestApp, createTestDatabase, signInAgents, type TestDatabase } from './helpers.js';

/*
 * The outlet reports of the sales analysis page (GET /outlets/topSKU, totalRevenuePoints, totalTransactionPoints,
 * totalUnitSalePoints, breakdown, mealTimingReport, itemSalesBreakdown, overallComparison, sku) on a hand-built
 * week, Monday 2 to Sunday 8 March 2026, of Cafe Uno (Central Mall, Asia/Singapore UTC+8, SGD). Its SKUs: Latte
 * 5.50, Bagel 4.00, Tea 3.00; its meal timings Breakfast 08:00-11:00 and Lunch 11:30-14:30 (end not included).
 * Local times:
 *
 *   r1 Mon 02 09:15     15.00  Latte x2 11.00, Bagel x1 4.00   Breakfast
 *   r2 Mon 02 11:45      9.00  Tea x3 9.00                     Lunch
 *   r3 Mon 02 11:15      5.50  Latte x1 5.50                   between the two
 *   r4 Tue 03 14:30      8.00  Bagel x2 8.00                   Lunch has ended
 *   r5 Tue 03 12:00    100.00  Latte x10 VOID                   counts nowhere
 *   r6 Wed 04 10:59:59  11.00  Latte x2 11.00                   Breakfast
 *   r7 Sun 08 20:00      3.00  Tea x1 3.00
 *   r8 Mon 09 09:00      4.00  Bagel x1 4.00                   the week after
 * Boutique Duo (Central, SGD): Mon 02 10:00 200.00, Scarf x1. kiosk tres (Harbour, USD): Mon 02 10:00 60.00.
 *
 * The week of Cafe Uno: revenue 51.50 over 6 receipts (ATV 8.58 from 8.5833), 12 units; by day 29.50, 8.00,
 * 11.00, 0, 0, 0, 3.00. Latte 5 units 27.50, Tea 4 units 12.00, Bagel 3 units 12.00. Breakfast 26.00 in 2,
 * Lunch 9.00 in 1.
 */

let db: TestDatabase;
let app: FastifyInstance;
let agents: Record<'operator' | 'tenant' | 'otherClient' | 'admin', Agent>;
const { cafe, boutique, kiosk } = WORLD.outlets;
const sku = { latte: 0, bagel: 0, tea: 0, scarf: 0 };
const timing = { breakfast: 0, lunch: 0 };

const WEEK = { startTime: '2026-03-02', endTime: '2026-03-08' };
const PATHS = [
  '/outlets/sku',
  '/outlets/topSKU',
  '/outlets/totalRevenuePoints',
  '/outlets/totalTransactionPoints',
  '/outlets/totalUnitSalePoints',
  '/outlets/breakdown',
  '/outlets/mealTimingReport',
  '/outlets/itemSalesBreakdown',
  '/outlets/overallComparison',
  '/outlets/salesAnalysis/workbook',
];

const item = (skuId: number, quantity: number, unitPrice: number): ReceiptItemInput => ({
  skuId,
  quantity,
  unitPrice,
  amount: Math.round(quantity * unitPrice * 100) / 100,
});

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  const { rows } = await db.pool.query<{ id: number; item_name: string }>(
    `INSERT INTO skus (client_id, outlet_id, barcode, item_name, unit_price) VALUES
       (1, ${cafe}, '1001', 'Latte', 5.50), (1, ${cafe}, '1002', 'Bagel', 4.00), (1, ${cafe}, '1003', 'Tea', 3.00),
       (1, ${boutique}, '2001', 'Scarf', 200.00)
     RETURNING id, item_name`,
  );
  const idOf = (name: string) => rows.find((row) => row.item_name === name)?.id ?? 0;
  Object.assign(sku, { latte: idOf('Latte'), bagel: idOf('Bagel'), tea: idOf('Tea'), scarf: idOf('Scarf') });
  const timings = await db.pool.query<{ id: number; name: string }>(
    `INSERT INTO meal_timings (client_id, outlet_id, name, start_time, end_time) VALUES
       (1, ${cafe}, 'Lunch', '11:30', '14:30'), (1, ${cafe}, 'Breakfast', '08:00', '11:00')
     RETURNING id, name`,
  );
  timing.breakfast = timings.rows.find((row) => row.name === 'Breakfast')?.id ?? 0;
  timing.lunch = timings.rows.find((row) => row.name === 'Lunch')?.id ?? 0;
  await db.pool.query(
    `INSERT INTO role_api_permissions (role_id, permission) SELECT 2, unnest($1::text[]) || '::Read'`,
    [PATHS],
  );
  await inTransaction(db.pool, async (client) => {
    await ingestReceipts(client, 1, [
      receipt(cafe, '2026-03-02T01:15:00Z', 15, [['VISA', 15]], {
        items: [item(sku.latte, 2, 5.5), item(sku.bagel, 1, 4)],
      }),
      receipt(cafe, '2026-03-02T03:45:00Z', 9, [['CASH', 9]], { items: [item(sku.tea, 3, 3)] }),
      receipt(cafe, '2026-03-02T03:15:00Z', 5.5, [['CASH', 5.5]], { items: [item(sku.latte, 1, 5.5)] }),
      receipt(cafe, '2026-03-03T06:30:00Z', 8, [['VISA', 8]], { items: [item(sku.bagel, 2, 4)] }),
      receipt(cafe, '2026-03-03T04:00:00Z', 100, [['VISA', 100]], {
        void: true,
        items: [item(sku.latte, 10, 10)],
      }),
      receipt(cafe, '2026-03-04T02:59:59Z', 11, [['VISA', 11]], { items: [item(sku.latte, 2, 5.5)] }),
      receipt(cafe, '2026-03-08T12:00:00Z', 3, [['CASH', 3]], { items: [item(sku.tea, 1, 3)] }),
      receipt(cafe, '2026-03-09T01:00:00Z', 4, [['CASH', 4]], { items: [item(sku.bagel, 1, 4)] }),
      receipt(boutique, '2026-03-02T02:00:00Z', 200, [['VISA', 200]], { items: [item(sku.scarf, 1, 200)] }),
      receipt(kiosk, '2026-03-02T15:00:00Z', 60, [['VISA', 60]]),
    ]);
  });
  app = await createTestApp(db.pool);
  agents = await signInAgents(
    app,
    {
      operator: WORLD.users.operator1,
      tenant: WORLD.users.tenant,
      otherClient: WORLD.users.operator2,
      admin: WORLD.users.admin,
    },
    PASSWORD,
  );
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

type Params = Record<string, string | number>;

function ask(path: string, params: Params, agent = agents.operator) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries({ client_id: 1, id: cafe, ...WEEK, ...params })) {
    query.set(key, String(value));
  }
  return agent.get(`/outlets/${path}?${query}`);
}

async function answer<T = unknown>(path: string, params: Params = {}, agent = agents.operator): Promise<T> {
  const response = await ask(path, params, agent);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as T;
}

describe('revenue, transactions and units over time', () => {
  it('answers every day of the week, zeros included, and the total', async () => {
    expect(await answer('totalRevenuePoints')).toEqual({
      data: [
        { key: '2026-03-02', value: 29.5 },
        { key: '2026-03-03', value: 8 },
        { key: '2026-03-04', value: 11 },
        { key: '2026-03-05', value: 0 },
        { key: '2026-03-06', value: 0 },
        { key: '2026-03-07', value: 0 },
        { key: '2026-03-08', value: 3 },
      ],
      total: 51.5,
    });
    const transactions = await answer<{ data: { value: number }[]; total: number }>('totalTransactionPoints');
    expect(transactions.data.map((point) => point.value)).toEqual([3, 1, 1, 0, 0, 0, 1]);
    expect(transactions.total).toBe(6);
    const units = await answer<{ data: { value: number }[]; total: number }>('totalUnitSalePoints');
    expect(units.data.map((point) => point.value)).toEqual([7, 2, 2, 0, 0, 0, 1]);
    expect(units.total).toBe(12);
  });

  it('buckets by week from Monday and by month', async () => {
    expect(await answer('totalRevenuePoints', { timeRange: 'weekly', endTime: '2026-03-09' })).toEqual({
      data: [
        { key: '2026-03-02', value: 51.5 },
        { key: '2026-03-09', value: 4 },
      ],
      total: 55.5,
    });
    expect(await answer('totalUnitSalePoints', { timeRange: 'monthly', startTime: '2026-02-20' })).toEqual({
      data: [
        { key: '2026-02', value: 0 },
        { key: '2026-03', value: 12 },
      ],
      total: 12,
    });
  });

  it('counts whole hours of a datetime window, by hour and by day', async () => {
    const morning = { timeType: 'datetime', startTime: '2026-03-02 09:00:00', endTime: '2026-03-02 11:59:59' };
    expect(await answer('totalRevenuePoints', { ...morning, timeRange: 'hourly' })).toEqual({
      data: [
        { key: '2026-03-02 09:00', value: 15 },
        { key: '2026-03-02 10:00', value: 0 },
        { key: '2026-03-02 11:00', value: 14.5 },
      ],
      total: 29.5,
    });
    const days = { timeType: 'datetime', startTime: '2026-03-02 10:00:00', endTime: '2026-03-04 10:59:59' };
    expect(await answer('totalRevenuePoints', days)).toEqual({
      data: [
        { key: '2026-03-02', value: 14.5 },
        { key: '2026-03-03', value: 8 },
        { key: '2026-03-04', value: 11 },
      ],
      total: 33.5,
    });
  });

  it('refuses a datetime off the hour naming the field, and a mix of currencies for money', async () => {
    const off = await ask('totalRevenuePoints', {
      timeType: 'datetime',
      startTime: '2026-03-02 09:30:00',
      endTime: '2026-03-02 11:59:59',
    });
    expect(off.statusCode).toBe(400);
    expect(off.json().message).toMatch(/^startTime/);
    const end = await ask('totalUnitSalePoints', {
      timeType: 'datetime',
      startTime: '2026-03-02 09:00:00',
      endTime: '2026-03-02 11:00:00',
    });
    expect(end.statusCode).toBe(400);
    expect(end.json().message).toMatch(/^endTime/);
    const mixed = await ask('totalRevenuePoints', { id: `${cafe},${kiosk}` });
    expect(mixed.statusCode).toBe(409);
    expect(mixed.json().message).toContain('SGD, USD');
    // Counts add up across currencies.
    expect((await answer<{ total: number }>('totalTransactionPoints', { id: `${cafe},${kiosk}` })).total).toBe(7);
    // Outlets of one currency add up.
    expect((await answer<{ total: number }>('totalRevenuePoints', { id: `${cafe},${boutique}` })).total).toBe(251.5);
  });

  it('answers the daily breakdown keyed YYYY/MM/DD', async () => {
    const { data } = await answer<{ data: { key: string; value: number }[] }>('breakdown');
    expect(data[0]).toEqual({ key: '2026/03/02', value: 29.5 });
    expect(data.map((row) => row.value)).toEqual([29.5, 8, 11, 0, 0, 0, 3]);
  });
});

describe('overall comparison', () => {
  it('answers both periods: revenue, transactions, units and the average transaction value', async () => {
    expect(
      await answer('overallComparison', { comparedStartTime: '2026-03-09', comparedEndTime: '2026-03-15' }),
    ).toEqual({
      current: { revenue: 51.5, transactions: 6, unit_sales: 12, average_transaction_value: 8.58 },
      compared: { revenue: 4, transactions: 1, unit_sales: 1, average_transaction_value: 4 },
    });
  });

  it('answers zeros for a period without sales and checks the compared window', async () => {
    expect(
      await answer('overallComparison', { comparedStartTime: '2025-03-02', comparedEndTime: '2025-03-08' }),
    ).toMatchObject({ compared: { revenue: 0, transactions: 0, unit_sales: 0, average_transaction_value: 0 } });
    const backwards = await ask('overallComparison', {
      comparedStartTime: '2026-03-15',
      comparedEndTime: '2026-03-09',
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toMatch(/^comparedStartTime/);
  });
});

describe('the sales analysis as one workbook', () => {
  type Sheets = Record<string, unknown[][]>;

  /** Every sheet's rows after its header, each cell's value. */
  async function sheetsOf(bytes: Buffer): Promise<{ names: string[]; sheets: Sheets; workbook: ExcelJS.Workbook }> {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
    const sheets: Sheets = {};
    for (const sheet of workbook.worksheets) {
      const rows: unknown[][] = [];
      sheet.eachRow((row, number) => {
        if (number === 1) return;
        rows.push(
          Array.from({ length: sheet.columnCount }, (_, index) => {
            const value = row.getCell(index + 1).value;
            return value instanceof Date ? value.toISOString().slice(0, 10) : (value ?? null);
          }),
        );
      });
      sheets[sheet.name] = rows;
    }
    return { names: workbook.worksheets.map((sheet) => sheet.name), sheets, workbook };
  }

  const workbookUrl = (outlet: number, start: string, end: string, client = 1) =>
    `/outlets/salesAnalysis/workbook?client_id=${client}&outlet_id=${outlet}&startTime=${start}&endTime=${end}`;

  /** The key figures the page shows for the days, from its operations' answers shaped by its own rule. */
  async function pageKpis(days: { start: string; end: string }, today: string | undefined) {
    const ask = (period: { start: string; end: string }, compared: { start: string; end: string }, compare: string) =>
      answer<OutletComparisonAnswer>('overallComparison', {
        startTime: period.start,
        endTime: period.end,
        comparedStartTime: compared.start,
        comparedEndTime: compared.end,
        compare,
      });
    return Promise.all(
      COMPARISON_MODES.map(async (mode) => [mode, await salesKpisOf(days, mode, today, ask)] as const),
    );
  }

  /** A key figures row's numbers: the figure, the growth's days and figures, the rate. */
  const kpiCells = (kpis: SalesKpis) =>
    kpiFigures(kpis).map((figure) => [
      KPI_LABELS[figure.measure],
      hasSales(kpis.totals) ? figure.current : 'No Data',
      kpis.comparison?.current.start ?? null,
      kpis.comparison?.current.end ?? null,
      figure.growth?.current ?? null,
      kpis.comparison?.previous.start ?? null,
      kpis.comparison?.previous.end ?? null,
      figure.growth?.compared ?? null,
      figure.growth ? growthRate(figure.growth.current, figure.growth.compared) / 100 : null,
    ]);

  it('holds the page’s key figures, series, meal timings and items of the week, in the outlet’s currency', async () => {
    const response = await agents.operator.get(workbookUrl(cafe, '2026-03-02', '2026-03-08'));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="sales-analysis_2026-03-02_2026-03-08.xlsx"',
    );
    const { names, sheets, workbook } = await sheetsOf(response.rawPayload as unknown as Buffer);
    expect(names).toEqual([...SALES_ANALYSIS_WORKBOOK_SHEETS, 'Filters']);
    const today = (await agents.operator.get('/api/credential')).json().user.today as string | undefined;
    const week = { start: '2026-03-02', end: '2026-03-08' };

    // Key figures: each comparison's cards, as the page's machine asks and shapes them.
    const expected = (await pageKpis(week, today)).flatMap(([, kpis]) => kpiCells(kpis));
    expect(sheets['Key figures']?.map((row) => row.slice(1, 10))).toEqual(expected);
    expect(sheets['Key figures']?.map((row) => row[0])).toEqual(
      ['Previous period', 'Same weekdays last year', 'Festival-aligned last year'].flatMap((label) =>
        Array(4).fill(label),
      ),
    );
    // By hand: 51.50 over 6 receipts (ATV 8.58), 12 units, against the 7 days before, which hold no sale.
    expect(sheets['Key figures']?.slice(0, 4).map((row) => row.slice(1, 10))).toEqual([
      ['Revenue', 51.5, '2026-03-02', '2026-03-08', 51.5, '2026-02-23', '2026-03-01', 0, 0],
      ['Transactions', 6, '2026-03-02', '2026-03-08', 6, '2026-02-23', '2026-03-01', 0, 0],
      ['Units Sold', 12, '2026-03-02', '2026-03-08', 12, '2026-02-23', '2026-03-01', 0, 0],
      ['Average Transaction Value', 8.58, '2026-03-02', '2026-03-08', 8.58, '2026-02-23', '2026-03-01', 0, 0],
    ]);
    expect(sheets['Key figures']?.[0]?.[10]).toContain('nothing to compare');
    const revenueCell = workbook.getWorksheet('Key figures')?.getRow(2).getCell(3);
    const sgd = currencyFormat('SGD');
    expect(revenueCell?.numFmt).toBe(moneyFormat(sgd.symbol, sgd.digits));

    // The series, day by day, as the page's table, and the totals under it.
    const series = async (path: string) =>
      answer<SeriesAnswer>(path, { startTime: week.start, endTime: week.end, timeRange: 'daily' });
    const trend = trendOf('daily', week, today ?? week.end, {
      revenue: await series('totalRevenuePoints'),
      transactions: await series('totalTransactionPoints'),
      units: await series('totalUnitSalePoints'),
    });
    expect(sheets.Trend?.map((row) => row.slice(2, 5))).toEqual([
      ...trend.rows.map((row) => [row.revenue, row.transactions, row.units]),
      [trend.totals.revenue, trend.totals.transactions, trend.totals.units],
    ]);
    expect(sheets.Trend?.map((row) => row[2])).toEqual([29.5, 8, 11, 0, 0, 0, 3, 51.5]);
    expect(sheets.Trend?.[0]?.slice(0, 2)).toEqual(['2026-03-02', '02/03']);

    // Meal timings: Breakfast 26.00 in 2 and Lunch 9.00 in 1, shares of the week's 51.50.
    const meals = mealTimingsOf(
      (await answer<{ data: Parameters<typeof mealTimingsOf>[0] }>('mealTimingReport')).data,
      (await answer<SeriesAnswer>('totalRevenuePoints', { timeRange: 'monthly' })).total,
    );
    expect(sheets['Meal timings']).toEqual([
      ...meals.rows.map((row) => [
        row.name,
        row.start_time,
        row.end_time,
        row.time,
        row.revenue,
        row.transactions,
        row.share,
      ]),
      ['The outlet’s revenue', null, null, null, 51.5, null, null],
    ]);
    expect(sheets['Meal timings']?.[0]?.slice(0, 6)).toEqual(['Breakfast', '08:00', '11:00', '08:00–11:00', 26, 2]);
    expect(sheets['Meal timings']?.[0]?.[6]).toBeCloseTo(26 / 51.5, 10);

    // Each day's best-selling items, ranked as the page ranks them.
    const items = itemRowsOf(
      (await answer<{ data: Parameters<typeof itemRowsOf>[0] }>('itemSalesBreakdown', { timeRange: 'daily' })).data,
      'daily',
      week,
      today ?? week.end,
    );
    expect(sheets.Items).toEqual(
      items.map((row) => [row.key, row.bucket, row.rank, row.sku_id, row.item_name, row.quantity, row.amount]),
    );
    expect(sheets.Items?.[0]).toEqual(['2026-03-02', '02/03', 1, sku.latte, 'Latte', 3, 16.5]);

    const filters = new Map(sheets.Filters?.map((row) => [row[0], row[1]]));
    expect(filters.get('Malls')).toBe('Central Mall');
    expect(filters.get('Outlet')).toBe('Cafe Uno');
    expect(filters.get('Currency')).toBe("SGD (the outlet's own)");
    expect(filters.get('Trend time range (the page’s default)')).toBe('Daily');
    expect(filters.get('Items per (the page’s default)')).toBe('Daily');
  });

  it('compares as the cards do: 14.00 in 2 from the 4th against 37.50 in 4 of the four days before', async () => {
    const response = await agents.operator.get(workbookUrl(cafe, '2026-03-04', '2026-03-08'));
    expect(response.statusCode, response.body).toBe(200);
    const { sheets } = await sheetsOf(response.rawPayload as unknown as Buffer);
    const previous = sheets['Key figures']?.slice(0, 2).map((row) => row.slice(1, 10));
    expect(previous).toEqual([
      ['Revenue', 14, '2026-03-04', '2026-03-08', 14, '2026-02-27', '2026-03-03', 37.5, -0.6267],
      ['Transactions', 2, '2026-03-04', '2026-03-08', 2, '2026-02-27', '2026-03-03', 4, -0.5],
    ]);
    expect(sheets['Key figures']?.[0]?.[10]).toBe('▼ -62.67% vs 27 Feb – 3 Mar');
  });

  it('leaves the header’s today out of the growth, as the page does', async () => {
    // 18:00 on Monday 9 March in Singapore: the 9th is today (4.00 so far), the 3rd to the 8th are complete.
    const { bytes } = await buildSalesAnalysisWorkbook(
      db.pool,
      { visibility: { clientIds: [1], outletLimits: new Map() }, email: 'operator@test' },
      { client_id: 1, outlet_id: cafe, start_time: '2026-03-03', end_time: '2026-03-09' },
      { now: new Date('2026-03-09T10:00:00Z') },
    );
    const { sheets } = await sheetsOf(bytes);
    // The range's 26.00 in 4, today's included; the growth: 22.00 of the 3rd to the 8th against 29.50 of the 6
    // days before (25 Feb to 2 Mar): -25.42%.
    expect(sheets['Key figures']?.[0]?.slice(1, 9)).toEqual([
      'Revenue',
      26,
      '2026-03-03',
      '2026-03-08',
      22,
      '2026-02-25',
      '2026-03-02',
      29.5,
    ]);
    expect(sheets['Key figures']?.[0]?.[9]).toBeCloseTo(-0.2542, 10);
    expect(sheets['Key figures']?.[0]?.[10]).toContain('(today left out)');
    expect(sheets.Trend?.at(-2)).toEqual(['2026-03-09', '09/03 (so far)', 4, 1, 1, 'so far']);
    const filters = new Map(sheets.Filters?.map((row) => [row[0], row[1]]));
    expect(filters.get('Today (left out of the growth, its figures so far)')).toBe('2026-03-09');
  });

  it('is the caller’s own outlet’s only, and keeps the page’s rules of days', async () => {
    expect((await agents.tenant.get(workbookUrl(cafe, '2026-03-02', '2026-03-08'))).statusCode).toBe(403);
    const own = await agents.tenant.get(workbookUrl(boutique, '2026-03-02', '2026-03-08'));
    expect(own.statusCode, own.body).toBe(200);
    expect((await agents.otherClient.get(workbookUrl(cafe, '2026-03-02', '2026-03-08'))).statusCode).toBe(403);
    expect((await agents.otherClient.get(workbookUrl(cafe, '2026-03-02', '2026-03-08', 2))).statusCode).toBe(403);
    const reversed = await agents.operator.get(workbookUrl(cafe, '2026-03-08', '2026-03-02'));
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toMatch(/^startTime must not be after endTime/);
    const long = await agents.operator.get(workbookUrl(cafe, '2025-01-01', '2026-03-08'));
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/^endTime/);
    const hours = await agents.operator.get(`${workbookUrl(cafe, '2026-03-02', '2026-03-08')}&timeType=datetime`);
    expect(hours.statusCode).toBe(400);
    expect(hours.json().message).toContain('timeType');
  });
});

describe('top SKUs', () => {
  const latte = () => ({
    sku_id: sku.latte,
    barcode: '1001',
    item_name: 'Latte',
    quantity: 5,
    unit_price: 5.5,
    amount: 27.5,
  });
  const tea = () => ({ sku_id: sku.tea, barcode: '1003', item_name: 'Tea', quantity: 4, unit_price: 3, amount: 12 });
  const bagel = () => ({
    sku_id: sku.bagel,
    barcode: '1002',
    item_name: 'Bagel',
    quantity: 3,
    unit_price: 4,
    amount: 12,
  });
  const TOTAL = { rows_total: 3, max_quantity: 5, max_revenue: 27.5 };

  it('ranks by quantity by default, with totals over every row', async () => {
    expect(await answer('topSKU')).toEqual({ data: [latte(), tea(), bagel()], total: TOTAL });
  });

  it('ranks by amount either way, ties by SKU id, and pages', async () => {
    const ascending = await answer<{ data: { sku_id: number }[] }>('topSKU', {
      sortMethod: 'amount',
      orderByMethod: 'asc',
    });
    expect(ascending.data.map((row) => row.sku_id)).toEqual([sku.bagel, sku.tea, sku.latte]);
    expect(await answer('topSKU', { sortMethod: 'amount', orderByMethod: 'asc', rowsPerPage: 2, page: 2 })).toEqual({
      data: [latte()],
      total: TOTAL,
    });
    expect(await answer('topSKU', { page: 9 })).toEqual({ data: [], total: TOTAL });
  });

  it('answers one SKU, and nothing for a week without sales', async () => {
    expect(await answer('topSKU', { sku_id: sku.tea })).toEqual({
      data: [tea()],
      total: { rows_total: 1, max_quantity: 4, max_revenue: 12 },
    });
    expect(await answer('topSKU', { startTime: '2025-01-01', endTime: '2025-01-07' })).toEqual({
      data: [],
      total: { rows_total: 0, max_quantity: 0, max_revenue: 0 },
    });
  });

  it('takes whole days only', async () => {
    const response = await ask('topSKU', { timeType: 'datetime' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('timeType');
  });
});

describe('item sales breakdown', () => {
  it("answers each day's items by amount", async () => {
    expect(await answer('itemSalesBreakdown')).toEqual({
      data: [
        { key: '2026-03-02', sku_id: sku.latte, item_name: 'Latte', quantity: 3, amount: 16.5 },
        { key: '2026-03-02', sku_id: sku.tea, item_name: 'Tea', quantity: 3, amount: 9 },
        { key: '2026-03-02', sku_id: sku.bagel, item_name: 'Bagel', quantity: 1, amount: 4 },
        { key: '2026-03-03', sku_id: sku.bagel, item_name: 'Bagel', quantity: 2, amount: 8 },
        { key: '2026-03-04', sku_id: sku.latte, item_name: 'Latte', quantity: 2, amount: 11 },
        { key: '2026-03-08', sku_id: sku.tea, item_name: 'Tea', quantity: 1, amount: 3 },
      ],
    });
  });

  it('answers weeks, ties on amount by quantity', async () => {
    expect(await answer('itemSalesBreakdown', { timeRange: 'weekly' })).toEqual({
      data: [
        { key: '2026-03-02', sku_id: sku.latte, item_name: 'Latte', quantity: 5, amount: 27.5 },
        { key: '2026-03-02', sku_id: sku.tea, item_name: 'Tea', quantity: 4, amount: 12 },
        { key: '2026-03-02', sku_id: sku.bagel, item_name: 'Bagel', quantity: 3, amount: 12 },
      ],
    });
    const hourly = await ask('itemSalesBreakdown', { timeRange: 'hourly' });
    expect(hourly.statusCode).toBe(400);
    expect(hourly.json().message).toContain('timeRange');
  });
});

describe('meal timing report', () => {
  const row = (id: number, name: string, start: string, end: string, revenue: number, transactions: number) => ({
    meal_timing_id: id,
    name,
    start_time: start,
    end_time: end,
    revenue,
    transactions,
  });

  it("answers each of the outlet's timings in start-time order, minutes and bounds exact", async () => {
    expect(await answer('mealTimingReport')).toEqual({
      data: [
        row(timing.breakfast, 'Breakfast', '08:00', '11:00', 26, 2),
        row(timing.lunch, 'Lunch', '11:30', '14:30', 9, 1),
      ],
    });
  });

  it('counts a retimed or added timing again from the receipts, and drops a removed one', async () => {
    const put = await agents.admin.request('PUT', '/outlets/mealTimings', {
      body: {
        client_id: 1,
        outlet_id: cafe,
        meal_timing: [{ id: timing.lunch, name: 'Lunch', start_time: '11:00', end_time: '14:31' }],
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    const created = await agents.admin.request('POST', '/outlets/mealTimings', {
      body: { client_id: 1, outlet_id: cafe },
    });
    expect(created.statusCode, created.body).toBe(200);
    const added = (created.json() as { id: number }).id;
    expect(await answer('mealTimingReport')).toEqual({
      data: [
        row(added, 'Meal 3', '00:00', '01:00', 0, 0),
        row(timing.breakfast, 'Breakfast', '08:00', '11:00', 26, 2),
        row(timing.lunch, 'Lunch', '11:00', '14:31', 22.5, 3),
      ],
    });
    const removed = await agents.admin.request(
      'DELETE',
      `/outlets/mealTimings?client_id=1&outlet_id=${cafe}&id=${timing.breakfast}`,
    );
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await answer<{ data: unknown[] }>('mealTimingReport')).data).toHaveLength(2);
    expect(await rollupMismatches(db.pool)).toMatchObject({ skuDaily: 0, mealDaily: 0, outletDayHours: 0 });
  });
});

describe('a meal timing retimed while receipts of its outlet are being stored', () => {
  it('waits for them and counts them', async () => {
    const writer = await db.pool.connect();
    try {
      await writer.query('BEGIN');
      // Wed 11 March 12:00 local: in Lunch whether it ends at 14:31 or at 15:00.
      await ingestReceipts(writer, 1, [
        receipt(cafe, '2026-03-11T04:00:00Z', 7, [['CASH', 7]], { items: [item(sku.tea, 2, 3.5)] }),
      ]);
      let settled = false;
      const retimed = agents.admin
        .request('PUT', '/outlets/mealTimings', {
          body: {
            client_id: 1,
            outlet_id: cafe,
            meal_timing: [{ id: timing.lunch, name: 'Lunch', start_time: '11:00', end_time: '15:00' }],
          },
        })
        .finally(() => {
          settled = true;
        });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(settled).toBe(false);
      await writer.query('COMMIT');
      expect((await retimed).statusCode).toBe(200);
    } finally {
      writer.release();
    }
    const lunch = (
      await answer<{ data: { meal_timing_id: number; revenue: number; transactions: number }[] }>('mealTimingReport', {
        endTime: '2026-03-11',
      })
    ).data.find((row) => row.meal_timing_id === timing.lunch);
    // r2, r3, r4 and the new receipt.
    expect(lunch).toMatchObject({ revenue: 29.5, transactions: 4 });
    expect(await rollupMismatches(db.pool)).toMatchObject({ mealDaily: 0, skuDaily: 0 });
  });
});

describe('SKU search', () => {
  it("finds the outlets' SKUs by name or barcode, any case", async () => {
    expect(await answer('sku', { searchText: 'LAT' })).toEqual([
      { id: sku.latte, barcode: '1001', item_name: 'Latte' },
    ]);
    expect(await answer('sku', { searchText: '100' })).toHaveLength(3);
    expect(await answer('sku', { searchText: '%' })).toEqual([]);
    expect(await answer('sku', { id: `${cafe},${boutique}` })).toHaveLength(4);
  });
});

describe('access', () => {
  it("answers only the caller's outlets of the caller's client", async () => {
    for (const path of ['topSKU', 'totalRevenuePoints', 'mealTimingReport', 'sku']) {
      expect((await ask(path, {}, agents.tenant)).statusCode, path).toBe(403);
      expect((await ask(path, { id: boutique }, agents.tenant)).statusCode, path).toBe(200);
      expect((await ask(path, { client_id: 2 }, agents.otherClient)).statusCode, path).toBe(403);
    }
  });
});
