import type { components } from '../../src/api/schema.js';
import { bandPosition, type OccupancyBand, occupancyCostRatio, salesPerSqm } from '../../src/domain/leases.js';
import { compareNames } from '../../src/domain/reports.js';
import type { Queryable } from '../db/pool.js';
import { type RentInputRow, rentInputs } from '../repositories/leases.js';
import type { Visibility } from '../repositories/lookup.js';
import { bandOf, clientBands } from '../repositories/occupancyBands.js';
import { rentsOf } from './monthRents.js';

/**
 * The rent statements of a month (GET /api/rentStatements, and the Rent Statements workbook built from the same
 * answer): one row per lease of the selected malls' outlets the caller sees, with the rent on declared and on
 * captured sales, their gap and where the occupancy cost falls against its category's band; and the rows summed per
 * mall, floor and category.
 */

type Schemas = components['schemas'];
type RentStatementRow = Schemas['RentStatementRow'];
type RentStatementGroup = Schemas['RentStatementGroup'];
export type RentStatementReport = Schemas['RentStatementReport'];

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
    .sort((a, b) => a.by.localeCompare(b.by) || compareNames(a.key, b.key) || a.currency.localeCompare(b.currency));
}

/** The rent statement rows sorted by the rent at stake, largest first, then by outlet name. */
const byRentAtStake = (a: RentStatementRow, b: RentStatementRow) =>
  b.rent_at_stake - a.rent_at_stake || compareNames(a.outlet_name, b.outlet_name) || a.lease_id - b.lease_id;

/** The month's statements of the selected malls for a caller who sees `visibility`. */
export async function rentStatementReport(
  db: Queryable,
  visibility: Visibility,
  query: { client_id: number; mall_ids: number[]; month: string },
): Promise<RentStatementReport> {
  const [{ rows, thresholdPercent }, bands] = await Promise.all([
    rentInputs(
      db,
      {
        clientId: query.client_id,
        visibility: { clientIds: visibility.clientIds, outletLimits: visibility.outletLimits },
        mallIds: [...new Set(query.mall_ids)],
      },
      query.month,
    ),
    clientBands(db, query.client_id),
  ]);
  const statements = rows.map((input) => statementOf(input, query.month, bandOf(bands, input.category)));
  return {
    month: query.month,
    partial: statements.some(({ row }) => row.partial),
    threshold_percent: thresholdPercent,
    rows: statements.map(({ row }) => row).sort(byRentAtStake),
    groups: statementGroups(statements),
  };
}
