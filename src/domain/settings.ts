import dayjs from 'dayjs';

/**
 * The rules of the Settings page (§2, §4, §5, §8, §9) as pure functions: processing fees, sales targets,
 * categories and their assignments, meal timings, and the page's exact messages.
 */

/* ---------------------------------------------------------------- messages (§8) */

export const SAVE_SUCCESS_MESSAGE = 'Save Successfully.';
export const SAVE_FAILED_MESSAGE = 'Save Failed.';
export const SALES_TARGETS_SAVED_MESSAGE = 'Updated Sales Targets successfully.';
export const SALES_TARGETS_FAILED_MESSAGE = 'Updated Sales Targets failed.';
export const ASSIGN_SUBCATEGORY_SUCCESS_MESSAGE = 'Assign subcategory successfully.';
export const ASSIGN_SUBCATEGORY_FAILED_MESSAGE = 'Assign subcategory failed.';
export const ASSIGN_ITEMS_SUCCESS_MESSAGE = 'Assign items successfully.';
export const ASSIGN_ITEMS_FAILED_MESSAGE = 'Assign items failed.';
export const NO_SUBCATEGORY_SELECTED_MESSAGE = 'No subcategory selected.';

export function addedMessage(name: string): string {
  return `${name} has been added successfully.`;
}

export function addFailedMessage(name: string): string {
  return `Add ${name} failed.`;
}

export function deletedMessage(name: string): string {
  return `${name} has been deleted successfully.`;
}

export function deleteFailedMessage(name: string): string {
  return `Delete ${name} failed.`;
}

/* Texts the spec does not give: ours, still asserted exactly. */
export const FEE_RANGE_MESSAGE = 'Enter a fee from 0 to 100 with at most 2 decimals.';
export const TARGET_INVALID_MESSAGE = 'Enter an amount, such as $1,234.50.';
export const MEAL_NAME_MESSAGE = 'Enter a name.';
export const MEAL_ORDER_MESSAGE = 'The start time must be before the end time.';
export const MEAL_OVERLAP_MESSAGE = 'Meal timings must not overlap.';
export const MEAL_TIME_MESSAGE = 'Enter times as HH:mm.';
export const MEAL_DELETED_MESSAGE = 'Meal timing deleted.';
export const MEAL_DELETE_FAILED_MESSAGE = 'The meal timing could not be deleted.';
export const MEAL_ADD_FAILED_MESSAGE = 'The meal timing could not be added.';

/** The '{what}' of each Settings load failure toast. */
export const SETTINGS_WHAT = {
  emailSubscriptions: 'E-mail subscriptions fetching',
  processingFees: 'Processing fees fetching',
  salesTargets: 'Sales targets fetching',
  categories: 'Categories fetching',
  subcategories: 'Subcategories fetching',
  options: 'Options fetching',
  mealTimings: 'Meal timings fetching',
} as const;

/* ---------------------------------------------------------------- category types (§2) */

/** The create dialog's type (§2): 1 = category, 2 = subcategory. */
export type CategoryType = 1 | 2;
export const CATEGORY_TYPE = { category: 1, subcategory: 2 } as const;

export function categoryTypeName(type: CategoryType): string {
  return type === CATEGORY_TYPE.category ? 'Category' : 'Subcategory';
}

/** An empty (or blank) name aborts the creation (§5); otherwise the name as it is sent. */
export function categoryNameOf(text: string): string | undefined {
  const name = text.trim();
  return name === '' ? undefined : name;
}

/* ---------------------------------------------------------------- processing fees (§4, §5, §9) */

