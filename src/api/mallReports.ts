import type { Department } from '../domain/breakeven';
import { DEFAULT_COMPARISON } from '../domain/comparisons';
import { pairOf } from '../domain/crossSpending';
import type { Metric, TimeRange } from '../domain/dateLimits';
import { type ReportQuery, wholeDays } from '../domain/mallReportViews';
import type { Period } from '../domain/reports';
import { reportWorkbook, type WorkbookPage } from '../domain/reportWorkbooks';
import { api, type CallOptions } from './client';
import { readStreamedFile, type StreamProgress } from './download';
import { dataOrThrow } from './errors';
import { isCallGranted } from './middleware/permissionGate';
import type { components } from './schema';

/**
 * The mall report calls (§7 /api/mall_report/*), one function per operation. Each throws an ApiError when the
 * call fails. What a page shows is shaped in domain/mallReportViews.
 */

export type DailyReportRow = components['schemas']['DailyReportRow'];
export type MonthlyReportRow = components['schemas']['MonthlyReportRow'];
export type MallRankRow = components['schemas']['MallRankRow'];
export type MallGroupRow = components['schemas']['MallGroupRow'];
export type MallCategoryRow = components['schemas']['MallCategoryRow'];
export type MallLevelRow = components['schemas']['MallLevelRow'];
export type OutletRankRow = components['schemas']['OutletRankRow'];
export type PeakHourRow = components['schemas']['PeakHourRow'];
export type PaymentMethodRow = components['schemas']['PaymentMethodSummaryRow'];
export type MemberOverallResponse = components['schemas']['MemberOverallResponse'];
export type MallGrowthReport = components['schemas']['MallGrowthReport'];

function baseQuery(query: ReportQuery, range?: Period) {
  return {
    client_id: query.clientId,
    mall_ids: [...query.mallIds],
    start_time: range?.start ?? query.start,
    end_time: range?.end ?? query.end,
    start_hour: query.startHour,
    end_hour: query.endHour,
  };
}

/** GET /api/mall_report/daily. */
export async function getDailyReport(
  query: ReportQuery,
  range?: Period,
  { signal, client = api }: CallOptions = {},
): Promise<DailyReportRow[]> {
  return dataOrThrow(await client.GET('/api/mall_report/daily', { params: { query: baseQuery(query, range) }, signal }))
    .data;
}

/** GET /api/mall_report/monthly. */
export async function getMonthlyReport(
  query: ReportQuery,
  { signal, client = api }: CallOptions = {},
): Promise<MonthlyReportRow[]> {
  return dataOrThrow(await client.GET('/api/mall_report/monthly', { params: { query: baseQuery(query) }, signal }))
    .data;
}

/**
 * GET /api/mall_report/growth: the figures of `range` (default the query's) against the days the query's comparison
 * chooses (the previous period unless it says otherwise).
 */
export async function getMallGrowth(
  query: ReportQuery,
  range?: Period,
  { signal, client = api }: CallOptions = {},
): Promise<MallGrowthReport> {
  const comparison = query.comparison ?? DEFAULT_COMPARISON;
  return dataOrThrow(
    await client.GET('/api/mall_report/growth', {
      params: {
        query: { ...baseQuery(query, range), compare: comparison.rule, like_for_like: comparison.likeForLike },
      },
      signal,
    }),
  );
}

/** GET /api/mall_report/mall, ranked by GMV. */
export async function getMallRanking(
  query: ReportQuery,
  range?: Period,
  { signal, client = api }: CallOptions = {},
): Promise<MallRankRow[]> {
  return dataOrThrow(
    await client.GET('/api/mall_report/mall', {
      params: { query: { ...baseQuery(query, range), rank_by: 'gmv' } },
      signal,
    }),
  ).data;
}

/** GET /api/mall_report/outlet, grouped by outlet, mall, category or level. */
export async function getGroupReport(
  query: ReportQuery,
  groupBy: 'outlet' | 'mall' | 'category' | 'level',
  { signal, client = api }: CallOptions = {},
): Promise<MallGroupRow[]> {
  return dataOrThrow(
    await client.GET('/api/mall_report/outlet', {
      params: { query: { ...baseQuery(query), group_by: groupBy } },
      signal,
    }),
  ).data;
}

/** GET /api/mall_report/category. */
export async function getCategoryReport(
  query: ReportQuery,
  { signal, client = api }: CallOptions = {},
): Promise<MallCategoryRow[]> {
  return dataOrThrow(await client.GET('/api/mall_report/category', { params: { query: baseQuery(query) }, signal }))
    .data;
}

/** GET /api/mall_report/level. */
export async function getLevelReport(
  query: ReportQuery,
  { signal, client = api }: CallOptions = {},
): Promise<MallLevelRow[]> {
  return dataOrThrow(await client.GET('/api/mall_report/level', { params: { query: baseQuery(query) }, signal })).data;
}

