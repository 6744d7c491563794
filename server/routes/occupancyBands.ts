import { requireCaller } from '../auth/access.js';
import { inTransaction } from '../db/pool.js';
import { badRequest } from '../errors.js';
import { type BandChange, listOccupancyBands, saveOccupancyBands } from '../repositories/occupancyBands.js';
import type { AreaHandlers, BodyOf, RouteDeps } from './types.js';

export const BAND_MESSAGES = {
  order: 'The low end of a band must be at most its high end.',
  bothOrNeither: 'Give both ends of the band, or neither to use the published band.',
  repeated: 'A category is given once.',
} as const;

/** The bands of a request after the rules the schema cannot say, each naming its field. */
export function checkBands(body: BodyOf<'updateOccupancyBands'>): BandChange[] {
  const seen = new Set<string>();
  return body.bands.map((band, index) => {
    const field = `bands.${index}`;
    if (seen.has(band.category)) throw badRequest(`${field}.category: ${BAND_MESSAGES.repeated}`);
    seen.add(band.category);
    const low = band.low_percent ?? null;
    const high = band.high_percent ?? null;
    if ((low === null) !== (high === null)) {
      throw badRequest(`${field}.${low === null ? 'low_percent' : 'high_percent'}: ${BAND_MESSAGES.bothOrNeither}`);
    }
    if (low !== null && high !== null && low > high) throw badRequest(`${field}.low_percent: ${BAND_MESSAGES.order}`);
    return { category: band.category, low_percent: low, high_percent: high };
  });
}

/** /api/occupancyBands: the client's occupancy cost bands per outlet category, and their changes (audit-logged). */
export function occupancyBandHandlers({ pool }: RouteDeps) {
  return {
    async getOccupancyBands(request) {
      return { bands: await listOccupancyBands(pool, request.query.client_id) };
    },

    async updateOccupancyBands(request) {
      const { user } = requireCaller(request);
      const { body } = request;
      const bands = checkBands(body);
      await inTransaction(pool, (tx) => saveOccupancyBands(tx, { clientId: body.client_id, userId: user.id, bands }));
      return { bands: await listOccupancyBands(pool, body.client_id) };
    },
  } satisfies AreaHandlers;
}