/** A figure rounded to cents, half up (1.005 is 1.01, not 1.00 as a binary float would say). */
export function roundCents(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

export const FEE_MIN = 0;
export const FEE_MAX = 100;

/**
 * The fee typed in a row, as a number from 0 to 100 with at most 2 decimals (a '%' after it is allowed), or
 * undefined when it is not one.
 */
export function parseFee(text: string): number | undefined {
  const trimmed = text.trim().replace(/%$/, '').trim();
  if (!/^\d{1,3}(\.\d{0,2})?$|^\.\d{1,2}$/.test(trimmed)) return undefined;
  const fee = Number(trimmed);
  if (!Number.isFinite(fee) || fee < FEE_MIN || fee > FEE_MAX) return undefined;
  return fee;
}

/** The fee as sent (§5): a 2-decimal string, '2.50'. */
export function formatFee(fee: number): string {
  return roundCents(fee).toFixed(2);
}

/** The default lookup range of the fees (§9): one month ago to today. */
export function defaultFeeRange(today: string): { start: string; end: string } {
  return { start: dayjs(today).subtract(1, 'month').format('YYYY-MM-DD'), end: today };
}

/* ---------------------------------------------------------------- sales targets (§5, §9) */

export const TARGET_MAX = 999_999_999_999.99;

/** The target typed, stripped of '$' and commas (§5); '' stays '' (no target). */
export function stripTargetInput(text: string): string {
  return text.replace(/[$,\s]/g, '');
}

/**
 * The target as sent: a number rounded to 2 decimals; null for an empty input (no target), undefined for an
 * input that is no amount.
 */
export function parseTarget(text: string): number | null | undefined {
  const stripped = stripTargetInput(text);
  if (stripped === '') return null;
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(stripped)) return undefined;
  const value = roundCents(Number(stripped));
  if (!Number.isFinite(value) || value > TARGET_MAX) return undefined;
  return value;
}

/** A stored target as the input shows it: 2 decimals, '' for none. */
export function targetText(target: number | null | undefined): string {
  return target === null || target === undefined ? '' : target.toFixed(2);
}

/** `YYYY-MM-DD` of the first day of a `YYYY-MM` month (what the targets calls take). */
export function monthDate(month: string): string {
  return `${month}-01`;
}

/** The month of a day, `YYYY-MM`. */
export function monthOfDay(day: string): string {
  return day.slice(0, 7);
}

/** The months the sales-target picker offers: `count` months back from `today`'s and `ahead` months after it. */
export function targetMonths(today: string, count = 24, ahead = 12): string[] {
  const current = dayjs(`${monthOfDay(today)}-01`);
  return Array.from({ length: count + ahead + 1 }, (_, index) => current.add(ahead - index, 'month').format('YYYY-MM'));
}

/* ---------------------------------------------------------------- assignments (§5, §9) */

/** Why the sales targets' month cannot be changed now. */
export const TARGETS_MONTH_HELD_MESSAGE = 'Save or cancel the changed targets to choose another month.';

/** Name-option page size (§9). */
export const NAME_OPTION_PAGE_SIZE = 20;

/** Whether another page follows one of `count` items (§4: a page with fewer than 20 is the last). */
export function hasMoreOptions(count: number): boolean {
  return count >= NAME_OPTION_PAGE_SIZE;
}

/** Ids as sent (§5): each parsed as an integer, the invalid ones dropped, de-duplicated in their order. */
export function uniqueIds(ids: readonly (string | number)[]): number[] {
  const seen = new Set<number>();
  for (const id of ids) {
    const value = typeof id === 'number' ? id : Number.parseInt(id, 10);
    if (Number.isInteger(value) && value > 0) seen.add(value);
  }
  return [...seen];
}

/** The index of the first option whose name contains the search text, case-insensitively (§5); -1 for none. */
export function firstMatchIndex(names: readonly string[], search: string): number {
  const text = search.trim().toLowerCase();
  if (text === '') return -1;
  return names.findIndex((name) => name.toLowerCase().includes(text));
}

/** A name split around its first case-insensitive match, for highlighting. */
export function splitMatch(name: string, search: string): { before: string; match: string; after: string } {
  const text = search.trim().toLowerCase();
  const at = text === '' ? -1 : name.toLowerCase().indexOf(text);
  if (at < 0) return { before: name, match: '', after: '' };
  return { before: name.slice(0, at), match: name.slice(at, at + text.length), after: name.slice(at + text.length) };
}

