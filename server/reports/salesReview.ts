import type { components } from '../../src/api/schema.js';
import type { Queryable } from '../db/pool.js';
import { notFound } from '../errors.js';
import type { Visibility } from '../repositories/lookup.js';
import { dailyReport, type ReportRange } from '../repositories/mallReports.js';
import { nonTradingMarks, outletDays } from '../repositories/nonTradingDays.js';

/**
 * Tenant Connect's Sales Review as GET /api/salesReview/daily answers it: the outlet's days of the range (zeros
 * included) with the non-trading day declared for each, in the outlet's currency, and its today. The route and the
 * page's workbook (server/exports/salesReviewWorkbook.ts) share it.
 */

export type SalesReviewReport = components['schemas']['SalesReviewResponse'];

export async function salesReviewReport(
  db: Queryable,
  visibility: Visibility,
  query: { client_id: number; outlet_id: number },
  range: ReportRange,
): Promise<SalesReviewReport> {
  const outlet = await outletDays(db, query.client_id, query.outlet_id);
  if (!outlet) throw notFound('No such outlet.');
  const scope = { clientId: query.client_id, outletId: query.outlet_id, visibility };
  const [days, marks] = await Promise.all([
    dailyReport(db, scope, range),
    nonTradingMarks(db, query.client_id, query.outlet_id, { from: range.start, to: range.end }),
  ]);
  return {
    currency: outlet.currency,
    today: outlet.today,
    data: days.map((day) => ({ ...day, non_trading: marks.get(day.date) ?? null })),
  };
}
