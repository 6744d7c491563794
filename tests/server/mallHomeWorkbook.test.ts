import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { MALL_HOME_SHEETS } from '../../server/exports/mallHomeWorkbook.js';
import { REPORT_WORKBOOK_SHEETS } from '../../server/exports/reportWorkbooks.js';
import { DATE_FORMAT, moneyFormat, SHARE_FORMAT, writeWorkbook } from '../../server/exports/workbook.js';
import { ingestReceipts } from '../../server/repositories/ingestion.js';
import { mallHomeComparison, mallHomeKpis, peakHoursView, type ReportQuery } from '../../src/domain/mallReportViews.js';
import { growthRate, MONTH_NAMES } from '../../src/domain/reports.js';
import { grantOperatorPermissions, PASSWORD, receiptInput as receipt, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, type TestDatabase } from './helpers.js';

/*
 * Mall Home's workbook, built by the server for a hand-made week and read back with exceljs: its sheets, the types
 * and formats of its cells, its figures against the answers of the page's own operations for the same filters, its
 * filters sheet, and text that looks like a formula staying text.
 *
 * The week of mallReports.test.ts (Monday 2 to Sunday 8 March 2026): Central Mall (SGD) with Cafe Uno and Boutique
 * Duo, Harbour Mall (USD at a rate of 1 to Zenith's SGD) with kiosk tres. Over the week, both malls: GMV 500.50 in
 * 7 receipts (250.50 and 4 on the 2nd, 20.00 on the 3rd, 200.00 on the 4th, 30.00 on the 8th); the previous week
 * holds cafe's 80.00 member receipt of the 24th of February.
 */
let db: TestDatabase;
let app: FastifyInstance;
let operator: Agent;
let tenant: Agent;

const { cafe, boutique, kiosk, apexShop } = WORLD.outlets;
const { central, harbour } = WORLD.malls;
const WEEK = { start_time: '2026-03-02', end_time: '2026-03-08' };
const SELECTION = { client_id: 1, mall_ids: [central, harbour], ...WEEK };
/** Outlet names a device could send that a spreadsheet would take for a formula, were they not string cells. */
const FORMULA_NAMES = ['=HYPERLINK("http://x.test","y")', '+1+2', '-3', '@SUM(A1)', '\t=1', '\r=2'];

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await db.pool.query(`
    UPDATE outlets SET category = 'F&B', level = 'L1' WHERE id IN (1, 3);
    UPDATE outlets SET category = 'Fashion', level = 'L2' WHERE id = 2;
  `);
  await db.pool.query(
    `INSERT INTO exchange_rates (client_id, month, currency, rate)
     SELECT 1, m::date, 'USD', 1 FROM generate_series('2025-01-01'::date, '2026-12-01', interval '1 month') m`,
  );
  await grantOperatorPermissions(
    db.pool,
    [
      ...['daily', 'monthly', 'mall', 'outlet', 'category', 'level', 'growth', 'peak_hour', 'payment_method/overall'],
      ...['member/overall', 'member/outlet', 'mall_home/workbook', 'mall_gmv/workbook', 'peak_hour/workbook'],
      ...['payment_method/workbook', 'member/workbook', 'refund', 'voucher', 'refund/workbook', 'voucher/workbook'],
      'sales_trends/workbook',
    ].map((path) => `/api/mall_report/${path}::Read`),
  );
  await inTransaction(db.pool, async (client) => {
    await ingestReceipts(client, 1, [
      receipt(cafe, '2026-03-02T02:15:00Z', 100, [['VISA', 100]], { isMember: true }),
      receipt(cafe, '2026-03-02T04:40:00Z', 50.5, [
        ['visa', 30.5],
        ['', 20],
      ]),
      receipt(cafe, '2026-03-02T17:30:00Z', 20, [['NONE', 20]]),
      receipt(cafe, '2026-03-02T05:00:00Z', 999, [['MASTER', 999]], { void: true }),
      receipt(cafe, '2026-02-24T03:00:00Z', 80, [['VISA', 80]], { isMember: true }),
      receipt(boutique, '2026-03-04T06:00:00Z', 200, [['MASTER', 200]], { isMember: true, voucherAmount: 50 }),
      receipt(boutique, '2026-03-08T15:59:00Z', 30, [['CASH', 30]]),
      receipt(boutique, '2026-03-08T16:00:00Z', 1000, [['CASH', 1000]]),
      receipt(kiosk, '2026-03-03T02:00:00Z', 40, [['Cash', 40]], { isMember: true, refundAmount: 15 }),
      receipt(kiosk, '2026-03-02T15:00:00Z', 60, [
        ['VISA', 60],
        ['NONE', 0],
      ]),
    ]);
    await ingestReceipts(client, 2, [receipt(apexShop, '2026-03-02T04:00:00Z', 5000, [['VISA', 5000]])]);
  });
  app = await createTestApp(db.pool);
  operator = new Agent(app);
  tenant = new Agent(app);
  expect((await operator.login(WORLD.users.operator1, PASSWORD)).statusCode).toBe(200);
  expect((await tenant.login(WORLD.users.tenant, PASSWORD)).statusCode).toBe(200);
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

