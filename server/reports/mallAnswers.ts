import type { components } from '../../src/api/schema.js';
import {
  type AlignedFestival,
  type CompareRule,
  comparedDays,
  type PreviousRule,
} from '../../src/domain/comparisons.js';
import { missingRatesMessage } from '../../src/domain/reportCurrency.js';
import { addDays, daysInRange, eachDay, earlierDay, laterDay } from '../../src/domain/reports.js';
import type { Queryable } from '../db/pool.js';
import { HttpError } from '../errors.js';
import {
  festivalsByCountry,
  figuresOverDays,
  LAST_YEAR_LOOKBACK_DAYS,
  likeForLikeOutlets,
  type MallDays,
} from '../repositories/comparisons.js';
import { type ReportCurrency, reportCurrency } from '../repositories/currencies.js';
import type { Visibility } from '../repositories/lookup.js';
import {
  type AmountKind,
  amountReport,
  type ReportRange,
  type ReportScope,
  totalsByCurrency,
} from '../repositories/mallReports.js';

/**
 * The mall reports' answers as their operations give them, for a caller's visibility rather than a request: the
 * scope of the selected malls in one currency (or 409), the days a range is compared with, like-for-like and the
 * growth. The routes (server/routes/mallReports.ts) answer with them, and so does what is built on the server from
 * the same answers (the Mall Home workbook, server/exports/mallHomeWorkbook.ts), so both give the same figures.
 */

/** How long the currency of a report (its malls' currencies, the rates it lacks) is remembered. */
export const REPORT_CURRENCY_TTL_MS = 30_000;
const REPORT_CURRENCY_ENTRIES = 5_000;

/**
 * The currency of reports of some malls over some days, remembered for REPORT_CURRENCY_TTL_MS: a page asks for
 * several reports of the same malls and days at once, and a mall's currency and a month's rate seldom change.
 */
export function reportCurrencyCache(db: Queryable) {
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

export type CurrencyOf = ReturnType<typeof reportCurrencyCache>;

/** The client and malls a mall report names. */
export interface MallSelection {
  client_id: number;
  mall_ids: number[];
}

/**
 * The scope of a report of the selected malls over `range` for a caller who sees `visibility`, converted to the
 * client's reporting currency when the malls use several currencies; 409 when a rate it needs does not exist
 * (amounts are never added as they are).
 */
export async function mallScopeFor(
  db: Queryable,
  currencyOf: CurrencyOf,
  visibility: Visibility,
  query: MallSelection,
  range: ReportRange,
): Promise<ReportScope> {
  const mallIds = [...new Set(query.mall_ids)];
  const money = await currencyOf(query.client_id, mallIds, range);
  const scope: ReportScope = {
    clientId: query.client_id,
    mallIds,
    visibility: { clientIds: visibility.clientIds, outletLimits: visibility.outletLimits },
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
export interface ComparisonPlan {
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

export async function comparisonPlan(
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
export async function likeForLikeScope(
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

export type MallGrowthReport = components['schemas']['MallGrowthReport'];

/** The selected malls and what their comparison counts: the days compared, and the scope over both periods. */
type ComparedQuery = MallSelection & { compare?: CompareRule | undefined; like_for_like?: boolean | undefined };

/**
 * A range's comparison for a caller: the days `compare` chooses, the scope over both periods in one currency (a
 * rate missing in either answers 409), narrowed to the outlets trading through both when like-for-like is asked.
 */
async function comparedScope(
  db: Queryable,
  currencyOf: CurrencyOf,
  visibility: Visibility,
  query: ComparedQuery,
  range: ReportRange,
) {
  const mallIds = [...new Set(query.mall_ids)];
  const plan = await comparisonPlan(db, query.client_id, mallIds, range, query.compare ?? 'previous');
  const scope = await mallScopeFor(db, currencyOf, visibility, query, plan.both);
  const { counted, likeForLike } = await likeForLikeScope(db, scope, query.like_for_like === true, range, plan);
  return { mallIds, plan, counted, likeForLike };
}

/**
 * GET /api/mall_report/growth's answer: the selected malls' figures over `range` against the days `compare`
 * chooses, like-for-like when asked, both sides from one scope (a rate missing in either answers 409).
 */
export async function mallGrowth(
  db: Queryable,
  currencyOf: CurrencyOf,
  visibility: Visibility,
  query: ComparedQuery,
  range: ReportRange,
): Promise<MallGrowthReport> {
  const { mallIds, plan, counted, likeForLike } = await comparedScope(db, currencyOf, visibility, query, range);
  const [current, compared] = await Promise.all([
    figuresOverDays(
      db,
      counted,
      range,
      mallIds.map((mallId) => ({ mallId, days: eachDay(range.start, range.end) })),
    ),
    figuresOverDays(db, counted, range, plan.mallDays),
  ]);
  return {
    compare: plan.rule,
    current: { start_time: range.start, end_time: range.end, days: daysInRange(range.start, range.end), ...current },
    compared: { start_time: plan.span.start, end_time: plan.span.end, days: plan.dayCount, ...compared },
    aligned: plan.aligned,
    like_for_like: likeForLike,
  };
}

export type MallAmountReport = components['schemas']['MallAmountReport'];

/**
 * GET /api/mall_report/refund's and voucher's answer: the refunds or voucher redemptions of the selected malls over
 * `range` against the days its comparison chooses, like-for-like when asked, both sides from one scope (a rate
 * missing in either answers 409).
 */
export async function mallAmounts(
  db: Queryable,
  currencyOf: CurrencyOf,
  visibility: Visibility,
  query: ComparedQuery,
  range: ReportRange,
  kind: AmountKind,
): Promise<MallAmountReport> {
  const { plan, counted, likeForLike } = await comparedScope(db, currencyOf, visibility, query, range);
  const report = await amountReport(db, counted, range, { span: plan.span, mallDays: plan.mallDays }, kind);
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
}
