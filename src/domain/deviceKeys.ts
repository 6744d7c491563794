import dayjs from 'dayjs';

/**
 * The rules of Settings' Point-of-sale devices as pure functions: which mall's keys the section shows (the mall of
 * the header's one outlet), the create dialog's draft and its problems, the example call a device makes, and the
 * section's texts (ours: the spec gives none; still asserted exactly).
 */

/** The longest name of a key (the contract's maxLength). */
export const DEVICE_KEY_NAME_MAX_LENGTH = 100;
/** The longest search of the list (the contract's maxLength). */
export const DEVICE_KEYS_SEARCH_MAX_LENGTH = 100;
/** The call a device sends its receipts to, with its key. */
export const INGEST_RECEIPTS_PATH = '/api/ingest/receipts';

/** The '{what}' of the list's load failure toast. */
export const DEVICE_KEYS_WHAT = 'Device keys fetching';
export const DEVICE_KEYS_WAITING_MESSAGE = 'Choose an Outlet of a mall to see the point-of-sale devices of its mall.';
export const KEY_SHOWN_ONCE_MESSAGE = 'Copy this key now: it will not be shown again.';
export const DEVICE_KEY_NAME_REQUIRED_MESSAGE = 'Enter a name for the device.';
export const DEVICE_KEY_NAME_TOO_LONG_MESSAGE = `A name has at most ${DEVICE_KEY_NAME_MAX_LENGTH} characters.`;
export const DEVICE_KEY_OUTLET_REQUIRED_MESSAGE = 'Choose an Outlet.';
export const DEVICE_KEY_CREATE_FAILED_MESSAGE = 'The device key could not be created. Please try again.';
export const COPY_FAILED_MESSAGE = 'The text could not be copied. Select it and copy it yourself.';

/** Said once the key, or the example call with it, is on the clipboard. */
export function copiedMessage(what: 'key' | 'example'): string {
  return what === 'key' ? 'The key has been copied.' : 'The example has been copied.';
}

export function deviceKeyRevokedMessage(name: string): string {
  return `The device key "${name}" has been revoked.`;
}

export function deviceKeyRevokeFailedMessage(name: string): string {
  return `Revoking the device key "${name}" failed.`;
}

/** The confirmation asked before a key is revoked. */
export function revokeQuestion(key: {
  readonly name: string;
  readonly outlet_name: string;
  readonly key_prefix: string;
}): string {
  return (
    `Revoke the device key "${key.name}" of ${key.outlet_name} (${key.key_prefix}…)? ` +
    'The device that uses it can no longer send receipts. This cannot be undone.'
  );
}

/* ---------------------------------------------------------------- the section's mall */

/** An outlet as the header knows it. */
export interface DeviceOutletLike {
  readonly id: number;
  readonly name: string;
  readonly mall_id: number | null;
}

export interface DeviceOutlet {
  readonly id: number;
  readonly name: string;
}

/** What the section shows: the keys of the outlets of one mall of the client. */
export interface DeviceKeysScope {
  readonly clientId: number;
  readonly mallId: number;
  /** The mall's outlets the header offers (the ones the user sees), in the header's order. */
  readonly outlets: readonly DeviceOutlet[];
  /** The header's outlet: the create dialog's first choice. */
  readonly outletId: number;
}

/**
 * The mall of the header's one outlet, with the mall's outlets; undefined without a client, without one outlet
 * chosen, or for an outlet in no mall.
 */
export function deviceKeysScopeOf(
  filters: { readonly clientId: number | undefined; readonly outlet: 'all' | number | undefined },
  outlets: readonly DeviceOutletLike[],
): DeviceKeysScope | undefined {
  const { clientId, outlet } = filters;
  if (clientId === undefined || typeof outlet !== 'number') return undefined;
  const mallId = outlets.find((candidate) => candidate.id === outlet)?.mall_id;
  if (mallId === undefined || mallId === null) return undefined;
  return {
    clientId,
    mallId,
    outlets: outlets
      .filter((candidate) => candidate.mall_id === mallId)
      .map((candidate) => ({ id: candidate.id, name: candidate.name })),
    outletId: outlet,
  };
}

