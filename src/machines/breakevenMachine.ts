import { type BreakevenAnswer, getBreakevenTarget } from '../api/breakeven';
import type { ApiClient } from '../api/client';
import { BREAKEVEN_WHAT, type Department, includesGst } from '../domain/breakeven';
import type { ReportQuery } from '../domain/mallReportViews';
import { createQueryPageMachine } from './factories/queryPageMachine';

export interface BreakevenPanels {
  readonly breakeven: BreakevenAnswer;
}

/** One department's breakeven page of the header's malls and month (§2): GST included on Marcom's only. */
export async function loadBreakeven(
  query: ReportQuery,
  department: Department,
  options: { signal?: AbortSignal; client?: ApiClient } = {},
): Promise<BreakevenAnswer> {
  const month = query.month ?? query.end.slice(0, 7);
  return getBreakevenTarget(
    {
      client_id: query.clientId,
      mall_ids: [...query.mallIds],
      date: `${month}-01`,
      department,
      include_gst: includesGst(department),
    },
    options,
  );
}

/**
 * A department's breakeven page: the query-page factory with one panel, the rows of the header's malls and month
 * (empty: no outlet in the malls). The four departments share the shape; each has its own machine, so the
 * operator's department choice starts the page of that department.
 */
export function createBreakevenMachine(department: Department, client?: ApiClient) {
  return createQueryPageMachine<BreakevenPanels>({
    id: `breakeven-${department}`,
    what: BREAKEVEN_WHAT,
    panels: {
      breakeven: {
        load: (query, signal) => loadBreakeven(query, department, client ? { signal, client } : { signal }),
        isEmpty: (answer) => answer.data.length === 0,
      },
    },
  });
}
