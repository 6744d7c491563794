import type { FastifyRequest } from 'fastify';
import { wholeWeeksComparisonPeriod } from '../../src/domain/reports.js';
import { requireCaller } from '../auth/access.js';
import { notFound } from '../errors.js';
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
  type ReportScope,
  scopeOutlet,
  type TimeRange,
  totals,
} from '../repositories/mallReports.js';
import { reportRange } from './rules.js';
import type { AreaHandlers, RouteDeps } from './types.js';

function mallScope(request: FastifyRequest, query: { client_id: number; mall_ids: number[] }): ReportScope {
  const { grants } = requireCaller(request);
  return {
    clientId: query.client_id,
    mallIds: [...new Set(query.mall_ids)],
    visibility: { clientIds: grants.clientIds, outletLimits: grants.outletLimits },
  };
}

function outletScope(request: FastifyRequest, query: { client_id: number; outlet_id: number }): ReportScope {
  const { grants } = requireCaller(request);
  return {
    clientId: query.client_id,
    outletId: query.outlet_id,
    visibility: { clientIds: grants.clientIds, outletLimits: grants.outletLimits },
  };
}

/** Query parameters that the contract defaults (ajv fills them in); typed as optional by openapi-typescript. */
const metricOf = (value: Metric | undefined): Metric => value ?? 'gmv';
const timeRangeOf = (value: TimeRange | undefined): TimeRange => value ?? 'daily';

export function mallReportHandlers({ pool }: RouteDeps) {
  return {
    async getMallDailyReport(request) {
      const { query } = request;
      return { data: await dailyReport(pool, mallScope(request, query), reportRange(query)) };
    },

    async getMallMonthlyReport(request) {
      const { query } = request;
      return { data: await monthlyReport(pool, mallScope(request, query), reportRange(query)) };
    },

    async getMallRanking(request) {
      const { query } = request;
      return { data: await mallRanking(pool, mallScope(request, query), reportRange(query), metricOf(query.rank_by)) };
    },

    async getMallOutletReport(request) {
      const { query } = request;
      const groupBy: GroupBy = query.group_by ?? 'outlet';
      return { data: await groupReport(pool, mallScope(request, query), reportRange(query), groupBy) };
    },

    async getMallCategoryReport(request) {
      const { query } = request;
      const rows = await groupReport(pool, mallScope(request, query), reportRange(query), 'category');
      return { data: rows.map(({ key, name: _name, ...figures }) => ({ category: key, ...figures })) };
    },

    async getMallLevelReport(request) {
      const { query } = request;
      const rows = await groupReport(pool, mallScope(request, query), reportRange(query), 'level');
      return { data: rows.map(({ key, name: _name, ...figures }) => ({ level: key, ...figures })) };
    },

    async getMemberOverall(request) {
      const { query } = request;
      const range = reportRange(query);
      return memberOverall(
        pool,
        mallScope(request, query),
        range,
        timeRangeOf(query.time_range),
        metricOf(query.metric),
      );
    },

    async getMemberOutletRanking(request) {
      const { query } = request;
      return {
        data: await memberOutletRanking(pool, mallScope(request, query), reportRange(query), {
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
          mallScope(request, query),
          range,
          timeRangeOf(query.time_range),
          metricOf(query.metric),
        ),
      };
    },

    async getMallPaymentMethodOverall(request) {
      const { query } = request;
      const range = reportRange(query);
      return { data: await paymentMethodOverall(pool, mallScope(request, query), range, query.limit ?? 10) };
    },

    async getMallOutletOverallComparison(request) {
      const { query } = request;
      const range = reportRange(query);
      const scope = outletScope(request, query);
      const previous = wholeWeeksComparisonPeriod(range.start, range.end);
      // One round trip: the outlet and both periods at once.
      const [outlet, current, before] = await Promise.all([
        scopeOutlet(pool, scope),
        totals(pool, scope, range),
        totals(pool, scope, { ...range, start: previous.start, end: previous.end }),
      ]);
      if (!outlet) throw notFound('No such outlet.');
      return {
        outlet,
        current,
        previous: before,
        previous_start_time: previous.start,
        previous_end_time: previous.end,
      };
    },

    async getMallOutletDailyReport(request) {
      const { query } = request;
      return { data: await dailyReport(pool, outletScope(request, query), reportRange(query)) };
    },
  } satisfies AreaHandlers;
}
