import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { hashPassword } from '../../server/auth/passwords.js';
import { type Pool, singleRow } from '../../server/db/pool.js';
import { seedCalendar } from '../../server/repositories/calendar.js';
import type { ReceiptInput } from '../../server/repositories/ingestion.js';
import { createTestApp, createTestDatabase, defined, type TestDatabase } from './helpers.js';

export const PASSWORD = 'fixture-password-1';

/** Ids of the small hand-built world the server tests run against. */
export const WORLD = {
  clients: { zenith: 1, apex: 2 },
  malls: { central: 1, harbour: 2, apexPlaza: 3 },
  outlets: { cafe: 1, boutique: 2, kiosk: 3, apexShop: 4 },
  users: {
    admin: 'admin@fixture.test',
    operator1: 'operator1@fixture.test',
    operator2: 'operator2@fixture.test',
    tenant: 'tenant@fixture.test',
    noLookup: 'nolookup@fixture.test',
    mfa: 'mfa@fixture.test',
    disabled: 'disabled@fixture.test',
    expired: 'expired@fixture.test',
    partner: 'analyst@partner.test',
  },
} as const;

/**
 * The callers of the access tests: Zenith's operator (every outlet), Zenith's tenant (Boutique Duo only), apex's
 * operator (another client) and a Zenith user whose role lacks the operation's permissions.
 */
export const ACCESS_CALLERS = {
  operator: WORLD.users.operator1,
  tenant: WORLD.users.tenant,
  otherClient: WORLD.users.operator2,
  noPermission: WORLD.users.noLookup,
} as const;

/** Adds API permissions (`path::Action`) to the role of the operators and the tenant (role 2). */
export async function grantOperatorPermissions(pool: Pool, permissions: readonly string[]): Promise<void> {
  await pool.query(
    'INSERT INTO role_api_permissions (role_id, permission) SELECT 2, unnest($1::text[]) ON CONFLICT DO NOTHING',
    [permissions],
  );
}

const OPERATOR_PERMISSIONS = [
  '/clients::Read',
  '/outlets::Read',
  '/malls::Read',
  '/outlets/transaction/focReason::Read',
];

/**
 * Two clients ('Zenith Malls' and 'apex retail': case-insensitive and byte order disagree), three malls in different
 * time zones, four outlets and one user of each kind the access rules distinguish.
 */
export async function seedWorld(pool: Pool): Promise<void> {
  const hash = await hashPassword(PASSWORD);
  await pool.query(`
    INSERT INTO clients (id, name) VALUES (1, 'Zenith Malls'), (2, 'apex retail');
    INSERT INTO malls (client_id, id, name, currency, time_zone) VALUES
      (1, 1, 'Central Mall', 'SGD', 'Asia/Singapore'),
      (1, 2, 'Harbour Mall', 'USD', 'America/New_York'),
      (2, 3, 'Apex Plaza', 'IDR', 'Asia/Jakarta');
    INSERT INTO outlets (client_id, id, mall_id, name, outlet_code, type, currency) VALUES
      (1, 1, 1, 'Cafe Uno', 'C-01', 1, 'SGD'),
      (1, 2, 1, 'Boutique Duo', 'B-02', 2, 'SGD'),
      (1, 3, 2, 'kiosk tres', 'K-03', 2, 'USD'),
      (2, 4, 3, 'Apex Shop', 'S-04', 2, 'IDR');
    INSERT INTO roles (id, name, is_super_admin) VALUES
      (1, 'super admin', true), (2, 'mall operator', false), (3, 'no lookup', false), (4, 'tenant', false);
    INSERT INTO role_route_permissions (role_id, name, sub_permissions) VALUES
      (2, 'shopper-connect', '{mall-home,mall-gmv}'), (2, 'receipts', '{}'), (3, 'settings', '{}');
    INSERT INTO role_component_permissions (role_id, component) VALUES (2, 'datetime-picker-limitation');
  `);
  await grantOperatorPermissions(pool, OPERATOR_PERMISSIONS);
  for (const clientId of Object.values(WORLD.clients)) await seedCalendar(pool, clientId);
  await pool.query(`INSERT INTO email_domains (domain, receipts_hidden) VALUES ('partner.test', true)`);
  const users: [string, number, boolean, boolean, number | null][] = [
    // email, role, require_mfa, disabled, default client
    [WORLD.users.admin, 1, false, false, null],
    [WORLD.users.operator1, 2, false, false, 1],
    [WORLD.users.operator2, 2, false, false, 2],
    [WORLD.users.tenant, 2, false, false, 1],
    [WORLD.users.noLookup, 3, false, false, 1],
    [WORLD.users.mfa, 2, true, false, 1],
    [WORLD.users.disabled, 2, false, true, 1],
    [WORLD.users.expired, 2, false, false, 1],
    [WORLD.users.partner, 2, false, false, 1],
  ];
  for (const [email, role, requireMfa, disabled, clientId] of users) {
    const { rows } = await pool.query<{ id: number }>(
      `INSERT INTO users (email, password_hash, require_mfa, disabled, default_client_id)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [email, hash, requireMfa, disabled, clientId],
    );
    const userId = singleRow(rows).id;
    await pool.query('INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)', [userId, role]);
    if (clientId !== null)
      await pool.query('INSERT INTO user_clients (client_id, user_id) VALUES ($1, $2)', [clientId, userId]);
    if (email === WORLD.users.expired)
      await pool.query('UPDATE users SET password_expired = true WHERE id = $1', [userId]);
    if (email === WORLD.users.tenant) {
      await pool.query('INSERT INTO user_outlets (client_id, user_id, outlet_id) VALUES (1, $1, 2)', [userId]);
    }
  }
  // Identity columns continue after the explicit ids.
  for (const table of ['clients', 'malls', 'outlets', 'roles']) {
    await pool.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`);
  }
}

/**
 * A closed, non-member receipt of `outletId` at the instant `iso` for ingestReceipts, paid with `payments`
 * ([method, amount] in order; the first is the main method), with `extra` fields set.
 */
export function receiptInput(
  outletId: number,
  iso: string,
  totalAmount: number,
  payments: [string, number][],
  extra: Partial<ReceiptInput> = {},
): ReceiptInput {
  return {
    outletId,
    receiptId: `R-${outletId}-${iso}`,
    datetime: new Date(iso),
    dineOutTime: null,
    totalAmount,
    discount: 0,
    voucherAmount: 0,
    refundAmount: 0,
    paymentMethod: payments[0]?.[0] ?? '',
    isMember: false,
    nameReason: null,
    tableNo: null,
    takeAway: false,
    deliveryInfo: null,
    openedBill: false,
    void: false,
    closedBill: true,
    focBill: false,
    focReason: null,
    redeemBill: false,
    receiptCode: null,
    rawReceipt: `receipt ${iso}`,
    payments: payments.map(([method, amount]) => ({ method, amount })),
    items: [],
    ...extra,
  };
}

/**
 * The fixture world on a fresh database and the app on it, for the tests of the file (or `describe`) that calls
 * it: made before them and dropped after them.
 */
export function seededApp(): { readonly db: TestDatabase; readonly app: FastifyInstance } {
  const made: { db?: TestDatabase; app?: FastifyInstance } = {};
  beforeAll(async () => {
    made.db = await createTestDatabase();
    await seedWorld(made.db.pool);
    made.app = await createTestApp(made.db.pool);
  });
  afterAll(async () => {
    await made.app?.close();
    await made.db?.drop();
  });
  return {
    get db() {
      return defined(made.db, 'the test database');
    },
    get app() {
      return defined(made.app, 'the app');
    },
  };
}
