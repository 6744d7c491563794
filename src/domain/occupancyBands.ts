import { formatPercentRange } from './format';
import { defaultOccupancyBand, type OccupancyBand } from './leases';

/**
 * The occupancy cost bands dialog (issue 33) as pure functions: each category of the client's outlets with its band
 * and where the band comes from, the draft the user edits (low and high as typed, or the published band again), the
 * rules the fields keep (the server's own, said at the field before it is asked), the bands a save sends (only those
 * changed) and the server's refusal at the field it names.
 */

/* ---------------------------------------------------------------- shapes (the contract's, structurally) */

/** Where a category's band comes from: the client's own, the published one of its kind, or none. */
export type BandSource = 'client' | 'default' | 'none';

/** A category's band as GET /api/occupancyBands gives it. */
export interface OccupancyBandLike {
  readonly category: string;
  readonly low_percent: number | null;
  readonly high_percent: number | null;
  readonly source: BandSource;
}

/** A band a save sends: both ends, or both null to take the published band again. */
export interface BandChange {
  readonly category: string;
  readonly low_percent: number | null;
  readonly high_percent: number | null;
}

/** The two ends of a band, as the request names them. */
export type BandEnd = 'low_percent' | 'high_percent';

/* ---------------------------------------------------------------- messages */

/** The '{what}' of the toast when the bands cannot be read. */
export const OCCUPANCY_BANDS_WHAT = 'Occupancy cost bands fetching';

/** The dialog's title, and its button on the Rent Statements page. */
export const OCCUPANCY_BANDS_TITLE = 'Occupancy cost bands';

/** What the dialog says above its categories. */
export const OCCUPANCY_BANDS_HELP =
  'The occupancy cost (rent and service charge over sales, in percent) a tenant of each category usually pays. Set your own band, or reset it to the one the industry publishes for its kind.';

export const BAND_MESSAGES = {
  percent: 'Enter a percent from 0 to 100, with at most 2 decimals.',
  bothOrNeither: 'Give both ends of the band, or neither to use the published band.',
  order: 'The low end of a band must be at most its high end.',
} as const;

/** How the dialog names where a band comes from. */
export const BAND_SOURCE_LABELS: Readonly<Record<BandSource, string>> = {
  client: 'Your band',
  default: 'Published',
  none: 'None',
};

/* ---------------------------------------------------------------- the draft */

/** A category as the dialog edits it. */
export interface BandDraftRow {
  readonly category: string;
  /** Where its band came from when the dialog read it. */
  readonly source: BandSource;
  /** The ends as read ('' without a band). */
  readonly savedLow: string;
  readonly savedHigh: string;
  /** The ends as typed. */
  readonly low: string;
  readonly high: string;
  /** Reset to the published band: saved as both ends null (the fields show the published band). */
  readonly reset: boolean;
}

export interface OccupancyBandsDraft {
  readonly clientId: number;
  readonly rows: readonly BandDraftRow[];
}

/** A percent as a field shows it: '6', '7.5', '12.25'; '' for none. */
export function bandPercentText(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : String(Math.round(value * 100) / 100);
}

/** The draft of the bands as read: every category as the server lists it. */
export function bandsDraftOf(clientId: number, bands: readonly OccupancyBandLike[]): OccupancyBandsDraft {
  return {
    clientId,
    rows: bands.map((band) => {
      const low = bandPercentText(band.low_percent);
      const high = bandPercentText(band.high_percent);
      return { category: band.category, source: band.source, savedLow: low, savedHigh: high, low, high, reset: false };
    }),
  };
}

const PERCENT = /^\d{1,3}(?:\.\d{1,2})?$/;

/** A typed percent: the number (0 to 100, at most 2 decimals), null when empty, undefined when not a percent. */
export function parseBandPercent(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!PERCENT.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value <= 100 ? value : undefined;
}

/** A rule a row breaks: the end it is said at, and why. */
export interface BandProblem {
  readonly field: BandEnd;
  readonly message: string;
}

/**
 * The first rule a row breaks, undefined when none: each end a percent from 0 to 100 with at most 2 decimals; both
 * ends or neither (neither: the published band); the low end at most the high end. A row reset breaks none.
 */
export function bandRowProblem(row: Pick<BandDraftRow, 'low' | 'high' | 'reset'>): BandProblem | undefined {
  if (row.reset) return undefined;
  const low = parseBandPercent(row.low);
  const high = parseBandPercent(row.high);
  if (low === undefined) return { field: 'low_percent', message: BAND_MESSAGES.percent };
  if (high === undefined) return { field: 'high_percent', message: BAND_MESSAGES.percent };
  if (low === null && high !== null) return { field: 'low_percent', message: BAND_MESSAGES.bothOrNeither };
  if (high === null && low !== null) return { field: 'high_percent', message: BAND_MESSAGES.bothOrNeither };
  if (low !== null && high !== null && low > high) return { field: 'low_percent', message: BAND_MESSAGES.order };
  return undefined;
}

/**
 * Whether a row would change the category's band: the client's own reset or emptied (the published band again), or
 * ends other than those read. A row typed wrong or half counts as changed (and cannot be saved until it is right).
 */
