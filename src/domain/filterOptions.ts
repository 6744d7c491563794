import type { Metric, TimeRange } from './dateLimits';
import { formatOutletLabel } from './format';
import { errorOccurs } from './messages';

/**
 * The choices of the filter header (§2): the outlet dropdown, the malls multi-select, the time range
 * and metric selects, with the texts they show (reproduced exactly).
 */

export const OUTLET_PLACEHOLDER = 'Choose an Outlet';
export const ALL_OUTLETS_LABEL = 'All Outlets';
export const MALL_REQUIRED_MESSAGE = 'Please select a mall';
/** §8: a failed lookup of the malls or outlets ('{what} error occurs. Please try again later.'). */
export const OPTIONS_FETCH_WHAT = 'Options fetching';
export const OPTIONS_FETCH_ERROR_MESSAGE = errorOccurs(OPTIONS_FETCH_WHAT);
export const MONTH_PLACEHOLDER = 'Please select a month';
export const SELECT_ALL_TEXT = 'Select All';
export const DESELECT_ALL_TEXT = 'Deselect All';
export const ALL_DAY_TEXT = 'All Day';
export const CUSTOM_TEXT = 'Custom';
export const SET_DATE_FROM_TEXT = 'Set Date From';
export const SET_DATE_TO_TEXT = 'Set Date To';
export const DATE_RANGE_OPTION_LABELS = {
  last7: 'Last 7 days',
  last30: 'Last 30 days',
  thisMonth: 'This month',
  lastMonth: 'Last month',
  quarterToDate: 'Quarter to date',
  yearToDate: 'Year to date',
  custom: 'Custom range',
} as const;

export const TIME_RANGE_OPTIONS: readonly { readonly value: TimeRange; readonly label: string }[] = [
  { value: 'hourly', label: 'Hourly' },
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
  { value: 'monthly', label: 'Monthly' },
];

const METRIC_LABELS: Readonly<Record<Metric, string>> = {
  gmv: 'GMV',
  transactions: 'Transactions',
  average_transaction_value: 'Average Transaction Value',
};

/** How the header writes a time range and a metric ('Daily', 'GMV'): the summary and the filter line. */
export function timeRangeLabel(timeRange: TimeRange): string {
  return TIME_RANGE_OPTIONS.find((option) => option.value === timeRange)?.label ?? timeRange;
}

export function metricLabel(metric: Metric): string {
  return METRIC_LABELS[metric];
}

/** GMV, Transactions and, when the page offers it, Average Transaction Value. */
export function metricOptions(withAverage: boolean): { value: Metric; label: string }[] {
  const metrics: Metric[] = withAverage
    ? ['gmv', 'transactions', 'average_transaction_value']
    : ['gmv', 'transactions'];
  return metrics.map((value) => ({ value, label: METRIC_LABELS[value] }));
}

/* ---------------------------------------------------------------- outlets */

/** 'all': the All Outlets option (its value is every outlet's id, comma-joined); a number: one outlet. */
export type OutletSelection = 'all' | number;

/**
 * How a page uses the outlet dropdown: 'all' offers All Outlets; 'single' disables All Outlets and
 * selects the first other outlet instead; 'disabled' greys out the whole dropdown (the selection stays).
 */
export type OutletMode = 'all' | 'single' | 'disabled';

export const ALL_OUTLETS_VALUE = 'all';

export interface OutletLike {
  readonly id: number;
  readonly name: string;
}

export interface OutletOption {
  /** 'all' or the outlet id. */
  readonly value: string;
  readonly label: string;
  /** The ids this option stands for, comma-joined. */
  readonly ids: string;
  readonly disabled: boolean;
}

/** The options of the dropdown: All Outlets first (when there is any outlet), then each 'name (id)'. */
export function outletOptions(outlets: readonly OutletLike[], mode: OutletMode): OutletOption[] {
  if (outlets.length === 0) return [];
  return [
    {
      value: ALL_OUTLETS_VALUE,
      label: ALL_OUTLETS_LABEL,
      ids: outlets.map((outlet) => outlet.id).join(','),
      disabled: mode === 'single',
    },
    ...outlets.map((outlet) => ({
      value: String(outlet.id),
      label: formatOutletLabel(outlet),
      ids: String(outlet.id),
      disabled: false,
    })),
  ];
}

/** 'all' or a positive integer id; anything else is no selection. */
export function parseOutletSelection(value: string | undefined): OutletSelection | undefined {
  if (value === undefined) return undefined;
  if (value === ALL_OUTLETS_VALUE) return 'all';
  return parsePositiveInt(value);
}

export function outletSelectionValue(selection: OutletSelection): string {
  return selection === 'all' ? ALL_OUTLETS_VALUE : String(selection);
}

/**
 * What the dropdown selects once the outlets are known: a selection that exists and the mode allows stays;
 * otherwise 'single' takes the first outlet, the other modes All Outlets. No outlets: nothing.
 */
export function resolveOutletSelection(
  selection: OutletSelection | undefined,
  outlets: readonly OutletLike[],
  mode: OutletMode,
): OutletSelection | undefined {
  const first = outlets[0];
  if (first === undefined) return undefined;
  const exists = selection !== undefined && (selection === 'all' || outlets.some((outlet) => outlet.id === selection));
  if (exists && !(mode === 'single' && selection === 'all')) return selection;
  return mode === 'single' ? first.id : 'all';
}

/** Whether the user may pick `selection` in this mode. */
export function canSelectOutlet(selection: OutletSelection, outlets: readonly OutletLike[], mode: OutletMode): boolean {
  if (mode === 'disabled' || outlets.length === 0) return false;
  if (selection === 'all') return mode === 'all';
  return outlets.some((outlet) => outlet.id === selection);
}

/** The ids the pages query with: every outlet's id comma-joined for All Outlets, else the one id; '' for none. */
export function outletIdsOf(selection: OutletSelection | undefined, outlets: readonly OutletLike[]): string {
  if (selection === undefined) return '';
  if (selection === 'all') return outlets.map((outlet) => outlet.id).join(',');
  return String(selection);
}

/* ---------------------------------------------------------------- malls */

/** Adds the id if missing, removes it if present; keeps the order of first selection. */
export function toggleId(ids: readonly number[], id: number): number[] {
  return ids.includes(id) ? ids.filter((known) => known !== id) : [...ids, id];
}

/** The selected malls that exist; when none of them does, every mall (the default selection). */
export function resolveMallSelection(ids: readonly number[], malls: readonly { readonly id: number }[]): number[] {
  const known = ids.filter((id) => malls.some((mall) => mall.id === id));
  return known.length > 0 ? known : malls.map((mall) => mall.id);
}

/* ---------------------------------------------------------------- ids */

export function parsePositiveInt(value: string): number | undefined {
  if (!/^\d+$/.test(value)) return undefined;
  const number = Number(value);
  return Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

/** '1,2,3' → [1, 2, 3] without duplicates; undefined if any part is not a positive integer or the list is empty. */
export function parseIdList(value: string): number[] | undefined {
  const parts = value.split(',');
  const ids: number[] = [];
  for (const part of parts) {
    const id = parsePositiveInt(part.trim());
    if (id === undefined) return undefined;
    if (!ids.includes(id)) ids.push(id);
  }
  return ids.length > 0 ? ids : undefined;
}
