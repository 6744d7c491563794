import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { ingestReceipts } from '../../server/repositories/ingestion.js';
import { memberRows, peakHourRows } from '../../src/domain/export.js';
import { PASSWORD, receiptInput as receipt, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, type TestDatabase } from './helpers.js';

/*
 * A property of converted reports: amounts are converted once, at the finest grain the rollups keep, in exact
 * decimal, and rounded only for the answer, so every breakdown of a figure adds up to the figure to the cent.
 *
 * Central Mall (SGD: cafe, boutique, deli), Harbour Mall and Bay Mall (USD: kiosk, stall; pier), reported in SGD
 * (three malls in two currencies: the mall rows are summed by day and currency before the rates). Each case is its
 * own month (2027-01 on) with a random USD rate of 10 decimals and random receipts (random cents, hours, members,
 * payment methods, refunds and vouchers) on 3 days of it; each case reads every report of those days through the
 * HTTP API and checks each pair: daily rows, malls, outlets, categories, levels, payment methods, months, members
 * against the total; peak hours per day (and the Export's peak-hour and member rows) against the daily rows, also
 * with an hour filter; the refund and voucher days and outlets against their totals.
 */

const CASES = 30;
const { cafe, boutique, kiosk } = WORLD.outlets;
const { central, harbour } = WORLD.malls;
const deli = 5;
const stall = 6;
const pier = 7;
const bay = 4;
/** A second SGD mall (an outlet without sales): with Central Mall, two malls in one currency (nothing converted). */
const quay = 5;
const OUTLETS = [
  { id: cafe, offset: '+08:00' },
  { id: boutique, offset: '+08:00' },
  { id: deli, offset: '+08:00' },
  { id: kiosk, offset: '-05:00' },
  { id: stall, offset: '-05:00' },
  { id: pier, offset: '-05:00' },
];
const METHODS = ['VISA', 'CASH', 'NETS', 'MASTER'];

