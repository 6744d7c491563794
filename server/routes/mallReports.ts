import type { FastifyRequest } from 'fastify';
import {
  type AlignedFestival,
  type CompareRule,
  comparedDays,
  type PreviousRule,
} from '../../src/domain/comparisons.js';
import { missingRatesMessage } from '../../src/domain/reportCurrency.js';
import { addDays, daysInRange, eachDay, earlierDay, laterDay } from '../../src/domain/reports.js';
import { requireCaller } from '../auth/access.js';
import type { Queryable } from '../db/pool.js';
import { badRequest, HttpError, notFound } from '../errors.js';
import {
  festivalsByCountry,
  figuresOverDays,
  LAST_YEAR_LOOKBACK_DAYS,
  likeForLikeOutlets,
  type MallDays,
} from '../repositories/comparisons.js';
import { type CrossSpendingQuery, crossSpending, crossSpendingDetails } from '../repositories/crossSpending.js';
import { type ReportCurrency, reportCurrency } from '../repositories/currencies.js';
import {
  type AmountKind,
  amountReport,
  categoryOutletReport,
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
  totalsByCurrency,
} from '../repositories/mallReports.js';
import { notBoth, reportRange } from './rules.js';
import type { AreaHandlers, RouteDeps } from './types.js';

/** How long the currency of a report (its malls' currencies, the rates it lacks) is remembered. */
export const REPORT_CURRENCY_TTL_MS = 30_000;
const REPORT_CURRENCY_ENTRIES = 5_000;

/**
 * The currency of reports of some malls over some days, remembered for REPORT_CURRENCY_TTL_MS: a page asks for
 * several reports of the same malls and days at once, and a mall's currency and a month's rate seldom change.
 */
function reportCurrencyCache(db: Queryable) {
  const remembered = new Map<string, { at: number; answer: Promise<ReportCurrency> }>();
  return (clientId: number, mallIds: readonly number[], range: { start: string; end: string }) => {
    const key = `${clientId}|${[...mallIds].sort((a, b) => a - b).join(',')}|${range.start}|${range.end}`;
    const now = Date.now();
    const known = remembered.get(key);
    if (known && now - known.at < REPORT_CURRENCY_TTL_MS) return known.answer;
    const answer = reportCurrency(db, clientId, mallIds, range);
    remembered.delete(key);
    remembered.set(key, { at: now, answer });
    answer.catch(() => remembered.delete(key));
    // The oldest entry goes first (a Map keeps insertion order).
    if (remembered.size > REPORT_CURRENCY_ENTRIES) remembered.delete(remembered.keys().next().value ?? '');
    return answer;
  };
}

type CurrencyOf = ReturnType<typeof reportCurrencyCache>;

/**
 * The scope of a report of the selected malls over `range`, converted to the client's reporting currency when
 * the malls use several currencies; 409 when a rate it needs does not exist (amounts are never added as they are).
 */
async function mallScope(
  db: Queryable,
  currencyOf: CurrencyOf,
  request: FastifyRequest,
  query: { client_id: number; mall_ids: number[] },
  range: ReportRange,
): Promise<ReportScope> {
  const { grants } = requireCaller(request);
  const mallIds = [...new Set(query.mall_ids)];
  const money = await currencyOf(query.client_id, mallIds, range);
  const scope: ReportScope = {
    clientId: query.client_id,
    mallIds,
    visibility: { clientIds: grants.clientIds, outletLimits: grants.outletLimits },
  };
  if (money.missingRates.length > 0) {
    // The figures per currency instead of a total that would add different currencies.
    const byCurrency = await totalsByCurrency(db, scope, range);
    throw new HttpError(409, missingRatesMessage(money.currency, money.missingRates), { by_currency: byCurrency });
  }
  if (!money.converted) return scope;
  return {
    ...scope,
    convert: { to: money.currency, from: money.currencies.filter((code) => code !== money.currency) },
  };
}

/** A festival met, as the contract writes it (AlignedFestival). */
export const alignedFestivalOf = (festival: AlignedFestival) => ({
  festival: festival.festival,
  name: festival.name,
  start_time: festival.current.start,
  end_time: festival.current.end,
  compared_start_time: festival.compared.start,
  compared_end_time: festival.compared.end,
});
const spanOfAll = (spans: readonly { start: string; end: string }[]) => ({
  start: spans.map((span) => span.start).reduce(earlierDay),
  end: spans.map((span) => span.end).reduce(laterDay),
});

