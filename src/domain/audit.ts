/**
 * How the audit log reads (Tenant Connect, Audit Logs): the kinds of row by name, and what a change did, field by
 * field, from the row before and after it that the server keeps.
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

/** One field a change touched: its value before and after ('—' for none). */
export interface AuditChange {
  readonly field: string;
  readonly before: string;
  readonly after: string;
}

const NONE = '—';

/** A value as one short line: text as it is, numbers and booleans written, lists and rows as JSON. */
function written(value: unknown): string {
  if (value === undefined || value === null || value === '') return NONE;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

const isRow = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The fields a change touched, in the order the row has them: for a { before, after } detail each field whose
 * value differs (every field of a row created or deleted); any other detail (a sign-in's address) as its fields.
 */
export function auditChanges(detail: Record<string, unknown>): AuditChange[] {
  if (!('before' in detail) || !('after' in detail)) {
    return Object.entries(detail).map(([field, value]) => ({ field, before: NONE, after: written(value) }));
  }
  const before = isRow(detail.before) ? detail.before : {};
  const after = isRow(detail.after) ? detail.after : {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) => ({ field, before: written(before[field]), after: written(after[field]) }));
}

/** A change as one line of text: 'total: 160.1 → 150; remarks: Excludes GST → —'. */
export function auditChangeText(detail: Record<string, unknown>): string {
  const changes = auditChanges(detail);
  if (changes.length === 0) return 'No field changed';
  return changes
    .map(({ field, before, after }) =>
      before === NONE && !('before' in detail) ? `${field}: ${after}` : `${field}: ${before} → ${after}`,
    )
    .join('; ');
}