function url(path: string, params: Record<string, string | number | boolean | number[]>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const item of Array.isArray(value) ? value : [value]) query.append(key, String(item));
  }
  return `/api/mall_report/${path}?${query}`;
}

async function api(agent: Agent, path: string, params: Record<string, string | number | boolean | number[]>) {
  const response = await agent.get(url(path, { ...SELECTION, ...params }));
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** The workbook the server answers for the filters, loaded by exceljs, and its bytes. */
async function workbookOf(
  agent: Agent,
  params: Record<string, string | number | boolean | number[]> = {},
  path = 'mall_home/workbook',
  fileBase = 'mall-home',
) {
  const response = await agent.get(url(path, { ...SELECTION, ...params }));
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  expect(response.headers['content-disposition']).toBe(
    `attachment; filename="${fileBase}_${SELECTION.start_time}_${SELECTION.end_time}.xlsx"`,
  );
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(response.rawPayload as unknown as ExcelJS.Buffer);
  return { workbook, bytes: response.rawPayload };
}

/** A sheet's rows below its header, as exceljs reads their cells. */
function rowsOf(workbook: ExcelJS.Workbook, name: string): ExcelJS.Cell[][] {
  const sheet = workbook.getWorksheet(name);
  if (!sheet) throw new Error(`no sheet ${name}`);
  const rows: ExcelJS.Cell[][] = [];
  sheet.eachRow((row, number) => {
    if (number === 1) return;
    rows.push(Array.from({ length: sheet.columnCount }, (_, index) => row.getCell(index + 1)));
  });
  return rows;
}

const headersOf = (workbook: ExcelJS.Workbook, name: string) =>
  ((workbook.getWorksheet(name)?.getRow(1).values ?? []) as unknown[]).slice(1);

interface OutletRow {
  key: string;
  name: string;
  gmv: number;
  transactions: number;
  average_transaction_value: number;
}

const day = (value: string) => new Date(`${value}T00:00:00Z`);

/** The outlets sheet's cells of GET /outlet's rows: their rank, id, name and measures. */
const outletCells = (outlets: readonly OutletRow[]) =>
  outlets.map((row, index) => [
    index + 1,
    Number(row.key),
    row.name,
    row.gmv,
    row.transactions,
    row.average_transaction_value,
  ]);
const SGD = moneyFormat('$', 2);

describe('GET /api/mall_report/mall_home/workbook', () => {
  it('holds one sheet per table of Mall Home and one of its filters', async () => {
    const { workbook } = await workbookOf(operator);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
      MALL_HOME_SHEETS.kpis,
      MALL_HOME_SHEETS.daily,
      MALL_HOME_SHEETS.outlets,
      MALL_HOME_SHEETS.payments,
      MALL_HOME_SHEETS.filters,
    ]);
    expect(headersOf(workbook, MALL_HOME_SHEETS.daily)).toEqual(['Date', 'GMV', 'Transactions']);
  });

  it('writes the daily rows as dates, money and counts equal to GET /daily, hand-checked', async () => {
    const { workbook } = await workbookOf(operator);
    const rows = rowsOf(workbook, MALL_HOME_SHEETS.daily);
    const { data } = await api(operator, 'daily', {});
    expect(rows).toHaveLength(data.length);
    for (const [index, [date, gmv, transactions]] of rows.entries()) {
      expect(date?.type).toBe(ExcelJS.ValueType.Date);
      expect(date?.numFmt).toBe(DATE_FORMAT);
      expect(gmv?.type).toBe(ExcelJS.ValueType.Number);
      expect(gmv?.numFmt).toBe(SGD);
      expect(transactions?.type).toBe(ExcelJS.ValueType.Number);
      expect([date?.value, gmv?.value, transactions?.value]).toEqual([
        day(data[index].date),
        data[index].gmv,
        data[index].transactions,
      ]);
    }
    // Worked out by hand: 100 + 50.50 (cafe) + 40 + 60 (kiosk, Monday in New York) on the 2nd.
    expect(rows[0]?.map((cell) => cell.value)).toEqual([day('2026-03-02'), 250.5, 4]);
    expect(rows.reduce((sum, row) => sum + Number(row[1]?.value), 0)).toBeCloseTo(500.5, 10);
  });

  it('writes every outlet and payment method as the page’s calls answer them', async () => {
    const { workbook } = await workbookOf(operator);
    const outlets = (await api(operator, 'outlet', { group_by: 'outlet' })).data;
    expect(rowsOf(workbook, MALL_HOME_SHEETS.outlets).map((row) => row.map((cell) => cell.value))).toEqual(
      outletCells(outlets),
    );
    const [first] = rowsOf(workbook, MALL_HOME_SHEETS.outlets);
    expect(first?.map((cell) => cell.numFmt)).toEqual(['#,##0', undefined, undefined, SGD, '#,##0', SGD]);
    const payments = (await api(operator, 'payment_method/overall', { limit: 100 })).data;
    const written = rowsOf(workbook, MALL_HOME_SHEETS.payments);
    expect(written.map(([method, sum]) => [method?.value, sum?.value])).toEqual(
      payments.map((row: { payment_method: string; sum: number }) => [row.payment_method, row.sum]),
    );
    // The page's ten are the first rows.
    const pageTen = (await api(operator, 'payment_method/overall', { limit: 10 })).data;
    expect(written.slice(0, pageTen.length).map(([method]) => method?.value)).toEqual(
      pageTen.map((row: { payment_method: string }) => row.payment_method),
    );
    for (const [method, sum] of written) {
      expect(method?.type).toBe(ExcelJS.ValueType.String);
      expect(sum?.type).toBe(ExcelJS.ValueType.Number);
      expect(sum?.numFmt).toBe(SGD);
    }
  });

  it('writes the key figures as the page shapes them from its calls, growth and compared days included', async () => {
    const compare = 'same_weekday_last_year';
    const { workbook } = await workbookOf(operator, { compare });
    const today = new Date().toISOString().slice(0, 10);
    const query: ReportQuery = {
      clientId: 1,
      mallIds: [central, harbour],
      start: WEEK.start_time,
      end: WEEK.end_time,
      startHour: 0,
      endHour: 23,
      timeRange: 'daily',
      metric: 'gmv',
      today,
    };
    const comparison = mallHomeComparison(query);
    if (!comparison) throw new Error('the week has ended: every day is complete');
    const [malls, members, growth] = await Promise.all([
      api(operator, 'mall', { rank_by: 'gmv' }),
      api(operator, 'member/overall', { time_range: 'daily', metric: 'gmv' }),
      api(operator, 'growth', { start_time: comparison.current.start, end_time: comparison.current.end, compare }),
    ]);
    const kpis = mallHomeKpis(comparison, { malls: malls.data, members, growth });
    const rows = rowsOf(workbook, MALL_HOME_SHEETS.kpis);
    const expected = [
      ['GMV', kpis.gmv, SGD],
      ['Transactions', kpis.transactions, '#,##0'],
      ['Average Transaction Value', kpis.averageTransactionValue, SGD],
      ['Member Share', kpis.memberShare, SHARE_FORMAT],
    ] as const;
    expect(kpis.gmv.current).toBe(500.5);
    for (const [index, [measure, kpi, format]] of expected.entries()) {
      const row = rows[index] ?? [];
      expect(row[0]?.value).toBe(measure);
      expect(row[1]?.value).toBe(kpi.current);
      expect(row[1]?.numFmt).toBe(format);
      expect(row[2]?.value).toEqual(day(kpis.comparison?.current.start ?? ''));
      expect(row[3]?.value).toEqual(day(kpis.comparison?.current.end ?? ''));
      expect(row[4]?.value).toBe(kpi.growth?.current);
      expect(row[5]?.value).toEqual(day(kpis.comparison?.previous.start ?? ''));
      expect(row[6]?.value).toEqual(day(kpis.comparison?.previous.end ?? ''));
      expect(row[7]?.value).toBe(kpi.growth?.previous);
      expect(row[7]?.numFmt).toBe(format);
      expect(row[8]?.value).toBe(growthRate(kpi.growth?.current ?? 0, kpi.growth?.previous ?? 0) / 100);
      expect(row[8]?.numFmt).toBe('0.00%');
    }
    // Same weekdays last year: 364 days before.
    expect(rows[0]?.[5]?.value).toEqual(day('2025-03-03'));
  });

  it('writes the filters it was made with: client, malls, range, hours, comparison, when and by whom', async () => {
    const before = Date.now();
    const { workbook } = await workbookOf(operator, { compare: 'previous', like_for_like: true });
    const after = Date.now();
    const filters = new Map(
      rowsOf(workbook, MALL_HOME_SHEETS.filters).map(([name, value]) => [String(name?.value), value]),
    );
    expect(filters.get('Client')?.value).toBe('Zenith Malls');
    expect(filters.get('Malls')?.value).toBe('Central Mall, Harbour Mall');
    expect(filters.get('From')?.value).toEqual(day(WEEK.start_time));
    expect(filters.get('From')?.type).toBe(ExcelJS.ValueType.Date);
    expect(filters.get('To')?.value).toEqual(day(WEEK.end_time));
    expect(filters.get('Hours')?.value).toBe('All day (00:00 to 23:59)');
    expect(filters.get('Currency')?.value).toBe("SGD (converted at each month's rate)");
    expect(filters.get('Comparison')?.value).toBe('Previous period');
    expect(filters.get('Like for like')?.value).toBe('Yes');
    expect(filters.get('Outlets kept')?.type).toBe(ExcelJS.ValueType.Number);
    expect(filters.get('Compared from')?.value).toEqual(day('2026-02-23'));
    expect(filters.get('Compared to')?.value).toEqual(day('2026-03-01'));
    const generated = filters.get('Generated at (UTC)');
    expect(generated?.type).toBe(ExcelJS.ValueType.Date);
    const at = generated?.value instanceof Date ? generated.value.getTime() : Number.NaN;
    // Excel keeps whole milliseconds at most.
    expect(at).toBeGreaterThanOrEqual(before - 1);
    expect(at).toBeLessThanOrEqual(after + 1);
    expect(filters.get('Generated by')?.value).toBe(WORLD.users.operator1);
  });

  it('covers only the outlets the caller sees', async () => {
    const { workbook } = await workbookOf(tenant, { mall_ids: [central] });
    expect(rowsOf(workbook, MALL_HOME_SHEETS.outlets).map((row) => row[2]?.value)).toEqual(['Boutique Duo']);
    expect(rowsOf(workbook, MALL_HOME_SHEETS.daily).reduce((sum, row) => sum + Number(row[1]?.value), 0)).toBe(230);
  });

  it('refuses a mall of another client and a range backwards', async () => {
    expect((await operator.get(url('mall_home/workbook', { ...SELECTION, mall_ids: [3] }))).statusCode).toBe(403);
    const backwards = await operator.get(
      url('mall_home/workbook', { ...SELECTION, start_time: '2026-03-08', end_time: '2026-03-02' }),
    );
    expect(backwards.statusCode).toBe(400);
  });

  it('keeps outlet names that look like formulas as text', async () => {
    await db.pool.query('UPDATE outlets SET name = $1 WHERE id = $2', [FORMULA_NAMES[0], cafe]);
    await db.pool.query('UPDATE outlets SET name = $1 WHERE id = $2', [FORMULA_NAMES[1], boutique]);
    try {
      const { workbook, bytes } = await workbookOf(operator);
      const names = rowsOf(workbook, MALL_HOME_SHEETS.outlets).map((row) => row[2]);
      expect(names.map((cell) => cell?.value)).toEqual(expect.arrayContaining(FORMULA_NAMES.slice(0, 2)));
      for (const cell of names) {
        expect(cell?.type).toBe(ExcelJS.ValueType.String);
        expect(cell?.formula).toBeUndefined();
      }
      await expectNoFormula(bytes);
    } finally {
      await db.pool.query(`UPDATE outlets SET name = 'Cafe Uno' WHERE id = $1`, [cafe]);
      await db.pool.query(`UPDATE outlets SET name = 'Boutique Duo' WHERE id = $1`, [boutique]);
    }
  });
});

