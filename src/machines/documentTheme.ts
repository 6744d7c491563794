import { DARK_CLASS, parseTheme, type Theme, themeStorageKey } from '../domain/theme';

/**
 * The browser's side of the theme: the user's choice kept in `localStorage` (one key per user), the browser's
 * preferred scheme, and Blueprint's dark class on `document.body` (so portals — popovers, dialogs, toasts — are
 * dark too). The layout machine applies and writes, the app machine reads at sign-in; tests inject their own.
 */

/** The theme `userId` chose in this browser, if any (storage refused or absent: none). */
export function readStoredTheme(userId: number): Theme | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : parseTheme(localStorage.getItem(themeStorageKey(userId)));
  } catch {
    return undefined;
  }
}

/** Remembers the theme `userId` chose (storage refused: not remembered, the theme still changes). */
export function writeStoredTheme(userId: number, theme: Theme): void {
  try {
    if (typeof localStorage !== 'undefined') localStorage.setItem(themeStorageKey(userId), theme);
  } catch {
    // Private mode or a full storage: the choice lasts until the page is left.
  }
}

/** The browser asks for a dark scheme (`prefers-color-scheme: dark`). */
export function prefersDarkScheme(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia('(prefers-color-scheme: dark)').matches
    : false;
}

/** Shows the document dark (Blueprint's dark class and `color-scheme: dark` on the body); returns the undo. */
export function applyDarkDocument(): () => void {
  if (typeof document === 'undefined') return () => undefined;
  const { body } = document;
  body.classList.add(DARK_CLASS);
  body.style.colorScheme = 'dark';
  return () => {
    body.classList.remove(DARK_CLASS);
    body.style.colorScheme = '';
  };
}
