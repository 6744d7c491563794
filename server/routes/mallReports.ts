import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WorkbookPage } from '../../src/domain/reportWorkbooks.js';
import { requireCaller } from '../auth/access.js';
import type { Queryable } from '../db/pool.js';
import { buildCrossSpendingDetailsWorkbook, buildCrossSpendingWorkbook } from '../exports/crossSpendingWorkbook.js';
import { buildMallOutletWorkbook } from '../exports/mallOutletWorkbook.js';
import { buildReportWorkbook, type ReportWorkbookQuery } from '../exports/reportWorkbooks.js';
import { buildSalesTrendsWorkbook } from '../exports/salesTrendsWorkbook.js';
import { crossSpendingPairReport, crossSpendingReport } from '../reports/crossSpending.js';
import {
  type CurrencyOf,
  type MallSelection,
  mallAmounts,
  mallGrowth,
  mallScopeFor,
  reportCurrencyCache,
} from '../reports/mallAnswers.js';
import { categoryOutlets, mallLevels, outletComparison, outletDaily } from '../reports/mallOutlet.js';
import {
  dailyReport,
  type GroupBy,
  groupReport,
  type Metric,
  mallRanking,
  memberOutletRanking,
  memberOverall,
  monthlyReport,
  paymentMethodOverall,
  peakHours,
  type ReportRange,
  type ReportScope,
  type TimeRange,
} from '../repositories/mallReports.js';
import { notBoth, reportRange } from './rules.js';
import type { AreaHandlers, RouteDeps } from './types.js';
import { replyWithWorkbook } from './workbookReply.js';

/**
 * The scope of a report of the selected malls over `range` for the caller (mallScopeFor): converted to the
 * client's reporting currency when the malls use several, 409 when a rate it needs does not exist.
 */
function mallScope(
  db: Queryable,
  currencyOf: CurrencyOf,
  request: FastifyRequest,
  query: MallSelection,
  range: ReportRange,
): Promise<ReportScope> {
  return mallScopeFor(db, currencyOf, requireCaller(request).grants, query, range);
}

/** Query parameters that the contract defaults (ajv fills them in); typed as optional by openapi-typescript. */
const metricOf = (value: Metric | undefined): Metric => value ?? 'gmv';
const timeRangeOf = (value: TimeRange | undefined): TimeRange => value ?? 'daily';

