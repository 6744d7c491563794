import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import type { components, operations } from './schema';

/** The breakeven calls (§7 /api/mall_report/breakeven_target). Each returns the body of a 2xx answer or throws. */

export type BreakevenRow = components['schemas']['BreakevenRow'];
export type BreakevenTotal = components['schemas']['BreakevenTotal'];
export type BreakevenQuery = operations['getBreakevenTarget']['parameters']['query'];
export type BreakevenAnswer = operations['getBreakevenTarget']['responses']['200']['content']['application/json'];
export type BreakevenTargetsBody = NonNullable<
  operations['updateBreakevenTargets']['requestBody']
>['content']['application/json'];

export async function getBreakevenTarget(
  query: BreakevenQuery,
  { signal, client = api }: CallOptions = {},
): Promise<BreakevenAnswer> {
  return dataOrThrow(await client.GET('/api/mall_report/breakeven_target', { params: { query }, signal }));
}

export async function updateBreakevenTargets(body: BreakevenTargetsBody, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.PUT('/api/mall_report/breakeven_target', { body, signal }));
}
