import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import type { components, operations } from './schema';

/**
 * The leases of the client's outlets (/api/leases, issue 33): a page of them, a lease added, a lease changed or
 * ended (its end date set). Each returns the body of a 2xx answer or throws an ApiError.
 */

export type Lease = components['schemas']['Lease'];
export type LeaseRequest = components['schemas']['LeaseRequest'];
export type LeaseUpdate = components['schemas']['LeaseUpdate'];
export type LeasePage = components['schemas']['LeasePage'];
export type LeasesQuery = operations['getLeases']['parameters']['query'];
export type LeaseSortColumn = NonNullable<LeasesQuery['sortColumn']>;

/** One page of the leases of the client's outlets (of the malls given), sorted, searched and filtered. */
export async function getLeases(query: LeasesQuery, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.GET('/api/leases', { params: { query }, signal }));
}

/** Adds a lease of an outlet; answers it as stored. */
export async function createLease(body: LeaseRequest, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.POST('/api/leases', { body, signal }));
}

/** Changes a lease, or ends it (its end date set); answers it as stored. */
export async function updateLease(body: LeaseUpdate, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.PUT('/api/leases', { body, signal }));
}
