import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import type { components, operations } from './schema';

/** The data feeds call (issue 34): whether each outlet of the selected malls is sending receipts. */

export type DataFeedReport = components['schemas']['DataFeedReport'];
export type DataFeedRow = components['schemas']['DataFeedRow'];
export type DataFeedsQuery = operations['getDataFeeds']['parameters']['query'];

/** GET /api/dataFeeds: a row per outlet of the selected malls the caller sees, read now. */
export async function getDataFeeds(
  query: DataFeedsQuery,
  { signal, client = api }: CallOptions = {},
): Promise<DataFeedReport> {
  return dataOrThrow(await client.GET('/api/dataFeeds', { params: { query }, signal }));
}
