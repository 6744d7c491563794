import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import type { components, operations } from './schema';

/** The Tenants area's calls (§7 /api/tenant/*). Each returns the body of a 2xx answer or throws an ApiError. */

export type TenantReceipt = components['schemas']['TenantReceipt'];
export type TenantReceiptQuery = NonNullable<operations['getTenantReceiptData']['parameters']['query']>;
export type TenantReceiptPage = components['schemas']['TenantReceiptListResponse'];
export type TenantReceiptSortColumn = NonNullable<TenantReceiptQuery['sortColumn']>;

/** GET /api/tenant/receiptData: one page of the outlet's receipts; `summary[0].total` counts every match. */
export async function getTenantReceiptData(
  query: TenantReceiptQuery,
  { signal, client = api }: CallOptions = {},
): Promise<TenantReceiptPage> {
  return dataOrThrow(await client.GET('/api/tenant/receiptData', { params: { query }, signal }));
}