/** What a range is compared with, per country of its malls (their calendars), ready for the figures' queries. */
interface ComparisonPlan {
  rule: CompareRule;
  /** The first to the last compared day, over every country. */
  span: { start: string; end: string };
  /** The range and the compared days together (the days a scope's rates must cover). */
  both: ReportRange;
  /** The compared days of each mall. */
  mallDays: MallDays[];
  /** How many days are compared (the most of any country). */
  dayCount: number;
  aligned: {
    festival: string;
    name: string;
    start_time: string;
    end_time: string;
    compared_start_time: string;
    compared_end_time: string;
  }[];
}

async function comparisonPlan(
  db: Queryable,
  clientId: number,
  mallIds: readonly number[],
  range: ReportRange,
  rule: CompareRule,
  previous: PreviousRule = 'days',
): Promise<ComparisonPlan> {
  // Each country's malls are compared by its own calendar (festival_aligned); the other rules by the days alone.
  const countries =
    rule === 'festival_aligned'
      ? await festivalsByCountry(db, clientId, mallIds, {
          start: addDays(range.start, -LAST_YEAR_LOOKBACK_DAYS),
          end: range.end,
        })
      : [{ country: '', mallIds: [...mallIds], festivals: [] }];
  const groups = countries.map((group) => ({
    ...group,
    compared: comparedDays(rule, range, group.festivals, previous),
  }));
  const span = spanOfAll(groups.map((group) => group.compared.span));
  const seen = new Set<string>();
  const aligned = groups
    .flatMap((group) => group.compared.aligned)
    .filter((festival) => {
      const key = `${festival.festival} ${festival.current.start} ${festival.compared.start}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map(alignedFestivalOf);
  return {
    rule,
    span,
    both: { ...range, start: earlierDay(range.start, span.start), end: laterDay(range.end, span.end) },
    mallDays: groups.flatMap((group) => group.mallIds.map((mallId) => ({ mallId, days: group.compared.days }))),
    dayCount: Math.max(...groups.map((group) => new Set(group.compared.days).size)),
    aligned,
  };
}

/** The scope as it is, or like-for-like: only its outlets trading through both the range and the compared days. */
async function likeForLikeScope(
  db: Queryable,
  scope: ReportScope,
  likeForLike: boolean,
  range: ReportRange,
  plan: ComparisonPlan,
): Promise<{ counted: ReportScope; likeForLike: { kept: number; left_out: number } | null }> {
  if (!likeForLike) return { counted: scope, likeForLike: null };
  const outlets = await likeForLikeOutlets(db, scope, [range, plan.span]);
  return {
    counted: countedOutlets(scope, outlets),
    likeForLike: { kept: outlets.kept.length, left_out: outlets.leftOut.length },
  };
}

/**
 * The scope of a like-for-like comparison: a caller who sees whole malls keeps them less the outlets left out (the
 * mall rows less the left-out outlets' rows: few of them); a caller limited to some outlets, the kept ones.
 */
function countedOutlets(
  scope: ReportScope,
  outlets: { kept: readonly number[]; leftOut: readonly number[] },
): ReportScope {
  if (!scope.visibility.outletLimits.has(scope.clientId)) return { ...scope, leftOut: [...outlets.leftOut] };
  const outletLimits = new Map(scope.visibility.outletLimits);
  outletLimits.set(scope.clientId, [...outlets.kept]);
  return { ...scope, visibility: { ...scope.visibility, outletLimits } };
}

function outletScope(request: FastifyRequest, query: { client_id: number; outlet_id: number }): ReportScope {
  const { grants } = requireCaller(request);
  return {
    clientId: query.client_id,
    outletId: query.outlet_id,
    visibility: { clientIds: grants.clientIds, outletLimits: grants.outletLimits },
  };
}

/** The outlet and whole days of a cross-spending call, with what the caller sees. */
function crossSpendingQuery(
  request: FastifyRequest,
  query: { client_id: number; outlet_id: number; start_time: string; end_time: string },
): CrossSpendingQuery {
  const { grants } = requireCaller(request);
  const range = reportRange(query);
  return {
    clientId: query.client_id,
    visibility: { clientIds: grants.clientIds, outletLimits: grants.outletLimits },
    outletId: query.outlet_id,
    start: range.start,
    end: range.end,
  };
}

/** Query parameters that the contract defaults (ajv fills them in); typed as optional by openapi-typescript. */
const metricOf = (value: Metric | undefined): Metric => value ?? 'gmv';
const timeRangeOf = (value: TimeRange | undefined): TimeRange => value ?? 'daily';

export function mallReportHandlers({ reads: pool }: RouteDeps) {
  // Every query here is a report read: on a replica when one is up and caught up (RouteDeps.reads).
  const currencyOf = reportCurrencyCache(pool);
  /** Refunds or voucher redemptions of the range against the days its comparison chooses (as many days before). */
  const amountPage = async (
    request: FastifyRequest,
    query: {
      client_id: number;
      mall_ids: number[];
      start_time: string;
      end_time: string;
      compare?: CompareRule;
      like_for_like?: boolean;
    },
    kind: AmountKind,
  ) => {
    const range = reportRange(query);
    const mallIds = [...new Set(query.mall_ids)];
    const plan = await comparisonPlan(pool, query.client_id, mallIds, range, query.compare ?? 'previous');
    // One scope over both periods: a rate missing in either answers 409.
    const scope = await mallScope(pool, currencyOf, request, query, plan.both);
    const { counted, likeForLike } = await likeForLikeScope(pool, scope, query.like_for_like === true, range, plan);
    const report = await amountReport(pool, counted, range, { span: plan.span, mallDays: plan.mallDays }, kind);
    return {
      ...report,
      previous_start_time: plan.span.start,
      previous_end_time: plan.span.end,
      comparison: {
        compare: plan.rule,
        aligned: plan.aligned,
        like_for_like: likeForLike,
        has_data: report.previous_has_data,
      },
    };
  };
  return {
    async getCrossSpending(request) {
      const report = await crossSpending(pool, crossSpendingQuery(request, request.query));
      if (!report) throw notFound('No such outlet.');
      return report;
    },

    async getCrossSpendingDetails(request) {
      const { query } = request;
      const details = await crossSpendingDetails(pool, crossSpendingQuery(request, query), query.other_outlet_id);
      if (!details) throw notFound('other_outlet_id: no such outlet in the same mall.');
      return details;
    },

    async getMallRefundReport(request) {
      return amountPage(request, request.query, 'refund');
    },

    async getMallVoucherReport(request) {
      return amountPage(request, request.query, 'voucher');
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
      const range = reportRange(query);
      const mallIds = [...new Set(query.mall_ids)];
      const plan = await comparisonPlan(pool, query.client_id, mallIds, range, query.compare ?? 'previous');
      // One scope over both sides: a rate missing in either answers 409.
      const scope = await mallScope(pool, currencyOf, request, query, plan.both);
      const { counted, likeForLike } = await likeForLikeScope(pool, scope, query.like_for_like === true, range, plan);
      const [current, compared] = await Promise.all([
        figuresOverDays(
          pool,
          counted,
          range,
          mallIds.map((mallId) => ({ mallId, days: eachDay(range.start, range.end) })),
        ),
        figuresOverDays(pool, counted, range, plan.mallDays),
      ]);
      return {
        compare: plan.rule,
        current: {
          start_time: range.start,
          end_time: range.end,
          days: daysInRange(range.start, range.end),
          ...current,
        },
        compared: { start_time: plan.span.start, end_time: plan.span.end, days: plan.dayCount, ...compared },
        aligned: plan.aligned,
        like_for_like: likeForLike,
      };
    },

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
      const range = reportRange(query);
      const rows = await groupReport(pool, await mallScope(pool, currencyOf, request, query, range), range, 'level');
      return { data: rows.map(({ key, name: _name, ...figures }) => ({ level: key, ...figures })) };
    },

    async getMallCategoryOutletReport(request) {
      const { query } = request;
      const range = reportRange(query);
      notBoth(query, 'category', 'outlet_id');
      const scope = await mallScope(pool, currencyOf, request, query, range);
      const rows = await categoryOutletReport(pool, scope, range, {
        category: query.category,
        outletId: query.outlet_id,
        limit: query.limit ?? 10,
      });
      // The caller sees the outlet (the access check): without its row it is not an outlet of the selected malls.
      if (query.outlet_id !== undefined && !rows.some((row) => row.outlet_id === query.outlet_id)) {
        throw badRequest('outlet_id must be an outlet of one of the selected malls (mall_ids).');
      }
      return { data: rows };
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

    async getMallOutletOverallComparison(request) {
      const { query } = request;
      const range = reportRange(query);
      const scope = outletScope(request, query);
      const outlet = await scopeOutlet(pool, scope);
      if (!outlet) throw notFound('No such outlet.');
      // §9: the previous period in whole weeks; or the same weekdays, or the festivals, of last year.
      const plan = await comparisonPlan(
        pool,
        query.client_id,
        [outlet.mall_id],
        range,
        query.compare ?? 'previous',
        'whole_weeks',
      );
      const [current, before] = await Promise.all([
        figuresOverDays(pool, scope, range, [{ mallId: outlet.mall_id, days: eachDay(range.start, range.end) }]),
        figuresOverDays(pool, scope, range, plan.mallDays),
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
    },

    async getMallOutletDailyReport(request) {
      const { query } = request;
      return { data: await dailyReport(pool, outletScope(request, query), reportRange(query)) };
    },
  } satisfies AreaHandlers;
}