/** A sheet's rows as plain values. */
const valuesOf = (workbook: ExcelJS.Workbook, name: string) =>
  rowsOf(workbook, name).map((row) => row.map((cell) => cell.value));

/** The filters sheet as a map of its names to their cells. */
const filtersOf = (workbook: ExcelJS.Workbook) =>
  new Map(rowsOf(workbook, 'Filters').map(([name, value]) => [String(name?.value), value?.value]));

describe('the other report pages’ workbooks', () => {
  it('Mall GMV: days, months, outlets, categories and levels as the page’s calls answer them', async () => {
    const { workbook } = await workbookOf(operator, {}, 'mall_gmv/workbook', 'mall-gmv');
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([...REPORT_WORKBOOK_SHEETS.mall_gmv, 'Filters']);
    const [dailyName, monthlyName, outletsName, categoriesName, levelsName] = REPORT_WORKBOOK_SHEETS.mall_gmv;
    const daily = (await api(operator, 'daily', {})).data;
    expect(valuesOf(workbook, dailyName)).toEqual(
      daily.map((row: { date: string; gmv: number; transactions: number }) => [
        day(row.date),
        row.gmv,
        row.transactions,
      ]),
    );
    expect(valuesOf(workbook, dailyName).reduce((sum, row) => sum + Number(row[1]), 0)).toBeCloseTo(500.5, 10);
    const monthly = (await api(operator, 'monthly', {})).data;
    expect(valuesOf(workbook, monthlyName)).toEqual(
      monthly.map((row: { month: string; gmv: number; transactions: number }) => [
        row.month,
        row.gmv,
        row.transactions,
      ]),
    );
    // Worked out by hand: the whole week is March's.
    expect(valuesOf(workbook, monthlyName)).toEqual([['2026-03', 500.5, 7]]);
    const outlets = (await api(operator, 'outlet', { group_by: 'outlet' })).data;
    expect(valuesOf(workbook, outletsName)).toEqual(outletCells(outlets));
    const measures = (row: { gmv: number; transactions: number; average_transaction_value: number }) => [
      row.gmv,
      row.transactions,
      row.average_transaction_value,
    ];
    const categories = (await api(operator, 'category', {})).data;
    expect(valuesOf(workbook, categoriesName)).toEqual(
      categories.map((row: OutletRow & { category: string }) => [row.category, ...measures(row)]),
    );
    expect(valuesOf(workbook, categoriesName).map((row) => row[0])).toEqual(['F&B', 'Fashion']);
    const levels = (await api(operator, 'level', {})).data;
    expect(valuesOf(workbook, levelsName)).toEqual(
      levels.map((row: OutletRow & { level: string }) => [row.level, ...measures(row)]),
    );
    const [first] = rowsOf(workbook, categoriesName);
    expect(first?.map((cell) => cell.numFmt)).toEqual([undefined, SGD, '#,##0', SGD]);
    const filters = filtersOf(workbook);
    expect(filters.get('Hours')).toBe('All day (00:00 to 23:59)');
    expect(filters.get('Currency')).toBe("SGD (converted at each month's rate)");
    expect(filters.get('Malls')).toBe('Central Mall, Harbour Mall');
    expect(filters.has('Metric')).toBe(false);
  });

  it('Mall Peak Hours: the heat map and series the page shapes, and every day and hour of the filters', async () => {
    const params = { start_hour: 9, end_hour: 21, time_range: 'weekly', metric: 'transactions' };
    const { workbook } = await workbookOf(operator, params, 'peak_hour/workbook', 'mall-peak-hours');
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([...REPORT_WORKBOOK_SHEETS.peak_hours, 'Filters']);
    const [heatMapName, overTimeName, cellsName] = REPORT_WORKBOOK_SHEETS.peak_hours;
    const cells = async (time_range: string, metric: string) =>
      (await api(operator, 'peak_hour', { ...params, time_range, metric })).data;
    const query: ReportQuery = {
      clientId: 1,
      mallIds: [central, harbour],
      start: WEEK.start_time,
      end: WEEK.end_time,
      startHour: 9,
      endHour: 21,
      timeRange: 'weekly',
      metric: 'transactions',
    };
    const view = peakHoursView(query, {
      gmvCells: await cells('daily', 'gmv'),
      transactionCells: await cells('daily', 'transactions'),
      gmvBuckets: await cells('weekly', 'gmv'),
      transactionBuckets: await cells('weekly', 'transactions'),
    });
    expect(headersOf(workbook, heatMapName)).toEqual([
      'Weekday',
      ...view.hours.map((h) => `${String(h).padStart(2, '0')}:00`),
    ]);
    expect(valuesOf(workbook, heatMapName)).toEqual(
      ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].map((weekday, index) => [
        weekday,
        ...(view.heatMap[index] ?? []),
      ]),
    );
    expect(valuesOf(workbook, overTimeName)).toEqual(view.series.map((point) => [point.period, point.value]));
    expect(headersOf(workbook, overTimeName)).toEqual(['Period', 'Transactions']);
    // Every day and hour between 09:00 and 21:59 in each mall's time, worked out by hand: cafe's 10:15 and 12:40
    // on the 2nd (Singapore), kiosk's 10:00 and 21:00 on the 2nd (New York), boutique's 14:00 on the 4th; cafe's
    // 01:30 on the 3rd and boutique's 23:59 on the 8th are outside the hours.
    const dayHours = valuesOf(workbook, cellsName);
    const gmvCells = await cells('daily', 'gmv');
    expect(dayHours).toHaveLength(gmvCells.length);
    expect(dayHours.reduce((sum, row) => sum + Number(row[2]), 0)).toBeCloseTo(450.5, 10);
    expect(dayHours.reduce((sum, row) => sum + Number(row[3]), 0)).toBe(5);
    expect(dayHours.reduce((sum, row) => sum + Number(row[2]), 0)).toBeCloseTo(
      gmvCells.reduce((sum: number, row: { value: number }) => sum + row.value, 0),
      10,
    );
    const filters = filtersOf(workbook);
    expect(filters.get('Hours')).toBe('09:00 to 21:59');
    expect(filters.get('Time range')).toBe('Weekly');
    expect(filters.get('Metric')).toBe('Transactions');
  });

  it('Mall Payment Methods: every method, and the top five of each day of a week', async () => {
    const { workbook } = await workbookOf(operator, {}, 'payment_method/workbook', 'mall-payment-methods');
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
      ...REPORT_WORKBOOK_SHEETS.payment_methods,
      'Filters',
    ]);
    const [overallName, overTimeName] = REPORT_WORKBOOK_SHEETS.payment_methods;
    const overall = (await api(operator, 'payment_method/overall', { limit: 100 })).data;
    expect(valuesOf(workbook, overallName)).toEqual(
      overall.map((row: { payment_method: string; sum: number }) => [row.payment_method, row.sum]),
    );
    const expected: unknown[][] = [];
    for (let date = 2; date <= 8; date += 1) {
      const dayText = `2026-03-0${date}`;
      const rows = (await api(operator, 'payment_method/overall', { start_time: dayText, end_time: dayText, limit: 5 }))
        .data;
      for (const row of rows) expected.push([dayText, day(dayText), day(dayText), row.payment_method, row.sum]);
    }
    expect(valuesOf(workbook, overTimeName)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
  });

  it('Member vs Non-member: the series with its totals and both top-ten outlet rankings', async () => {
    const params = { start_hour: 0, end_hour: 23, time_range: 'daily', metric: 'gmv' };
    const { workbook } = await workbookOf(operator, params, 'member/workbook', 'member-vs-non-member');
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([...REPORT_WORKBOOK_SHEETS.member, 'Filters']);
    const [overTimeName, membersName, nonMembersName] = REPORT_WORKBOOK_SHEETS.member;
    const overall = await api(operator, 'member/overall', params);
    expect(valuesOf(workbook, overTimeName)).toEqual([
      ...overall.data.map((row: { period: string; member: number; non_member: number }) => [
        row.period,
        row.member,
        row.non_member,
      ]),
      ['Whole range', overall.total.member, overall.total.non_member],
    ]);
    // Worked out by hand: members 100 (cafe) + 200 (boutique) + 40 (kiosk) of the week's 500.50.
    expect(overall.total).toEqual({ member: 340, non_member: 160.5 });
    for (const [name, member] of [
      [membersName, true],
      [nonMembersName, false],
    ] as const) {
      const ranked = (await api(operator, 'member/outlet', { ...params, member, rank_by: 'gmv', limit: 10 })).data;
      expect(valuesOf(workbook, name)).toEqual(
        ranked.map((row: OutletRow & { outlet_id: number; outlet_name: string; mall_name: string }, index: number) => [
          index + 1,
          row.outlet_id,
          row.outlet_name,
          row.mall_name,
          row.gmv,
          row.transactions,
          row.average_transaction_value,
        ]),
      );
    }
  });

  it('Refunds and Voucher Redemption: key figures with their growth, every day and every outlet', async () => {
    for (const [path, base, amount, count, rate, figure, outlet] of [
      ['refund', 'refunds', 'Refund Amount', 'Refund Transactions', 'Refund Rate', 15, 'kiosk tres'],
      [
        'voucher',
        'voucher-redemption',
        'Voucher Amount',
        'Voucher Transactions',
        'Voucher Share of GMV',
        50,
        'Boutique Duo',
      ],
    ] as const) {
      const { workbook } = await workbookOf(operator, { compare: 'previous' }, `${path}/workbook`, base);
      expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Key figures', 'Daily', 'Outlets', 'Filters']);
      const answer = await api(operator, path, { compare: 'previous' });
      // Worked out by hand: the week's one refund (kiosk, 15.00 of 40.00) or voucher (boutique, 50.00 of 200.00),
      // none in the week before (23 Feb to 1 Mar).
      expect(answer.current).toMatchObject({ amount: figure, count: 1, gmv: 500.5 });
      const kpis = rowsOf(workbook, 'Key figures').map((row) => row.map((cell) => cell.value));
      expect(kpis).toEqual([
        [amount, figure, day('2026-03-02'), day('2026-03-08'), figure, day('2026-02-23'), day('2026-03-01'), 0, 0],
        [count, 1, day('2026-03-02'), day('2026-03-08'), 1, day('2026-02-23'), day('2026-03-01'), 0, 0],
        [rate, figure / 500.5, day('2026-03-02'), day('2026-03-08'), figure / 500.5, day('2026-02-23')].concat([
          day('2026-03-01'),
          0,
          0,
        ]),
      ]);
      expect(rowsOf(workbook, 'Key figures')[0]?.[1]?.numFmt).toBe(SGD);
      expect(valuesOf(workbook, 'Daily')).toEqual(
        answer.daily.map((row: { date: string; amount: number | null; count: number }) => [
          day(row.date),
          row.amount,
          row.count,
        ]),
      );
      expect(valuesOf(workbook, 'Daily').reduce((sum, row) => sum + Number(row[1] ?? 0), 0)).toBe(figure);
      const outlets = valuesOf(workbook, 'Outlets');
      expect(outlets[0]?.slice(2, 6)).toEqual([
        outlet,
        outlet === 'kiosk tres' ? 'Harbour Mall' : 'Central Mall',
        figure,
        1,
      ]);
      expect(outlets.map((row) => row[4])).toEqual(answer.outlets.map((row: { amount: number }) => row.amount));
      expect(filtersOf(workbook).get('Comparison')).toBe('Previous period');
      expect((await operator.get(url(`${path}/workbook`, { ...SELECTION, mall_ids: [3] }))).statusCode).toBe(403);
    }
  });

  it('Sales Trends: the months of the year beside the year before, as the monthly report counts them', async () => {
    const response = await operator.get(
      url('sales_trends/workbook', { client_id: 1, mall_ids: [central, harbour], year: 2026 }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="sales-trends_2026.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ExcelJS.Buffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Months', 'Filters']);
    expect(headersOf(workbook, 'Months').slice(0, 3)).toEqual(['Month', 'GMV 2026', 'GMV 2025']);
    const months = valuesOf(workbook, 'Months');
    // The month still open (this year's, on the real clock) is labelled so far.
    expect(months.map((row) => String(row[0]).slice(0, 3))).toEqual(MONTH_NAMES);
    const monthly = (await api(operator, 'monthly', { start_time: '2026-01-01', end_time: '2026-12-31' })).data as {
      month: string;
      gmv: number;
      transactions: number;
    }[];
    // Worked out by hand: cafe's 80.00 of 24 February; March's 500.50 in 7 receipts (the week) plus boutique's
    // 1,000.00 of the 9th in Singapore; nothing in 2025, so no growth.
    for (const row of monthly) {
      const shown = months[Number(row.month.slice(5, 7)) - 1] ?? [];
      expect([shown[1], shown[4]]).toEqual([row.gmv, row.transactions]);
    }
    expect(months[1]?.[1]).toBe(80);
    // Nothing to compare with: the growth is §9's 0.00 %, and the compared figures are left empty ('no data').
    expect(months[2]?.slice(2, 4)).toEqual([0, 0]);
    expect(months[2]?.[12]).toBeNull();
    expect(months[2]?.[11]).toBe('2025-03-01 to 2025-03-31');
    expect(filtersOf(workbook).get('Comparison')).toBe('Same month last year');
  });

  it('covers only what the caller sees, and refuses what the page’s operations refuse', async () => {
    const { workbook } = await workbookOf(tenant, { mall_ids: [central] }, 'mall_gmv/workbook', 'mall-gmv');
    expect(valuesOf(workbook, 'Outlets').map((row) => row[2])).toEqual(['Boutique Duo']);
    for (const path of ['mall_gmv', 'peak_hour', 'payment_method', 'member']) {
      expect((await operator.get(url(`${path}/workbook`, { ...SELECTION, mall_ids: [3] }))).statusCode).toBe(403);
    }
    const reversed = await operator.get(url('peak_hour/workbook', { ...SELECTION, start_hour: 12, end_hour: 9 }));
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toMatch(/start_hour/);
    const tooLong = await operator.get(
      url('member/workbook', { ...SELECTION, start_time: '2026-01-01', end_time: '2026-03-08', time_range: 'hourly' }),
    );
    expect(tooLong.statusCode).toBe(400);
  });
});