/** A seeded PRNG (mulberry32): the same cases on every run. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Case {
  month: string;
  rate: string;
  start: string;
  end: string;
  days: string[];
  startHour: number;
  endHour: number;
}

const random = prng(20261202);
const int = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
const pad = (value: number) => String(value).padStart(2, '0');

function makeCase(index: number): { case: Case; receipts: ReturnType<typeof receipt>[] } {
  const year = 2027 + Math.floor(index / 12);
  const month = `${year}-${pad((index % 12) + 1)}`;
  const first = int(1, 20);
  const days = [0, 1, 2].map((n) => `${month}-${pad(first + n)}`);
  // 0.3000000000 to 2.9999999999, 10 decimals as exchange_rates keeps them
  const whole = int(0, 2);
  const rate = `${whole}.${whole === 0 ? int(3, 9) : int(0, 9)}${Array.from({ length: 9 }, () => int(0, 9)).join('')}`;
  const startHour = int(0, 12);
  const receipts = days.flatMap((day) =>
    OUTLETS.flatMap(({ id, offset }) =>
      Array.from({ length: int(0, 4) }, (_, n) => {
        const cents = int(1, 250_000);
        const amount = cents / 100;
        const hour = int(0, 22);
        const extra = {
          isMember: random() < 0.4,
          refundAmount: random() < 0.3 ? int(1, cents) / 100 : 0,
          voucherAmount: random() < 0.3 ? int(1, cents) / 100 : 0,
        };
        const iso = `${day}T${pad(hour)}:${pad(int(0, 59))}:${pad(n)}${offset}`;
        return receipt(id, iso, amount, [[METHODS[int(0, METHODS.length - 1)] ?? 'VISA', amount]], extra);
      }),
    ),
  );
  const start = days[0] ?? '';
  const end = days[2] ?? '';
  return {
    case: { month, rate, start, end, days, startHour, endHour: int(startHour, 23) },
    receipts,
  };
}

const cases = Array.from({ length: CASES }, (_, index) => makeCase(index));

let db: TestDatabase;
let app: FastifyInstance;
let agent: Agent;
/** The tenant, who sees some outlets of both malls: its reports read the outlet rows, not the mall rows. */
let tenant: Agent;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  await db.pool.query(`
    INSERT INTO malls (client_id, id, name, currency, time_zone) VALUES
      (1, ${bay}, 'Bay Mall', 'USD', 'America/New_York'), (1, ${quay}, 'Quay Mall', 'SGD', 'Asia/Singapore');
    INSERT INTO outlets (client_id, id, mall_id, name, outlet_code, type, currency) VALUES
      (1, ${deli}, ${central}, 'Deli Seis', 'D-05', 2, 'SGD'),
      (1, ${stall}, ${harbour}, 'stall cinco', 'S-06', 2, 'USD'),
      (1, ${pier}, ${bay}, 'Pier Siete', 'P-07', 1, 'USD'),
      (1, 8, ${quay}, 'Quay Ocho', 'Q-08', 2, 'SGD');
    UPDATE outlets SET category = 'F&B', level = 'L1' WHERE id IN (${cafe}, ${kiosk}, ${pier});
    UPDATE outlets SET category = 'Fashion', level = 'L2' WHERE id IN (${boutique}, ${stall});
    UPDATE outlets SET category = 'Deli', level = 'L1' WHERE id = ${deli};
  `);
  await db.pool.query(
    `INSERT INTO role_api_permissions (role_id, permission)
     SELECT 2, '/api/mall_report/' || p || '::Read'
     FROM unnest(ARRAY['daily', 'monthly', 'mall', 'outlet', 'category', 'level', 'category/outlet', 'peak_hour',
       'payment_method/overall', 'member/overall', 'member/outlet', 'refund', 'voucher']) p`,
  );
  for (const { case: one, receipts } of cases) {
    await db.pool.query(`INSERT INTO exchange_rates (client_id, month, currency, rate) VALUES (1, $1, 'USD', $2)`, [
      `${one.month}-01`,
      one.rate,
    ]);
    await inTransaction(db.pool, (client) => ingestReceipts(client, 1, receipts));
  }
  await db.pool.query(
    `INSERT INTO user_outlets (client_id, user_id, outlet_id)
     SELECT 1, id, unnest(ARRAY[${deli}, ${kiosk}]) FROM users WHERE email = $1`,
    [WORLD.users.tenant],
  );
  app = await createTestApp(db.pool);
  agent = new Agent(app);
  expect((await agent.login(WORLD.users.operator1, PASSWORD)).statusCode).toBe(200);
  tenant = new Agent(app);
  expect((await tenant.login(WORLD.users.tenant, PASSWORD)).statusCode).toBe(200);
}, 300_000);

afterAll(async () => {
  await app?.close();
  await db?.drop();
});

async function report<T>(path: string, one: Pick<Case, 'start' | 'end'>, extra = '', caller = agent): Promise<T> {
  // The tenant sees outlets of the first two malls only.
  const malls = (caller === agent ? [central, harbour, bay] : [central, harbour]).map((id) => `&mall_ids=${id}`);
  const url = `/api/mall_report/${path}?client_id=1${malls.join('')}&start_time=${one.start}&end_time=${one.end}${extra}`;
  const response = await caller.get(url);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json() as T;
}

/** Money as whole cents (the answers' numbers have 2 decimals). */
const cents = (value: number) => Math.round(value * 100);
const sumCents = (values: readonly number[]) => values.reduce((sum, value) => sum + cents(value), 0);

interface Figures {
  gmv: number;
  transactions: number;
}
type Data<T> = { data: T[] };
interface PeakCell {
  period: string;
  hour: number;
  value: number;
}
interface MemberOverall {
  data: { period: string; member: number; non_member: number }[];
  total: { member: number; non_member: number };
}
interface AmountReport {
  current: { amount: number; count: number; gmv: number };
  daily: { date: string; amount: number; count: number }[];
  outlets: { amount: number; count: number }[];
}

/** Each day's cents from rows of a date and money. */
const byDay = (rows: readonly { date: string; gmv: number }[]) =>
  Object.fromEntries(rows.map((row) => [row.date, cents(row.gmv)]));

/** Each week's cents (by its Monday) from the daily rows. */
function byWeek(rows: readonly { date: string; gmv: number }[]) {
  const weeks: Record<string, number> = {};
  for (const row of rows) {
    const day = new Date(`${row.date}T00:00:00Z`);
    day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
    const monday = day.toISOString().slice(0, 10);
    weeks[monday] = (weeks[monday] ?? 0) + cents(row.gmv);
  }
  return weeks;
}

