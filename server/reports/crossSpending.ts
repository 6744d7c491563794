import type { Queryable } from '../db/pool.js';
import { notFound } from '../errors.js';
import {
  type CrossSpendingDetails,
  type CrossSpendingReport,
  crossSpending,
  crossSpendingDetails,
} from '../repositories/crossSpending.js';
import type { Visibility } from '../repositories/lookup.js';

/**
 * Cross Spending as GET /api/mall_report/crossSpending answers it: the outlet's shoppers (its members of the range)
 * and what they spent there, and where else in its mall they spent (the other outlets the caller sees, at most 50,
 * and the categories), in the mall's currency. The route and the page's workbook
 * (server/exports/crossSpendingWorkbook.ts) share it.
 */

export type { CrossSpendingDetails, CrossSpendingReport };

export async function crossSpendingReport(
  db: Queryable,
  visibility: Visibility,
  query: { client_id: number; outlet_id: number },
  range: { start: string; end: string },
): Promise<CrossSpendingReport> {
  const report = await crossSpending(db, {
    clientId: query.client_id,
    visibility,
    outletId: query.outlet_id,
    start: range.start,
    end: range.end,
  });
  if (!report) throw notFound('No such outlet.');
  return report;
}

/**
 * Cross Spending Details as GET /api/mall_report/crossSpending/details answers it: the outlet's shoppers and those
 * of them who bought at the other outlet, day by day; 404 for another outlet than one of the same mall the caller
 * sees. The route and the page's workbook share it.
 */
export async function crossSpendingPairReport(
  db: Queryable,
  visibility: Visibility,
  query: { client_id: number; outlet_id: number; other_outlet_id: number },
  range: { start: string; end: string },
): Promise<CrossSpendingDetails> {
  const details = await crossSpendingDetails(
    db,
    { clientId: query.client_id, visibility, outletId: query.outlet_id, start: range.start, end: range.end },
    query.other_outlet_id,
  );
  if (!details) throw notFound('other_outlet_id: no such outlet in the same mall.');
  return details;
}