/** No sheet of the .xlsx holds a formula element (`<f>`): every cell is a value. */
async function expectNoFormula(bytes: Buffer) {
  const zip = await JSZip.loadAsync(bytes);
  const sheets = Object.keys(zip.files).filter((name) => name.startsWith('xl/worksheets/') && name.endsWith('.xml'));
  expect(sheets.length).toBeGreaterThan(0);
  for (const name of sheets) expect(await zip.file(name)?.async('string')).not.toMatch(/<f[ >]/);
}

describe('writeWorkbook', () => {
  it('writes any text as a string cell, never a formula, and figures as numbers', async () => {
    const bytes = await writeWorkbook({
      sheets: [
        {
          name: 'Text',
          columns: [
            { header: 'Name', kind: 'text' },
            { header: 'Amount', kind: 'money' },
          ],
          rows: FORMULA_NAMES.map((name, index) => [name, index + 0.5]),
        },
      ],
      money: { symbol: 'Rp', digits: 0 },
      creator: 'test',
      created: '2026-03-09T00:00:00.000Z',
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
    const rows = rowsOf(workbook, 'Text');
    // XML reads a carriage return in text back as a line feed (end-of-line handling); the text stays text.
    expect(rows.map(([name]) => name?.value)).toEqual(FORMULA_NAMES.map((name) => name.replaceAll('\r', '\n')));
    for (const [name, amount] of rows) {
      expect(name?.type).toBe(ExcelJS.ValueType.String);
      expect(amount?.type).toBe(ExcelJS.ValueType.Number);
      expect(amount?.numFmt).toBe('"Rp"#,##0;-"Rp"#,##0');
    }
    await expectNoFormula(bytes);
  });

  it('refuses a figure that is not a number rather than writing it as text', async () => {
    await expect(
      writeWorkbook({
        sheets: [{ name: 'Bad', columns: [{ header: 'GMV', kind: 'money' }], rows: [['12.50']] }],
        money: { symbol: '$', digits: 2 },
        creator: 'test',
        created: '2026-03-09T00:00:00.000Z',
      }),
    ).rejects.toThrow(/finite number/);
  });
});
