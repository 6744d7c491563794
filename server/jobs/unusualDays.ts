import dayjs from 'dayjs';
import { formatNumber } from '../../src/domain/format.js';
import {
  BASELINE_WEEKS,
  type Deviation,
  deviationOf,
  formatChange,
  formatZ,
  mallDayPath,
  outletDayPath,
  type UnusualRule,
} from '../../src/domain/unusualDays.js';
import type { Queryable } from '../db/pool.js';
import { type Subscriber, subscriberSees } from '../repositories/scheduledMail.js';
import {
  type DayAgainstBaseline,
  mallDaysAgainstBaseline,
  outletDaysAgainstBaseline,
} from '../repositories/unusualDays.js';
import { money } from './voidAlerts.js';

/**
 * Unusual days (issue 34): the morning evaluation of a summary day's outlets and malls against the same weekday of
 * the last BASELINE_WEEKS weeks (read by server/repositories/unusualDays.ts, judged by src/domain/unusualDays.ts
 * with each client's rule), and the "What changed" section the daily summary gives each subscriber of what they
 * see: an outlet they see, a mall all of whose outlets they see (a mall's day holds every tenant's sales).
 */

export type UnusualMetric = 'gmv' | 'transactions';

/** A day beyond its client's rule: an outlet's, or a mall's when `outlet` is null. */
export interface UnusualDay {
  clientId: number;
  mallId: number;
  mallName: string;
  outlet: { id: number; name: string } | null;
  currency: string;
  /** The festival or public holiday the day was in the mall's country, null when none. */
  holiday: string | null;
  /** The metrics beyond the rule (one or both), GMV in cents. */
  metrics: { metric: UnusualMetric; deviation: Deviation }[];
}

/** The metrics of `row` beyond its client's rule (GMV judged in cents). */
export function unusualMetricsOf(row: DayAgainstBaseline): UnusualDay['metrics'] {
  const rule: UnusualRule = { threshold: row.threshold, minBaselineDays: row.minBaselineDays };
  const judged: [UnusualMetric, Deviation | undefined][] = [
    ['gmv', deviationOf(row.gmvCents, row.baselineGmvCents, rule)],
    ['transactions', deviationOf(row.transactions, row.baselineTransactions, rule)],
  ];
  return judged.flatMap(([metric, deviation]) => (deviation?.unusual ? [{ metric, deviation }] : []));
}

/**
 * The unusual days of `day` among `malls` and their outlets: each mall's own (if unusual), then its outlets', in
 * the order of the mall and outlet names. An outlet that declared the day non-trading is not judged.
 */
export async function unusualDays(
  db: Queryable,
  day: string,
  malls: readonly { clientId: number; mallId: number }[],
): Promise<UnusualDay[]> {
  const mallRows = await mallDaysAgainstBaseline(db, day, malls);
  const outletRows = await outletDaysAgainstBaseline(db, day, malls);
  const flagged: UnusualDay[] = [];
  for (const mall of mallRows) {
    const metrics = unusualMetricsOf(mall);
    const { clientId, mallId, mallName, currency, holiday } = mall;
    if (metrics.length > 0) flagged.push({ clientId, mallId, mallName, outlet: null, currency, holiday, metrics });
    for (const row of outletRows) {
      if (row.clientId !== clientId || row.mallId !== mallId || row.nonTrading) continue;
      const outletMetrics = unusualMetricsOf(row);
      if (outletMetrics.length === 0) continue;
      flagged.push({
        clientId,
        mallId,
        mallName,
        outlet: { id: row.outletId, name: row.outletName },
        currency: row.currency,
        holiday: row.holiday,
        metrics: outletMetrics,
      });
    }
  }
  return flagged;
}

/**
 * Those of `flagged` that `subscriber` sees: of its client, an outlet it sees, a mall all of whose outlets it sees
 * (`outletsOfMall`: the mall's outlets of the summary).
 */
export function unusualDaysSeen(
  subscriber: Subscriber,
  flagged: readonly UnusualDay[],
  outletsOfMall: (clientId: number, mallId: number) => readonly number[],
): UnusualDay[] {
  return flagged.filter(
    (flag) =>
      flag.clientId === subscriber.clientId &&
      (flag.outlet === null
        ? outletsOfMall(flag.clientId, flag.mallId).every((outletId) => subscriberSees(subscriber, outletId))
        : subscriberSees(subscriber, flag.outlet.id)),
  );
}

/** 'GMV $2,000.00 SGD, 60.0% above the usual $1,250.00 SGD (robust z +4.05)'. */
function metricText(metric: UnusualMetric, deviation: Deviation, currency: string): string {
  const amount = (value: number) => (metric === 'gmv' ? money(value / 100, currency) : formatNumber(value));
  const spread = deviation.z === null ? 'the usual weeks alike' : `robust z ${formatZ(deviation.z)}`;
  return (
    `${metric === 'gmv' ? 'GMV' : 'transactions'} ${amount(deviation.value)}, ${formatChange(deviation)} ` +
    `the usual ${amount(deviation.median)} (${spread})`
  );
}

/**
 * The "What changed" section of `day`'s summary to `subscriber` (its flags only, see unusualDaysSeen): a line a
 * flag with how far and which way, the holiday the day was, and a link to the page and days that show it. Empty
 * when nothing is unusual: the summary then leaves the section out.
 */
export function whatChangedLines(
  subscriber: Subscriber,
  day: string,
  flagged: readonly UnusualDay[],
  publicUrl: string,
): string[] {
  if (flagged.length === 0) return [];
  const lines = [`What changed: days far from the same weekday of the last ${BASELINE_WEEKS} weeks`];
  for (const flag of flagged) {
    const name = flag.outlet === null ? flag.mallName : `${flag.outlet.name} (${flag.mallName})`;
    const metrics = flag.metrics.map(({ metric, deviation }) => metricText(metric, deviation, flag.currency));
    const holiday = flag.holiday === null ? '' : `; ${dayjs(day).format('D MMMM')} was ${flag.holiday}`;
    const path =
      flag.outlet === null
        ? mallDayPath(flag.clientId, flag.mallId, day)
        : outletDayPath(
            { clientId: flag.clientId, mallId: flag.mallId, outletId: flag.outlet.id },
            day,
            subscriber.outletIds !== null,
          );
    lines.push(`  - ${name}: ${metrics.join('; ')}${holiday}`, `    ${publicUrl}${path}`);
  }
  lines.push('');
  return lines;
}
