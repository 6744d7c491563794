import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import { isCallAllowed } from './middleware/permissionGate';
import type { components } from './schema';

/**
 * The occupancy cost band calls (issue 33): the band of each outlet category of a client (its own, else the one the
 * industry publishes, else none), and the client's own bands set or given back to the published ones. Each returns
 * the body of a 2xx answer or throws an ApiError.
 */

export type OccupancyBand = components['schemas']['OccupancyBand'];
export type OccupancyBandSource = components['schemas']['OccupancyBandSource'];
export type OccupancyBandList = components['schemas']['OccupancyBandList'];
export type OccupancyBandsRequest = components['schemas']['OccupancyBandsRequest'];
/** A band of a request: both ends, or both null to take the published band again. */
export type OccupancyBandChange = OccupancyBandsRequest['bands'][number];

/** GET /api/occupancyBands: the band of every category of the client's outlets, by category. */
export async function getOccupancyBands(
  clientId: number,
  { signal, client = api }: CallOptions = {},
): Promise<OccupancyBandList> {
  return dataOrThrow(await client.GET('/api/occupancyBands', { params: { query: { client_id: clientId } }, signal }));
}

/** PUT /api/occupancyBands: sets the bands given (audit-logged); answers every band as it now is. */
export async function updateOccupancyBands(
  body: OccupancyBandsRequest,
  { signal, client = api }: CallOptions = {},
): Promise<OccupancyBandList> {
  return dataOrThrow(await client.PUT('/api/occupancyBands', { body, signal }));
}

/** Whether the session may read and set the bands: the permission gate sends both calls of the dialog. */
export function mayEditOccupancyBands(): boolean {
  return isCallAllowed('/api/occupancyBands', 'GET') && isCallAllowed('/api/occupancyBands', 'PUT');
}
