import type PgBoss from 'pg-boss';
import {
  breachOf,
  changePercent,
  comparedMean,
  conditionText,
  firingPath,
  formatMetricValue,
  isMoneyMetric,
  METRIC_LABELS,
  metricValue,
  type PeriodFigures,
  periodText,
} from '../../src/domain/alertRules.js';
import { addDays } from '../../src/domain/dateLimits.js';
import { formatNumber } from '../../src/domain/format.js';
import { hasPermission } from '../../src/domain/permissions.js';
import { inTransaction, type Pool, type Queryable } from '../db/pool.js';
import type { Mail } from '../mail/mailer.js';
import {
  type DueAlertRule,
  dueAlertRules,
  figuresOverDaySpans,
  figuresOverHours,
  insertFiring,
  localInstants,
  ruleScopeOutlets,
} from '../repositories/alertRules.js';
import { findUserById, loadUserGrants, type UserGrants } from '../repositories/users.js';
import { enqueueMail } from './mailDelivery.js';
import { registerPeriodic } from './periodic.js';
import type { JobContext } from './queue.js';

/**
 * Alert rules (issue 34): every ALERT_CHECK_EVERY_MINUTES the check reads the active rules whose period has closed
 * at its now in their malls' zone (an hour, yesterday after the set time, last month after the set time of the
 * first) and has not fired, reads the period's figures of the rule's scope from the rollups (never receipts) and
 * what the condition compares them with, and for a breach inserts the firing (once per rule and period: ON
 * CONFLICT DO NOTHING) and, in the same transaction, one mail per recipient who may still read the scope. Run
 * again, on several instances at once or after a restart, a period fires once.
 */

export const ALERT_RULES_QUEUE = 'alert-rules';

/** The report a recipient must read to be told of a rule's figures (Mall Home's days). */
const REPORT_PATH = '/api/mall_report/daily';

/**
 * Whether a user of `grants` may read the whole scope of a rule of `clientId` now: of the client (or a super admin),
 * a super admin or a role that reads the mall reports, and no limit to some outlets of the client that leaves one of
 * the scope's outlets out (the reports' access rule).
 */
export function grantsSeeScope(grants: UserGrants, clientId: number, scopeOutlets: readonly number[]): boolean {
  if (!grants.clientIds.includes(clientId)) return false;
  if (!grants.isSuperAdmin && !hasPermission(grants.apiPermissions, REPORT_PATH, 'GET')) return false;
  const limit = grants.outletLimits.get(clientId);
  return limit === undefined || scopeOutlets.every((id) => limit.includes(id));
}

/** The recipients who are active and may read the whole scope at this moment, by e-mail. */
async function recipientsSeeingScope(
  db: Queryable,
  clientId: number,
  userIds: readonly number[],
  scopeOutlets: readonly number[],
): Promise<{ userId: number; email: string }[]> {
  const seeing: { userId: number; email: string }[] = [];
  for (const userId of userIds) {
    const user = await findUserById(db, userId);
    if (!user || user.disabled) continue;
    if (grantsSeeScope(await loadUserGrants(db, userId), clientId, scopeOutlets)) {
      seeing.push({ userId, email: user.email });
    }
  }
  return seeing.sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
}

/** One period a rule reads: local days (both included) or an hour of a day. */
type Span = { kind: 'days'; start: string; end: string } | { kind: 'hour'; day: string; hour: number };

const hourText = (hour: number) => `${String(hour).padStart(2, '0')}:00:00`;

/** The local start and end (excluded) of a span, 'YYYY-MM-DD HH:mm:ss'. */
function localBounds(span: Span): [string, string] {
  if (span.kind === 'days') return [`${span.start} 00:00:00`, `${addDays(span.end, 1)} 00:00:00`];
  return span.hour === 23
    ? [`${span.day} ${hourText(23)}`, `${addDays(span.day, 1)} 00:00:00`]
    : [`${span.day} ${hourText(span.hour)}`, `${span.day} ${hourText(span.hour + 1)}`];
}

/** The month before 'YYYY-MM-DD' (its first day) as a span of days. */
function previousMonth(firstDay: string): Span {
  const end = addDays(firstDay, -1);
  return { kind: 'days', start: `${end.slice(0, 7)}-01`, end };
}

