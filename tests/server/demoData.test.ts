import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../server/auth/passwords.js';
import type { Pool } from '../../server/db/pool.js';
import { DEMO_ACCOUNT_SPECS, DEMO_ACCOUNTS, DEMO_PASSWORD, PARTNER_DOMAIN } from '../../server/demo/accounts.js';
import { type GenerateDemoDataResult, generateDemoData } from '../../server/demo/generate.js';
import { demoRoles } from '../../server/demo/roles.js';
import { isDatabaseEmpty } from '../../server/repositories/demo.js';
import { rollupMismatches } from '../../server/repositories/ingestion.js';
import { decodeRawTexts } from '../../server/repositories/receiptTexts.js';
import { normalisePaymentMethod } from '../../src/domain/paymentMethods.js';
import { createTestDatabase, defined, type TestDatabase } from './helpers.js';

const OPTIONS = { seed: 4242, receipts: 5000, endDate: '2026-03-15' } as const;

/** Every table that holds demo data, as a query; users without their salted password hash and creation time. */
const CONTENT: Record<string, string> = {
  clients: 'SELECT * FROM clients',
  malls: 'SELECT * FROM malls',
  outlets: 'SELECT * FROM outlets',
  categories: 'SELECT * FROM categories',
  subcategories: 'SELECT * FROM subcategories',
  skus: 'SELECT * FROM skus',
  receipts: 'SELECT * FROM receipts',
  receipt_payments: 'SELECT * FROM receipt_payments',
  receipt_items: 'SELECT * FROM receipt_items',
  rollup_outlet_day_hours: 'SELECT * FROM rollup_outlet_day_hours',
  rollup_mall_day_hours: 'SELECT * FROM rollup_mall_day_hours',
  rollup_mall_payment_day_hours: 'SELECT * FROM rollup_mall_payment_day_hours',
  rollup_outlet_daily: 'SELECT * FROM rollup_outlet_daily',
  rollup_outlet_payment_daily: 'SELECT * FROM rollup_outlet_payment_daily',
  gto_submissions: 'SELECT * FROM gto_submissions',
  sales_targets: 'SELECT * FROM sales_targets',
  breakeven_targets: 'SELECT * FROM breakeven_targets',
  leases: 'SELECT client_id, outlet_id, start_date, end_date, gla_sqm, base_rent, turnover_tiers FROM leases',
  non_trading_days: 'SELECT * FROM non_trading_days',
  meal_timings: 'SELECT * FROM meal_timings',
  processing_fees: 'SELECT * FROM processing_fees',
  email_subscriptions: 'SELECT * FROM email_subscriptions',
  accounting_connections: 'SELECT * FROM accounting_connections',
  audit_log: 'SELECT * FROM audit_log',
  roles: 'SELECT * FROM roles',
  role_route_permissions: 'SELECT * FROM role_route_permissions',
  role_api_permissions: 'SELECT * FROM role_api_permissions',
  role_component_permissions: 'SELECT * FROM role_component_permissions',
  users: `SELECT id, email, display_name, password_expired, require_mfa, tenant_only, hide_top_bar, default_client_id,
            disabled FROM users`,
  user_roles: 'SELECT * FROM user_roles',
  user_clients: 'SELECT * FROM user_clients',
  user_outlets: 'SELECT * FROM user_outlets',
  email_domains: 'SELECT * FROM email_domains',
};

