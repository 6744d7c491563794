import { NON_TRADING_MAX_DAYS_AHEAD } from '../../src/domain/nonTradingDays.js';
import { hashPassword } from '../auth/passwords.js';
import { inTransaction, type Pool, type PoolClient } from '../db/pool.js';
import { seedCalendar } from '../repositories/calendar.js';
import {
  type ExchangeRateRow,
  insertAccountingConnection,
  insertAuditLog,
  insertBreakevenTargets,
  insertCategories,
  insertClients,
  insertEmailDomains,
  insertEmailSubscriptions,
  insertExchangeRates,
  insertGtoSubmissions,
  insertLeases,
  insertMalls,
  insertMealTimings,
  insertNonTradingDays,
  insertOutlets,
  insertProcessingFees,
  insertRoles,
  insertSalesTargets,
  insertSkus,
  insertSubcategories,
  insertUserGrants,
  insertUsers,
  monthlyOutletGmv,
  vacuumAnalyzeDemoTables,
} from '../repositories/demo.js';
import { ingestReceipts, type ReceiptInput } from '../repositories/ingestion.js';
import { DEMO_ACCOUNT_SPECS, DEMO_PASSWORD, type DemoAccountSpec, PARTNER_DOMAIN } from './accounts.js';
import { addMonths, civil, dateOfDay, dayNumber, firstOfMonth, localDay, zonedInstant } from './calendar.js';
import { CATEGORY_TREE, CLIENTS, type ClientKey, EXCHANGE_RATES, GST_PERCENT, PROCESSING_FEES } from './catalog.js';
import { type DemoLease, demoLease } from './leases.js';
import { dayFactor } from './patterns.js';
import { itemAt, Random } from './random.js';
import { membersPerMall, OutletSimulator } from './receipts.js';
import { demoRoles } from './roles.js';
import {
  demoMalls,
  describeWorld,
  longName,
  type OutletPlan,
  planAccountClosures,
  planWorld,
  type WorldOptions,
  type WorldPlan,
} from './world.js';

/**
 * The default number of receipts, over 26 months and the current one: a fresh `npm start` (migrations and
 * generation on the embedded PostgreSQL) stays within a minute on a 2-core machine while every chart has data.
 */
export const DEFAULT_DEMO_RECEIPTS = 200_000;

/** Receipts generated ahead of ingestion: two chunks at most are in memory. */
const CHUNK_RECEIPTS = 20_000;

export interface GenerateDemoDataOptions {
  seed: number;
  /**
   * How many receipts in all (default DEFAULT_DEMO_RECEIPTS), spread over the outlets, the whole months before the
   * last day's (DEMO_FULL_MONTHS) and that month up to the last day.
   */
  receipts?: number | undefined;
  /** Last day of receipts, 'YYYY-MM-DD' (default: yesterday in each mall's time zone). */
  endDate?: string | undefined;
  log?: (message: string) => void;
  /** Outlets in each mall, mall copies and months beyond the demo's (benchmarks at scale, the readability fixture). */
  world?: WorldOptions | undefined;
  /** Seconds between progress lines (default 3). */
  progressSeconds?: number;
}

export interface GenerateDemoDataResult {
  receipts: number;
  seconds: number;
  outlets: number;
  startDate: string;
  endDate: string;
}

interface Ids {
  clients: Map<ClientKey, number>;
  malls: Map<string, number>;
  outlets: Map<string, number>;
  users: Map<string, number>;
  /** SKU ids of each outlet (by outlet code), in the order of its planned SKUs. */
  skus: Map<string, number[]>;
}

const money2 = (value: number) => Math.round(value * 100) / 100;

/**
 * Generates the deterministic demo dataset into an empty database: the same seed and end date give the same
 * data. Everything is written in one transaction, receipts through ingestReceipts (the one ingestion path),
 * so an interrupted run leaves the database empty. Afterwards the filled tables are vacuumed and analysed.
 */
