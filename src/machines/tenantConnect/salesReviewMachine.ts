import { type ApiClient, api, type CallOptions } from '../../api/client';
import { getSalesReview, type SalesReview } from '../../api/nonTradingDays';
import type { ReportQuery } from '../../domain/mallReportViews';
import { isSalesReviewEmpty, SALES_REVIEW_WHAT } from '../../domain/nonTradingDays';
import { createQueryPageMachine } from '../factories/queryPageMachine';

/**
 * Tenant Connect's sales review: the header's outlet's daily GMV and transactions over its date range, with the
 * days it did not trade (a query page of one panel, outlet-level: nothing is asked until one outlet is chosen).
 */

export interface SalesReviewPanels {
  readonly days: SalesReview;
}

/** The outlet's days (GET /api/salesReview/daily) for the page's query. */
export function loadSalesReview(query: ReportQuery, options: CallOptions = {}): Promise<SalesReview> {
  if (query.outletId === undefined) throw new Error('sales review: no outlet');
  return getSalesReview(
    { client_id: query.clientId, outlet_id: query.outletId, start_time: query.start, end_time: query.end },
    options,
  );
}

export function createSalesReviewMachine(client: ApiClient = api) {
  return createQueryPageMachine<SalesReviewPanels>({
    id: 'salesReview',
    what: SALES_REVIEW_WHAT,
    outletLevel: true,
    panels: {
      days: {
        load: (query, signal) => loadSalesReview(query, { signal, client }),
        isEmpty: (answer) => isSalesReviewEmpty(answer.data),
      },
    },
  });
}

export const salesReviewMachine = createSalesReviewMachine();
