import type { components } from '../../src/api/schema.js';
import type { CompareRule } from '../../src/domain/comparisons.js';
import { eachDay } from '../../src/domain/reports.js';
import type { Queryable } from '../db/pool.js';
import { badRequest, notFound } from '../errors.js';
import { figuresOverDays } from '../repositories/comparisons.js';
import type { Visibility } from '../repositories/lookup.js';
import {
  type CategoryOutletRow,
  categoryOutletReport,
  type DailyRow,
  dailyReport,
  groupReport,
  type ReportRange,
  type ReportScope,
  scopeOutlet,
} from '../repositories/mallReports.js';
import { type CurrencyOf, comparisonPlan, type MallSelection, mallScopeFor } from './mallAnswers.js';

/**
 * The answers of the Mall Outlet page's operations (/shopper-connect/mall-outlet/:id) for a caller's visibility:
 * the outlet's totals against the days its comparison chooses (GET /api/mall_report/outlet/overallComparison), its
 * days (outlet/daily), the outlets of a category ranked (category/outlet) and the levels of the malls (level). The
 * routes (server/routes/mallReports.ts) answer with them, and so does the page's workbook
 * (server/exports/mallOutletWorkbook.ts), so both give the same figures.
 */

export type MallOutletComparisonReport = components['schemas']['MallOutletComparisonResponse'];
export type MallLevelRow = components['schemas']['MallLevelRow'];

/** An outlet of a client, as its operations name it. */
export interface OutletSelection {
  client_id: number;
  outlet_id: number;
}

const outletScope = (visibility: Visibility, query: OutletSelection): ReportScope => ({
  clientId: query.client_id,
  outletId: query.outlet_id,
  visibility: { clientIds: visibility.clientIds, outletLimits: visibility.outletLimits },
});

/** The outlet as the caller sees it, with its mall; 404 when they see no such outlet. */
export async function visibleOutlet(
  db: Queryable,
  visibility: Visibility,
  query: OutletSelection,
): Promise<{ id: number; name: string; mall_id: number }> {
  const outlet = await scopeOutlet(db, outletScope(visibility, query));
  if (!outlet) throw notFound('No such outlet.');
  return outlet;
}

/**
 * The outlet's totals over `range` against the days `compare` chooses (§9: the previous period in whole weeks; or
 * the same weekdays, dates or festivals of last year), as GET /api/mall_report/outlet/overallComparison answers.
 */
export async function outletComparison(
  db: Queryable,
  visibility: Visibility,
  query: OutletSelection & { compare?: CompareRule | undefined },
  range: ReportRange,
): Promise<MallOutletComparisonReport> {
  const scope = outletScope(visibility, query);
  const outlet = await visibleOutlet(db, visibility, query);
  const plan = await comparisonPlan(
    db,
    query.client_id,
    [outlet.mall_id],
    range,
    query.compare ?? 'previous',
    'whole_weeks',
  );
  const [current, before] = await Promise.all([
    figuresOverDays(db, scope, range, [{ mallId: outlet.mall_id, days: eachDay(range.start, range.end) }]),
    figuresOverDays(db, scope, range, plan.mallDays),
  ]);
  const measures = ({ gmv, transactions, average_transaction_value }: typeof current) => ({
    gmv,
    transactions,
    average_transaction_value,
  });
  return {
    outlet: { id: outlet.id, name: outlet.name },
    current: measures(current),
    previous: measures(before),
    previous_start_time: plan.span.start,
    previous_end_time: plan.span.end,
    comparison: { compare: plan.rule, aligned: plan.aligned, like_for_like: null, has_data: before.has_data },
  };
}

/** The outlet's days of `range`, zeros included, as GET /api/mall_report/outlet/daily answers. */
export function outletDaily(
  db: Queryable,
  visibility: Visibility,
  query: OutletSelection,
  range: ReportRange,
): Promise<DailyRow[]> {
  return dailyReport(db, outletScope(visibility, query), range);
}

/**
 * The outlets of the selected malls ranked within their category, as GET /api/mall_report/category/outlet answers:
 * `limit` a category, one category, or one outlet's (its row whatever its rank; 400 when it is not one of the
 * malls' outlets).
 */
export async function categoryOutlets(
  db: Queryable,
  currencyOf: CurrencyOf,
  visibility: Visibility,
  query: MallSelection & { category?: string | undefined; outlet_id?: number | undefined; limit?: number | undefined },
  range: ReportRange,
): Promise<CategoryOutletRow[]> {
  const scope = await mallScopeFor(db, currencyOf, visibility, query, range);
  const rows = await categoryOutletReport(db, scope, range, {
    category: query.category,
    outletId: query.outlet_id,
    limit: query.limit ?? 10,
  });
  // The caller sees the outlet (the access check): without its row it is not an outlet of the selected malls.
  if (query.outlet_id !== undefined && !rows.some((row) => row.outlet_id === query.outlet_id)) {
    throw badRequest('outlet_id must be an outlet of one of the selected malls (mall_ids).');
  }
  return rows;
}

/** The selected malls' levels (floors), GMV first, as GET /api/mall_report/level answers. */
export async function mallLevels(
  db: Queryable,
  currencyOf: CurrencyOf,
  visibility: Visibility,
  query: MallSelection,
  range: ReportRange,
): Promise<MallLevelRow[]> {
  const rows = await groupReport(db, await mallScopeFor(db, currencyOf, visibility, query, range), range, 'level');
  return rows.map(({ key, name: _name, ...figures }) => ({ level: key, ...figures }));
}