/** Whether two scopes list the same keys (the same client and mall). */
export function isSameMall(a: DeviceKeysScope | undefined, b: DeviceKeysScope | undefined): boolean {
  return a !== undefined && b !== undefined && a.clientId === b.clientId && a.mallId === b.mallId;
}

/* ---------------------------------------------------------------- the create dialog */

export interface DeviceKeyDraft {
  readonly outletId: number | undefined;
  readonly name: string;
}

export interface DeviceKeyProblems {
  readonly outlet?: string;
  readonly name?: string;
}

/** The dialog's first draft: the header's outlet when it is one of the mall's, else the first (§2), no name. */
export function initialDeviceKeyDraft(scope: DeviceKeysScope): DeviceKeyDraft {
  const outletId = scope.outlets.some((outlet) => outlet.id === scope.outletId) ? scope.outletId : scope.outlets[0]?.id;
  return { outletId, name: '' };
}

/** What is wrong with a draft: no outlet of the mall chosen; a name blank or too long. */
export function deviceKeyProblems(draft: DeviceKeyDraft, outlets: readonly DeviceOutlet[]): DeviceKeyProblems {
  const name = draft.name.trim();
  return {
    ...(outlets.some((outlet) => outlet.id === draft.outletId) ? {} : { outlet: DEVICE_KEY_OUTLET_REQUIRED_MESSAGE }),
    ...(name === ''
      ? { name: DEVICE_KEY_NAME_REQUIRED_MESSAGE }
      : name.length > DEVICE_KEY_NAME_MAX_LENGTH
        ? { name: DEVICE_KEY_NAME_TOO_LONG_MESSAGE }
        : {}),
  };
}

export function isDeviceKeyDraftValid(draft: DeviceKeyDraft, outlets: readonly DeviceOutlet[]): boolean {
  const problems = deviceKeyProblems(draft, outlets);
  return problems.outlet === undefined && problems.name === undefined;
}

/** The body of the create call: the name trimmed. */
export function createDeviceKeyBodyOf(
  clientId: number,
  draft: DeviceKeyDraft,
): { client_id: number; outlet_id: number; name: string } {
  if (draft.outletId === undefined) throw new Error('device keys: a draft without an outlet');
  return { client_id: clientId, outlet_id: draft.outletId, name: draft.name.trim() };
}

/* ---------------------------------------------------------------- the example call */

/** A receipt the example sends: the fields a receipt must have. */
const EXAMPLE_BATCH = JSON.stringify({
  receipts: [{ receipt_id: 'R-0001', datetime: '2025-01-31T12:34:56+08:00', total_amount: 12.5 }],
});

/** The `curl` command a device's integrator can try the key with: one receipt to POST /api/ingest/receipts. */
export function ingestCurlExample(origin: string, key: string): string {
  return (
    `curl -X POST '${origin}${INGEST_RECEIPTS_PATH}' -H 'Authorization: Bearer ${key}' ` +
    `-H 'Content-Type: application/json' -d '${EXAMPLE_BATCH}'`
  );
}

/* ---------------------------------------------------------------- the list */

export type DeviceKeyStatus = 'active' | 'revoked';

export function deviceKeyStatus(key: { readonly revoked_at: string | null }): DeviceKeyStatus {
  return key.revoked_at === null ? 'active' : 'revoked';
}

export const DEVICE_KEY_STATUS_NAMES: Readonly<Record<DeviceKeyStatus, string>> = {
  active: 'Active',
  revoked: 'Revoked',
};

/** A moment of a key as the list shows it, in the browser's time zone: '3 Nov 2026, 10:15'. */
export function formatKeyTime(iso: string): string {
  return dayjs(iso).format('D MMM YYYY, HH:mm');
}
