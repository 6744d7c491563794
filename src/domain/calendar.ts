import { addDays } from './reports';

/**
 * The calendar of holidays per country and the malls' own events (issue 31): the rules both halves check, the
 * names the pages show and the spec's messages (§8 style).
 */

/** The longest entry or event: its last day at most this many days after its first. */
export const MAX_ENTRY_DAYS_AFTER = 62;
/** The longest name of an entry or title of an event. */
export const MAX_ENTRY_NAME_LENGTH = 80;

export type CalendarKindName = 'festival' | 'public_holiday' | 'school_holiday';
export type MallEventKindName = 'sale' | 'event' | 'closure' | 'other';

export const CALENDAR_KIND_LABELS: Readonly<Record<CalendarKindName, string>> = {
  festival: 'Festival',
  public_holiday: 'Public holiday',
  school_holiday: 'School holidays',
};

export const MALL_EVENT_KIND_LABELS: Readonly<Record<MallEventKindName, string>> = {
  sale: 'Sale',
  event: 'Event',
  closure: 'Closure',
  other: 'Other',
};

export const CALENDAR_KINDS = Object.keys(CALENDAR_KIND_LABELS) as CalendarKindName[];
export const MALL_EVENT_KINDS = Object.keys(MALL_EVENT_KIND_LABELS) as MallEventKindName[];

/** Country names of the codes the seed holds; another code shows as it is. */
export const COUNTRY_NAMES: Readonly<Record<string, string>> = {
  SG: 'Singapore',
  MY: 'Malaysia',
  ID: 'Indonesia',
};

export const countryName = (code: string): string => COUNTRY_NAMES[code] ?? code;

/**
 * What is wrong with a range of days (YYYY-MM-DD), naming the field: the end before the start, or more than
 * MAX_ENTRY_DAYS_AFTER days after it; undefined when it is right.
 */
export function entryRangeProblem(start: string, end: string): string | undefined {
  if (end < start) return 'end_date must be on or after start_date.';
  if (end > addDays(start, MAX_ENTRY_DAYS_AFTER)) {
    return `end_date must be at most ${MAX_ENTRY_DAYS_AFTER} days after start_date.`;
  }
  return undefined;
}

/** The lower_snake_case key of a festival ('chinese_new_year'). */
export const FESTIVAL_KEY = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** The spec's messages of the event and calendar dialogs (§8 style). */
export const EVENT_MESSAGES = {
  added: 'Event has been added successfully.',
  addFailed: 'Add event failed.',
  updated: 'Event has been updated successfully.',
  updateFailed: 'Update event failed.',
  deleted: (title: string) => `${title} has been deleted successfully.`,
  deleteFailed: (title: string) => `Delete ${title} failed.`,
} as const;

export const HOLIDAY_MESSAGES = {
  added: 'Holiday has been added successfully.',
  addFailed: 'Add holiday failed.',
  updated: 'Holiday has been updated successfully.',
  updateFailed: 'Update holiday failed.',
  deleted: (name: string) => `${name} has been deleted successfully.`,
  deleteFailed: (name: string) => `Delete ${name} failed.`,
} as const;

/* ---------------------------------------------------------------- the pages' drafts */

/** The event dialog's draft: a new event (no id) or a change of one. */
export interface MallEventDraft {
  readonly id: number | undefined;
  readonly mallId: number | undefined;
  readonly title: string;
  readonly start: string;
  readonly end: string;
  readonly kind: MallEventKindName;
}

export type MallEventDraftField = 'title' | 'start' | 'end' | 'kind' | 'mallId';

/** The holiday dialog's draft: a new entry (no id) or a change of one, in the page's country. */
export interface HolidayDraft {
  readonly id: number | undefined;
  readonly name: string;
  readonly start: string;
  readonly end: string;
  readonly kind: CalendarKindName;
  /** The festival's key; blank for none. */
  readonly festival: string;
}

export type HolidayDraftField = 'name' | 'start' | 'end' | 'kind' | 'festival';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** What is wrong with a name or title: blank, or too long. */
function nameProblem(text: string, what: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return `Please enter a ${what}.`;
  if (trimmed.length > MAX_ENTRY_NAME_LENGTH) return `The ${what} is at most ${MAX_ENTRY_NAME_LENGTH} characters.`;
  return undefined;
}

function daysProblem(start: string, end: string): string | undefined {
  if (!DAY.test(start) || !DAY.test(end)) return 'Please choose the first and last day.';
  if (end < start) return 'The last day must be on or after the first day.';
  if (entryRangeProblem(start, end))
    return `The last day must be at most ${MAX_ENTRY_DAYS_AFTER} days after the first.`;
  return undefined;
}

/** Why the event draft may not be saved yet; undefined when it may. */
export function mallEventDraftProblem(draft: MallEventDraft): string | undefined {
  if (draft.mallId === undefined) return 'Please choose a mall.';
  return nameProblem(draft.title, 'title') ?? daysProblem(draft.start, draft.end);
}

/** Why the holiday draft may not be saved yet; undefined when it may. */
export function holidayDraftProblem(draft: HolidayDraft): string | undefined {
  const festival = draft.festival.trim();
  if (festival !== '' && !FESTIVAL_KEY.test(festival)) {
    return 'The festival key is lower case words joined by _ (chinese_new_year).';
  }
  return nameProblem(draft.name, 'name') ?? daysProblem(draft.start, draft.end);
}

export const isMallEventKind = (value: string): value is MallEventKindName =>
  Object.hasOwn(MALL_EVENT_KIND_LABELS, value);
export const isCalendarKind = (value: string): value is CalendarKindName => Object.hasOwn(CALENDAR_KIND_LABELS, value);

/** The countries of the malls (each once, in code order). */
export function countriesOf(malls: readonly { readonly country?: string | undefined }[]): string[] {
  return [...new Set(malls.flatMap((mall) => (mall.country ? [mall.country] : [])))].sort();
}

/** The years the calendar page offers: the seed's and those around today's. */
export function calendarYears(today: string): number[] {
  const year = Number(today.slice(0, 4));
  const first = Math.min(2024, year - 1);
  const last = Math.max(2028, year + 1);
  return Array.from({ length: last - first + 1 }, (_, index) => first + index);
}