/** Each day's cents from peak-hour cells. */
function cellsByDay(cells: readonly PeakCell[]) {
  const days: Record<string, number> = {};
  for (const cell of cells) days[cell.period] = (days[cell.period] ?? 0) + cents(cell.value);
  return days;
}

describe('converted reports add up to the cent in every breakdown (random rates and amounts)', () => {
  it.each(cases.map(({ case: one }, index) => [index, one] as const))('case %i', async (_index, one) => {
    const daily = (await report<Data<Figures & { date: string }>>('daily', one)).data;
    const malls = (await report<Data<Figures>>('mall', one)).data;
    const total = sumCents(malls.map((row) => row.gmv));
    // The KPI (the malls' sum) is what the daily rows add up to, and every other breakdown of the same range
    expect(sumCents(daily.map((row) => row.gmv)), 'daily rows').toBe(total);
    const monthly = (await report<Data<Figures>>('monthly', one)).data;
    expect(sumCents(monthly.map((row) => row.gmv)), 'months').toBe(total);
    for (const groupBy of ['outlet', 'mall', 'category', 'level']) {
      const groups = (await report<Data<Figures>>('outlet', one, `&group_by=${groupBy}`)).data;
      expect(sumCents(groups.map((row) => row.gmv)), `by ${groupBy}`).toBe(total);
    }
    const categories = (await report<Data<Figures>>('category', one)).data;
    expect(sumCents(categories.map((row) => row.gmv)), 'categories').toBe(total);
    const levels = (await report<Data<Figures>>('level', one)).data;
    expect(sumCents(levels.map((row) => row.gmv)), 'levels').toBe(total);
    const categoryOutlets = (await report<Data<Figures>>('category/outlet', one, '&limit=100')).data;
    expect(sumCents(categoryOutlets.map((row) => row.gmv)), 'outlets of the categories').toBe(total);
    // Every receipt is paid in full: the payment methods add up to the same total
    const payments = (await report<Data<{ sum: number }>>('payment_method/overall', one, '&limit=100')).data;
    expect(sumCents(payments.map((row) => row.sum)), 'payment methods').toBe(total);
    const members = await report<MemberOverall>('member/overall', one, '&time_range=daily&metric=gmv');
    expect(cents(members.total.member) + cents(members.total.non_member), 'members total').toBe(total);
    expect(sumCents(members.data.map((row) => row.member)), 'members by day').toBe(cents(members.total.member));

    // Peak hours: a day's hours are the day's row (and so are the Export's rows)
    const dayCents = byDay(daily);
    const peakGmv = (await report<Data<PeakCell>>('peak_hour', one, '&time_range=daily&metric=gmv')).data;
    expect(cellsByDay(peakGmv), 'peak hours per day').toEqual(dayCents);
    const peakWeeks = (await report<Data<PeakCell>>('peak_hour', one, '&time_range=weekly&metric=gmv')).data;
    expect(sumCents(peakWeeks.map((cell) => cell.value)), 'peak hours by week').toBe(total);
    // Each week's hours add up to its days in the daily report
    expect(cellsByDay(peakWeeks), 'peak hours of each week').toEqual(byWeek(daily));
    const peakTransactions = (await report<Data<PeakCell>>('peak_hour', one, '&time_range=daily&metric=transactions'))
      .data;
    const exported = peakHourRows({ gmv: peakGmv, transactions: peakTransactions });
    expect(
      cellsByDay(exported.map((row) => ({ period: row.date, hour: row.hour, value: row.gmv }))),
      'exported peak hours per day',
    ).toEqual(dayCents);
    const memberGmv = members;
    const memberTransactions = await report<MemberOverall>(
      'member/overall',
      one,
      '&time_range=daily&metric=transactions',
    );
    const exportedMembers = memberRows({ gmv: memberGmv, transactions: memberTransactions });
    expect(
      Object.fromEntries(exportedMembers.map((row) => [row.date, cents(row.member_gmv) + cents(row.non_member_gmv)])),
      'exported members per day',
    ).toEqual(dayCents);

    // The same with the hours filtered
    const hours = `&start_hour=${one.startHour}&end_hour=${one.endHour}`;
    const dailyInHours = (await report<Data<Figures & { date: string }>>('daily', one, hours)).data;
    const mallsInHours = (await report<Data<Figures>>('mall', one, hours)).data;
    expect(sumCents(dailyInHours.map((row) => row.gmv)), 'daily rows in hours').toBe(
      sumCents(mallsInHours.map((row) => row.gmv)),
    );
    const peakInHours = (await report<Data<PeakCell>>('peak_hour', one, `&time_range=daily&metric=gmv${hours}`)).data;
    expect(cellsByDay(peakInHours), 'peak hours per day in hours').toEqual(byDay(dailyInHours));
    const hourly = await report<MemberOverall>('member/overall', one, `&time_range=hourly&metric=gmv${hours}`);
    expect(cents(hourly.total.member) + cents(hourly.total.non_member), 'hourly members total').toBe(
      sumCents(mallsInHours.map((row) => row.gmv)),
    );

    // Refunds and vouchers: their days and outlets add up to their total
    for (const kind of ['refund', 'voucher']) {
      const amounts = await report<AmountReport>(kind, one);
      expect(amounts.current.gmv, `${kind} GMV`).toBe(total / 100);
      expect(sumCents(amounts.daily.map((row) => row.amount)), `${kind} days`).toBe(cents(amounts.current.amount));
      expect(sumCents(amounts.outlets.map((row) => row.amount)), `${kind} outlets`).toBe(cents(amounts.current.amount));
    }
  });
});