export function mallReportHandlers({ reads: pool, exportSlots }: RouteDeps) {
  // Every query here is a report read: on a replica when one is up and caught up (RouteDeps.reads).
  const currencyOf = reportCurrencyCache(pool);
  /** A report page's workbook as the download, its range checked as the page's operations check it. */
  const sendWorkbook = (
    request: FastifyRequest,
    reply: FastifyReply,
    page: WorkbookPage,
    query: ReportWorkbookQuery,
  ) => {
    reportRange(query);
    return replyWithWorkbook(request, reply, exportSlots, (requester, signal) =>
      buildReportWorkbook(pool, currencyOf, requester, page, query, { signal }),
    );
  };

  return {
    getCrossSpending(request) {
      const { query } = request;
      return crossSpendingReport(pool, requireCaller(request).grants, query, reportRange(query));
    },

    getCrossSpendingWorkbook(request, reply) {
      const { query } = request;
      const range = reportRange(query);
      return replyWithWorkbook(request, reply, exportSlots, (requester, signal) =>
        buildCrossSpendingWorkbook(
          pool,
          requester,
          { ...query, start_time: range.start, end_time: range.end },
          { signal },
        ),
      );
    },

    getCrossSpendingDetails(request) {
      const { query } = request;
      return crossSpendingPairReport(pool, requireCaller(request).grants, query, reportRange(query));
    },

    getCrossSpendingDetailsWorkbook(request, reply) {
      const { query } = request;
      const range = reportRange(query);
      return replyWithWorkbook(request, reply, exportSlots, (requester, signal) =>
        buildCrossSpendingDetailsWorkbook(
          pool,
          requester,
          { ...query, start_time: range.start, end_time: range.end },
          { signal },
        ),
      );
    },

    async getMallRefundReport(request) {
      const { query } = request;
      return mallAmounts(pool, currencyOf, requireCaller(request).grants, query, reportRange(query), 'refund');
    },

    async getMallVoucherReport(request) {
      const { query } = request;
      return mallAmounts(pool, currencyOf, requireCaller(request).grants, query, reportRange(query), 'voucher');
    },

    async getMallDailyReport(request) {
      const { query } = request;
      const range = reportRange(query);
      return { data: await dailyReport(pool, await mallScope(pool, currencyOf, request, query, range), range) };
    },

    async getMallMonthlyReport(request) {
      const { query } = request;
      const range = reportRange(query);
      return { data: await monthlyReport(pool, await mallScope(pool, currencyOf, request, query, range), range) };
    },

    async getMallGrowth(request) {
      const { query } = request;
      return mallGrowth(pool, currencyOf, requireCaller(request).grants, query, reportRange(query));
    },

    getMallHomeWorkbook: (request, reply) => sendWorkbook(request, reply, 'mall_home', request.query),
    getMallGmvWorkbook: (request, reply) => sendWorkbook(request, reply, 'mall_gmv', request.query),
    getMallPeakHoursWorkbook: (request, reply) => sendWorkbook(request, reply, 'peak_hours', request.query),
    getMallPaymentMethodsWorkbook: (request, reply) => sendWorkbook(request, reply, 'payment_methods', request.query),
    getMemberWorkbook: (request, reply) => sendWorkbook(request, reply, 'member', request.query),
    getMallRefundWorkbook: (request, reply) => sendWorkbook(request, reply, 'refunds', request.query),
    getSalesTrendsWorkbook: (request, reply) =>
      replyWithWorkbook(request, reply, exportSlots, (requester, signal) =>
        buildSalesTrendsWorkbook(pool, currencyOf, requester, request.query, { signal }),
      ),
    getMallVoucherWorkbook: (request, reply) => sendWorkbook(request, reply, 'voucher_redemption', request.query),

    async getMallRanking(request) {
      const { query } = request;
      const range = reportRange(query);
      const scope = await mallScope(pool, currencyOf, request, query, range);
      return { data: await mallRanking(pool, scope, range, metricOf(query.rank_by)) };
    },

    async getMallOutletReport(request) {
      const { query } = request;
      const range = reportRange(query);
      const groupBy: GroupBy = query.group_by ?? 'outlet';
      return {
        data: await groupReport(pool, await mallScope(pool, currencyOf, request, query, range), range, groupBy),
      };
    },

    async getMallCategoryReport(request) {
      const { query } = request;
      const range = reportRange(query);
      const rows = await groupReport(pool, await mallScope(pool, currencyOf, request, query, range), range, 'category');
      return { data: rows.map(({ key, name: _name, ...figures }) => ({ category: key, ...figures })) };
    },

    async getMallLevelReport(request) {
      const { query } = request;
      return { data: await mallLevels(pool, currencyOf, requireCaller(request).grants, query, reportRange(query)) };
    },

    async getMallCategoryOutletReport(request) {
      const { query } = request;
      const range = reportRange(query);
      notBoth(query, 'category', 'outlet_id');
      return { data: await categoryOutlets(pool, currencyOf, requireCaller(request).grants, query, range) };
    },

    async getMemberOverall(request) {
      const { query } = request;
      const range = reportRange(query);
      return memberOverall(
        pool,
        await mallScope(pool, currencyOf, request, query, range),
        range,
        timeRangeOf(query.time_range),
        metricOf(query.metric),
      );
    },

    async getMemberOutletRanking(request) {
      const { query } = request;
      const range = reportRange(query);
      return {
        data: await memberOutletRanking(pool, await mallScope(pool, currencyOf, request, query, range), range, {
          member: query.member ?? true,
          rankBy: metricOf(query.rank_by),
          limit: query.limit ?? 10,
        }),
      };
    },

    async getMallPeakHours(request) {
      const { query } = request;
      const range = reportRange(query);
      return {
        data: await peakHours(
          pool,
          await mallScope(pool, currencyOf, request, query, range),
          range,
          timeRangeOf(query.time_range),
          metricOf(query.metric),
        ),
      };
    },

    async getMallPaymentMethodOverall(request) {
      const { query } = request;
      const range = reportRange(query);
      const scope = await mallScope(pool, currencyOf, request, query, range);
      return { data: await paymentMethodOverall(pool, scope, range, query.limit ?? 10) };
    },

    getMallOutletOverallComparison(request) {
      const { query } = request;
      return outletComparison(pool, requireCaller(request).grants, query, reportRange(query));
    },

    async getMallOutletDailyReport(request) {
      const { query } = request;
      return { data: await outletDaily(pool, requireCaller(request).grants, query, reportRange(query)) };
    },

    getMallOutletWorkbook(request, reply) {
      const { query } = request;
      // The range is checked as the page's operations check it, before an export slot is taken.
      reportRange(query);
      return replyWithWorkbook(request, reply, exportSlots, (requester, signal) =>
        buildMallOutletWorkbook(pool, currencyOf, requester, query, { signal }),
      );
    },
  } satisfies AreaHandlers;
}