export async function generateDemoData(pool: Pool, options: GenerateDemoDataOptions): Promise<GenerateDemoDataResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const total = options.receipts ?? DEFAULT_DEMO_RECEIPTS;
  if (!Number.isInteger(total) || total < 0) throw new Error(`receipts must be a whole number >= 0, got ${total}`);

  const malls = demoMalls(options.world?.mallCopies ?? 1);
  const endByMall = new Map<string, number>();
  for (const mall of malls) {
    endByMall.set(mall.key, options.endDate ? dayNumber(options.endDate) : localDay(mall.timeZone, Date.now()) - 1);
  }
  const world = planWorld(options.seed, endByMall, options.world);
  planAccountClosures(options.seed, world, accountOutlets(world));
  log(`Demo data: ${describeWorld(world)}, ${total.toLocaleString('en-US')} receipts (seed ${options.seed}).`);
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  await inTransaction(pool, async (tx) => {
    const ids = await insertReferenceData(tx, world, options.seed, passwordHash);
    await insertSettings(tx, world, ids, options.seed);
    await generateReceipts(tx, world, ids, options.seed, total, log, options.progressSeconds ?? 3);
    await insertTargets(tx, world, ids, options.seed);
  });
  const vacuumStarted = performance.now();
  await vacuumAnalyzeDemoTables(pool);
  log(`Demo data: vacuumed and analysed in ${((performance.now() - vacuumStarted) / 1000).toFixed(1)} s.`);
  return {
    receipts: total,
    seconds: (performance.now() - started) / 1000,
    outlets: world.outlets.length,
    startDate: dateOfDay(world.start),
    endDate: dateOfDay(world.end),
  };
}

function required<K, V>(map: Map<K, V>, key: K, what: string): V {
  const value = map.get(key);
  if (value === undefined) throw new Error(`demo data: no ${what} '${String(key)}'`);
  return value;
}

/**
 * The outlet an account is limited to: the first (or second) F&B or retail outlet of its client's first mall open
 * all year.
 */
function accountOutlet(world: WorldPlan, client: ClientKey, which: NonNullable<DemoAccountSpec['outlet']>): OutletPlan {
  const mall = world.malls.find((candidate) => candidate.client === client);
  const type = which === 'firstFnb' || which === 'secondFnb' ? 1 : 2;
  const outlet = world.outlets.filter(
    (candidate) => candidate.mall.key === mall?.key && candidate.type === type && candidate.openedOn < world.start,
  )[which.startsWith('second') ? 1 : 0];
  if (!outlet) throw new Error(`demo data: no ${which} outlet for ${client}`);
  return outlet;
}

/**
 * A rate for every month of the demo, to the end of the current month (a month still open has its rate too),
 * wandering around each pair's usual value.
 */
function demoExchangeRates(world: WorldPlan, clients: Map<ClientKey, number>, seed: number): ExchangeRateRow[] {
  const random = Random.derive(seed, 'exchange rates');
  const last = Math.max(world.end, localDay('UTC', Date.now()));
  return EXCHANGE_RATES.flatMap((pair) => {
    const rows: ExchangeRateRow[] = [];
    for (let month = firstOfMonth(world.start); month <= last; month = addMonths(month, 1)) {
      const rate = pair.rate + random.float(-pair.swing, pair.swing);
      rows.push({
        client_id: required(clients, pair.client, 'client'),
        month: dateOfDay(month),
        currency: pair.currency,
        rate: Math.round(rate * 1e6) / 1e6,
      });
    }
    return rows;
  });
}