/** Options of a new page appended to the known ones, without repeating an id. */
export function appendOptions<T extends { readonly id: number }>(known: readonly T[], page: readonly T[]): T[] {
  const ids = new Set(known.map((option) => option.id));
  return [...known, ...page.filter((option) => !ids.has(option.id))];
}

/* ---------------------------------------------------------------- meal timings */

export interface MealTimingDraft {
  readonly id: number;
  readonly name: string;
  readonly start_time: string;
  readonly end_time: string;
}

export type MealTimingProblem = 'name' | 'time' | 'order' | 'overlap';

const MEAL_PROBLEM_MESSAGES: Readonly<Record<MealTimingProblem, string>> = {
  name: MEAL_NAME_MESSAGE,
  time: MEAL_TIME_MESSAGE,
  order: MEAL_ORDER_MESSAGE,
  overlap: MEAL_OVERLAP_MESSAGE,
};

export function mealProblemMessage(problem: MealTimingProblem): string {
  return MEAL_PROBLEM_MESSAGES[problem];
}

const HOUR_MINUTE = /^([01]\d|2[0-3]):[0-5]\d$/;

function minutesOf(time: string): number {
  const [hours = '0', minutes = '0'] = time.split(':');
  return Number(hours) * 60 + Number(minutes);
}

/**
 * The first problem of an outlet's meal timings, by row id: a name is needed (at most 50 characters), times are
 * HH:mm, each starts before it ends, and no two overlap (touching ends are allowed).
 */
export function mealTimingProblems(rows: readonly MealTimingDraft[]): ReadonlyMap<number, MealTimingProblem> {
  const problems = new Map<number, MealTimingProblem>();
  for (const row of rows) {
    if (row.name.trim() === '' || row.name.trim().length > 50) problems.set(row.id, 'name');
    else if (!HOUR_MINUTE.test(row.start_time) || !HOUR_MINUTE.test(row.end_time)) problems.set(row.id, 'time');
    else if (minutesOf(row.start_time) >= minutesOf(row.end_time)) problems.set(row.id, 'order');
  }
  const timed = rows
    .filter((row) => !problems.has(row.id))
    .map((row) => ({ id: row.id, start: minutesOf(row.start_time), end: minutesOf(row.end_time) }))
    .sort((a, b) => a.start - b.start || a.end - b.end);
  for (let index = 1; index < timed.length; index++) {
    const previous = timed[index - 1];
    const current = timed[index];
    if (previous && current && current.start < previous.end) {
      problems.set(previous.id, 'overlap');
      problems.set(current.id, 'overlap');
    }
  }
  return problems;
}

/** Whether meal timings may be saved: none has a problem. */
export function areMealTimingsValid(rows: readonly MealTimingDraft[]): boolean {
  return mealTimingProblems(rows).size === 0;
}

/** The rows that differ from the saved ones (what a PUT sends), trimmed names. */
export function changedMealTimings(
  saved: readonly MealTimingDraft[],
  draft: readonly MealTimingDraft[],
): MealTimingDraft[] {
  return draft
    .filter((row) => {
      const before = saved.find((entry) => entry.id === row.id);
      return (
        !before ||
        before.name !== row.name.trim() ||
        before.start_time !== row.start_time ||
        before.end_time !== row.end_time
      );
    })
    .map((row) => ({ ...row, name: row.name.trim() }));
}

/* ---------------------------------------------------------------- the page's scope */

/** What the Settings editors are for: the header's client, its one outlet (§2: All Outlets disabled), today. */
export interface SettingsScope {
  readonly clientId: number;
  /** Undefined until the client's outlets are known and one is selected. */
  readonly outletId: number | undefined;
  /** `YYYY-MM-DD`. */
  readonly today: string;
}

/** The scope of the header's committed filters; undefined before a client is chosen. */
export function settingsScopeOf(
  filters: { readonly clientId: number | undefined; readonly outlet: 'all' | number | undefined },
  today: string,
): SettingsScope | undefined {
  if (filters.clientId === undefined) return undefined;
  return {
    clientId: filters.clientId,
    outletId: typeof filters.outlet === 'number' ? filters.outlet : undefined,
    today,
  };
}
