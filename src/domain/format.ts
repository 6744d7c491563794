import dayjs from 'dayjs';

/**
 * Display formats (§9). Numbers use en-US grouping (1,234,567.89) whatever the browser's locale, so
 * that every screen and every export reads the same.
 */

const LOCALE = 'en-US';

export const DEFAULT_CURRENCY_SYMBOL = '$';

/**
 * The symbol money in `currency` (ISO 4217) is shown with: the narrow symbol ('$' for SGD and USD, 'RM' for
 * MYR, 'Rp' for IDR); the default '$' when the currency is unknown.
 */
export function currencySymbol(currency: string | null | undefined): string {
  if (!currency) return DEFAULT_CURRENCY_SYMBOL;
  try {
    const parts = new Intl.NumberFormat(LOCALE, {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
    }).formatToParts(0);
    return parts.find((part) => part.type === 'currency')?.value ?? DEFAULT_CURRENCY_SYMBOL;
  } catch {
    return DEFAULT_CURRENCY_SYMBOL;
  }
}

/** The one currency (ISO 4217) several malls or outlets share; undefined when none or several. */
export function sharedCurrencyCode(currencies: readonly (string | null | undefined)[]): string | undefined {
  const distinct = [...new Set(currencies.filter((currency): currency is string => Boolean(currency)))];
  return distinct.length === 1 ? distinct[0] : undefined;
}

/** How money of a currency is written: its symbol and its own minor units (Rp no decimals, $ two). */
export interface CurrencyFormat {
  readonly symbol: string;
  readonly digits: number;
  /** The ISO 4217 code, when the currency is known (the CSV files' Currency column). */
  readonly code?: string;
}

export const DEFAULT_CURRENCY: CurrencyFormat = { symbol: DEFAULT_CURRENCY_SYMBOL, digits: 2 };