async function insertReferenceData(tx: PoolClient, world: WorldPlan, seed: number, passwordHash: string): Promise<Ids> {
  const clientIds = await insertClients(
    tx,
    CLIENTS.map((client) => ({ name: client.name, reporting_currency: client.reportingCurrency })),
  );
  const clients = new Map<ClientKey, number>(
    CLIENTS.map((client) => [client.key, required(clientIds, client.name, 'client')]),
  );
  for (const clientId of clients.values()) await seedCalendar(tx, clientId);
  const mallIds = await insertMalls(
    tx,
    world.malls.map((mall) => ({
      client_id: required(clients, mall.client, 'client'),
      name: mall.name,
      currency: mall.currency,
      time_zone: mall.timeZone,
      gst_percent: GST_PERCENT[mall.currency] ?? 0,
    })),
  );
  const malls = new Map(world.malls.map((mall) => [mall.key, required(mallIds, mall.name, 'mall')]));
  await insertExchangeRates(tx, demoExchangeRates(world, clients, seed));
  const outlets = await insertOutlets(
    tx,
    world.outlets.map((outlet) => ({
      client_id: required(clients, outlet.client, 'client'),
      mall_id: required(malls, outlet.mall.key, 'mall'),
      name: outlet.name,
      outlet_code: outlet.code,
      type: outlet.type,
      currency: outlet.mall.currency,
      category: outlet.category,
      level: outlet.level,
      unit_no: outlet.unitNo,
      opened_on: dateOfDay(outlet.openedOn),
    })),
  );

  const skus = new Map<string, number[]>();
  const categoryName = (name: string) => (world.longNames ? longName(name) : name);
  // Catalogue: categories and subcategories per client; most SKUs placed in a subcategory, some left to assign.
  for (const client of CLIENTS) {
    const clientId = required(clients, client.key, 'client');
    const categories = await insertCategories(
      tx,
      clientId,
      CATEGORY_TREE.flatMap((node) => (node.category ? [categoryName(node.category)] : [])),
    );
    const subcategories = await insertSubcategories(
      tx,
      clientId,
      CATEGORY_TREE.flatMap((node) =>
        node.subcategories.map((name) => ({
          name: categoryName(name),
          category_id: node.category ? required(categories, categoryName(node.category), 'category') : null,
        })),
      ),
    );
    const random = Random.derive(seed, 'sku-assignment', client.key);
    const skuIds = await insertSkus(
      tx,
      world.outlets
        .filter((outlet) => outlet.client === client.key)
        .flatMap((outlet) =>
          outlet.skus.map((sku) => ({
            client_id: clientId,
            outlet_id: required(outlets, outlet.code, 'outlet'),
            barcode: sku.barcode,
            item_name: sku.name,
            unit_price: sku.unitPrice,
            subcategory_id:
              sku.subcategory !== undefined && random.chance(0.75)
                ? required(subcategories, categoryName(sku.subcategory), 'subcategory')
                : null,
          })),
        ),
    );
    for (const outlet of world.outlets) {
      if (outlet.client !== client.key) continue;
      skus.set(
        outlet.code,
        outlet.skus.map((sku) => required(skuIds, sku.barcode, 'SKU')),
      );
    }
  }

  // Roles and accounts.
  const roles = demoRoles();
  const roleIds = await insertRoles(
    tx,
    roles.map((role) => ({
      name: role.name,
      is_super_admin: role.isSuperAdmin,
      routes: role.routes,
      api: role.api,
      components: role.components,
    })),
  );
  const roleIdByKey = new Map(roles.map((role) => [role.key, required(roleIds, role.name, 'role')]));
  const users = await insertUsers(
    tx,
    DEMO_ACCOUNT_SPECS.map((account) => ({
      email: account.email,
      display_name: account.displayName,
      password_hash: account.invited ? null : passwordHash,
      disabled: account.disabled ?? false,
      password_expired: account.passwordExpired ?? false,
      require_mfa: account.requireMfa ?? false,
      tenant_only: account.tenantOnly ?? false,
      hide_top_bar: account.hideTopBar ?? false,
      default_client_id: required(clients, account.defaultClient, 'client'),
    })),
  );
  await insertUserGrants(tx, {
    roles: DEMO_ACCOUNT_SPECS.map((account) => ({
      user_id: required(users, account.email, 'user'),
      role_id: required(roleIdByKey, account.role, 'role'),
    })),
    clients: DEMO_ACCOUNT_SPECS.flatMap((account) =>
      account.clients.map((client) => ({
        user_id: required(users, account.email, 'user'),
        client_id: required(clients, client, 'client'),
      })),
    ),
    outlets: DEMO_ACCOUNT_SPECS.flatMap((account) => {
      if (!account.outlet) return [];
      const outlet = accountOutlet(world, account.defaultClient, account.outlet);
      return [
        {
          user_id: required(users, account.email, 'user'),
          client_id: required(clients, account.defaultClient, 'client'),
          outlet_id: required(outlets, outlet.code, 'outlet'),
        },
      ];
    }),
  });
  await insertEmailDomains(tx, [{ domain: PARTNER_DOMAIN, receipts_hidden: true }]);
  await insertEmailSubscriptions(
    tx,
    DEMO_ACCOUNT_SPECS.flatMap((account) =>
      account.subscriptions
        ? [
            {
              client_id: required(clients, account.defaultClient, 'client'),
              user_id: required(users, account.email, 'user'),
              email_subscribe: account.subscriptions.void,
              summary_email_subscribe: account.subscriptions.summary,
            },
          ]
        : [],
    ),
  );
  return { clients, malls, outlets, users, skus };
}