/*
 * Ranges of whole months and the days around them (each case's first day to the end of the case two months on):
 * the outlet reports read the whole months' rows (rollup_outlet_month_hours) and the other days' rows; the malls'
 * ranking reads the mall rows (or, for the tenant, the outlet day rows). Both sum to the same cents, in and out of
 * an hour filter, each month at its own rate.
 */
const monthRanges = cases.slice(0, 10).map(({ case: one }, index) => ({
  start: one.start,
  end: cases[index + 2]?.case.end ?? one.end,
  startHour: one.startHour,
  endHour: one.endHour,
}));

describe('ranges of whole months read the month rows and add up like their days', () => {
  it.each(monthRanges.map((range, index) => [index, range] as const))('range %i', async (_index, range) => {
    for (const [caller, hours] of [
      [agent, ''],
      [agent, `&start_hour=${range.startHour}&end_hour=${range.endHour}`],
      [tenant, ''],
      [tenant, `&start_hour=${range.startHour}&end_hour=${range.endHour}`],
    ] as const) {
      const who = `${caller === agent ? 'operator' : 'tenant'}${hours}`;
      const malls = (await report<Data<Figures>>('mall', range, hours, caller)).data;
      const total = sumCents(malls.map((row) => row.gmv));
      const transactions = malls.reduce((sum, row) => sum + row.transactions, 0);
      expect(transactions, `${who}: transactions`).toBeGreaterThan(0);
      for (const groupBy of ['outlet', 'category', 'level']) {
        const groups = (await report<Data<Figures>>('outlet', range, `&group_by=${groupBy}${hours}`, caller)).data;
        expect(sumCents(groups.map((row) => row.gmv)), `${who}: by ${groupBy}`).toBe(total);
        expect(
          groups.reduce((sum, row) => sum + row.transactions, 0),
          `${who}: transactions by ${groupBy}`,
        ).toBe(transactions);
      }
      const categoryOutlets = (await report<Data<Figures>>('category/outlet', range, `&limit=100${hours}`, caller))
        .data;
      expect(sumCents(categoryOutlets.map((row) => row.gmv)), `${who}: outlets of the categories`).toBe(total);
      // Refunds and vouchers: the malls' days (or, for the tenant, the outlets' days) and the outlets' months sum alike
      if (hours === '') {
        for (const kind of ['refund', 'voucher']) {
          const amounts = await report<AmountReport>(kind, range, '', caller);
          expect(cents(amounts.current.gmv), `${who}: ${kind} GMV`).toBe(total);
          expect(sumCents(amounts.daily.map((row) => row.amount)), `${who}: ${kind} days`).toBe(
            cents(amounts.current.amount),
          );
          expect(sumCents(amounts.outlets.map((row) => row.amount)), `${who}: ${kind} outlets`).toBe(
            cents(amounts.current.amount),
          );
          expect(amounts.current.amount, `${who}: some ${kind}`).toBeGreaterThan(0);
          // Counts are never apportioned: each side's own rows count them
          const counted = (rows: readonly { count: number }[]) => rows.reduce((sum, row) => sum + row.count, 0);
          expect(counted(amounts.daily), `${who}: ${kind} count by day`).toBe(amounts.current.count);
          expect(counted(amounts.outlets), `${who}: ${kind} count by outlet`).toBe(amounts.current.count);
        }
      }
      // Member and non-member rankings (each outlet rounded alone: a ranking, not a breakdown) make up each outlet
      const outlets = (
        await report<Data<Figures & { key: string }>>('outlet', range, `&group_by=outlet${hours}`, caller)
      ).data;
      const sides = await Promise.all(
        ['true', 'false'].map(
          async (member) =>
            (
              await report<Data<Figures & { outlet_id: number }>>(
                'member/outlet',
                range,
                `&member=${member}&rank_by=gmv&limit=100${hours}`,
                caller,
              )
            ).data,
        ),
      );
      for (const outlet of outlets) {
        const parts = sides.map((side) => side.find((row) => String(row.outlet_id) === outlet.key));
        const partTransactions = parts.reduce((sum, part) => sum + (part?.transactions ?? 0), 0);
        expect(partTransactions, `${who}: outlet ${outlet.key} members and non-members`).toBe(outlet.transactions);
        const partCents = parts.reduce((sum, part) => sum + cents(part?.gmv ?? 0), 0);
        expect(Math.abs(partCents - cents(outlet.gmv)), `${who}: outlet ${outlet.key} GMV`).toBeLessThanOrEqual(1);
      }
    }
  });
});

