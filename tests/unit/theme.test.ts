import { Classes } from '@blueprintjs/core';
import { describe, expect, it } from 'vitest';
import { DARK_CLASS, initialTheme, otherTheme, parseTheme, themeStorageKey } from '../../src/domain/theme';

describe('the theme preference', () => {
  it("darkens with Blueprint's own dark class", () => {
    expect(DARK_CLASS).toBe(Classes.DARK);
  });

  it('is kept under a key of its own for each user', () => {
    expect(themeStorageKey(7)).not.toBe(themeStorageKey(8));
    expect(themeStorageKey(7)).toContain('7');
  });

  it('reads only a theme back', () => {
    expect(parseTheme('dark')).toBe('dark');
    expect(parseTheme('light')).toBe('light');
    expect(parseTheme(null)).toBeUndefined();
    expect(parseTheme('Dark')).toBeUndefined();
    expect(parseTheme('')).toBeUndefined();
  });

  it("starts with the user's choice, else the browser's preferred scheme, else light", () => {
    expect(initialTheme(undefined, false)).toBe('light');
    expect(initialTheme(undefined, true)).toBe('dark');
    expect(initialTheme('light', true)).toBe('light');
    expect(initialTheme('dark', false)).toBe('dark');
    expect(otherTheme('light')).toBe('dark');
    expect(otherTheme('dark')).toBe('light');
  });
});
