import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import type { components } from './schema';

/**
 * Cross spending (GET /api/mall_report/crossSpending and /crossSpending/details): where the loyalty members of one
 * outlet also spend in its mall, and one pair of outlets day by day. Each returns the body of a 2xx answer or
 * throws an ApiError (a 404 when the server refuses an outlet).
 */

export type CrossSpendingReport = components['schemas']['CrossSpendingReport'];
export type CrossSpendingDetails = components['schemas']['CrossSpendingDetails'];

/** One outlet of a client over whole days. */
export interface CrossSpendingPeriod {
  readonly clientId: number;
  readonly outletId: number;
  /** `YYYY-MM-DD`, both included, the mall's local days. */
  readonly start: string;
  readonly end: string;
}

const periodQuery = (period: CrossSpendingPeriod) => ({
  client_id: period.clientId,
  outlet_id: period.outletId,
  start_time: period.start,
  end_time: period.end,
});

/** The outlet's member shoppers over the period and the other outlets and categories where they also spent. */
export async function getCrossSpending(
  period: CrossSpendingPeriod,
  { signal, client = api }: CallOptions = {},
): Promise<CrossSpendingReport> {
  return dataOrThrow(
    await client.GET('/api/mall_report/crossSpending', { params: { query: periodQuery(period) }, signal }),
  );
}

/** One pair: the outlet's shoppers and what those who also bought at the other outlet spent there, a row a day. */
export async function getCrossSpendingDetails(
  period: CrossSpendingPeriod & { readonly otherOutletId: number },
  { signal, client = api }: CallOptions = {},
): Promise<CrossSpendingDetails> {
  return dataOrThrow(
    await client.GET('/api/mall_report/crossSpending/details', {
      params: { query: { ...periodQuery(period), other_outlet_id: period.otherOutletId } },
      signal,
    }),
  );
}
