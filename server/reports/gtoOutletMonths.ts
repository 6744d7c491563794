import type { operations } from '../../src/api/schema.js';
import type { Queryable } from '../db/pool.js';
import { notFound } from '../errors.js';
import { outletMonth, outletMonths } from '../repositories/gto.js';

/**
 * The tenant's Gross Turnover as GET /api/gtoReport/outletMonths answers it: the outlet's months `from`..`to`, the
 * GTO declared beside the sales captured and their difference, in the outlet's currency. The route and the page's
 * workbook (server/exports/grossTurnoverWorkbook.ts) share it.
 */

export type GtoOutletMonthsReport = operations['getGtoOutletMonths']['responses']['200']['content']['application/json'];

export async function gtoOutletMonthsReport(
  db: Queryable,
  query: { client_id: number; outlet_id: number; from: string; to: string },
): Promise<GtoOutletMonthsReport> {
  // The outlet's currency, or 404 (the access gate has checked that the caller sees the outlet).
  const state = await outletMonth(db, query.client_id, query.outlet_id, query.to);
  if (!state) throw notFound('No such outlet.');
  return {
    currency: state.currency,
    data: await outletMonths(db, query.client_id, query.outlet_id, { from: query.from, to: query.to }),
  };
}