/** The periods a rule compares its period with: the same weekday of the last weeks, or the previous period. */
function comparedSpans(rule: DueAlertRule, period: Span): Span[] {
  if (rule.conditionKind === 'below' || rule.conditionKind === 'above') return [];
  if (period.kind === 'hour') {
    if (rule.conditionKind === 'change_vs_previous') {
      return [
        period.hour === 0
          ? { kind: 'hour', day: addDays(period.day, -1), hour: 23 }
          : { kind: 'hour', day: period.day, hour: period.hour - 1 },
      ];
    }
    return Array.from({ length: rule.weeks }, (_, week) => ({
      kind: 'hour' as const,
      day: addDays(period.day, -7 * (week + 1)),
      hour: period.hour,
    }));
  }
  if (rule.scheduleKind === 'monthly') return [previousMonth(period.start)];
  if (rule.conditionKind === 'change_vs_previous') {
    const day = addDays(period.start, -1);
    return [{ kind: 'days', start: day, end: day }];
  }
  return Array.from({ length: rule.weeks }, (_, week) => {
    const day = addDays(period.start, -7 * (week + 1));
    return { kind: 'days' as const, start: day, end: day };
  });
}

/** The span of a rule's period. */
function periodSpan(rule: DueAlertRule): Span {
  if (rule.scheduleKind === 'hourly') return { kind: 'hour', day: rule.day, hour: rule.hour };
  if (rule.scheduleKind === 'daily') return { kind: 'days', start: rule.day, end: rule.day };
  const nextMonth = `${addDays(`${rule.periodKey}-28`, 7).slice(0, 7)}-01`;
  return { kind: 'days', start: rule.day, end: addDays(nextMonth, -1) };
}

async function figuresOf(
  db: Queryable,
  rule: DueAlertRule,
  outlets: number[],
  spans: Span[],
): Promise<PeriodFigures[]> {
  if (spans.every((span) => span.kind === 'hour')) {
    return figuresOverHours(db, rule.clientId, outlets, spans);
  }
  return figuresOverDaySpans(
    db,
    rule.clientId,
    outlets,
    spans.map((span) => (span.kind === 'days' ? span : { start: span.day, end: span.day })),
  );
}

/** What a rule's period came to, when it breaches its condition. */
export interface RuleBreach {
  value: number;
  compared: number;
  /** The compared periods from the first's start to the last's end (excluded); null for a bound. */
  comparedStart: Date | null;
  comparedEnd: Date | null;
  /** The compared periods in words ('the same weekday of the last 4 weeks (2026-02-04 to 2026-02-25)'). */
  comparedText: string;
}

/** Judges `rule`'s period over `outlets` (its scope): the breach, or undefined when the condition holds. */
export async function judgeRule(db: Queryable, rule: DueAlertRule, outlets: number[]): Promise<RuleBreach | undefined> {
  const period = periodSpan(rule);
  const compared = comparedSpans(rule, period);
  const [current, ...others] = await figuresOf(db, rule, outlets, [period, ...compared]);
  if (!current) return undefined;
  const value = metricValue(rule.metric, current);
  const mean = comparedMean(others.map((figures) => metricValue(rule.metric, figures)));
  const breach = breachOf({ kind: rule.conditionKind, value: rule.conditionValue }, value, mean);
  if (!breach || value === undefined) return undefined;
  if (compared.length === 0) {
    return { value, compared: breach.compared, comparedStart: null, comparedEnd: null, comparedText: 'the set value' };
  }
  const bounds = compared.map(localBounds);
  const starts = bounds.map(([start]) => start).sort();
  const ends = bounds.map(([, end]) => end).sort();
  const [comparedStart, comparedEnd] = await localInstants(db, rule.timeZone, [
    starts[0] as string,
    ends[ends.length - 1] as string,
  ]);
  const firstDay = (starts[0] as string).slice(0, 10);
  const lastDay = (starts[starts.length - 1] as string).slice(0, 10);
  const days = firstDay === lastDay ? firstDay : `${firstDay} to ${lastDay}`;
  const comparedText =
    rule.conditionKind === 'change_vs_previous'
      ? `the previous ${rule.scheduleKind === 'hourly' ? 'hour' : rule.scheduleKind === 'daily' ? 'day' : 'month'} (${days})`
      : `the mean of the same weekday${rule.scheduleKind === 'hourly' ? ' and hour' : ''} of the last ${
          rule.weeks === 1 ? 'week' : `${rule.weeks} weeks`
        } (${days})`;
  return {
    value,
    compared: breach.compared,
    comparedStart: comparedStart ?? null,
    comparedEnd: comparedEnd ?? null,
    comparedText,
  };
}

