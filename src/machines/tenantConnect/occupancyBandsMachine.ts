import type { ApiClient } from '../../api/client';
import { ApiError } from '../../api/errors';
import { getOccupancyBands, updateOccupancyBands } from '../../api/occupancyBands';
import {
  type BandChange,
  type BandRefusal,
  bandRefusalOf,
  bandsDraftOf,
  changedBands,
  isBandsDraftValid,
  OCCUPANCY_BANDS_WHAT,
  type OccupancyBandsDraft,
} from '../../domain/occupancyBands';
import { SAVE_FAILED_MESSAGE, SAVE_SUCCESS_MESSAGE } from '../../domain/settings';
import { createEditorMachine } from '../factories/editorMachine';

export interface OccupancyBandsInput {
  readonly clientId: number;
}

/** A save the server refused with a reason: at the band and end it names when it names one. */
export class OccupancyBandsSaveError extends Error {
  readonly refusal: BandRefusal;
  constructor(refusal: BandRefusal) {
    super(refusal.message);
    this.name = 'OccupancyBandsSaveError';
    this.refusal = refusal;
  }
}

/** The refusal of a failed save (the editor's `saveError`), if the server refused it with a reason. */
export function bandsRefusalOf(error: unknown): BandRefusal | undefined {
  return error instanceof OccupancyBandsSaveError ? error.refusal : undefined;
}

/** A 400 of a save, at the band it names (of those sent); any other failure as it is. */
function saveErrorOf(error: unknown, sent: readonly BandChange[], draft: OccupancyBandsDraft): unknown {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.serverMessage) return error;
  return new OccupancyBandsSaveError(bandRefusalOf(error.serverMessage, sent, draft));
}

/**
 * The client's occupancy cost bands (GET / PUT /api/occupancyBands) in the editor factory's shape: every category
 * with its band and where it comes from; a save sends only the bands changed (a band reset or emptied as both ends
 * null: the published band again), 'Save Successfully.' / 'Save Failed.' (§8), and tells the page (`editor.saved`),
 * which closes the dialog and reads its statements again. The server's refusal (400 naming 'bands.<i>.<end>') is
 * kept as the editor's `saveError` at the category it names (`bandsRefusalOf`).
 */
export function createOccupancyBandsMachine(client?: ApiClient) {
  const options = (signal: AbortSignal) => (client ? { signal, client } : { signal });
  return createEditorMachine<OccupancyBandsDraft, OccupancyBandsInput>({
    id: 'occupancyBands',
    what: OCCUPANCY_BANDS_WHAT,
    load: async ({ clientId }, { signal }) =>
      bandsDraftOf(clientId, (await getOccupancyBands(clientId, options(signal))).bands),
    save: async (draft, { signal }) => {
      const bands = changedBands(draft);
      if (bands.length === 0) return draft;
      try {
        const saved = await updateOccupancyBands({ client_id: draft.clientId, bands }, options(signal));
        return bandsDraftOf(draft.clientId, saved.bands);
      } catch (error) {
        throw saveErrorOf(error, bands, draft);
      }
    },
    validate: isBandsDraftValid,
    savedMessage: SAVE_SUCCESS_MESSAGE,
    failedMessage: SAVE_FAILED_MESSAGE,
    tellParentSaved: true,
  });
}
