import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import { isCallAllowed } from './middleware/permissionGate';
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

export type FeedAlertSettings = components['schemas']['FeedAlertSettings'];
export type FeedAlertSettingsUpdate =
  operations['updateFeedAlertSettings']['requestBody']['content']['application/json'];

/** GET /api/dataFeeds/settings: the client's rules of feed alerts and unusual days. */
export async function getFeedAlertSettings(
  clientId: number,
  { signal, client = api }: CallOptions = {},
): Promise<FeedAlertSettings> {
  return dataOrThrow(
    await client.GET('/api/dataFeeds/settings', { params: { query: { client_id: clientId } }, signal }),
  );
}

/** PUT /api/dataFeeds/settings: saves the rules; answers them as saved. */
export async function updateFeedAlertSettings(
  body: FeedAlertSettingsUpdate,
  { signal, client = api }: CallOptions = {},
): Promise<FeedAlertSettings> {
  return dataOrThrow(await client.PUT('/api/dataFeeds/settings', { body, signal }));
}

/** Whether the permission gate lets the user set the client's feed and unusual-day rules. */
export function mayEditFeedAlertSettings(): boolean {
  return isCallAllowed('/api/dataFeeds/settings', 'PUT');
}
