import type { components } from '../../src/api/schema.js';
import {
  bandPosition,
  leaseProblem,
  type OccupancyBand,
  occupancyCostRatio,
  salesPerSqm,
} from '../../src/domain/leases.js';
import { requireCaller } from '../auth/access.js';
import { inTransaction } from '../db/pool.js';
import { badRequest, valueOrThrow } from '../errors.js';
import { rentsOf } from '../leases/monthRents.js';
import {
  createLease,
  type LeaseInput,
  listLeases,
  outletCurrency,
  type RentInputRow,
  rentInputs,
  updateLease,
} from '../repositories/leases.js';
import { bandOf, clientBands } from '../repositories/occupancyBands.js';
import type { AreaHandlers, BodyOf, RouteDeps } from './types.js';

type Schemas = components['schemas'];
type RentStatementRow = Schemas['RentStatementRow'];
type RentStatementGroup = Schemas['RentStatementGroup'];
type TenantStatement = NonNullable<Schemas['TenantRentStatement']['statement']>;

/** A lease's fields as the request gives them, after the rules between fields (400 naming the field). */
export function checkLease(body: BodyOf<'createLease'>): LeaseInput {
  const lease: LeaseInput = {
    outlet_id: body.outlet_id,
    start_date: body.start_date,
    end_date: body.end_date,
    gla_sqm: body.gla_sqm,
    base_rent: body.base_rent,
    service_charge: body.service_charge,
    turnover_rent: body.turnover_rent,
    notice_date: body.notice_date ?? null,
    renewal_date: body.renewal_date ?? null,
  };
  const problem = leaseProblem(lease);
  if (problem) throw badRequest(`${problem.field}: ${problem.message}`);
  return lease;
}

/** The sales the occupancy measures are on: the captured, projected to the month's end while it is open. */
const measuredSalesOf = (input: RentInputRow) => input.sales_projected ?? input.sales_captured;

/**
 * A statement row of the rent statements page: the rent on declared and on captured sales, their gap, and where its
 * occupancy cost ratio falls against its category's band; and its occupancy cost, for the groups.
 */
export function statementOf(
  input: RentInputRow,
  month: string,
  band?: OccupancyBand,
): { row: RentStatementRow; cost: number } {
  const { lease } = input;
  const rents = rentsOf(input, month);
  const measured = rents.projected ?? rents.captured;
  const measuredSales = measuredSalesOf(input);
  const declaredTurnover = rents.declared?.turnover_rent ?? null;
  const ratio = occupancyCostRatio(measured.subtotal, measuredSales);
  const row: RentStatementRow = {
    lease_id: lease.id,
    outlet_id: lease.outlet_id,
    outlet_name: lease.outlet_name,
    mall_id: lease.mall_id,
    mall_name: lease.mall_name,
    category: input.category,
    level: input.level,
    currency: lease.currency,
    model: lease.turnover_rent.model,
    gla_sqm: lease.gla_sqm,
    days_leased: rents.days,
    days_in_month: rents.daysInMonth,
    partial: rents.partial,
    basis: rents.declared ? 'declared' : 'captured',
    sales_declared: input.sales_declared,
    sales_captured: input.sales_captured,
    sales_projected: input.sales_projected,
    base_rent: rents.due.base_rent,
    turnover_rent_declared: declaredTurnover,
    turnover_rent_captured: rents.captured.turnover_rent,
    turnover_rent_projected: rents.projected?.turnover_rent ?? null,
    rent_at_stake:
      declaredTurnover === null ? 0 : Math.round((rents.captured.turnover_rent - declaredTurnover) * 100) / 100,
    service_charge: rents.due.service_charge,
    gst_percent: lease.gst_percent,
    gst: rents.due.gst,
    total_due: rents.due.total_due,
    occupancy_cost_ratio: ratio,
    sales_per_sqm: salesPerSqm(measuredSales, lease.gla_sqm, rents.days, rents.daysInMonth),
    flagged: input.flagged,
    invoice_number: input.invoice_number,
    band_low_percent: band?.low_percent ?? null,
    band_high_percent: band?.high_percent ?? null,
    band_position: bandPosition(ratio, band),
  };
  // The occupancy cost the groups sum: the rent on the sales the ratio is on, without GST.
  return { row, cost: measured.subtotal };
}

/**
 * The rows summed per mall, floor and category, one group per key and currency (never two currencies added):
 * occupancy cost ratio = the group's cost / its sales, sales per m² = its sales a year / its GLA.
 */
export function statementGroups(statements: readonly { row: RentStatementRow; cost: number }[]): RentStatementGroup[] {
  const groups = new Map<string, RentStatementGroup & { yearly: number }>();
  for (const { row, cost } of statements) {
    const sales = row.sales_projected ?? row.sales_captured;
    const yearly = row.days_leased > 0 ? (sales * row.days_in_month * 12) / row.days_leased : 0;
    for (const [by, key] of [
      ['mall', row.mall_name],
      ['level', row.level],
      ['category', row.category],
    ] as const) {
      const id = JSON.stringify([by, key, row.currency]);
      const group = groups.get(id) ?? {
        by,
        key,
        currency: row.currency,
        outlets: 0,
        sales: 0,
        occupancy_cost: 0,
        gla_sqm: 0,
        occupancy_cost_ratio: null,
        sales_per_sqm: null,
        yearly: 0,
      };
      group.outlets += 1;
      group.sales += sales;
      group.occupancy_cost += cost;
      group.gla_sqm += row.gla_sqm;
      group.yearly += yearly;
      groups.set(id, group);
    }
  }
  const cents = (value: number) => Math.round(value * 100) / 100;
  return [...groups.values()]
    .map(({ yearly, ...group }) => ({
      ...group,
      sales: cents(group.sales),
      occupancy_cost: cents(group.occupancy_cost),
      gla_sqm: cents(group.gla_sqm),
      occupancy_cost_ratio: group.sales > 0 ? cents((group.occupancy_cost / group.sales) * 100) : null,
      sales_per_sqm: group.gla_sqm > 0 ? cents(yearly / group.gla_sqm) : null,
    }))
    .sort(
      (a, b) =>
        a.by.localeCompare(b.by) ||
        a.key.localeCompare(b.key, 'en', { sensitivity: 'base' }) ||
        a.currency.localeCompare(b.currency),
    );
}