describe('a caller who sees some outlets of both malls gets the same sums from the outlet rows', () => {
  it.each(cases.map(({ case: one }, index) => [index, one] as const))('case %i', async (_index, one) => {
    const daily = (await report<Data<Figures & { date: string }>>('daily', one, '', tenant)).data;
    const outlets = (await report<Data<Figures>>('outlet', one, '&group_by=outlet', tenant)).data;
    const total = sumCents(outlets.map((row) => row.gmv));
    expect(sumCents(daily.map((row) => row.gmv)), 'daily rows').toBe(total);
    const peakGmv = (await report<Data<PeakCell>>('peak_hour', one, '&time_range=daily&metric=gmv', tenant)).data;
    expect(cellsByDay(peakGmv), 'peak hours per day').toEqual(byDay(daily));
    const peakMonths = (await report<Data<PeakCell>>('peak_hour', one, '&time_range=monthly&metric=gmv', tenant)).data;
    expect(sumCents(peakMonths.map((cell) => cell.value)), 'peak hours by month').toBe(total);
    const hours = `&start_hour=${one.startHour}&end_hour=${one.endHour}`;
    const dailyInHours = (await report<Data<Figures & { date: string }>>('daily', one, hours, tenant)).data;
    const hourly = await report<MemberOverall>('member/overall', one, `&time_range=hourly&metric=gmv${hours}`, tenant);
    expect(cents(hourly.total.member) + cents(hourly.total.non_member), 'hourly members total').toBe(
      sumCents(dailyInHours.map((row) => row.gmv)),
    );
  });
});

describe('two malls in the reporting currency: nothing converted, the mall rows summed by day', () => {
  it.each(cases.slice(0, 5).map(({ case: one }, index) => [index, one] as const))('case %i', async (_index, one) => {
    const query = `client_id=1&mall_ids=${central}&mall_ids=${quay}&start_time=${one.start}&end_time=${one.end}`;
    const get = async <T>(path: string, extra: string) => {
      const response = await agent.get(`/api/mall_report/${path}?${query}${extra}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as T;
    };
    const daily = (await get<Data<Figures & { date: string }>>('daily', '')).data;
    const peak = (await get<Data<PeakCell>>('peak_hour', '&time_range=daily&metric=gmv')).data;
    expect(cellsByDay(peak), 'peak hours per day').toEqual(byDay(daily));
    expect(sumCents(daily.map((row) => row.gmv)), 'Central Mall has sales').toBeGreaterThan(0);
  });
});