/** GET /api/mall_report/member/overall (the query's time range and metric unless others are given). */
export async function getMemberOverall(
  query: ReportQuery,
  options: { range?: Period; timeRange?: TimeRange; metric?: Metric } = {},
  { signal, client = api }: CallOptions = {},
): Promise<MemberOverallResponse> {
  return dataOrThrow(
    await client.GET('/api/mall_report/member/overall', {
      params: {
        query: {
          ...baseQuery(query, options.range),
          time_range: options.timeRange ?? query.timeRange,
          metric: options.metric ?? query.metric,
        },
      },
      signal,
    }),
  );
}

/** GET /api/mall_report/member/outlet: the top outlets of members or non-members by the query's metric. */
export async function getMemberOutletRanking(
  query: ReportQuery,
  member: boolean,
  limit = 10,
  { signal, client = api }: CallOptions = {},
): Promise<OutletRankRow[]> {
  return dataOrThrow(
    await client.GET('/api/mall_report/member/outlet', {
      params: { query: { ...baseQuery(query), member, rank_by: query.metric, limit } },
      signal,
    }),
  ).data;
}

/** GET /api/mall_report/peak_hour. */
export async function getPeakHours(
  query: ReportQuery,
  timeRange: TimeRange,
  metric: Metric,
  { signal, client = api }: CallOptions = {},
): Promise<PeakHourRow[]> {
  return dataOrThrow(
    await client.GET('/api/mall_report/peak_hour', {
      params: { query: { ...baseQuery(query), time_range: timeRange, metric } },
      signal,
    }),
  ).data;
}

/** GET /api/mall_report/payment_method/overall. Payment methods are reported for whole days. */
export async function getPaymentMethodOverall(
  query: ReportQuery,
  range?: Period,
  limit = 10,
  { signal, client = api }: CallOptions = {},
): Promise<PaymentMethodRow[]> {
  return dataOrThrow(
    await client.GET('/api/mall_report/payment_method/overall', {
      params: { query: { ...baseQuery(wholeDays(query), range), limit } },
      signal,
    }),
  ).data;
}

/** How far a workbook's download has come: the bytes received, and its size when the server says it. */
export type WorkbookDownloadProgress = StreamProgress;

/** Whether the user's permissions hold `page`'s workbook (the gate lets payment URLs through whatever they hold). */
export function mayDownloadWorkbook(page: WorkbookPage): boolean {
  return isCallGranted(reportWorkbook(page).operationPath, 'GET');
}

/** The media type of an .xlsx workbook. */
export const WORKBOOK_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A workbook's call's options: a breakeven page's department besides the signal and client. */
export interface WorkbookCallOptions extends CallOptions {
  readonly department?: Department | undefined;
}

/** The client, malls and month of a month page's query (its month is its start's). */
const monthOf = (query: ReportQuery) => ({
  client_id: query.clientId,
  mall_ids: [...query.mallIds],
  month: query.start.slice(0, 7),
});

