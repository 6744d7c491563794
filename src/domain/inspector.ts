/**
 * The live machine inspector's keyboard shortcut and URL switch, as pure functions. (Who may open it:
 * `canInspectMachines` in permissions.)
 */

/** Ctrl+Shift+I belongs to the browser's developer tools; the inspector takes Ctrl+Alt+I. */
export const INSPECTOR_SHORTCUT_LABEL = 'Ctrl+Alt+I';

export interface ShortcutKeys {
  readonly ctrlKey: boolean;
  readonly altKey: boolean;
  readonly shiftKey: boolean;
  readonly metaKey: boolean;
  /** The physical key (`KeyI`), so that the layout and Alt's dead keys do not matter. */
  readonly code: string;
}

export function isInspectorShortcut(keys: ShortcutKeys): boolean {
  return keys.ctrlKey && keys.altKey && !keys.shiftKey && !keys.metaKey && keys.code === 'KeyI';
}

export const INSPECT_QUERY_KEY = 'inspect';

/** `?inspect=1` opens the panel; `?inspect=stately` opens it and also Stately's inspector. */
export type InspectRequest = 'panel' | 'stately';

export function inspectRequestOf(search: string): InspectRequest | undefined {
  const value = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search).get(INSPECT_QUERY_KEY);
  if (value === 'stately') return 'stately';
  if (value === '1' || value === 'true') return 'panel';
  return undefined;
}
