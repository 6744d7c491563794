import type Highcharts from 'highcharts';
import { createContext } from 'react';
import type { Theme } from '../../domain/theme';

/*
 * The charts' colours in the app's theme. Highcharts 13 draws every text, grid line and tooltip in the colours of its
 * palette (CSS variables resolved by the container's `color-scheme`): a chart takes the app's scheme (never the
 * operating system's, which Highcharts follows by default), with Blueprint's dark grays in dark, and a transparent
 * background there so the chart sits on the page's own surface.
 */

/** The app's theme as charts see it: the signed-in frame provides the layout machine's. */
export const ChartThemeContext = createContext<Theme>('light');

/** Blueprint's dark card surface and text (dark gray 3, light gray 5). */
const DARK_SURFACE = '#2F343C';
const DARK_TEXT = '#F6F7F9';

/** The 'No Data' text, readable on the page's surface (Blueprint's muted text colours). */
export function noDataColor(theme: Theme): string {
  return theme === 'dark' ? '#ABB3BF' : '#5F6B7C';
}

/** The palette of a chart in `theme`: axis labels, titles and legend light, grid lines dim, tooltips dark in dark. */
export function chartPalette(theme: Theme): Highcharts.PaletteOptions {
  return theme === 'dark'
    ? { colorScheme: 'dark', dark: { backgroundColor: DARK_SURFACE, neutralColor: DARK_TEXT } }
    : { colorScheme: 'light' };
}

/**
 * The chart's background: transparent in dark, Highcharts' own in light (no key at all: an undefined one would
 * replace Highcharts' default). `rgba(0, 0, 0, 0)` rather than 'transparent': Highcharts picks the colour of a data
 * label outside its point against the background, and takes 'transparent' for white.
 */
export function chartBackground(theme: Theme): Pick<Highcharts.ChartOptions, 'backgroundColor'> {
  return theme === 'dark' ? { backgroundColor: 'rgba(0, 0, 0, 0)' } : {};
}

/** The colour of a heat map's lowest value: the surface the chart sits on (white in light, the card's in dark). */
export function heatMapLowColor(theme: Theme): string {
  return theme === 'dark' ? DARK_SURFACE : '#FFFFFF';
}