/** The tenant's statement: the rent due, line by line, on the sales it is computed on. */
function tenantStatement(input: RentInputRow, month: string): TenantStatement {
  const rents = rentsOf(input, month);
  return {
    days_leased: rents.days,
    days_in_month: rents.daysInMonth,
    partial: rents.partial,
    basis: rents.declared ? 'declared' : 'captured',
    sales: input.sales_declared ?? input.sales_captured,
    base_rent: rents.due.base_rent,
    percentage_rent: rents.due.percentage_rent,
    turnover_rent: rents.due.turnover_rent,
    service_charge: rents.due.service_charge,
    gst_percent: input.lease.gst_percent,
    gst: rents.due.gst,
    total_due: rents.due.total_due,
    tiers: [...rents.due.tiers],
    invoice_number: input.invoice_number,
  };
}

/** The rent statement rows sorted by the rent at stake, largest first, then by outlet name. */
const byRentAtStake = (a: RentStatementRow, b: RentStatementRow) =>
  b.rent_at_stake - a.rent_at_stake ||
  a.outlet_name.localeCompare(b.outlet_name, 'en', { sensitivity: 'base' }) ||
  a.lease_id - b.lease_id;

/**
 * /api/leases, /api/rentStatements and /api/tenant/rentStatement: the leases of the client's outlets (audit-logged
 * changes) and the rent they owe. The gate has checked the caller sees the client, malls and outlet the request
 * names; a lease changed by id must be of an outlet the caller sees too. The lease list is read on the primary (the
 * editor reads it right after saving); the statements are reports, read where reports are.
 */
export function leaseHandlers({ pool, reads }: RouteDeps) {
  return {
    async getLeases(request) {
      const { grants } = requireCaller(request);
      const { query } = request;
      return listLeases(
        pool,
        {
          clientId: query.client_id,
          visibility: { clientIds: grants.clientIds, outletLimits: grants.outletLimits },
          ...(query.mall_ids && { mallIds: [...new Set(query.mall_ids)] }),
        },
        {
          ...(query.search && { search: query.search }),
          status: query.status ?? 'all',
          ...(query.expiring_within_months !== undefined && { expiringWithinMonths: query.expiring_within_months }),
          sortColumn: query.sortColumn ?? 'outlet_name',
          order: query.orderByMethod ?? 'desc',
          page: query.page ?? 1,
          rowsPerPage: query.rowsPerPage ?? 10,
        },
      );
    },

    async createLease(request) {
      const { user } = requireCaller(request);
      const lease = checkLease(request.body);
      return valueOrThrow(
        await inTransaction(pool, (tx) =>
          createLease(tx, { clientId: request.body.client_id, userId: user.id, lease }),
        ),
      );
    },

    async updateLease(request) {
      const { user, grants } = requireCaller(request);
      const { body } = request;
      const lease = checkLease(body);
      return valueOrThrow(
        await inTransaction(pool, (tx) =>
          updateLease(tx, {
            clientId: body.client_id,
            userId: user.id,
            visibility: { clientIds: grants.clientIds, outletLimits: grants.outletLimits },
            id: body.id,
            lease,
          }),
        ),
      );
    },

    async getRentStatements(request) {
      const { grants } = requireCaller(request);
      const { query } = request;
      const [{ rows, thresholdPercent }, bands] = await Promise.all([
        rentInputs(
          reads,
          {
            clientId: query.client_id,
            visibility: { clientIds: grants.clientIds, outletLimits: grants.outletLimits },
            mallIds: [...new Set(query.mall_ids)],
          },
          query.month,
        ),
        clientBands(reads, query.client_id),
      ]);
      const statements = rows.map((input) => statementOf(input, query.month, bandOf(bands, input.category)));
      return {
        month: query.month,
        partial: statements.some(({ row }) => row.partial),
        threshold_percent: thresholdPercent,
        rows: statements.map(({ row }) => row).sort(byRentAtStake),
        groups: statementGroups(statements),
      };
    },

    async getTenantRentStatement(request) {
      const { grants } = requireCaller(request);
      const { query } = request;
      const [{ rows }, currency] = await Promise.all([
        rentInputs(
          reads,
          {
            clientId: query.client_id,
            visibility: { clientIds: grants.clientIds, outletLimits: grants.outletLimits },
            outletId: query.outlet_id,
          },
          query.month,
        ),
        outletCurrency(reads, query.client_id, query.outlet_id),
      ]);
      const latest = rows.at(-1);
      return {
        month: query.month,
        outlet_id: query.outlet_id,
        currency,
        ...(latest && { lease: latest.lease, statement: tenantStatement(latest, query.month) }),
      };
    },
  } satisfies AreaHandlers;
}
