/**
 * The currency of a mall report (§ money): malls that share a currency are reported in it; malls of several
 * currencies are converted to the client's reporting currency at each month's rate before their amounts are
 * added, and without a rate for a month they are not added at all. The server and the page apply the same rule.
 */

import { formatMonth } from './format';

export interface ReportCurrencyRule {
  /** The currency the figures are in. */
  readonly currency: string;
  /** The other currencies converted to it; empty when nothing is converted. */
  readonly converted: readonly string[];
}

/** The currency of a report of malls in `mallCurrencies` for a client reporting in `reporting`. */
export function reportCurrencyRule(mallCurrencies: readonly string[], reporting: string): ReportCurrencyRule {
  const distinct = [...new Set(mallCurrencies)].sort();
  const [only] = distinct;
  if (distinct.length <= 1) return { currency: only ?? reporting, converted: [] };
  return { currency: reporting, converted: distinct.filter((currency) => currency !== reporting) };
}

/**
 * What a page says under its title when it converts, the rule of its figures ('Figures in SGD; MYR converted per
 * outlet and day at each month’s rate and rounded only for display, so the breakdowns add up to the totals.'):
 * the server converts exactly and rounds each breakdown together (server/repositories/cents.ts).
 */
export function conversionNote(rule: ReportCurrencyRule): string | undefined {
  if (rule.converted.length === 0) return undefined;
  return (
    `Figures in ${rule.currency}; ${rule.converted.join(', ')} converted per outlet and day at each month’s rate ` +
    'and rounded only for display, so the breakdowns add up to the totals.'
  );
}

const monthName = formatMonth;

/** The refusal of a report whose malls need a rate that does not exist (months as YYYY-MM). */
export function missingRatesMessage(
  reporting: string,
  missing: readonly { currency: string; month: string }[],
): string {
  const pairs = missing.slice(0, 3).map(({ currency, month }) => `${currency} in ${monthName(month)}`);
  const more = missing.length > 3 ? ` and ${missing.length - 3} more` : '';
  return (
    `No exchange rate to ${reporting} for ${pairs.join(', ')}${more}. Amounts in different currencies are not ` +
    'added without one: select malls that use one currency, or a period that has rates.'
  );
}
