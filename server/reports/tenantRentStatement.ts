import type { components } from '../../src/api/schema.js';
import type { Queryable } from '../db/pool.js';
import { rentsOf } from '../leases/monthRents.js';
import { outletCurrency, type RentInputRow, rentInputs } from '../repositories/leases.js';
import type { Visibility } from '../repositories/lookup.js';

/**
 * The tenant's Rent Statement as GET /api/tenant/rentStatement answers it: the lease covering the month (the latest
 * that does) and the month's rent line by line on the sales it is computed on; no lease nor statement when none
 * covers the month. The route and the page's workbook (server/exports/tenantRentStatementWorkbook.ts) share it.
 */

type Schemas = components['schemas'];
export type TenantRentStatementReport = Schemas['TenantRentStatement'];
type TenantStatement = NonNullable<TenantRentStatementReport['statement']>;

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

export async function tenantRentStatementReport(
  db: Queryable,
  visibility: Visibility,
  query: { client_id: number; outlet_id: number; month: string },
): Promise<TenantRentStatementReport> {
  const [{ rows }, currency] = await Promise.all([
    rentInputs(
      db,
      {
        clientId: query.client_id,
        visibility: { clientIds: visibility.clientIds, outletLimits: visibility.outletLimits },
        outletId: query.outlet_id,
      },
      query.month,
    ),
    outletCurrency(db, query.client_id, query.outlet_id),
  ]);
  const latest = rows.at(-1);
  return {
    month: query.month,
    outlet_id: query.outlet_id,
    currency,
    ...(latest && { lease: latest.lease, statement: tenantStatement(latest, query.month) }),
  };
}
