import { addDays } from './dateLimits';
import { toFilterQuery } from './filterUrl';
import { currencyFormat, formatMoney, formatNumber } from './format';

/**
 * Alert rules people set themselves (issue 34): a metric of a scope judged by a condition once each period of a
 * schedule closes. The rules between a rule's fields (which the server answers with a 400 naming the field and the
 * editor shows at the field), the value of a metric from a period's figures, whether a value breaches its
 * condition, and the words and links of a firing. The server's check (server/jobs/alertRules.ts) and the Alerts
 * page use the same functions.
 */

export type AlertMetric = 'gmv' | 'transactions' | 'average_transaction_value' | 'refunds' | 'voucher_redemptions';
export type AlertConditionKind = 'below' | 'above' | 'change_vs_weekdays' | 'change_vs_previous';
export type AlertScheduleKind = 'hourly' | 'daily' | 'monthly';

export const ALERT_METRICS: readonly AlertMetric[] = [
  'gmv',
  'transactions',
  'average_transaction_value',
  'refunds',
  'voucher_redemptions',
];
export const ALERT_CONDITION_KINDS: readonly AlertConditionKind[] = [
  'below',
  'above',
  'change_vs_weekdays',
  'change_vs_previous',
];
export const ALERT_SCHEDULE_KINDS: readonly AlertScheduleKind[] = ['hourly', 'daily', 'monthly'];

export const METRIC_LABELS: Record<AlertMetric, string> = {
  gmv: 'GMV',
  transactions: 'Transactions',
  average_transaction_value: 'Average transaction value',
  refunds: 'Refunds',
  voucher_redemptions: 'Voucher redemptions',
};

export const CONDITION_LABELS: Record<AlertConditionKind, string> = {
  below: 'Below a value',
  above: 'Above a value',
  change_vs_weekdays: 'Change against the same weekday of the last weeks',
  change_vs_previous: 'Change against the previous period',
};

export const SCHEDULE_LABELS: Record<AlertScheduleKind, string> = {
  hourly: 'Hourly',
  daily: 'Daily',
  monthly: 'Monthly',
};

/** The longest name, the most weeks, the largest percentage of a change. */
export const ALERT_NAME_MAX = 80;
export const ALERT_WEEKS_MAX = 12;
export const ALERT_PERCENT_MAX = 1000;
export const ALERT_VALUE_MAX = 999_999_999_999.99;
export const ALERT_RECIPIENTS_MAX = 50;

/** Whether a metric is money (in the malls' currency) rather than a count. */
export const isMoneyMetric = (metric: AlertMetric) => metric !== 'transactions';

/** Whether a metric is counted by the hour (the hour rollup keeps GMV and transactions only). */
export const isHourlyMetric = (metric: AlertMetric) =>
  metric === 'gmv' || metric === 'transactions' || metric === 'average_transaction_value';

/** Whether a condition is a percentage change rather than a bound. */
export const isChangeCondition = (kind: AlertConditionKind) =>
  kind === 'change_vs_weekdays' || kind === 'change_vs_previous';

/** What the rules between fields look at (the request's fields, or the editor's draft). */
export interface AlertRuleFields {
  readonly name: string;
  readonly metric: AlertMetric;
  readonly mall_ids: readonly number[];
  readonly condition_kind: AlertConditionKind;
  readonly condition_value: number;
  readonly weeks: number;
  readonly schedule_kind: AlertScheduleKind;
  readonly schedule_time: string;
  readonly recipient_ids: readonly number[];
}

/** A rule broken, with the field it names (the 400's message starts with it). */
export interface AlertRuleProblem {
  readonly field: keyof AlertRuleFields;
  readonly message: string;
}

