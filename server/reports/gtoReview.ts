import type { operations } from '../../src/api/schema.js';
import { GTO_REVIEW_DEFAULT_SORT } from '../../src/domain/gto.js';
import type { Queryable } from '../db/pool.js';
import { type GtoFilter, type GtoSummaryRow, gtoSummary } from '../repositories/gto.js';
import type { Visibility } from '../repositories/lookup.js';

/**
 * The GTO Review as GET /api/gtoReport/summary answers it: one page of the month's rows of every outlet the caller
 * sees in the client (of its mall or outlet when chosen), sorted and filtered; and the whole list of the month in the
 * page's default order for its workbook (server/exports/gtoReviewWorkbook.ts), read by the same query with a page
 * as large as the workbook's bound.
 */

type SummaryQuery = NonNullable<operations['getGtoSummary']['parameters']['query']>;
export type GtoSummaryAnswer = Awaited<ReturnType<typeof gtoSummary>>;

/** The most rows a GTO Review workbook holds; beyond them it says, on its Filters sheet, that it was cut. */
export const GTO_REVIEW_WORKBOOK_MAX_ROWS = 10_000;

/** The list's scope of the caller: the client's outlets they see, of a mall or an outlet when asked. */
function scopeOf(
  visibility: Visibility,
  query: { client_id: number; mall_ids?: number[] | undefined; outlet_id?: number | undefined },
) {
  return {
    clientId: query.client_id,
    visibility: { clientIds: visibility.clientIds, outletLimits: visibility.outletLimits },
    ...(query.mall_ids ? { mallIds: query.mall_ids } : {}),
    ...(query.outlet_id === undefined ? {} : { outletId: query.outlet_id }),
  };
}

/** One page of the review, as the operation answers it. */
export function gtoReviewSummary(
  db: Queryable,
  visibility: Visibility,
  query: SummaryQuery,
): Promise<GtoSummaryAnswer> {
  return gtoSummary(db, scopeOf(visibility, query), {
    month: query.date.slice(0, 7),
    filter: query.filterOption ?? 'all',
    sortColumn: query.sortColumn ?? 'outlet_name',
    order: query.orderByMethod ?? 'desc',
    page: query.page ?? 1,
    rowsPerPage: query.rowsPerPage ?? 10,
  });
}

/** The month's whole list (up to `maxRows`), how many rows the filter keeps, and the client's threshold. */
export interface GtoReviewList {
  readonly rows: GtoSummaryRow[];
  readonly total: number;
  readonly thresholdPercent: number;
  /** Whether the list holds more than `maxRows` rows, so that the rows stop there. */
  readonly cut: boolean;
}

/**
 * Every row of the month the review lists for the caller, in the page's default order (outlet name, A to Z): the
 * operation's pages one after another, as one page of up to `maxRows`.
 */
export async function gtoReviewList(
  db: Queryable,
  visibility: Visibility,
  query: {
    client_id: number;
    month: string;
    mall_ids?: number[] | undefined;
    outlet_id?: number | undefined;
    filterOption?: GtoFilter | undefined;
  },
  maxRows = GTO_REVIEW_WORKBOOK_MAX_ROWS,
): Promise<GtoReviewList> {
  const answer = await gtoSummary(db, scopeOf(visibility, query), {
    month: query.month,
    filter: query.filterOption ?? 'all',
    sortColumn: GTO_REVIEW_DEFAULT_SORT.column,
    order: GTO_REVIEW_DEFAULT_SORT.order,
    page: 1,
    rowsPerPage: maxRows,
  });
  return {
    rows: answer.data,
    total: answer.total,
    thresholdPercent: answer.threshold_percent,
    cut: answer.total > answer.data.length,
  };
}