/** The workbook's call, its body left unread (a stream). */
function workbookCall(
  page: WorkbookPage,
  query: ReportQuery,
  { client = api, signal, department }: WorkbookCallOptions,
) {
  const asStream = { parseAs: 'stream' as const, signal };
  const { start_hour: _start, end_hour: _end, ...days } = baseQuery(query);
  const hourly = { ...baseQuery(query), time_range: query.timeRange, metric: query.metric };
  const comparison = query.comparison ?? DEFAULT_COMPARISON;
  const compared = { ...days, compare: comparison.rule, like_for_like: comparison.likeForLike };
  switch (page) {
    case 'mall_home':
      return client.GET('/api/mall_report/mall_home/workbook', { params: { query: compared }, ...asStream });
    case 'mall_gmv':
      return client.GET('/api/mall_report/mall_gmv/workbook', { params: { query: days }, ...asStream });
    case 'peak_hours':
      return client.GET('/api/mall_report/peak_hour/workbook', { params: { query: hourly }, ...asStream });
    case 'payment_methods':
      return client.GET('/api/mall_report/payment_method/workbook', { params: { query: days }, ...asStream });
    case 'member':
      return client.GET('/api/mall_report/member/workbook', { params: { query: hourly }, ...asStream });
    case 'refunds':
      return client.GET('/api/mall_report/refund/workbook', { params: { query: compared }, ...asStream });
    case 'voucher_redemption':
      return client.GET('/api/mall_report/voucher/workbook', { params: { query: compared }, ...asStream });
    case 'sales_trends': {
      const year = { client_id: days.client_id, mall_ids: days.mall_ids, year: Number(query.end.slice(0, 4)) };
      return client.GET('/api/mall_report/sales_trends/workbook', { params: { query: year }, ...asStream });
    }
    case 'rent_statements':
      return client.GET('/api/rentStatements/workbook', { params: { query: monthOf(query) }, ...asStream });
    case 'sales_review': {
      if (query.outletId === undefined) throw new Error('the Sales Review workbook needs its outlet');
      const { start_time, end_time } = days;
      const outlet = { client_id: days.client_id, outlet_id: query.outletId, start_time, end_time };
      return client.GET('/api/salesReview/workbook', { params: { query: outlet }, ...asStream });
    }
    case 'mall_outlet': {
      // The page's outlet (its path's id) over whole days, compared as its comparison says (no like-for-like).
      if (query.outletId === undefined) throw new Error('the Mall Outlet workbook needs its outlet');
      const { start_time, end_time } = days;
      const outlet = { client_id: days.client_id, outlet_id: query.outletId, start_time, end_time };
      const compare = comparison.rule;
      return client.GET('/api/mall_report/outlet/workbook', { params: { query: { ...outlet, compare } }, ...asStream });
    }
    case 'cross_spending': {
      if (query.outletId === undefined) throw new Error('the Cross Spending workbook needs its outlet');
      const { start_time, end_time } = days;
      const outlet = { client_id: days.client_id, outlet_id: query.outletId, start_time, end_time };
      return client.GET('/api/mall_report/crossSpending/workbook', { params: { query: outlet }, ...asStream });
    }
    case 'cross_spending_details': {
      const pair = pairOf(query);
      const { start_time, end_time } = days;
      const outlets = { client_id: days.client_id, outlet_id: pair.outletId, other_outlet_id: pair.otherOutletId };
      return client.GET('/api/mall_report/crossSpending/details/workbook', {
        params: { query: { ...outlets, start_time, end_time } },
        ...asStream,
      });
    }
    case 'sales_analysis': {
      if (query.outletId === undefined) throw new Error('the Sales Analysis workbook needs its outlet');
      const outlet = {
        client_id: days.client_id,
        outlet_id: query.outletId,
        startTime: query.start,
        endTime: query.end,
      };
      return client.GET('/outlets/salesAnalysis/workbook', { params: { query: outlet }, ...asStream });
    }
    case 'gross_turnover':
    case 'tenant_rent_statement': {
      // The tenant's pages of the query's outlet and the month it starts in.
      if (query.outletId === undefined) throw new Error(`the ${reportWorkbook(page).title} workbook needs its outlet`);
      const outlet = { client_id: days.client_id, outlet_id: query.outletId, month: query.start.slice(0, 7) };
      return page === 'gross_turnover'
        ? client.GET('/api/gtoReport/outletMonths/workbook', { params: { query: outlet }, ...asStream })
        : client.GET('/api/tenant/rentStatement/workbook', { params: { query: outlet }, ...asStream });
    }
    case 'gto_review': {
      // The month's whole list of the client's outlets the caller sees (the page has no malls in its filters).
      const month = { client_id: days.client_id, date: `${query.start.slice(0, 7)}-01` };
      return client.GET('/api/gtoReport/summary/workbook', { params: { query: month }, ...asStream });
    }
    case 'breakeven_marcom':
    case 'breakeven': {
      // Marcom's page reads Marcom's targets; the other page the department it shows (Leasing unless told).
      const chosen = page === 'breakeven_marcom' ? 'marcom' : (department ?? 'leasing');
      const month = { ...monthOf(query), department: chosen };
      return client.GET('/api/mall_report/breakeven_target/workbook', { params: { query: month }, ...asStream });
    }
  }
}

/**
 * A report page's workbook (its operation: reportWorkbook(page).operationPath): the page's tables for the query's
 * filters as one Excel workbook built on the server (Mall Home, Refunds and Voucher Redemption compared as the
 * query's comparison says, the previous period unless it says otherwise; Mall Peak Hours and Member vs Non-member
 * with the query's hours, time range and metric; Rent Statements and the breakeven pages of the month the query
 * starts in, Sales Trends of the year it ends in; the GTO Review's whole list of the client in the month the query
 * starts in; the outlet pages of the query's outlet (the tenant's Gross Turnover and Rent Statement of the month it
 * starts in), Mall Outlet compared as the query's comparison says; the others whole days).
 * The body is read as a stream so that `onProgress` sees the bytes as they arrive.
 */
export async function downloadReportWorkbook(
  page: WorkbookPage,
  query: ReportQuery,
  onProgress: (progress: WorkbookDownloadProgress) => void,
  options: WorkbookCallOptions = {},
): Promise<Blob> {
  return readStreamedFile(await workbookCall(page, query, options), WORKBOOK_MEDIA_TYPE, onProgress);
}