/** The messages of the rules between fields (§8 style: what is wrong and what is right). */
export const ALERT_RULE_MESSAGES = {
  name: 'Please enter a name.',
  malls: 'Please select at least one mall.',
  recipients: 'Please select at least one recipient.',
  hourlyMetric: 'Refunds and voucher redemptions are counted by day: choose a daily or monthly schedule.',
  weekdaysMonthly: 'A monthly rule compares with the previous month: choose the previous period.',
  percent: `Please enter a percentage above 0 and at most ${ALERT_PERCENT_MAX}.`,
  value: `Please enter a value from 0 to ${formatNumber(ALERT_VALUE_MAX)}.`,
  weeks: `Please enter 1 to ${ALERT_WEEKS_MAX} weeks.`,
  time: 'Please enter a time as HH:mm.',
  saved: 'Save Successfully.',
  saveFailed: 'Save Failed.',
  deleted: (name: string) => `${name} has been deleted successfully.`,
  deleteFailed: (name: string) => `Delete ${name} failed.`,
  acknowledged: 'Firing has been acknowledged.',
  acknowledgeFailed: 'Acknowledge failed.',
} as const;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The first rule between `rule`'s fields it breaks, undefined when it breaks none. */
export function alertRuleProblem(rule: AlertRuleFields): AlertRuleProblem | undefined {
  if (rule.name.trim() === '') return { field: 'name', message: ALERT_RULE_MESSAGES.name };
  if (rule.mall_ids.length === 0) return { field: 'mall_ids', message: ALERT_RULE_MESSAGES.malls };
  if (rule.schedule_kind === 'hourly' && !isHourlyMetric(rule.metric)) {
    return { field: 'schedule_kind', message: ALERT_RULE_MESSAGES.hourlyMetric };
  }
  if (rule.schedule_kind === 'monthly' && rule.condition_kind === 'change_vs_weekdays') {
    return { field: 'condition_kind', message: ALERT_RULE_MESSAGES.weekdaysMonthly };
  }
  const value = rule.condition_value;
  if (isChangeCondition(rule.condition_kind)) {
    if (!Number.isFinite(value) || value <= 0 || value > ALERT_PERCENT_MAX) {
      return { field: 'condition_value', message: ALERT_RULE_MESSAGES.percent };
    }
  } else if (!Number.isFinite(value) || value < 0 || value > ALERT_VALUE_MAX) {
    return { field: 'condition_value', message: ALERT_RULE_MESSAGES.value };
  }
  if (!Number.isInteger(rule.weeks) || rule.weeks < 1 || rule.weeks > ALERT_WEEKS_MAX) {
    return { field: 'weeks', message: ALERT_RULE_MESSAGES.weeks };
  }
  if (!TIME.test(rule.schedule_time)) return { field: 'schedule_time', message: ALERT_RULE_MESSAGES.time };
  if (rule.recipient_ids.length === 0) return { field: 'recipient_ids', message: ALERT_RULE_MESSAGES.recipients };
  return undefined;
}

/** A period's figures of a scope, money in cents (exact). */
export interface PeriodFigures {
  readonly gmvCents: number;
  readonly transactions: number;
  readonly refundCents: number;
  readonly voucherCents: number;
}

/**
 * The value of `metric` over a period's figures: money in the currency's units (to the cent), transactions a count;
 * undefined for an average transaction value without a transaction.
 */
export function metricValue(metric: AlertMetric, figures: PeriodFigures): number | undefined {
  switch (metric) {
    case 'gmv':
      return figures.gmvCents / 100;
    case 'transactions':
      return figures.transactions;
    case 'average_transaction_value':
      return figures.transactions === 0 ? undefined : Math.round(figures.gmvCents / figures.transactions) / 100;
    case 'refunds':
      return figures.refundCents / 100;
    case 'voucher_redemptions':
      return figures.voucherCents / 100;
  }
}

/** The mean of the compared periods' values that have one (to the cent), undefined when none has. */
export function comparedMean(values: readonly (number | undefined)[]): number | undefined {
  const known = values.filter((value): value is number => value !== undefined);
  if (known.length === 0) return undefined;
  return Math.round((known.reduce((sum, value) => sum + value, 0) / known.length) * 100) / 100;
}

/** A condition as a rule holds it. */
export interface AlertCondition {
  readonly kind: AlertConditionKind;
  readonly value: number;
}

/**
 * Whether `value` breaches `condition`, and what it was compared with: the bound itself, or the compared value
 * (`compared`: the mean of the same weekdays, or the previous period). A change is judged only against a compared
 * value above 0 (no percentage of nothing); its breach is a change of more than the percentage either way.
 */
export function breachOf(
  condition: AlertCondition,
  value: number | undefined,
  compared?: number,
): { compared: number } | undefined {
  if (value === undefined) return undefined;
  if (condition.kind === 'below') return value < condition.value ? { compared: condition.value } : undefined;
  if (condition.kind === 'above') return value > condition.value ? { compared: condition.value } : undefined;
  if (compared === undefined || compared <= 0) return undefined;
  return Math.abs(changePercent(value, compared)) > condition.value ? { compared } : undefined;
}

/** The change of `value` against `compared` (above 0), in percent. */
export function changePercent(value: number, compared: number): number {
  return ((value - compared) / compared) * 100;
}

