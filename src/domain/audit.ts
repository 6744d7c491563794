import { type CurrencyFormat, DEFAULT_CURRENCY, formatDateTime, formatMoney, formatMonth } from './format';

/**
 * How the audit log reads (Tenant Connect, Audit Logs): the kinds of row and the actions by name, and what a change
 * did, field by field, from the row before and after it that the server keeps, as a person reads it: field names
 * as labels ('Processing fee'), amounts as money, percentages with their sign, months by name.
 */

/** The kinds of row the log records (the contract's AuditEntity), by the name the page shows. */
export const AUDIT_ENTITY_NAMES = {
  gto_submission: 'GTO submission',
  gto_settings: 'GTO rules',
  sales_target: 'Sales target',
  processing_fee: 'Processing fee',
  email_subscription: 'E-mail subscription',
  category: 'Category',
  subcategory: 'Subcategory',
  sku: 'SKU',
  meal_timing: 'Meal timing',
  breakeven_target: 'Breakeven target',
  outlet_code: 'Outlet code',
  non_trading_day: 'Non-trading day',
  calendar_entry: 'Holiday',
  mall_event: 'Mall event',
  lease: 'Lease',
  occupancy_band: 'Occupancy cost band',
  user: 'User',
  session: 'Sign-in',
  report: 'Report',
  device_key: 'Device key',
} as const;

export type AuditEntityName = keyof typeof AUDIT_ENTITY_NAMES;

export const isAuditEntity = (value: string): value is AuditEntityName => Object.hasOwn(AUDIT_ENTITY_NAMES, value);

/** The name of a kind of row; an unknown kind as it is. */
export function auditEntityName(entity: string): string {
  return isAuditEntity(entity) ? AUDIT_ENTITY_NAMES[entity] : entity;
}

/** The actions the log records, by the name the page shows; an unknown action as it is. */
export const AUDIT_ACTION_NAMES: Readonly<Record<string, string>> = {
  create: 'Created',
  update: 'Updated',
  delete: 'Deleted',
  assign: 'Assigned',
  login: 'Signed in',
  export: 'Exported',
};

export function auditActionName(action: string): string {
  return Object.hasOwn(AUDIT_ACTION_NAMES, action) ? (AUDIT_ACTION_NAMES[action] ?? action) : action;
}

/** One field a change touched: its label, and its value before and after ('—' for none). */
export interface AuditChange {
  readonly field: string;
  readonly before: string;
  readonly after: string;
}

const NONE = '—';

/** The fields the server's rows have, by the label a person reads; other keys are written out ('outlet_id' → 'Outlet ID'). */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  ip: 'IP address',
  processing_fees: 'Processing fee',
  variance_threshold: 'Variance threshold',
  due_day: 'Due day',
  reminders: 'Reminders',
  total: 'Total',
  gto: 'GTO',
  days: 'Days',
  target: 'Target',
  meal_timing: 'Meal timing',
  start_time: 'Start',
  end_time: 'End',
  key_prefix: 'Key prefix',
  revoked_at: 'Revoked at',
  invited_at: 'Invited at',
  outlet_ids: 'Outlets',
  sku_ids: 'SKUs',
  subcategory_ids: 'Subcategories',
  sku_id: 'SKU',
};

/** Fields of money, of percentages (the number is the percentage: 1.5 → '1.50%') and of instants. */
const MONEY_FIELDS = new Set(['total', 'gto', 'target', 'amount', 'gto_amount']);
const PERCENT_FIELDS = new Set(['processing_fees', 'variance_threshold']);
const INSTANT_FIELDS = new Set(['revoked_at', 'invited_at', 'created_at', 'updated_at', 'submitted_at']);

/** A field's label: 'processing_fees' → 'Processing fee', 'outlet_id' → 'Outlet ID', 'payment_method' → 'Payment method'. */
export function auditFieldLabel(field: string): string {
  const known = FIELD_LABELS[field];
  if (known !== undefined) return known;
  const words = field
    .split('_')
    .filter((word) => word !== '')
    .map((word) => (word === 'id' ? 'ID' : word === 'ids' ? 'IDs' : word === 'sku' ? 'SKU' : word));
  const text = words.join(' ');
  return text === '' ? field : text.charAt(0).toUpperCase() + text.slice(1);
}