const MEAL_TIMINGS: Record<string, readonly (readonly [string, string, string])[]> = {
  restaurant: [
    ['Lunch', '11:00', '14:30'],
    ['Tea Break', '14:30', '17:30'],
    ['Dinner', '17:30', '22:00'],
  ],
  cafe: [
    ['Breakfast', '10:00', '11:30'],
    ['Lunch', '11:30', '14:30'],
    ['Afternoon Tea', '14:30', '17:30'],
    ['Dinner', '17:30', '22:00'],
  ],
  quick: [
    ['Lunch', '11:00', '14:00'],
    ['Dinner', '17:00', '21:00'],
  ],
  dessert: [
    ['Afternoon', '13:00', '17:00'],
    ['Evening', '18:00', '22:00'],
  ],
};

async function insertSettings(tx: PoolClient, world: WorldPlan, ids: Ids, seed: number): Promise<void> {
  const random = Random.derive(seed, 'settings');
  const outletId = (outlet: OutletPlan) => required(ids.outlets, outlet.code, 'outlet');
  const clientId = (outlet: OutletPlan) => required(ids.clients, outlet.client, 'client');

  // A tenant's day was declared by the outlet's demo tenant when it has one, the mall's by the client's operator.
  const tenantUsers = new Map(
    DEMO_ACCOUNT_SPECS.flatMap((account) =>
      account.outlet
        ? [[accountOutlet(world, account.defaultClient, account.outlet), required(ids.users, account.email, 'user')]]
        : [],
    ),
  );
  const operatorUser = (client: ClientKey) => {
    const operator = DEMO_ACCOUNT_SPECS.find(
      (account) => account.role === 'operator' && account.defaultClient === client,
    );
    return operator ? required(ids.users, operator.email, 'user') : null;
  };
  await insertNonTradingDays(
    tx,
    world.outlets.flatMap((outlet) => {
      const last = required(world.endByMall, outlet.mall.key, 'mall end');
      return [...outlet.nonTradingDays.entries()]
        .filter(([day]) => day >= world.start && day >= outlet.openedOn && day <= last + NON_TRADING_MAX_DAYS_AHEAD)
        .sort(([a], [b]) => a - b)
        .map(([day, plan]) => ({
          client_id: clientId(outlet),
          outlet_id: outletId(outlet),
          day: dateOfDay(day),
          reason: plan.reason,
          declared_by: plan.side,
          declared_by_user: plan.side === 'mall' ? operatorUser(outlet.client) : (tenantUsers.get(outlet) ?? null),
          declared_at: new Date(
            zonedInstant(outlet.mall.timeZone, Math.min(day - plan.noticeDays, last), 9 + (day % 9), (day * 7) % 60),
          ).toISOString(),
        }));
    }),
  );

  await insertMealTimings(
    tx,
    world.outlets.flatMap((outlet) => {
      const timings = MEAL_TIMINGS[outlet.profile];
      if (outlet.type !== 1 || !timings || random.chance(0.1)) return [];
      return timings.map(([name, start, end]) => ({
        client_id: clientId(outlet),
        outlet_id: outletId(outlet),
        name,
        start_time: `${start}:00`,
        end_time: end === '22:00' ? '21:59:59' : `${end}:00`,
      }));
    }),
  );

  await insertProcessingFees(
    tx,
    world.outlets.flatMap((outlet) => {
      if (random.chance(0.12)) return [];
      const methods = outlet.mall.paymentMethods.flatMap(([method]) => {
        const range = PROCESSING_FEES[method] ?? PROCESSING_FEES[method.split(' ')[0] ?? ''];
        return range ? [{ method, range }] : [];
      });
      const dropped = random.chance(0.3) ? random.pick(methods) : undefined;
      return methods
        .filter((method) => method !== dropped)
        .map(({ method, range: [low, high] }) => {
          return {
            client_id: clientId(outlet),
            outlet_id: outletId(outlet),
            payment_method: method,
            processing_fees: money2(random.float(low, high)),
          };
        });
    }),
  );

  const client1 = itemAt(CLIENTS, 0);
  const endInstant = zonedInstant('Asia/Singapore', world.end + 1, 0);
  await insertAccountingConnection(tx, {
    client_id: required(ids.clients, client1.key, 'client'),
    provider: 'xero',
    organisation: `${client1.name} Pte. Ltd.`,
    access_token: 'demo-xero-access-token',
    refresh_token: 'demo-xero-refresh-token',
    token_expires_at: new Date(endInstant + 30 * 86_400_000).toISOString(),
    sales_account: '200 - Sales',
    tax_account: 'OUTPUT2 - Standard-Rated Supplies (9%)',
    currency: 'SGD',
    connected_at: new Date(endInstant - 120 * 86_400_000).toISOString(),
  });

  await insertAuditLog(tx, auditEntries(world, ids, seed));
}

