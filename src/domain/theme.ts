/**
 * The colour theme (light or Blueprint's dark), remembered per user in this browser. Pure: the machines read and
 * write the browser's storage under `themeStorageKey`, and apply the theme to the document.
 */

export type Theme = 'light' | 'dark';

export const THEMES: readonly Theme[] = ['light', 'dark'];

/** Blueprint 6's dark class (its `Classes.DARK`; tests/unit/theme.test.ts holds them equal). */
export const DARK_CLASS = 'bp6-dark';

const THEME_KEY_PREFIX = 'mall-analytics:theme:';

/** The storage key of a user's theme: one per user, so two accounts of one browser keep their own. */
export function themeStorageKey(userId: number): string {
  return `${THEME_KEY_PREFIX}${userId}`;
}

/** A stored value as a theme: undefined for nothing stored or anything else. */
export function parseTheme(value: string | null | undefined): Theme | undefined {
  return THEMES.find((theme) => theme === value);
}

/** The theme a user starts with: the one they chose in this browser, else the browser's preferred scheme. */
export function initialTheme(stored: Theme | undefined, prefersDark: boolean): Theme {
  return stored ?? (prefersDark ? 'dark' : 'light');
}

/** The other theme (the toggle). */
export function otherTheme(theme: Theme): Theme {
  return theme === 'dark' ? 'light' : 'dark';
}