const isRow = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isMonth = (value: string) => /^\d{4}-(0[1-9]|1[0-2])$/.test(value);

/** A value as a person reads it, in one short line. */
function written(field: string, value: unknown, currency: CurrencyFormat): string {
  if (value === undefined || value === null || value === '') return NONE;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') {
    if (MONEY_FIELDS.has(field)) return formatMoney(value, currency);
    if (PERCENT_FIELDS.has(field)) return `${value.toFixed(2)}%`;
    return String(value);
  }
  if (typeof value === 'string') {
    if (MONEY_FIELDS.has(field) && value.trim() !== '' && Number.isFinite(Number(value))) {
      return formatMoney(Number(value), currency);
    }
    if (INSTANT_FIELDS.has(field)) return formatDateTime(value);
    if (field === 'month' && isMonth(value)) return formatMonth(value);
    return value;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return NONE;
    return value.map((item) => written(field, item, currency)).join(', ');
  }
  if (isRow(value)) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    return entries.map(([key, item]) => `${auditFieldLabel(key)} ${written(key, item, currency)}`).join(', ');
  }
  return String(value);
}

/** A GTO submission's days ({ date, gto }[]) by day, or undefined for any other list. */
function gtoDays(value: unknown): Map<string, unknown> | undefined {
  if (!Array.isArray(value)) return undefined;
  const days = new Map<string, unknown>();
  for (const item of value) {
    if (!isRow(item) || typeof item.date !== 'string') return undefined;
    days.set(item.date, item.gto);
  }
  return days;
}

/** The days of a submission whose GTO changed, each as its own change: 'GTO on 2026-10-02: $1.00 → $2.00'. */
function dayChanges(before: unknown, after: unknown, currency: CurrencyFormat): AuditChange[] | undefined {
  const old = before === undefined || before === null ? new Map<string, unknown>() : gtoDays(before);
  const now = after === undefined || after === null ? new Map<string, unknown>() : gtoDays(after);
  if (!old || !now) return undefined;
  const dates = [...new Set([...old.keys(), ...now.keys()])].sort();
  return dates
    .filter((date) => JSON.stringify(old.get(date)) !== JSON.stringify(now.get(date)))
    .map((date) => ({
      field: `GTO on ${date}`,
      before: written('gto', old.get(date), currency),
      after: written('gto', now.get(date), currency),
    }));
}

/**
 * The fields a change touched, in the order the row has them, labelled and written as a person reads them: for a
 * { before, after } detail each field whose value differs (every field of a row created or deleted; a submission's
 * days one by one); any other detail (a sign-in's address) as its fields.
 */
export function auditChanges(
  detail: Record<string, unknown>,
  currency: CurrencyFormat = DEFAULT_CURRENCY,
): AuditChange[] {
  if (!('before' in detail) || !('after' in detail)) {
    return Object.entries(detail).map(([field, value]) => ({
      field: auditFieldLabel(field),
      before: NONE,
      after: written(field, value, currency),
    }));
  }
  const before = isRow(detail.before) ? detail.before : {};
  const after = isRow(detail.after) ? detail.after : {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .flatMap((field) => {
      if (field === 'days') {
        const days = dayChanges(before[field], after[field], currency);
        if (days) return days;
      }
      return [
        {
          field: auditFieldLabel(field),
          before: written(field, before[field], currency),
          after: written(field, after[field], currency),
        },
      ];
    });
}

/** A change as one line of text: 'Total: $160.10 → $150.00; Remarks: Excludes GST → —'. */
export function auditChangeText(detail: Record<string, unknown>, currency: CurrencyFormat = DEFAULT_CURRENCY): string {
  const changes = auditChanges(detail, currency);
  if (changes.length === 0) return 'No field changed';
  return changes
    .map(({ field, before, after }) =>
      before === NONE && !('before' in detail) ? `${field}: ${after}` : `${field}: ${before} → ${after}`,
    )
    .join('; ');
}