export function isBandRowChanged(row: BandDraftRow): boolean {
  if (row.reset) return row.source === 'client';
  const low = parseBandPercent(row.low);
  const high = parseBandPercent(row.high);
  if (low === undefined || high === undefined || (low === null) !== (high === null)) return true;
  if (low === null) return row.source === 'client';
  return low !== parseBandPercent(row.savedLow) || high !== parseBandPercent(row.savedHigh);
}

/**
 * The bands a save sends, in the dialog's order: each row changed, with its ends, or both null when it was reset or
 * emptied (the category takes the published band again).
 */
export function changedBands(draft: OccupancyBandsDraft): BandChange[] {
  return draft.rows.filter(isBandRowChanged).map((row) => ({
    category: row.category,
    low_percent: row.reset ? null : (parseBandPercent(row.low) ?? null),
    high_percent: row.reset ? null : (parseBandPercent(row.high) ?? null),
  }));
}

/** Whether the draft may be saved: something changed, and no row breaks a rule. */
export function isBandsDraftValid(draft: OccupancyBandsDraft): boolean {
  return draft.rows.every((row) => bandRowProblem(row) === undefined) && changedBands(draft).length > 0;
}

/** The draft with an end of a category typed (a reset row is the user's own again). */
export function withBandText(
  draft: OccupancyBandsDraft,
  category: string,
  end: BandEnd,
  text: string,
): OccupancyBandsDraft {
  return {
    ...draft,
    rows: draft.rows.map((row) =>
      row.category === category
        ? { ...row, ...(end === 'low_percent' ? { low: text } : { high: text }), reset: false }
        : row,
    ),
  };
}

/** The draft with a category back to its published band (the fields show it; none: empty). */
export function withBandReset(draft: OccupancyBandsDraft, category: string): OccupancyBandsDraft {
  const published = defaultOccupancyBand(category);
  return {
    ...draft,
    rows: draft.rows.map((row) =>
      row.category === category
        ? {
            ...row,
            low: bandPercentText(published?.low_percent),
            high: bandPercentText(published?.high_percent),
            reset: true,
          }
        : row,
    ),
  };
}

/** Whether a row offers to reset: it holds the client's own band (as read, or as typed). */
export function canResetBand(row: BandDraftRow): boolean {
  return !row.reset && (row.source === 'client' || isBandRowChanged(row));
}

/** The published band of a category in words ('6–10%'), or 'none'. */
export function publishedBandText(category: string): string {
  const band: OccupancyBand | undefined = defaultOccupancyBand(category);
  return band ? formatPercentRange(band.low_percent, band.high_percent) : 'none';
}

/**
 * Where the row's band will come from once saved: the published one (or none) when reset or emptied, the user's
 * own when its ends changed, else as read.
 */
export function shownBandSource(row: BandDraftRow): string {
  const published = defaultOccupancyBand(row.category) ? BAND_SOURCE_LABELS.default : BAND_SOURCE_LABELS.none;
  if (row.reset) return published;
  if (!isBandRowChanged(row)) return row.low.trim() === '' ? published : BAND_SOURCE_LABELS[row.source];
  return row.low.trim() === '' && row.high.trim() === '' ? published : BAND_SOURCE_LABELS.client;
}

/* ---------------------------------------------------------------- the server's refusal */

/** A save the server refused: at the category and end it names (as typed when refused), and why. */
export interface BandRefusal {
  /** The category of the band refused; undefined when the refusal names none. */
  readonly category: string | undefined;
  /** The end refused; undefined when the refusal names the category itself, or nothing. */
  readonly field: BandEnd | undefined;
  /** The ends as typed when the band was refused. */
  readonly low: string | undefined;
  readonly high: string | undefined;
  readonly message: string;
}

const REFUSED_BAND = /^(?:body\/)?bands[./](\d+)[./](low_percent|high_percent|category)(?::\s*|\s+)([\s\S]+)$/;

/**
 * A 400's message at the band it names: the rules' ('bands.0.low_percent: The low end ...') or the contract's
 * ('body/bands/0/high_percent must be <= 100'), its index a band of those sent; else the message as it is.
 */
export function bandRefusalOf(message: string, sent: readonly BandChange[], draft: OccupancyBandsDraft): BandRefusal {
  const match = REFUSED_BAND.exec(message.trim());
  const category = match?.[1] === undefined ? undefined : sent[Number(match[1])]?.category;
  const row = draft.rows.find((candidate) => candidate.category === category);
  if (!match?.[2] || !match[3] || !row) {
    return { category: undefined, field: undefined, low: undefined, high: undefined, message };
  }
  const field = match[2] === 'category' ? undefined : (match[2] as BandEnd);
  return { category: row.category, field, low: row.low, high: row.high, message: match[3] };
}

/** The refusal of a row, while the row still holds the ends that were refused. */
export function refusalAtRow(row: BandDraftRow, refusal: BandRefusal | undefined): BandRefusal | undefined {
  return refusal?.category === row.category && refusal.low === row.low && refusal.high === row.high
    ? refusal
    : undefined;
}