async function checksums(pool: Pool): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const [table, query] of Object.entries(CONTENT)) {
    const { rows } = await pool.query<{ n: number; sum: string }>(
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS sum FROM (${query}) t`,
    );
    const row = defined(rows[0], `${table} digest`);
    result[table] = `${row.n}:${row.sum}`;
  }
  return result;
}

describe('generateDemoData', () => {
  let first: TestDatabase;
  let second: TestDatabase;
  let result: GenerateDemoDataResult;

  beforeAll(async () => {
    first = await createTestDatabase();
    second = await createTestDatabase();
    expect(await isDatabaseEmpty(first.pool)).toBe(true);
    result = await generateDemoData(first.pool, OPTIONS);
    await generateDemoData(second.pool, OPTIONS);
  }, 120_000);

  afterAll(async () => {
    await first?.drop();
    await second?.drop();
  });

  const one = async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T> =>
    defined((await first.pool.query<T>(sql, params)).rows[0], sql);

  it('reports what it made and leaves the database non-empty', async () => {
    expect(result).toMatchObject({ receipts: 5000, startDate: '2024-01-01', endDate: '2026-03-15' });
    expect(result.outlets).toBeGreaterThanOrEqual(120);
    expect(await isDatabaseEmpty(first.pool)).toBe(false);
    expect(await one('SELECT count(*)::int AS n FROM receipts')).toEqual({ n: 5000 });
  });

  it('makes the same data from the same seed and end date', async () => {
    expect(await checksums(second.pool)).toEqual(await checksums(first.pool));
  });

  it('keeps the rollups equal to an aggregation of the receipts from scratch', async () => {
    expect(await rollupMismatches(first.pool)).toEqual({
      daily: 0,
      outletDayHours: 0,
      mallDayHours: 0,
      payment: 0,
      mallPayment: 0,
      skuDaily: 0,
      mealDaily: 0,
      memberDaily: 0,
      outletMonthHours: 0,
      mallDaily: 0,
      outletMonthly: 0,
      tradingRuns: 0,
    });
  });

  it('builds two clients, three malls in three time zones and at least 120 outlets of both types', async () => {
    expect(await one(`SELECT count(*)::int AS clients FROM clients`)).toEqual({ clients: 2 });
    expect(
      await one(`SELECT count(*)::int AS malls, count(DISTINCT time_zone)::int AS zones, count(DISTINCT currency)::int AS currencies
                 FROM malls`),
    ).toEqual({ malls: 3, zones: 3, currencies: 3 });
    const outlets = await one<{ n: number; fnb: number; retail: number; levels: string[]; categories: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE type = 1)::int AS fnb, count(*) FILTER (WHERE type = 2)::int AS retail,
         array_agg(DISTINCT level ORDER BY level) AS levels, count(DISTINCT category)::int AS categories FROM outlets`,
    );
    expect(outlets.n).toBeGreaterThanOrEqual(120);
    expect(outlets.fnb).toBeGreaterThan(30);
    expect(outlets.retail).toBeGreaterThan(30);
    expect(outlets.levels).toEqual(['B1', 'L1', 'L2', 'L3']);
    expect(outlets.categories).toBeGreaterThanOrEqual(6);
    const duplicates = await first.pool.query(
      'SELECT client_id, name FROM outlets GROUP BY client_id, name HAVING count(*) > 1',
    );
    expect(duplicates.rows).toEqual([]);
  });

  it('gives every outlet a code, unique within its mall in any case (the Outlet Code page’s rule)', async () => {
    expect(
      await one('SELECT count(*)::int AS n FROM outlets WHERE outlet_code IS NULL OR btrim(outlet_code) = $1', ['']),
    ).toEqual({
      n: 0,
    });
    const duplicates = await first.pool.query(
      'SELECT client_id, mall_id, lower(outlet_code) FROM outlets GROUP BY 1, 2, 3 HAVING count(*) > 1',
    );
    expect(duplicates.rows).toEqual([]);
  });

  it('spreads receipts over the 26 whole months before the end date’s month and that month, while the malls are open', async () => {
    const span = await one<{ first: string; last: string; outside: number }>(
      `SELECT min((r.datetime AT TIME ZONE m.time_zone)::date)::text AS first,
         max((r.datetime AT TIME ZONE m.time_zone)::date)::text AS last,
         count(*) FILTER (WHERE extract(hour FROM r.datetime AT TIME ZONE m.time_zone) NOT BETWEEN 10 AND 21)::int AS outside
       FROM receipts r JOIN outlets o ON o.id = r.outlet_id JOIN malls m ON m.id = o.mall_id`,
    );
    expect(span.first.startsWith('2024-01')).toBe(true);
    expect(span.last).toBe('2026-03-15');
    expect(span.outside).toBe(0);
    // No receipts on an outlet's non-trading days or before it opened.
    expect(
      await one(`SELECT count(*)::int AS n FROM receipts r JOIN outlets o ON o.id = r.outlet_id JOIN malls m ON m.id = o.mall_id
                 LEFT JOIN non_trading_days n ON n.outlet_id = r.outlet_id AND n.day = (r.datetime AT TIME ZONE m.time_zone)::date
                 WHERE n.day IS NOT NULL OR (r.datetime AT TIME ZONE m.time_zone)::date < o.opened_on`),
    ).toEqual({ n: 0 });
  });

  it("gives members' receipts a member of the mall, who come back and shop at several of its outlets", async () => {
    const members = await one<{ unmatched: number; members: number; returning: number; elsewhere: number }>(
      `WITH m AS (
         SELECT r.member_id, count(*) AS visits, count(DISTINCT r.outlet_id) AS outlets, count(DISTINCT o.mall_id) AS malls
         FROM receipts r JOIN outlets o ON o.client_id = r.client_id AND o.id = r.outlet_id
         WHERE r.member_id IS NOT NULL GROUP BY 1
       )
       SELECT (SELECT count(*)::int FROM receipts WHERE is_member <> (member_id IS NOT NULL)) AS unmatched,
         (SELECT count(*)::int FROM m) AS members,
         (SELECT count(*)::int FROM m WHERE visits >= 3 AND outlets >= 2) AS returning,
         (SELECT count(*)::int FROM m WHERE malls > 1) AS elsewhere`,
    );
    expect(members.unmatched).toBe(0);
    expect(members.members).toBeGreaterThan(100);
    expect(members.returning).toBeGreaterThan(20);
    // A member belongs to one mall's programme.
    expect(members.elsewhere).toBe(0);
  });

  it('has every kind of receipt the screens show', async () => {
    const methods = (
      await first.pool.query<{ m: string }>('SELECT DISTINCT payment_method AS m FROM receipt_payments')
    ).rows.map((row) => row.m);
    // Captured as 'visa', 'Nets', '' or 'NONE' too: stored normalised (VISA, NETS, OTHERS).
    for (const method of ['VISA', 'MASTERCARD', 'AMEX', 'NETS', 'CASH', 'GRABPAY', 'PAYNOW', 'OTHERS']) {
      expect(methods).toContain(method);
    }
    expect(methods.filter((method) => method !== normalisePaymentMethod(method))).toEqual([]);
    const stored = await one<{ n: number }>(
      `SELECT ((SELECT count(*) FROM receipts WHERE payment_method !~ '^[A-Z0-9 ]+$')
        + (SELECT count(*) FROM processing_fees WHERE payment_method !~ '^[A-Z0-9 ]+$'))::int AS n`,
    );
    expect(stored).toEqual({ n: 0 });
    const kinds = await one<Record<string, number>>(
      `SELECT count(*) FILTER (WHERE void)::int AS void, count(*) FILTER (WHERE foc_bill AND foc_reason IS NOT NULL)::int AS foc,
         count(*) FILTER (WHERE opened_bill)::int AS opened, count(*) FILTER (WHERE discount > 0)::int AS discount,
         count(*) FILTER (WHERE voucher_amount > 0 AND redeem_bill)::int AS voucher,
         count(*) FILTER (WHERE refund_amount > 0)::int AS refund, count(*) FILTER (WHERE is_member)::int AS member,
         count(*) FILTER (WHERE NOT is_member)::int AS non_member, count(*) FILTER (WHERE take_away)::int AS take_away,
         count(*) FILTER (WHERE delivery_info IS NOT NULL)::int AS delivery, count(*) FILTER (WHERE table_no IS NOT NULL)::int AS dine_in,
         count(*) FILTER (WHERE receipt_id ~ '^[0-9]{10}$')::int AS timestamp_id, count(*) FILTER (WHERE receipt_code = 99)::int AS code99,
         count(*) FILTER (WHERE receipt_code = 100)::int AS code100, count(*) FILTER (WHERE receipt_code IS NULL)::int AS no_code,
         count(*) FILTER (WHERE octet_length(raw_receipt) > 0)::int AS raw,
         (SELECT count(*) FROM (SELECT 1 FROM receipt_payments GROUP BY client_id, receipt_id HAVING count(*) > 1) s)::int AS split,
         (SELECT count(DISTINCT receipt_id) FROM receipt_items)::int AS with_items
       FROM receipts`,
    );
    for (const [kind, count] of Object.entries(kinds)) expect(count, kind).toBeGreaterThan(0);
    expect(kinds.no_code).toBeGreaterThan(4800);
    expect(kinds.raw).toBe(5000);
    const printed = await first.pool.query<{ client_id: number; raw_receipt: Buffer }>(
      'SELECT client_id, raw_receipt FROM receipts LIMIT 50',
    );
    for (const row of printed.rows) {
      const [text] = await decodeRawTexts(first.pool, row.client_id, [row.raw_receipt]);
      expect(text).toContain('TOTAL');
    }
    expect(kinds.with_items).toBeGreaterThan(4900);
    // Take-away, delivery and tables only at F&B outlets.
    expect(
      await one(`SELECT count(*)::int AS n FROM receipts r JOIN outlets o ON o.id = r.outlet_id
                 WHERE o.type = 2 AND (r.take_away OR r.delivery_info IS NOT NULL OR r.table_no IS NOT NULL)`),
    ).toEqual({ n: 0 });
  });

  it('fills the catalogue, targets, GTO and settings', async () => {
    const counts = await one<Record<string, number>>(
      `SELECT (SELECT count(*) FROM skus)::int AS skus,
         (SELECT count(*) FROM skus WHERE subcategory_id IS NOT NULL)::int AS assigned_skus,
         (SELECT count(*) FROM subcategories WHERE category_id IS NULL)::int AS unassigned_subcategories,
         (SELECT count(*) FROM gto_submissions)::int AS gto,
         (SELECT count(DISTINCT department) FROM breakeven_targets)::int AS departments,
         (SELECT count(*) FROM sales_targets)::int AS sales_targets,
         (SELECT count(*) FROM non_trading_days)::int AS non_trading_days,
         (SELECT count(*) FROM meal_timings)::int AS meal_timings,
         (SELECT count(*) FROM meal_timings m JOIN outlets o ON o.id = m.outlet_id WHERE o.type = 2)::int AS retail_meal_timings,
         (SELECT count(*) FROM processing_fees)::int AS processing_fees,
         (SELECT count(*) FROM email_subscriptions)::int AS email_subscriptions,
         (SELECT count(*) FROM accounting_connections WHERE client_id = 1)::int AS accounting,
         (SELECT count(*) FROM audit_log)::int AS audit_log`,
    );
    expect(counts).toMatchObject({ departments: 4, retail_meal_timings: 0, accounting: 1 });
    for (const [what, count] of Object.entries(counts)) {
      if (what !== 'retail_meal_timings') expect(count, what).toBeGreaterThan(0);
    }
    expect(counts.assigned_skus).toBeLessThan(defined(counts.skus, 'skus'));
    // Submitted GTO mostly matches the captured receipts or differs a little; a few months are mis-declared (over
    // the 5 % a reviewer's check flags, up to 20 %), and some months are missing.
    const gto = await one<{ differing: number; exact: number; flagged: number; worst: number; missing: number }>(
      `WITH captured AS (
         SELECT outlet_id, date_trunc('month', local_day)::date AS month, sum(gmv) AS gmv FROM rollup_outlet_daily GROUP BY 1, 2)
       SELECT count(*) FILTER (WHERE g.gto_amount <> c.gmv)::int AS differing, count(*) FILTER (WHERE g.gto_amount = c.gmv)::int AS exact,
         count(*) FILTER (WHERE abs(g.gto_amount / nullif(c.gmv, 0) - 1) > 0.05)::int AS flagged,
         max(abs(g.gto_amount / nullif(c.gmv, 0) - 1))::float AS worst,
         count(*) FILTER (WHERE g.outlet_id IS NULL AND c.month < '2026-03-01')::int AS missing
       FROM captured c LEFT JOIN gto_submissions g ON g.outlet_id = c.outlet_id AND g.month = c.month`,
    );
    expect(gto.differing).toBeGreaterThan(0);
    expect(gto.exact).toBeGreaterThan(0);
    expect(gto.flagged).toBeGreaterThan(0);
    expect(gto.missing).toBeGreaterThan(0);
    expect(gto.worst).toBeLessThanOrEqual(0.2001);
    // Each submission is declared day by day, and its total is the sum of its days.
    expect(
      await one(
        `SELECT count(*)::int AS mismatched FROM gto_submissions g
         WHERE g.gto_amount <> (SELECT coalesce(sum(d.gto), -1) FROM gto_submission_days d
                                WHERE d.client_id = g.client_id AND d.outlet_id = g.outlet_id
                                  AND date_trunc('month', d.day) = g.month)`,
      ),
    ).toEqual({ mismatched: 0 });
  });

  it('leases every outlet: both models, flat and tiered, some ending within months, some declarations short', async () => {
    const end = OPTIONS.endDate;
    const leases = await one<Record<string, number>>(
      `SELECT (SELECT count(*) FROM outlets)::int AS outlets,
         count(DISTINCT outlet_id) FILTER (WHERE start_date <= $1::date AND end_date >= $1::date)::int AS covered,
         count(*) FILTER (WHERE turnover_model = 'higher_of')::int AS higher_of,
         count(*) FILTER (WHERE turnover_model = 'base_plus_overage')::int AS overage,
         count(*) FILTER (WHERE jsonb_array_length(turnover_tiers) > 1)::int AS tiered,
         count(*) FILTER (WHERE end_date < $1::date + interval '6 months')::int AS expiring,
         count(*) FILTER (WHERE notice_date IS NOT NULL)::int AS with_notice
       FROM leases`,
      [end],
    );
    expect(leases.covered).toBe(leases.outlets);
    for (const what of ['higher_of', 'overage', 'tiered', 'expiring', 'with_notice']) {
      expect(leases[what], what).toBeGreaterThan(0);
    }
    // Some tenants declare 8 to 15 % less than their receipts captured, month after month.
    const short = await one<{ outlets: number }>(
      `SELECT count(DISTINCT g.outlet_id)::int AS outlets FROM gto_submissions g
       JOIN (SELECT outlet_id, date_trunc('month', local_day)::date AS month, sum(gmv) AS gmv
             FROM rollup_outlet_daily GROUP BY 1, 2) c ON c.outlet_id = g.outlet_id AND c.month = g.month
       WHERE g.gto_amount BETWEEN c.gmv * 0.85 AND c.gmv * 0.92`,
    );
    expect(short.outlets).toBeGreaterThan(0);
  });

  it('creates every demo account with its flags, clients and roles', async () => {
    expect(DEMO_ACCOUNTS.map((account) => account.email)).toEqual(DEMO_ACCOUNT_SPECS.map((account) => account.email));
    const { rows } = await first.pool.query<{
      email: string;
      role: string;
      is_super_admin: boolean;
      tenant_only: boolean;
      hide_top_bar: boolean;
      require_mfa: boolean;
      password_expired: boolean;
      default_client: string;
      clients: string[];
      outlets: number;
      receipts_hidden: boolean;
      password_hash: string | null;
    }>(
      `SELECT u.email, r.name AS role, r.is_super_admin, u.tenant_only, u.hide_top_bar, u.require_mfa, u.password_expired,
         dc.name AS default_client, u.password_hash,
         (SELECT array_agg(c.name ORDER BY c.name) FROM user_clients uc JOIN clients c ON c.id = uc.client_id WHERE uc.user_id = u.id) AS clients,
         (SELECT count(*) FROM user_outlets uo WHERE uo.user_id = u.id)::int AS outlets,
         coalesce(d.receipts_hidden, false) AS receipts_hidden
       FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id
       JOIN clients dc ON dc.id = u.default_client_id
       LEFT JOIN email_domains d ON d.domain = split_part(u.email, '@', 2)
       ORDER BY u.id`,
    );
    const byEmail = new Map(rows.map((row) => [row.email, row]));
    expect(rows).toHaveLength(DEMO_ACCOUNT_SPECS.length);
    expect(byEmail.get('admin@demo.mall')).toMatchObject({
      role: 'super admin',
      is_super_admin: true,
      clients: ['Harbourfront Malls', 'Sunrise Retail Group'],
    });
    expect(byEmail.get('operator@demo.mall')).toMatchObject({
      role: 'mall operator',
      clients: ['Harbourfront Malls'],
      outlets: 0,
    });
    expect(byEmail.get('operator2@demo.mall')).toMatchObject({
      role: 'mall operator',
      clients: ['Sunrise Retail Group'],
      default_client: 'Sunrise Retail Group',
    });
    for (const department of ['leasing', 'finance', 'marcom', 'operations']) {
      expect(byEmail.get(`${department}@demo.mall`)).toMatchObject({ role: department, is_super_admin: false });
    }
    expect(byEmail.get('tenant@demo.mall')).toMatchObject({ role: 'tenant', outlets: 1, tenant_only: false });
    expect(byEmail.get('tenant-only@demo.mall')).toMatchObject({
      role: 'tenant manager',
      outlets: 1,
      tenant_only: true,
    });
    expect(byEmail.get('showcase@demo.mall')).toMatchObject({ role: 'mall operator', hide_top_bar: true });
    expect(byEmail.get(`analyst@${PARTNER_DOMAIN}`)).toMatchObject({ role: 'mall operator', receipts_hidden: true });
    expect(byEmail.get('mfa@demo.mall')).toMatchObject({
      role: 'mall operator',
      require_mfa: true,
      password_expired: false,
    });
    expect(byEmail.get('expired@demo.mall')).toMatchObject({
      role: 'mall operator',
      password_expired: true,
      require_mfa: false,
    });
    expect(
      rows.filter((row) => row.tenant_only || row.hide_top_bar || row.require_mfa || row.password_expired),
    ).toHaveLength(4);
    // One hash for all: the shared password, hashed once; the invited tenant has none yet.
    expect(byEmail.get('tenant-invited@demo.mall')).toMatchObject({ role: 'tenant', outlets: 1, password_hash: null });
    expect(new Set(rows.filter((row) => row.password_hash !== null).map((row) => row.password_hash)).size).toBe(1);
    expect(await verifyPassword(DEMO_PASSWORD, defined(rows[0]).password_hash)).toBe(true);
    const disabled = await first.pool.query<{ email: string }>('SELECT email FROM users WHERE disabled');
    expect(disabled.rows).toEqual([{ email: 'tenant-former@demo.mall' }]);
    // The tenants see different outlets of Harbourfront Malls, of both types.
    const tenantOutlets = await first.pool.query<{ email: string; type: number; client: string }>(
      `SELECT u.email, o.type, c.name AS client FROM user_outlets uo JOIN users u ON u.id = uo.user_id
       JOIN outlets o ON o.id = uo.outlet_id JOIN clients c ON c.id = o.client_id ORDER BY u.email`,
    );
    expect(tenantOutlets.rows).toEqual([
      { email: 'tenant-former@demo.mall', type: 2, client: 'Harbourfront Malls' },
      { email: 'tenant-invited@demo.mall', type: 1, client: 'Harbourfront Malls' },
      { email: 'tenant-only@demo.mall', type: 2, client: 'Harbourfront Malls' },
      { email: 'tenant@demo.mall', type: 1, client: 'Harbourfront Malls' },
    ]);
  });

  it('grants the roles the permissions derived from openapi.yaml', async () => {
    const { rows } = await first.pool.query<{
      name: string;
      api: string[] | null;
      routes: string[] | null;
      components: string[] | null;
    }>(
      `SELECT r.name,
         (SELECT array_agg(permission ORDER BY permission COLLATE "C") FROM role_api_permissions a WHERE a.role_id = r.id) AS api,
         (SELECT array_agg(p.name ORDER BY p.name COLLATE "C") FROM role_route_permissions p WHERE p.role_id = r.id) AS routes,
         (SELECT array_agg(component ORDER BY component COLLATE "C") FROM role_component_permissions c WHERE c.role_id = r.id) AS components
       FROM roles r ORDER BY r.id`,
    );
    const roles = demoRoles();
    expect(rows.map((row) => row.name)).toEqual(roles.map((role) => role.name));
    for (const role of roles) {
      const row = defined(
        rows.find((candidate) => candidate.name === role.name),
        role.name,
      );
      expect(row.api ?? [], role.name).toEqual([...role.api].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      expect(row.routes ?? []).toEqual(role.routes.map((route) => route.name).sort());
      expect(row.components ?? []).toEqual(role.components);
    }
    const operator = defined(rows.find((row) => row.name === 'mall operator'));
    expect(operator.api).toContain('/clients::Read');
    expect(operator.routes).toEqual(['apps', 'receipts', 'settings', 'shopper-connect', 'tenant-connect', 'tenants']);
    const leasing = defined(rows.find((row) => row.name === 'leasing'));
    // The GTO reviewers pick past months; the other departments see yesterday and today only.
    expect(leasing.components ?? []).toEqual([]);
    expect(defined(rows.find((row) => row.name === 'marcom')).components).toEqual(['datetime-picker-limitation']);
    // Every staff role keeps Shopper Connect's calendar and events.
    expect(leasing.routes).toEqual(['receipts', 'shopper-connect', 'tenant-connect']);
    expect(defined(rows.find((row) => row.name === 'marcom')).routes).toEqual(['shopper-connect']);
  });
});