function auditEntries(world: WorldPlan, ids: Ids, seed: number) {
  const random = Random.derive(seed, 'audit');
  const entries: Parameters<typeof insertAuditLog>[1][number][] = [];
  for (const client of CLIENTS) {
    const clientId = required(ids.clients, client.key, 'client');
    const outlets = world.outlets.filter((outlet) => outlet.client === client.key);
    const users = DEMO_ACCOUNT_SPECS.filter(
      (account) => account.clients.includes(client.key) && account.role !== 'tenant',
    );
    const count = client.key === 'harbourfront' ? 220 : 90;
    for (let i = 0; i < count; i++) {
      const outlet = random.pick(outlets);
      const user = random.pick(users);
      const day = world.end - random.int(0, 60);
      const at = zonedInstant(outlet.mall.timeZone, day, random.int(8, 20), random.int(0, 59), random.int(0, 59));
      const outletId = String(required(ids.outlets, outlet.code, 'outlet'));
      const month = dateOfDay(addMonths(day, -1));
      const kind = random.int(0, 7);
      const base = {
        client_id: clientId,
        user_id: required(ids.users, user.email, 'user'),
        created_at: new Date(at).toISOString(),
      };
      switch (kind) {
        case 0:
          entries.push({
            ...base,
            action: 'login',
            entity: 'session',
            entity_id: null,
            detail: { ip: `10.0.${random.int(0, 20)}.${random.int(2, 250)}` },
          });
          break;
        case 1: {
          const old = random.int(20, 120) * 1000;
          entries.push({
            ...base,
            action: 'update',
            entity: 'sales_target',
            entity_id: `${outletId}:${month}`,
            detail: {
              before: { outlet_id: Number(outletId), month, target: old },
              after: { outlet_id: Number(outletId), month, target: old + random.int(-10, 20) * 500 },
            },
          });
          break;
        }
        case 2:
          entries.push({
            ...base,
            action: random.pick(['create', 'update']),
            entity: 'gto_submission',
            entity_id: outletId,
            detail: { outlet: outlet.name, month },
          });
          break;
        case 3: {
          const method = random.pick(['VISA', 'MASTERCARD', 'AMEX', 'GRABPAY']);
          const fee = (processing_fees: number) => ({
            outlet_id: Number(outletId),
            payment_method: method,
            processing_fees,
          });
          entries.push({
            ...base,
            action: 'update',
            entity: 'processing_fee',
            entity_id: `${outletId}:${method}`,
            detail: { before: fee(money2(random.float(1.5, 2.5))), after: fee(money2(random.float(1.5, 2.5))) },
          });
          break;
        }
        case 4:
          entries.push({
            ...base,
            action: 'update',
            entity: 'outlet_code',
            entity_id: outletId,
            // As updateOutletCodes writes it (server/repositories/outletCodes.ts).
            detail: {
              before: { outlet_id: Number(outletId), outlet_name: outlet.name, outlet_code: `${outlet.code}-OLD` },
              after: { outlet_id: Number(outletId), outlet_name: outlet.name, outlet_code: outlet.code },
            },
          });
          break;
        case 5:
          entries.push({
            ...base,
            action: random.pick(['create', 'update']),
            entity: 'category',
            entity_id: null,
            detail: { name: random.pick(['Festive Specials', 'Clearance', 'Beverages', 'Apparel']) },
          });
          break;
        case 6:
          entries.push({
            ...base,
            action: 'export',
            entity: 'report',
            entity_id: null,
            detail: { report: random.pick(['mall-gmv', 'export', 'refunds', 'voucher-redemption', 'sales-trends']) },
          });
          break;
        default:
          entries.push({
            ...base,
            action: 'update',
            entity: 'non_trading_day',
            entity_id: outletId,
            detail: { outlet: outlet.name, day: dateOfDay(day + random.int(1, 20)) },
          });
      }
    }
  }
  return entries.sort((a, b) => a.created_at.localeCompare(b.created_at));
}

