import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import type { components, operations } from './schema';

/** The point-of-sale device key calls (Settings). Each returns the body of a 2xx answer or throws an ApiError. */

export type DeviceKey = components['schemas']['DeviceKey'];
export type DeviceKeyCreated = components['schemas']['DeviceKeyCreated'];
export type DeviceKeysQuery = NonNullable<operations['getDeviceKeys']['parameters']['query']>;
export type DeviceKeysPage = operations['getDeviceKeys']['responses']['200']['content']['application/json'];
export type DeviceKeySortColumn = NonNullable<DeviceKeysQuery['sortColumn']>;
export type DeviceKeysRowsPerPage = NonNullable<DeviceKeysQuery['rowsPerPage']>;
export type CreateDeviceKeyBody = operations['createDeviceKey']['requestBody']['content']['application/json'];

/** GET /api/deviceKeys: one page of the keys of a mall's outlets, and how many match. */
export async function getDeviceKeys(query: DeviceKeysQuery, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.GET('/api/deviceKeys', { params: { query }, signal }));
}

/** POST /api/deviceKeys: creates a key for one outlet; answers the key (this once) and its row. */
export async function createDeviceKey(
  body: CreateDeviceKeyBody,
  { signal, client = api }: CallOptions = {},
): Promise<DeviceKeyCreated> {
  return dataOrThrow(await client.POST('/api/deviceKeys', { body, signal }));
}

/** DELETE /api/deviceKeys: revokes a key (a key revoked before answers as it is); answers its row. */
export async function revokeDeviceKey(
  query: { client_id: number; id: number },
  { signal, client = api }: CallOptions = {},
): Promise<DeviceKey> {
  return dataOrThrow(await client.DELETE('/api/deviceKeys', { params: { query }, signal }));
}
