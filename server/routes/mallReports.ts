import type { FastifyRequest } from 'fastify';
import type { operations } from '../../src/api/schema.js';
import { daysInRange, wholeWeeksComparisonPeriod } from '../../src/domain/reports.js';
import { requireCaller } from '../auth/access.js';
import { badRequest, notFound } from '../errors.js';
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
  scopeOutlet,
  type TimeRange,
  totals,
} from '../repositories/mallReports.js';
import type { Handlers, RouteDeps } from './types.js';

type Query<T extends keyof operations> = operations[T]['parameters']['query'];

/** The longest range a report answers (the Monthly maximum of §9); hourly buckets: the Hourly maximum. */
export const MAX_RANGE_DAYS = 366;
export const MAX_HOURLY_RANGE_DAYS = 31;

function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

interface RangeQuery {
  start_time: string;
  end_time: string;
  start_hour?: number;
  end_hour?: number;
}

/** The day and hour range of a query, checked: real days, start before end, hours in order, at most maxDays. */
function readRange(query: RangeQuery, maxDays = MAX_RANGE_DAYS): ReportRange {
  const range = {
    start: query.start_time,
    end: query.end_time,
    startHour: query.start_hour ?? 0,
    endHour: query.end_hour ?? 23,
  };
  if (!isCalendarDay(range.start)) throw badRequest('start_time must be a date (YYYY-MM-DD).');
  if (!isCalendarDay(range.end)) throw badRequest('end_time must be a date (YYYY-MM-DD).');
  if (range.end < range.start) throw badRequest('end_time must not be before start_time.');
  if (range.endHour < range.startHour) throw badRequest('start_hour must be at or before end_hour.');
  if (daysInRange(range.start, range.end) > maxDays) {
    throw badRequest(`end_time: the range must not be longer than ${maxDays} days.`);
  }
  return range;
}

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

export function mallReportHandlers({ pool }: RouteDeps): Handlers {
  return {
    async getMallDailyReport(request) {
      const query = request.query as Query<'getMallDailyReport'>;
      return { data: await dailyReport(pool, mallScope(request, query), readRange(query)) };
    },

    async getMallMonthlyReport(request) {
      const query = request.query as Query<'getMallMonthlyReport'>;
      return { data: await monthlyReport(pool, mallScope(request, query), readRange(query)) };
    },

    async getMallRanking(request) {
      const query = request.query as Query<'getMallRanking'>;
      return { data: await mallRanking(pool, mallScope(request, query), readRange(query), metricOf(query.rank_by)) };
    },

    async getMallOutletReport(request) {
      const query = request.query as Query<'getMallOutletReport'>;
      const groupBy: GroupBy = query.group_by ?? 'outlet';
      return { data: await groupReport(pool, mallScope(request, query), readRange(query), groupBy) };
    },

    async getMallCategoryReport(request) {
      const query = request.query as Query<'getMallCategoryReport'>;
      const rows = await groupReport(pool, mallScope(request, query), readRange(query), 'category');
      return { data: rows.map(({ key, name: _name, ...figures }) => ({ category: key, ...figures })) };
    },

    async getMallLevelReport(request) {
      const query = request.query as Query<'getMallLevelReport'>;
      const rows = await groupReport(pool, mallScope(request, query), readRange(query), 'level');
      return { data: rows.map(({ key, name: _name, ...figures }) => ({ level: key, ...figures })) };
    },

    async getMemberOverall(request) {
      const query = request.query as Query<'getMemberOverall'>;
      const timeRange = timeRangeOf(query.time_range);
      const range = readRange(query, timeRange === 'hourly' ? MAX_HOURLY_RANGE_DAYS : MAX_RANGE_DAYS);
      return memberOverall(pool, mallScope(request, query), range, timeRange, metricOf(query.metric));
    },

    async getMemberOutletRanking(request) {
      const query = request.query as Query<'getMemberOutletRanking'>;
      return {
        data: await memberOutletRanking(pool, mallScope(request, query), readRange(query), {
          member: query.member ?? true,
          rankBy: metricOf(query.rank_by),
          limit: query.limit ?? 10,
        }),
      };
    },

    async getMallPeakHours(request) {
      const query = request.query as Query<'getMallPeakHours'>;
      const range = readRange(query);
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
      const query = request.query as Query<'getMallPaymentMethodOverall'>;
      const range = readRange(query);
      return { data: await paymentMethodOverall(pool, mallScope(request, query), range, query.limit ?? 10) };
    },

    async getMallOutletOverallComparison(request) {
      const query = request.query as Query<'getMallOutletOverallComparison'>;
      const range = readRange(query);
      const scope = outletScope(request, query);
      const outlet = await scopeOutlet(pool, scope);
      if (!outlet) throw notFound('No such outlet.');
      const previous = wholeWeeksComparisonPeriod(range.start, range.end);
      const [current, before] = await Promise.all([
        totals(pool, scope, range),
        totals(pool, scope, { ...range, start: previous.start, end: previous.end }),
      ]);
      return {
        outlet,
        current,
        previous: before,
        previous_start_time: previous.start,
        previous_end_time: previous.end,
      };
    },

    async getMallOutletDailyReport(request) {
      const query = request.query as Query<'getMallOutletDailyReport'>;
      return { data: await dailyReport(pool, outletScope(request, query), readRange(query)) };
    },
  };
}