/** The format of money in `currency` (ISO 4217): the narrow symbol and the currency's minor units. */
export function currencyFormat(currency: string | null | undefined): CurrencyFormat {
  if (!currency) return DEFAULT_CURRENCY;
  try {
    const digits = new Intl.NumberFormat(LOCALE, { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits;
    return { symbol: currencySymbol(currency), digits: digits ?? 2, code: currency };
  } catch {
    return DEFAULT_CURRENCY;
  }
}

function grouped(value: number, decimals: number): string {
  return value.toLocaleString(LOCALE, { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/**
 * '$1,234.50'; negatives '-$1,234.50' (minus, then the symbol); a value that rounds to zero has no minus. With a
 * currency format, in the currency's own minor units: 'Rp549,180,200' (no decimals).
 */
export function formatMoney(value: number, currency: string | CurrencyFormat = DEFAULT_CURRENCY): string {
  const { symbol, digits } = typeof currency === 'string' ? { symbol: currency, digits: 2 } : currency;
  const scale = 10 ** digits;
  const rounded = Math.round(value * scale) / scale;
  const sign = rounded < 0 ? '-' : '';
  return `${sign}${symbol}${grouped(Math.abs(rounded), digits)}`;
}

/** A ratio as a percentage with 1 decimal: 0.1234 → '12.3%'. Not a finite number: '0.0%'. */
export function formatPercentage(ratio: number): string {
  return `${(Number.isFinite(ratio) ? ratio * 100 : 0).toFixed(1)}%`;
}

/** A ratio as a whole percentage: 0.1266 → '13%'. Not a finite number: '0%'. */
export function formatIntPercentage(ratio: number): string {
  return `${(Number.isFinite(ratio) ? ratio * 100 : 0).toFixed(0)}%`;
}

/** A range of percents given in percent (an occupancy cost band): 6 and 10 → '6–10%'; 7.5 and 12.25 → '7.5–12.25%'. */
export function formatPercentRange(low: number, high: number): string {
  return `${formatNumber(low)}–${formatNumber(high)}%`;
}

/** A count with grouping: 1234567 → '1,234,567' (fractions kept up to 3 decimals, as toLocaleString does). */
export function formatNumber(value: number): string {
  return value.toLocaleString(LOCALE);
}

/** Two decimals, no grouping: 3.14159 → '3.14'. */
export function formatFloat(value: number): string {
  return value.toFixed(2);
}

/**
 * '1 Mar - 7 Mar' for two `YYYY-MM-DD` dates (§9). Given the malls' `today`, a range not within today's year names
 * its years, so that the same days of two years read apart: '1 Nov 2025 - 27 Nov 2025', '28 Dec 2025 - 3 Jan 2026'.
 */
export function formatDateRange(start: string, end: string, today?: string): string {
  const year = today?.slice(0, 4);
  const withYear = year !== undefined && (start.slice(0, 4) !== year || end.slice(0, 4) !== year);
  const format = withYear ? 'D MMM YYYY' : 'D MMM';
  return `${dayjs(start).format(format)} - ${dayjs(end).format(format)}`;
}

const DATETIME_FORMATS = new Map<string, Intl.DateTimeFormat>();

function datetimeFormatOf(zone: string | undefined): Intl.DateTimeFormat {
  const key = zone ?? '';
  const known = DATETIME_FORMATS.get(key);
  if (known) return known;
  const created = new Intl.DateTimeFormat(LOCALE, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    ...(zone === undefined ? {} : { timeZone: zone }),
  });
  DATETIME_FORMATS.set(key, created);
  return created;
}

/**
 * An instant (ISO 8601) as §9's date and time, 'YYYY-MM-DD HH:mm:ss', in the IANA time zone `zone` (the browser's
 * when none, or when the zone is unknown). Not a valid instant: the text as it is.
 */
export function formatDateTime(iso: string, zone?: string): string {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) return iso;
  let format: Intl.DateTimeFormat;
  try {
    format = datetimeFormatOf(zone);
  } catch {
    format = datetimeFormatOf(undefined);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** A wall-clock date and time: 'YYYY-MM-DD', then 'T' or a space, 'HH:mm', optional ':ss' and fraction. */
const LOCAL_DATETIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::(\d{2}))?(?:\.\d+)?)?$/;

/**
 * A mall's local date and time as the server sends it (a receipt's, already on the mall's clock, with no zone) as
 * §9's 'YYYY-MM-DD HH:mm:ss': never moved to the browser's zone, as `formatDateTime` moves an instant. Not such a
 * text: the text as it is.
 */
export function formatLocalDateTime(text: string): string {
  const match = LOCAL_DATETIME.exec(text);
  if (!match?.[2]) return text;
  return `${match[1]} ${match[2]}:${match[3] ?? '00'}`;
}

/** The day of a mall's local date and time (`formatLocalDateTime`'s text) as §9's 'YYYY-MM-DD'. */
export function formatLocalDate(text: string): string {
  return LOCAL_DATETIME.exec(text)?.[1] ?? text;
}

/** The date part of export file names: '2024-03-01_2024-03-07'. */
export function formatFileDateRange(start: string, end: string, format: string = 'YYYY-MM-DD'): string {
  return `${dayjs(start).format(format)}_${dayjs(end).format(format)}`;
}

/** An hour of the day as 'hh:00 A': 0 → '12:00 AM', 13 → '01:00 PM'. */
export function formatHour(hour: number): string {
  return dayjs('2000-01-01').hour(hour).format('hh:00 A');
}

/** How the hour picker shows the whole day. */
export const ALL_DAY_LABEL = '12:00am-12:00am';

/** The hour picker's button: '12:00am-12:00am' for 0–23, otherwise '09:00 AM - 05:00 PM'. */
export function formatHourRange(hours: { readonly from: number; readonly to: number }): string {
  if (hours.from === 0 && hours.to === 23) return ALL_DAY_LABEL;
  return `${formatHour(hours.from)} - ${formatHour(hours.to)}`;
}

/** A `YYYY-MM` month as 'MMMM YYYY': '2024-03' → 'March 2024'. */
export function formatMonth(month: string): string {
  return dayjs(`${month}-01`).format('MMMM YYYY');
}

/** The month select's month names: 1 → 'Jan'. */
export function formatMonthShort(month: number): string {
  return dayjs('2000-01-01')
    .month(month - 1)
    .format('MMM');
}

/** An outlet in the outlet dropdown: 'Kopi Corner (12)'. */
export function formatOutletLabel(outlet: { readonly id: number; readonly name: string }): string {
  return `${outlet.name} (${outlet.id})`;
}

/** A day as the pages write it: '3 Mar 2026'. */
export function formatDay(day: string): string {
  return dayjs(day).format('D MMM YYYY');
}
