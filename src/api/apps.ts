import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import type { components, operations } from './schema';

/** Thin wrappers over the Apps calls (the Xero integration). Each returns the body of a 2xx answer or throws an ApiError. */

export type XeroInfoResponse = components['schemas']['XeroInfoResponse'];
export type XeroInfo = components['schemas']['XeroInfo'];
export type XeroOptions = components['schemas']['XeroOptions'];
export type AccountOption = components['schemas']['AccountOption'];
export type XeroPosting = components['schemas']['XeroPosting'];
export type XeroPostingResult = components['schemas']['XeroPostingResult'];
export type XeroSettingsBody = operations['updateXeroSettings']['requestBody']['content']['application/json'];
export type XeroPostingsQuery = NonNullable<operations['getXeroPostings']['parameters']['query']>;
export type XeroPostingSortColumn = NonNullable<XeroPostingsQuery['sortColumn']>;

export async function getXeroInfo(clientId: number, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.GET('/api/apps/xero/info', { params: { query: { client_id: clientId } }, signal }));
}

/** Starts a connection: answers Xero's address for the browser to go to. */
export async function startXeroConnect(clientId: number, { signal, client = api }: CallOptions = {}) {
  const answer = dataOrThrow(await client.POST('/api/apps/xero/connect', { body: { client_id: clientId }, signal }));
  return answer.authorizationUrl;
}

export async function updateXeroSettings(body: XeroSettingsBody, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.PUT('/api/apps/xero/settings', { body, signal }));
}

export async function disconnectXero(clientId: number, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(
    await client.DELETE('/api/apps/xero/connection', { params: { query: { client_id: clientId } }, signal }),
  );
}

export async function getXeroPostings(query: XeroPostingsQuery, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.GET('/api/apps/xero/postings', { params: { query }, signal }));
}

export async function postXeroDay(
  body: { client_id: number; day: string },
  { signal, client = api }: CallOptions = {},
) {
  return dataOrThrow(await client.POST('/api/apps/xero/postings', { body, signal }));
}
