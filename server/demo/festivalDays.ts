import { holidaySeed } from '../calendar/holidaySeed.js';

/**
 * The festivals that shape the demo's sales, per country of the demo malls, 2024 to 2028: the festivals of the
 * calendar every client starts with (server/calendar/holidaySeed.ts), so the demo's peaks fall on the days the
 * festival-aligned comparison meets. Each as its first and last day ('YYYY-MM-DD', both included).
 */

export type Country = 'SG' | 'MY' | 'ID';

export type Festival = 'Chinese New Year' | 'Hari Raya Puasa' | 'Hari Raya Haji' | 'Deepavali' | 'Christmas';

export interface FestivalDays {
  festival: Festival;
  from: string;
  to: string;
}

/** The calendar's festival keys the demo's patterns know. */
const DEMO_FESTIVALS: Readonly<Record<string, Festival>> = {
  chinese_new_year: 'Chinese New Year',
  hari_raya_puasa: 'Hari Raya Puasa',
  hari_raya_haji: 'Hari Raya Haji',
  deepavali: 'Deepavali',
  christmas: 'Christmas',
};

function festivalDaysOf(country: Country): FestivalDays[] {
  return holidaySeed().flatMap((entry) => {
    const festival = entry.festival === null ? undefined : DEMO_FESTIVALS[entry.festival];
    return entry.country === country && entry.kind === 'festival' && festival
      ? [{ festival, from: entry.start_date, to: entry.end_date }]
      : [];
  });
}

/** The festival days of each demo mall's country. */
export const FESTIVAL_DAYS: Readonly<Record<Country, readonly FestivalDays[]>> = {
  SG: festivalDaysOf('SG'),
  MY: festivalDaysOf('MY'),
  ID: festivalDaysOf('ID'),
};
