import { type ApiClient, api, type CallOptions } from '../api/client';
import { getCrossSpending } from '../api/crossSpending';
import { CROSS_SPENDING_WHAT, type CrossSpendingAnswer, isCrossSpendingEmpty } from '../domain/crossSpending';
import type { ReportQuery } from '../domain/mallReportViews';
import { createQueryPageMachine } from './factories/queryPageMachine';

/**
 * Cross spending (/shopper-connect/cross-spending): where the members who bought at the header's one outlet also
 * spent in its mall over the header's days, by outlet and by category. A query page of one panel, outlet-level:
 * nothing is asked until one outlet is chosen; 'No Data' when no member bought at the outlet.
 */

export interface CrossSpendingPanels {
  readonly report: CrossSpendingAnswer;
}

/** The outlet's cross spending (GET /api/mall_report/crossSpending) for the page's query. */
export function loadCrossSpending(query: ReportQuery, options: CallOptions = {}): Promise<CrossSpendingAnswer> {
  if (query.outletId === undefined) throw new Error('cross spending: no outlet');
  return getCrossSpending(
    { clientId: query.clientId, outletId: query.outletId, start: query.start, end: query.end },
    options,
  );
}

export function createCrossSpendingMachine(client: ApiClient = api) {
  return createQueryPageMachine<CrossSpendingPanels>({
    id: 'crossSpending',
    what: CROSS_SPENDING_WHAT,
    outletLevel: true,
    panels: {
      report: { load: (query, signal) => loadCrossSpending(query, { signal, client }), isEmpty: isCrossSpendingEmpty },
    },
  });
}

export const crossSpendingMachine = createCrossSpendingMachine();
