import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import type { components, operations } from './schema';

/** The GTO calls (§7 /api/gtoReport/*). Each returns the body of a 2xx answer or throws an ApiError. */

export type GtoSubmission = components['schemas']['GtoSubmission'];
export type GtoSubmissionRequest = components['schemas']['GtoSubmissionRequest'];
export type GtoSummaryRow = components['schemas']['GtoSummaryRow'];
export type GtoSummaryQuery = NonNullable<operations['getGtoSummary']['parameters']['query']>;
export type GtoSummaryPage = operations['getGtoSummary']['responses']['200']['content']['application/json'];
export type GtoFilterOption = NonNullable<GtoSummaryQuery['filterOption']>;
export type GtoSortColumn = NonNullable<GtoSummaryQuery['sortColumn']>;

export async function getGtoSubmission(
  query: { client_id: number; outlet_id: number; searchedMonth: string },
  { signal, client = api }: CallOptions = {},
): Promise<GtoSubmission> {
  return dataOrThrow(await client.GET('/api/gtoReport/submissionData', { params: { query }, signal }));
}

/** POST (a first submission) or PUT (a correction of a submitted month). */
export async function saveGtoSubmission(
  body: GtoSubmissionRequest,
  correction: boolean,
  { signal, client = api }: CallOptions = {},
): Promise<GtoSubmission> {
  const result = correction
    ? await client.PUT('/api/gtoReport/submissionData', { body, signal })
    : await client.POST('/api/gtoReport/submissionData', { body, signal });
  return dataOrThrow(result);
}

export async function getGtoSummary(query: GtoSummaryQuery, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.GET('/api/gtoReport/summary', { params: { query }, signal }));
}

export type GtoOutletMonths = operations['getGtoOutletMonths']['responses']['200']['content']['application/json'];
export type GtoOutletMonth = components['schemas']['GtoOutletMonth'];

/** An outlet's declared GTO beside its captured sales, month by month (`from`..`to`, YYYY-MM). */
export async function getGtoOutletMonths(
  query: { client_id: number; outlet_id: number; from: string; to: string },
  { signal, client = api }: CallOptions = {},
): Promise<GtoOutletMonths> {
  return dataOrThrow(await client.GET('/api/gtoReport/outletMonths', { params: { query }, signal }));
}

export type GtoSettings = components['schemas']['GtoSettings'];

/** The client's GTO review rules: variance threshold, due day, reminders. */
export async function getGtoSettings(
  clientId: number,
  { signal, client = api }: CallOptions = {},
): Promise<GtoSettings> {
  return dataOrThrow(
    await client.GET('/api/gtoReport/settings', { params: { query: { client_id: clientId } }, signal }),
  );
}

export async function updateGtoSettings(
  body: GtoSettings & { client_id: number },
  { signal, client = api }: CallOptions = {},
): Promise<GtoSettings> {
  return dataOrThrow(await client.PUT('/api/gtoReport/settings', { body, signal }));
}

export type GtoNameOption = components['schemas']['NameOption'];

/** A page of 20 of the malls for the review's filter (matching `searchedText`). */
export async function getGtoMallNameOptions(
  query: { client_id: number; searchedText?: string; page: number },
  { signal, client = api }: CallOptions = {},
): Promise<GtoNameOption[]> {
  return (await dataOrThrow(await client.GET('/api/gtoReport/mallNameOption', { params: { query }, signal }))).data;
}

/** A page of 20 of the outlets for the review's filter (of `mall_ids` when given, matching `searchedText`). */
export async function getGtoOutletNameOptions(
  query: { client_id: number; mall_ids?: number[]; searchedText?: string; page: number },
  { signal, client = api }: CallOptions = {},
): Promise<GtoNameOption[]> {
  return (await dataOrThrow(await client.GET('/api/gtoReport/outletNameOption', { params: { query }, signal }))).data;
}