/** Spreads `total` receipts over every outlet-day by weight, rounding so the counts add up exactly. */
function receiptCounts(world: WorldPlan, seed: number, total: number): { days: number; counts: Uint32Array } {
  const days = world.end - world.start + 1;
  const outlets = world.outlets;
  const weights = new Float64Array(days * outlets.length);
  let sum = 0;
  outlets.forEach((outlet, o) => {
    const random = Random.derive(seed, 'traffic', outlet.code);
    const last = required(world.endByMall, outlet.mall.key, 'mall end');
    for (let d = 0; d < days; d++) {
      const day = world.start + d;
      const noise = Math.exp(random.gaussian() * 0.12);
      const weight = day > last ? 0 : outlet.popularity * dayFactor(outlet, day, last) * noise;
      weights[d * outlets.length + o] = weight;
      sum += weight;
    }
  });
  const counts = new Uint32Array(weights.length);
  let cumulative = 0;
  let assigned = 0;
  for (let i = 0; i < weights.length; i++) {
    cumulative += sum > 0 ? (itemAt(weights, i) / sum) * total : 0;
    const target = i === weights.length - 1 ? total : Math.min(total, Math.round(cumulative));
    const count = Math.max(0, target - assigned);
    counts[i] = count;
    assigned += count;
  }
  return { days, counts };
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

async function generateReceipts(
  tx: PoolClient,
  world: WorldPlan,
  ids: Ids,
  seed: number,
  total: number,
  log: (message: string) => void,
  progressSeconds: number,
): Promise<void> {
  const { days, counts } = receiptCounts(world, seed, total);
  const members = membersPerMall(total, world.malls.length);
  const simulators = world.outlets.map(
    (outlet) =>
      new OutletSimulator(
        outlet,
        required(ids.outlets, outlet.code, 'outlet'),
        required(ids.skus, outlet.code, 'outlet SKUs'),
        seed,
        members,
      ),
  );
  const clientOf = world.outlets.map((outlet) => required(ids.clients, outlet.client, 'client'));
  const clientIds = [...new Set(clientOf)];

  const started = performance.now();
  let lastLog = started;
  let lastYield = started;
  let ingested = 0;
  let pending: Promise<void> | undefined;
  const chunk = new Map<number, ReceiptInput[]>(clientIds.map((id) => [id, []]));
  let chunkSize = 0;
  let flushes = 0;

  // Ingestion of a chunk runs while the next one is generated; at most one chunk is waiting.
  const flush = async () => {
    if (pending) await pending;
    const batches = [...chunk.entries()]
      .filter(([, receipts]) => receipts.length > 0)
      .map(([id, receipts]) => [id, receipts] as const);
    for (const id of clientIds) chunk.set(id, []);
    chunkSize = 0;
    flushes += 1;
    pending = (async () => {
      for (const [clientId, receipts] of batches) {
        ingested += await ingestReceipts(tx, clientId, receipts);
      }
    })();
    // A failure surfaces at the next await of `pending`; keep it from counting as unhandled meanwhile.
    pending.catch(() => {});
  };

  for (let d = 0; d < days; d++) {
    const day = world.start + d;
    for (let o = 0; o < simulators.length; o++) {
      const count = itemAt(counts, d * simulators.length + o);
      if (count === 0) continue;
      const receipts = chunk.get(itemAt(clientOf, o));
      if (!receipts) throw new Error(`No receipt chunk for client ${itemAt(clientOf, o)}`);
      itemAt(simulators, o).generateDay(day, count, receipts);
      chunkSize += count;
      // The first chunks are small so that the database starts working early.
      if (chunkSize >= Math.min(CHUNK_RECEIPTS, 2500 * 2 ** flushes)) await flush();
      const now = performance.now();
      if (now - lastYield > 4) {
        await yieldToEventLoop();
        lastYield = performance.now();
      }
      if (now - lastLog > progressSeconds * 1000) {
        lastLog = now;
        const seconds = (now - started) / 1000;
        log(
          `Demo data: ${ingested.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} receipts ` +
            `(${Math.floor((ingested / Math.max(1, total)) * 100)}%, ${Math.round(ingested / seconds).toLocaleString('en-US')}/s, ` +
            `up to ${dateOfDay(day)})`,
        );
      }
    }
  }
  await flush();
  await pending;
  const seconds = (performance.now() - started) / 1000;
  log(
    `Demo data: ${ingested.toLocaleString('en-US')} receipts in ${seconds.toFixed(1)} s ` +
      `(${Math.round(ingested / Math.max(seconds, 0.001)).toLocaleString('en-US')}/s).`,
  );
}

/** Rounds a target to a round figure of the outlet's currency. */
function roundTarget(value: number, outlet: OutletPlan): number {
  const step = outlet.mall.currency === 'IDR' ? 100_000 : 100;
  return Math.max(step, Math.round(value / step) * step);
}

/** The outlets the demo accounts are limited to. */
function accountOutlets(world: WorldPlan): OutletPlan[] {
  return DEMO_ACCOUNT_SPECS.flatMap((account) =>
    account.outlet ? [accountOutlet(world, account.defaultClient, account.outlet)] : [],
  );
}

/** GTO submissions, sales targets, breakeven targets and leases, derived from the GMV the receipts produced. */
async function insertTargets(tx: PoolClient, world: WorldPlan, ids: Ids, seed: number): Promise<void> {
  const monthly = await monthlyOutletGmv(tx);
  const byOutlet = new Map<number, Map<string, { gmv: number; days: number }>>();
  for (const row of monthly) {
    let months = byOutlet.get(row.outlet_id);
    if (!months) {
      months = new Map();
      byOutlet.set(row.outlet_id, months);
    }
    months.set(row.month, { gmv: row.gmv, days: row.days });
  }
  const tenantOf = new Map<string, number>();
  for (const account of DEMO_ACCOUNT_SPECS) {
    // An invited tenant has never signed in, so has submitted nothing.
    if (account.outlet && !account.invited) {
      tenantOf.set(
        accountOutlet(world, account.defaultClient, account.outlet).code,
        required(ids.users, account.email, 'user'),
      );
    }
  }

  const gto: Parameters<typeof insertGtoSubmissions>[1][number][] = [];
  const sales: Parameters<typeof insertSalesTargets>[1][number][] = [];
  const breakeven: Parameters<typeof insertBreakevenTargets>[1][number][] = [];
  const leases: DemoLease[] = [];
  const departments = [
    ['leasing', 0.8],
    ['finance', 0.9],
    ['marcom', 1.0],
    ['operations', 0.85],
  ] as const;
  const remarks = ['Includes online orders', 'Excludes GST', 'Partial month: renovation', 'Includes consignment sales'];

  for (const outlet of world.outlets) {
    const outletId = required(ids.outlets, outlet.code, 'outlet');
    const clientId = required(ids.clients, outlet.client, 'client');
    const months = byOutlet.get(outletId) ?? new Map<string, { gmv: number; days: number }>();
    const lastDay = required(world.endByMall, outlet.mall.key, 'mall end');
    const currentMonth = firstOfMonth(lastDay);
    const isIdr = outlet.mall.currency === 'IDR';

    // Full months: the average monthly GMV is what targets are set against.
    const full = [...months.entries()].filter(
      ([month]) => dayNumber(month) < currentMonth && dayNumber(month) > outlet.openedOn,
    );
    const average = full.length > 0 ? full.reduce((sum, [, value]) => sum + value.gmv, 0) / full.length : 0;
    // Targets follow the outlet's growth: lower in the first months than in the latest.
    const middle = full.length > 0 ? full.reduce((sum, [month]) => sum + dayNumber(month), 0) / full.length : 0;
    const trend = (month: number) => (1 + outlet.growth) ** ((month - middle) / 365.25);
    const shortDeclarer = !tenantOf.has(outlet.code) && Random.derive(seed, 'short declarer', outlet.code).chance(0.04);
    const trading = [...months.values()].filter((value) => value.gmv > 0);
    const leaseBasis =
      average > 0
        ? average
        : trading.reduce((sum, value) => sum + (value.gmv / value.days) * 30, 0) / Math.max(1, trading.length);
    leases.push(
      demoLease(
        outlet,
        { clientId, outletId },
        leaseBasis > 0 ? leaseBasis : outlet.mall.currency === 'IDR' ? 500_000_000 : 50_000,
        { firstDay: world.start, currentMonth },
        Random.derive(seed, 'lease', outlet.code),
      ),
    );

    for (const [month, value] of months) {
      const monthDay = dayNumber(month);
      if (monthDay >= currentMonth || value.gmv <= 0) continue;
      const random = Random.derive(seed, 'gto', outlet.code, month);
      const latest = monthDay === addMonths(currentMonth, -1);
      if (random.chance(latest ? 0.25 : 0.07)) continue;
      // Most months declare what the receipts captured, some a little more or less, and a few are mis-declared:
      // beyond the 5 % a reviewer's variance check flags.
      const misDeclared = random.chance(0.05);
      const spread = misDeclared ? random.float(0.08, 0.2) : random.float(0.005, 0.05);
      const declared = misDeclared || random.chance(0.3) ? 1 + (random.chance(0.6) ? 1 : -1) * spread : 1;
      // A few tenants declare 8 to 15 % less than their tills took, month after month: the rent at stake.
      const factor = shortDeclarer ? Random.derive(seed, 'short', outlet.code, month).float(0.85, 0.92) : declared;
      const amount = isIdr ? Math.round(value.gmv * factor) : money2(value.gmv * factor);
      const submitted = zonedInstant(
        outlet.mall.timeZone,
        addMonths(monthDay, 1) + random.int(2, 11),
        random.int(9, 18),
        random.int(0, 59),
      );
      const revised = random.chance(0.15);
      gto.push({
        client_id: clientId,
        outlet_id: outletId,
        month,
        gto_amount: amount,
        submitted_by: tenantOf.get(outlet.code) ?? null,
        submitted_at: new Date(submitted).toISOString(),
        updated_at: new Date(revised ? submitted + random.int(1, 10) * 86_400_000 : submitted).toISOString(),
        remarks: revised ? 'Revised after audit' : random.chance(0.1) ? random.pick(remarks) : null,
      });
    }

    if (average <= 0) continue;
    const random = Random.derive(seed, 'targets', outlet.code);
    const firstMonth = Math.max(world.start, firstOfMonth(outlet.openedOn));
    for (let month = firstMonth; month <= addMonths(currentMonth, 2); month = addMonths(month, 1)) {
      const seasonal = civil(month).month === 12 ? 1.2 : civil(month).month === 11 ? 1.05 : 1;
      sales.push({
        client_id: clientId,
        outlet_id: outletId,
        month: dateOfDay(month),
        target: roundTarget(average * trend(month) * seasonal * random.float(0.95, 1.15), outlet),
      });
      if (month > addMonths(currentMonth, 1)) continue;
      for (const [department, share] of departments) {
        breakeven.push({
          client_id: clientId,
          outlet_id: outletId,
          department,
          month: dateOfDay(month),
          target: roundTarget(average * trend(month) * share * random.float(0.9, 1.1), outlet),
        });
      }
    }
  }
  await insertGtoSubmissions(tx, gto);
  await insertSalesTargets(tx, sales);
  await insertBreakevenTargets(tx, breakeven);
  await insertLeases(tx, leases);
}