/** A metric's value in words: money in the currency, a count with thousands separators. */
export function formatMetricValue(metric: AlertMetric, value: number, currency: string | null): string {
  return isMoneyMetric(metric) ? formatMoney(value, currencyFormat(currency)) : formatNumber(value);
}

/** A rule's condition in words: 'GMV below S$1,000.00', 'Transactions change over 20% vs the previous period'. */
export function conditionText(
  rule: { metric: AlertMetric; condition_kind: AlertConditionKind; condition_value: number; weeks: number },
  currency: string | null,
): string {
  const metric = METRIC_LABELS[rule.metric];
  switch (rule.condition_kind) {
    case 'below':
      return `${metric} below ${formatMetricValue(rule.metric, rule.condition_value, currency)}`;
    case 'above':
      return `${metric} above ${formatMetricValue(rule.metric, rule.condition_value, currency)}`;
    case 'change_vs_weekdays':
      return `${metric} changes more than ${formatNumber(rule.condition_value)}% against the same weekday of the last ${
        rule.weeks === 1 ? 'week' : `${rule.weeks} weeks`
      }`;
    case 'change_vs_previous':
      return `${metric} changes more than ${formatNumber(rule.condition_value)}% against the previous period`;
  }
}

/** A rule's schedule in words: 'Hourly', 'Daily at 08:00', 'Monthly, on the 1st at 08:00'. */
export function scheduleText(rule: { schedule_kind: AlertScheduleKind; schedule_time: string }): string {
  if (rule.schedule_kind === 'hourly') return 'Hourly';
  return rule.schedule_kind === 'daily'
    ? `Daily at ${rule.schedule_time}`
    : `Monthly, on the 1st at ${rule.schedule_time}`;
}

/** A period key in words: '2026-03-04 14:00-15:00', '2026-03-04', '2026-03'. */
export function periodText(key: string): string {
  const hourly = /^(\d{4}-\d{2}-\d{2})T(\d{2})$/.exec(key);
  if (!hourly) return key;
  const hour = Number(hourly[2]);
  return `${hourly[1]} ${String(hour).padStart(2, '0')}:00-${String(hour + 1).padStart(2, '0')}:00`;
}

/** The last day of the month 'YYYY-MM'. */
function lastDayOfMonth(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const next = monthNumber === 12 ? `${year + 1}-01-01` : `${year}-${String(monthNumber + 1).padStart(2, '0')}-01`;
  return addDays(next, -1);
}

/**
 * Where a firing is seen: Mall Home of the rule's client and malls (its one outlet when it names one) over the
 * period's days (and its hour, for an hourly rule).
 */
export function firingPath(
  rule: { clientId: number; mallIds: readonly number[]; outletIds: readonly number[] },
  periodKey: string,
): string {
  const hourly = /^(\d{4}-\d{2}-\d{2})T(\d{2})$/.exec(periodKey);
  const monthly = /^\d{4}-\d{2}$/.test(periodKey);
  const day = hourly ? (hourly[1] as string) : periodKey;
  const dateRange = monthly ? { start: `${periodKey}-01`, end: lastDayOfMonth(periodKey) } : { start: day, end: day };
  const hour = hourly ? Number(hourly[2]) : undefined;
  const [only] = rule.outletIds;
  return `/shopper-connect/mall-home?${toFilterQuery({
    clientId: rule.clientId,
    mallIds: rule.mallIds,
    ...(rule.outletIds.length === 1 && only !== undefined ? { outlet: only } : {}),
    dateRange,
    ...(hour === undefined ? {} : { hours: { from: hour, to: hour } }),
  })}`;
}

/* ---------------------------------------------------------------- the Alerts page */

/** What the page's failed loads are called ('Alert rules error occurs. Please try again later.'). */
export const ALERT_RULES_WHAT = 'Alert rules';
export const ALERT_FIRINGS_WHAT = 'Alert history';

/** The editor's draft of a rule (the outlets as ids, the request joins them). */
export interface AlertRuleDraft extends AlertRuleFields {
  readonly category: string | null;
  readonly outlet_ids: readonly number[];
  readonly active: boolean;
}

/** What a page prefills a new rule with: its malls, category, outlets and metric. */
export interface AlertRulePrefill {
  readonly mallIds: readonly number[];
  readonly category?: string | null | undefined;
  readonly outletIds?: readonly number[] | undefined;
  readonly metric?: AlertMetric | undefined;
}

