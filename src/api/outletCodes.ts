import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import type { components, operations } from './schema';

/** The outlet code calls (§7 /api/mall_report/outletCode). Each returns the body of a 2xx answer or throws an ApiError. */

export type OutletCodeRow = components['schemas']['OutletCodeRow'];
export type OutletCodesQuery = operations['getOutletCodes']['parameters']['query'];
export type OutletCodesPage = operations['getOutletCodes']['responses']['200']['content']['application/json'];
export type OutletCodeSortColumn = NonNullable<OutletCodesQuery['sortColumn']>;
export type OutletCodesBody = NonNullable<
  operations['updateOutletCodes']['requestBody']
>['content']['application/json'];

/** GET /api/mall_report/outletCode: one page of the malls' outlets with their codes, and how many match. */
export async function getOutletCodes(
  query: OutletCodesQuery,
  { signal, client = api }: CallOptions = {},
): Promise<OutletCodesPage> {
  return dataOrThrow(await client.GET('/api/mall_report/outletCode', { params: { query }, signal }));
}

/** PUT /api/mall_report/outletCode: sets the codes of `data` (a 400 names the item of a code already taken). */
export async function updateOutletCodes(body: OutletCodesBody, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.PUT('/api/mall_report/outletCode', { body, signal }));
}
