import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import type { components } from './schema';

export type Client = components['schemas']['Client'];
export type Outlet = components['schemas']['Outlet'];
export type Mall = components['schemas']['Mall'];

/**
 * Thin wrappers over the lookup calls (§7). Each returns the response body of a 2xx answer and
 * throws an ApiError (status and server message) otherwise.
 */

/** GET /clients: the clients the user may see, sorted case-insensitively by name. */
export async function getClients({ signal, client = api }: CallOptions = {}): Promise<Client[]> {
  return dataOrThrow(await client.GET('/clients', { signal }));
}

/** GET /outlets?client_id=: the client's outlets the user may see. */
export async function getOutlets(clientId: number, { signal, client = api }: CallOptions = {}): Promise<Outlet[]> {
  return dataOrThrow(await client.GET('/outlets', { params: { query: { client_id: clientId } }, signal }));
}

/** GET /malls?client_id=: the client's malls the user may see. */
export async function getMalls(clientId: number, { signal, client = api }: CallOptions = {}): Promise<Mall[]> {
  return dataOrThrow(await client.GET('/malls', { params: { query: { client_id: clientId } }, signal }));
}
