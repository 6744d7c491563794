/**
 * Breakeven targets (§2, §3, §9): the departments that set them, the page each reads, and the rows' order, totals,
 * status and CSV. Pure: used by the server (which department a caller may read) and the browser.
 */

import { type CsvNumeral, csvNumeral } from './csv';

export type Department = 'leasing' | 'finance' | 'marcom' | 'operations';

export const DEPARTMENTS: readonly Department[] = ['leasing', 'finance', 'marcom', 'operations'];

export const DEPARTMENT_TITLES: Readonly<Record<Department, string>> = {
  leasing: 'Leasing',
  finance: 'Finance',
  marcom: 'Marcom',
  operations: 'Operations',
};

/** The department a user's roles name ('leasing', 'Finance team', …); undefined for none (an operator). */
export function departmentOfRoles(roles: readonly string[]): Department | undefined {
  return DEPARTMENTS.find((department) => roles.some((role) => role.toLowerCase().includes(department)));
}

/** §2: the Marcom page includes GST; the other departments' pages exclude it. */
export const includesGst = (department: Department): boolean => department === 'marcom';

/** The page says how it projects, in one line. */
export const PROJECTION_METHOD =
  'Projected month end: the sales of the complete days so far, plus for each day left (today included) the average of the same weekday over the four weeks before today.';

export const BREAKEVEN_WHAT = 'Breakeven target';

/** What the GTO column holds: the sales captured from receipts in the month, with or without GST. */
export function gtoBasis(includeGst: boolean): string {
  return includeGst
    ? 'GTO: sales captured from receipts in the month, GST included.'
    : 'GTO: sales captured from receipts in the month, GST excluded.';
}

/**
 * What the page says of its currencies: the amounts are each outlet's own, never converted (the totals are per
 * currency); undefined when the outlets share one currency (the Currency column names it).
 */
export function breakevenCurrencyNote(currencies: readonly string[]): string | undefined {
  const distinct = [...new Set(currencies)].sort();
  if (distinct.length <= 1) return undefined;
  return `Amounts in each outlet’s own currency (${distinct.join(', ')}), not converted; totals are per currency.`;
}

/** 'On track' or 'At risk' of a row with a projection and a target; '' otherwise. */
export function trackLabel(onTrack: boolean | null): string {
  return onTrack === null ? '' : onTrack ? 'On track' : 'At risk';
}

/** Progress to 1 decimal ('81.8%'), '' without one (§9). */
export function progressText(progress: number | null): string {
  return progress === null ? '' : `${progress.toFixed(1)}%`;
}

interface BreakevenRowLike {
  readonly outlet_name: string;
  readonly mall_name: string;
  readonly currency: string;
  readonly gto: number;
  readonly breakeven_target: number | null;
  readonly difference: number | null;
  readonly progress: number | null;
  readonly projected_gto: number | null;
  readonly projected_progress: number | null;
  readonly on_track: boolean | null;
}

/** The CSV of the rows shown (amounts in each row's currency, named in a column of its own; figures are numerals). */
export function breakevenCsvRows(rows: readonly BreakevenRowLike[]): Record<string, string | CsvNumeral>[] {
  const amount = (value: number | null) => (value === null ? '' : csvNumeral(value.toFixed(2)));
  return rows.map((row) => ({
    outlet: row.outlet_name,
    mall: row.mall_name,
    currency: row.currency,
    gto: amount(row.gto),
    breakeven_target: amount(row.breakeven_target),
    difference: amount(row.difference),
    progress_percent: row.progress === null ? '' : csvNumeral(row.progress.toFixed(1)),
    projected_gto: amount(row.projected_gto),
    projected_progress_percent: row.projected_progress === null ? '' : csvNumeral(row.projected_progress.toFixed(1)),
    status: trackLabel(row.on_track),
  }));
}

export const BREAKEVEN_CSV_KEYS = [
  'outlet',
  'mall',
  'currency',
  'gto',
  'breakeven_target',
  'difference',
  'progress_percent',
  'projected_gto',
  'projected_progress_percent',
  'status',
] as const;

/* ---------------------------------------------------------------- editing the targets */

/** A department's targets of a month as the dialog edits them: each outlet's target as typed ('' for none). */
export interface BreakevenTargetsDraft {
  readonly clientId: number;
  readonly department: Department;
  /** `YYYY-MM`. */
  readonly month: string;
  readonly outlets: readonly { readonly id: number; readonly name: string; readonly currency: string }[];
  /** By outlet id: the target as typed. */
  readonly targets: Readonly<Record<number, string>>;
}

export const BREAKEVEN_TARGET_MESSAGE = 'Enter an amount of 0 or more with at most 2 decimals, or leave it empty.';

/** A target as typed: a number, null for none (empty), undefined when it does not read (§5: $ and commas dropped). */
export function parseTarget(text: string): number | null | undefined {
  const trimmed = text.replace(/[$,\s]/g, '');
  if (trimmed === '') return null;
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(trimmed)) return undefined;
  return Number(trimmed);
}

/** The target as the field shows it first: '1250.5' for 1250.5, '' for none. */
export const targetText = (target: number | null): string => (target === null ? '' : String(target));

/** Whether every target reads. */
export const isTargetsDraftValid = (draft: BreakevenTargetsDraft): boolean =>
  Object.values(draft.targets).every((text) => parseTarget(text) !== undefined);

/** The targets that differ from the saved ones, as the PUT sends them. */
export function changedTargets(
  draft: BreakevenTargetsDraft,
  saved: BreakevenTargetsDraft,
): { outlet_id: number; target: number | null }[] {
  return draft.outlets.flatMap((outlet) => {
    const now = parseTarget(draft.targets[outlet.id] ?? '');
    const before = parseTarget(saved.targets[outlet.id] ?? '');
    return now === undefined || now === before ? [] : [{ outlet_id: outlet.id, target: now }];
  });
}