/** The mail of `rule`'s firing for `breach` to `email`. */
export function alertRuleMail(email: string, rule: DueAlertRule, breach: RuleBreach, publicUrl: string): Mail {
  const currency = isMoneyMetric(rule.metric) ? rule.currency : null;
  const value = formatMetricValue(rule.metric, breach.value, currency);
  const compared = formatMetricValue(rule.metric, breach.compared, currency);
  const scope = [
    rule.mallNames.join(', '),
    ...(rule.category === null ? [] : [`category ${rule.category}`]),
    ...(rule.outletIds.length === 0 ? [] : [`${formatNumber(rule.outletIds.length)} outlet(s)`]),
  ].join('; ');
  const change =
    breach.comparedStart === null
      ? ''
      : ` (${changePercent(breach.value, breach.compared) >= 0 ? '+' : ''}${formatNumber(
          Math.round(changePercent(breach.value, breach.compared) * 10) / 10,
        )}%)`;
  const rulePath = { clientId: rule.clientId, mallIds: rule.mallIds, outletIds: rule.outletIds };
  return {
    to: email,
    subject: `Alert: ${rule.name} (${periodText(rule.periodKey)})`,
    text: [
      `Your alert rule "${rule.name}" fired: ${conditionText(
        {
          metric: rule.metric,
          condition_kind: rule.conditionKind,
          condition_value: rule.conditionValue,
          weeks: rule.weeks,
        },
        currency,
      )}.`,
      '',
      `Scope: ${scope}`,
      `Period: ${periodText(rule.periodKey)} (${rule.timeZone})`,
      `${METRIC_LABELS[rule.metric]}: ${value}${change}`,
      `Compared with: ${compared}, ${breach.comparedText}`,
      '',
      `See it on Mall Home: ${publicUrl}${firingPath(rulePath, rule.periodKey)}`,
      `The rule and its history, for ${rule.clientName}: ${publicUrl}/shopper-connect/alerts`,
    ].join('\n'),
  };
}

/**
 * Checks every rule due at `now`: each breach is recorded once per rule and period with its mails, in one
 * transaction. Answers the rules judged, the firings recorded and the mails enqueued.
 */
export async function checkAlertRules(deps: {
  pool: Pool;
  boss: PgBoss;
  publicUrl: string;
  now: Date;
}): Promise<{ judged: number; fired: number; mails: number }> {
  const due = await dueAlertRules(deps.pool, deps.now);
  let fired = 0;
  let mails = 0;
  for (const rule of due) {
    const outlets = await ruleScopeOutlets(deps.pool, rule);
    if (outlets.length === 0) continue;
    const breach = await judgeRule(deps.pool, rule, outlets);
    if (!breach) continue;
    const sent = await inTransaction(deps.pool, async (tx) => {
      const id = await insertFiring(tx, {
        clientId: rule.clientId,
        ruleId: rule.id,
        periodKey: rule.periodKey,
        periodStart: rule.periodStart,
        periodEnd: rule.periodEnd,
        value: breach.value,
        comparedValue: breach.compared,
        comparedStart: breach.comparedStart,
        comparedEnd: breach.comparedEnd,
        currency: isMoneyMetric(rule.metric) ? rule.currency : null,
        firedAt: deps.now,
      });
      if (id === undefined) return undefined;
      let count = 0;
      for (const recipient of await recipientsSeeingScope(tx, rule.clientId, rule.recipientIds, outlets)) {
        const mail = alertRuleMail(recipient.email, rule, breach, deps.publicUrl);
        await enqueueMail(
          deps.boss,
          tx,
          {
            clientId: rule.clientId,
            kind: 'alert_rule',
            userId: recipient.userId,
            recipient: mail.to,
            subject: mail.subject,
            text: mail.text,
          },
          deps.publicUrl,
        );
        count += 1;
      }
      return count;
    });
    if (sent === undefined) continue;
    fired += 1;
    mails += sent;
  }
  return { judged: due.length, fired, mails };
}

/** The alert rules' check, every `everyMinutes` (0: never). */
export async function registerAlertRules(
  context: JobContext,
  options: { everyMinutes: number; pollingIntervalSeconds?: number },
): Promise<void> {
  await registerPeriodic(context.boss, {
    queue: ALERT_RULES_QUEUE,
    minutes: options.everyMinutes,
    log: context.log,
    ...(options.pollingIntervalSeconds === undefined ? {} : { pollingIntervalSeconds: options.pollingIntervalSeconds }),
    run: async () => {
      const checked = await checkAlertRules({ ...context, now: new Date() });
      if (checked.fired > 0) context.log.info(checked, 'alert rules fired');
    },
  });
}