/** A new rule's draft: GMV below 0 of the page's scope, daily at 08:00, to the user who makes it. */
export function newAlertRuleDraft(prefill: AlertRulePrefill, userId: number | undefined): AlertRuleDraft {
  return {
    name: '',
    metric: prefill.metric ?? 'gmv',
    mall_ids: [...prefill.mallIds],
    category: prefill.category ?? null,
    outlet_ids: [...(prefill.outletIds ?? [])],
    condition_kind: 'below',
    condition_value: 0,
    weeks: 4,
    schedule_kind: 'daily',
    schedule_time: '08:00',
    recipient_ids: userId === undefined ? [] : [userId],
    active: true,
  };
}

/** A stored rule as the editor's draft. */
export function draftOfRule(rule: AlertRuleDraft): AlertRuleDraft {
  return {
    name: rule.name,
    metric: rule.metric,
    mall_ids: [...rule.mall_ids],
    category: rule.category,
    outlet_ids: [...rule.outlet_ids],
    condition_kind: rule.condition_kind,
    condition_value: rule.condition_value,
    weeks: rule.weeks,
    schedule_kind: rule.schedule_kind,
    schedule_time: rule.schedule_time,
    recipient_ids: [...rule.recipient_ids],
    active: rule.active,
  };
}

/** The request body of a draft for `clientId` (outlets comma-joined, left out when none). */
export function requestOfDraft(clientId: number, draft: AlertRuleDraft) {
  return {
    client_id: clientId,
    name: draft.name.trim(),
    metric: draft.metric,
    mall_ids: [...draft.mall_ids],
    ...(draft.category === null ? {} : { category: draft.category }),
    ...(draft.outlet_ids.length === 0 ? {} : { outlet_ids: draft.outlet_ids.join(',') }),
    condition_kind: draft.condition_kind,
    condition_value: draft.condition_value,
    weeks: draft.weeks,
    schedule_kind: draft.schedule_kind,
    schedule_time: draft.schedule_time,
    recipient_ids: [...draft.recipient_ids],
    active: draft.active,
  };
}

/** The columns the rules table sorts by. */
export type AlertRuleSortColumn = 'name' | 'metric' | 'schedule' | 'last_fired_at' | 'firing_count';
export interface AlertRuleSort {
  readonly column: AlertRuleSortColumn;
  readonly order: 'asc' | 'desc';
}
export const DEFAULT_ALERT_RULE_SORT: AlertRuleSort = { column: 'name', order: 'asc' };

/** The same column turns around; a new one sorts descending first (the tables' rule). */
export function nextAlertRuleSort(sort: AlertRuleSort, column: AlertRuleSortColumn): AlertRuleSort {
  if (sort.column === column) return { column, order: sort.order === 'asc' ? 'desc' : 'asc' };
  return { column, order: 'desc' };
}

interface ListedRule {
  readonly name: string;
  readonly metric: AlertMetric;
  readonly schedule_kind: AlertScheduleKind;
  readonly last_fired_at: string | null;
  readonly firing_count: number;
}

const SORT_KEY: Record<AlertRuleSortColumn, (rule: ListedRule) => string | number> = {
  name: (rule) => rule.name.toLowerCase(),
  metric: (rule) => METRIC_LABELS[rule.metric],
  schedule: (rule) => ALERT_SCHEDULE_KINDS.indexOf(rule.schedule_kind),
  last_fired_at: (rule) => rule.last_fired_at ?? '',
  firing_count: (rule) => rule.firing_count,
};

/** The rules whose name holds `search` (any case), in `sort`'s order (ties by name). */
export function visibleAlertRules<Rule extends ListedRule>(
  rules: readonly Rule[],
  search: string,
  sort: AlertRuleSort,
): Rule[] {
  const needle = search.trim().toLowerCase();
  const key = SORT_KEY[sort.column];
  const sign = sort.order === 'asc' ? 1 : -1;
  return rules
    .filter((rule) => needle === '' || rule.name.toLowerCase().includes(needle))
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      if (x !== y) return (x < y ? -1 : 1) * sign;
      return a.name.localeCompare(b.name);
    });
}

/**
 * The categories the editor offers for the malls chosen: each category of those malls' outlets (the rules answer's
 * `categories`), by name, once; and the draft's own when none of them has it (a rule saved before its outlets
 * changed), so that editing it never loses it silently.
 */
export function categoryChoices(
  categories: readonly { readonly mall_id: number; readonly name: string }[],
  mallIds: readonly number[],
  current: string | null,
): string[] {
  const names = new Set(categories.filter((entry) => mallIds.includes(entry.mall_id)).map((entry) => entry.name));
  if (current !== null) names.add(current);
  return [...names].sort((a, b) => a.localeCompare(b));
}
