import type { Queryable } from '../db/pool.js';

/** How a report of some malls of a client adds up its money. */
export interface ReportCurrency {
  /** The currency of the figures: the malls' own when they share one, else the client's reporting currency. */
  currency: string;
  /** Whether amounts of other currencies are converted to `currency` (the malls use more than one). */
  converted: boolean;
  /** The malls' currencies. */
  currencies: string[];
  /** For a converted report: the months of the range (YYYY-MM) that have no rate, per currency. */
  missingRates: { currency: string; month: string }[];
}

/**
 * The currency a report of `mallIds` over the days `start`..`end` is in, and the rates it lacks. Malls of one
 * currency are reported in it as they are; malls of several are converted to the client's reporting currency,
 * which needs a rate for every other currency and month of the range that has sales in it (a month without
 * sales adds nothing, rate or not).
 */
export async function reportCurrency(
  db: Queryable,
  clientId: number,
  mallIds: readonly number[],
  range: { start: string; end: string },
): Promise<ReportCurrency> {
  const { rows } = await db.query<{ reporting: string; currencies: string[]; missing: string[] }>(
    `WITH cur AS (SELECT DISTINCT currency FROM malls WHERE client_id = $1 AND id = ANY($2::int[])),
     c AS (SELECT reporting_currency FROM clients WHERE id = $1)
     SELECT (SELECT reporting_currency FROM c) AS reporting,
       ARRAY(SELECT currency FROM cur ORDER BY 1) AS currencies,
       ARRAY(
         SELECT cur.currency || ' ' || to_char(mo, 'YYYY-MM')
         FROM cur CROSS JOIN generate_series(date_trunc('month', $3::date), $4::date, interval '1 month') mo
         WHERE (SELECT count(*) FROM cur) > 1 AND cur.currency <> (SELECT reporting_currency FROM c)
           AND NOT EXISTS (SELECT 1 FROM exchange_rates e
                           WHERE e.client_id = $1 AND e.currency = cur.currency AND e.month = mo::date)
           AND EXISTS (SELECT 1 FROM rollup_mall_day_hours r
                       JOIN malls m ON m.client_id = r.client_id AND m.id = r.mall_id AND m.currency = cur.currency
                       WHERE r.client_id = $1 AND r.mall_id = ANY($2::int[])
                         AND r.local_day BETWEEN greatest(mo::date, $3::date)
                                             AND least((mo + interval '1 month - 1 day')::date, $4::date))
         ORDER BY 1
       ) AS missing`,
    [clientId, mallIds, range.start, range.end],
  );
  const row = rows[0];
  const currencies = row?.currencies ?? [];
  const [only] = currencies;
  if (!row || currencies.length <= 1) {
    return { currency: only ?? row?.reporting ?? 'SGD', converted: false, currencies, missingRates: [] };
  }
  return {
    currency: row.reporting,
    converted: true,
    currencies,
    missingRates: row.missing.map((entry) => {
      const [currency = '', month = ''] = entry.split(' ');
      return { currency, month };
    }),
  };
}
