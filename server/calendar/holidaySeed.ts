import { addDays } from '../../src/domain/reports.js';

/**
 * The calendar every client starts with (calendar_entries, migration 028): the public holidays, festivals and
 * school holidays of Singapore, Malaysia and Indonesia, 2024 to 2028. A client edits its own copy afterwards
 * (/api/calendar). `seedCalendar` (server/repositories/calendar.ts) is the one way a client gets it: the
 * migration's clients, the demo generator's and the tests' fixtures.
 *
 * Dates for 2024 to 2026 are the gazetted ones (Singapore's Ministry of Manpower, Malaysia's federal gazette with
 * Selangor / Kuala Lumpur where a state decides, Indonesia's SKB of the three ministers). Dates for 2027 and 2028
 * are the announced or astronomical ones and are marked ESTIMATE: the Islamic holidays depend on the sighting of
 * the moon, Vesak and Deepavali on the lunar and Tamil calendars. School holidays of Malaysia (group B: Selangor,
 * Kuala Lumpur) and Indonesia (the national school year's main breaks, which provinces shift by a few days) are
 * approximate in every year, and Singapore's for 2027 and 2028 follow MOE's usual pattern (ESTIMATE).
 */

export type CalendarKind = 'festival' | 'public_holiday' | 'school_holiday';

export interface SeedEntry {
  country: 'SG' | 'MY' | 'ID';
  start_date: string;
  end_date: string;
  name: string;
  kind: CalendarKind;
  festival: string | null;
}

type Country = SeedEntry['country'];

const YEARS = [2024, 2025, 2026, 2027, 2028] as const;

/** A festival's first day in each year 2024..2028, by country where they differ. */
type ByYear = readonly [string, string, string, string, string];

interface Festival {
  festival: string;
  /** The name in each country; a country without a name does not keep the festival. */
  names: Partial<Record<Country, string>>;
  days: number;
  /** First days, the same in every country unless `byCountry` says otherwise. */
  dates: ByYear;
  byCountry?: Partial<Record<Country, ByYear>>;
  /** Days per country when they differ (Indonesia's Chinese New Year is one day off work, still two days here). */
  daysByCountry?: Partial<Record<Country, number>>;
}

const FESTIVALS: readonly Festival[] = [
  {
    festival: 'chinese_new_year',
    names: { SG: 'Chinese New Year', MY: 'Chinese New Year', ID: 'Tahun Baru Imlek' },
    days: 2,
    // 2027 and 2028 are astronomical (the new moon), certain in practice.
    dates: ['2024-02-10', '2025-01-29', '2026-02-17', '2027-02-06', '2028-01-26'],
  },
  {
    festival: 'hari_raya_puasa',
    names: { SG: 'Hari Raya Puasa', MY: 'Hari Raya Aidilfitri', ID: 'Idul Fitri' },
    days: 1,
    daysByCountry: { MY: 2, ID: 2 },
    // 2027 and 2028: ESTIMATE (moon sighting).
    dates: ['2024-04-10', '2025-03-31', '2026-03-21', '2027-03-10', '2028-02-27'],
    byCountry: { ID: ['2024-04-10', '2025-03-31', '2026-03-20', '2027-03-10', '2028-02-27'] },
  },
  {
    festival: 'hari_raya_haji',
    names: { SG: 'Hari Raya Haji', MY: 'Hari Raya Haji', ID: 'Idul Adha' },
    days: 1,
    // 2027 and 2028: ESTIMATE (moon sighting).
    dates: ['2024-06-17', '2025-06-07', '2026-05-27', '2027-05-17', '2028-05-05'],
    byCountry: { ID: ['2024-06-17', '2025-06-06', '2026-05-27', '2027-05-17', '2028-05-05'] },
  },
  {
    festival: 'deepavali',
    names: { SG: 'Deepavali', MY: 'Deepavali' },
    days: 1,
    // 2027 and 2028: ESTIMATE (Tamil calendar).
    dates: ['2024-10-31', '2025-10-20', '2026-11-08', '2027-10-28', '2028-10-16'],
  },
  {
    festival: 'christmas',
    names: { SG: 'Christmas Day', MY: 'Christmas Day', ID: 'Hari Natal' },
    days: 1,
    dates: ['2024-12-25', '2025-12-25', '2026-12-25', '2027-12-25', '2028-12-25'],
  },
  {
    festival: 'vesak',
    names: { SG: 'Vesak Day', MY: 'Wesak Day', ID: 'Hari Raya Waisak' },
    days: 1,
    // 2027 and 2028: ESTIMATE (full moon).
    dates: ['2024-05-22', '2025-05-12', '2026-05-31', '2027-05-20', '2028-05-09'],
    byCountry: { ID: ['2024-05-23', '2025-05-12', '2026-05-31', '2027-05-20', '2028-05-09'] },
  },
];

interface Holiday {
  names: Partial<Record<Country, string>>;
  /** 'MM-DD' in every year, or first days per year. */
  date: string | ByYear;
  days?: number;
}

const PUBLIC_HOLIDAYS: readonly Holiday[] = [
  { names: { SG: "New Year's Day", MY: "New Year's Day", ID: 'Tahun Baru Masehi' }, date: '01-01' },
  { names: { SG: 'Labour Day', MY: 'Labour Day', ID: 'Hari Buruh Internasional' }, date: '05-01' },
  { names: { SG: 'National Day' }, date: '08-09' },
  { names: { MY: 'Hari Kebangsaan (National Day)' }, date: '08-31' },
  { names: { MY: 'Malaysia Day' }, date: '09-16' },
  { names: { ID: 'Hari Kemerdekaan (Independence Day)' }, date: '08-17' },
  { names: { ID: 'Hari Lahir Pancasila' }, date: '06-01' },
  {
    names: { SG: 'Good Friday', ID: 'Wafat Isa Almasih (Good Friday)' },
    // From Easter: 2027 and 2028 are computed, not estimates.
    date: ['2024-03-29', '2025-04-18', '2026-04-03', '2027-03-26', '2028-04-14'],
  },
];

/** School holidays: [country, name, start, end]. */
const SCHOOL_HOLIDAYS: readonly [Country, string, string, string][] = [
  // Singapore, MOE school terms; 2027 and 2028: ESTIMATE (MOE's usual pattern).
  ...(
    [
      ['2024-03-09', '2024-03-17', '2024-05-25', '2024-06-23', '2024-08-31', '2024-09-08', '2024-11-16', '2024-12-31'],
      ['2025-03-15', '2025-03-23', '2025-05-31', '2025-06-29', '2025-09-06', '2025-09-14', '2025-11-22', '2025-12-31'],
      ['2026-03-14', '2026-03-22', '2026-05-30', '2026-06-28', '2026-09-05', '2026-09-13', '2026-11-21', '2026-12-31'],
      ['2027-03-13', '2027-03-21', '2027-05-29', '2027-06-27', '2027-09-04', '2027-09-12', '2027-11-20', '2027-12-31'],
      ['2028-03-11', '2028-03-19', '2028-05-27', '2028-06-25', '2028-09-02', '2028-09-10', '2028-11-18', '2028-12-31'],
    ] as const
  ).flatMap(([a, b, c, d, e, f, g, h]): [Country, string, string, string][] => [
    ['SG', 'March school holidays', a, b],
    ['SG', 'June school holidays', c, d],
    ['SG', 'September school holidays', e, f],
    ['SG', 'Year-end school holidays', g, h],
  ]),
  // Malaysia, group B (Selangor, Kuala Lumpur): approximate; the school year moved back to January in 2026.
  ['MY', 'Mid-year school holidays', '2024-05-25', '2024-06-02'],
  ['MY', 'Term break', '2024-09-14', '2024-09-22'],
  ['MY', 'Year-end school holidays', '2024-12-21', '2024-12-29'],
  ['MY', 'End of school year holidays', '2025-01-18', '2025-02-16'],
  ['MY', 'Mid-year school holidays', '2025-05-29', '2025-06-09'],
  ['MY', 'Term break', '2025-09-13', '2025-09-21'],
  ['MY', 'Year-end school holidays', '2025-12-20', '2026-01-11'],
  ['MY', 'Mid-year school holidays', '2026-05-23', '2026-06-07'],
  ['MY', 'Year-end school holidays', '2026-12-19', '2027-01-10'],
  ['MY', 'Mid-year school holidays', '2027-05-22', '2027-06-06'],
  ['MY', 'Year-end school holidays', '2027-12-18', '2028-01-09'],
  ['MY', 'Mid-year school holidays', '2028-05-27', '2028-06-11'],
  ['MY', 'Year-end school holidays', '2028-12-16', '2028-12-31'],
  // Indonesia, the national school year's breaks: approximate (provinces shift them by a few days).
  ['ID', 'Libur semester ganjil (school holidays)', '2024-01-01', '2024-01-07'],
  ['ID', 'Libur kenaikan kelas (school holidays)', '2024-06-22', '2024-07-14'],
  ['ID', 'Libur semester ganjil (school holidays)', '2024-12-21', '2025-01-05'],
  ['ID', 'Libur kenaikan kelas (school holidays)', '2025-06-28', '2025-07-13'],
  ['ID', 'Libur semester ganjil (school holidays)', '2025-12-20', '2026-01-04'],
  ['ID', 'Libur kenaikan kelas (school holidays)', '2026-06-27', '2026-07-12'],
  ['ID', 'Libur semester ganjil (school holidays)', '2026-12-19', '2027-01-03'],
  ['ID', 'Libur kenaikan kelas (school holidays)', '2027-06-26', '2027-07-11'],
  ['ID', 'Libur semester ganjil (school holidays)', '2027-12-18', '2028-01-02'],
  ['ID', 'Libur kenaikan kelas (school holidays)', '2028-06-24', '2028-07-09'],
  ['ID', 'Libur semester ganjil (school holidays)', '2028-12-16', '2028-12-31'],
];

const COUNTRIES: readonly Country[] = ['SG', 'MY', 'ID'];

/** Every entry of the seed, by country and first day. */
export function holidaySeed(): SeedEntry[] {
  const entries: SeedEntry[] = [];
  for (const festival of FESTIVALS) {
    for (const country of COUNTRIES) {
      const name = festival.names[country];
      if (name === undefined) continue;
      const dates = festival.byCountry?.[country] ?? festival.dates;
      const days = festival.daysByCountry?.[country] ?? festival.days;
      for (const start of dates) {
        entries.push({
          country,
          start_date: start,
          end_date: addDays(start, days - 1),
          name,
          kind: 'festival',
          festival: festival.festival,
        });
      }
    }
  }
  for (const holiday of PUBLIC_HOLIDAYS) {
    for (const country of COUNTRIES) {
      const name = holiday.names[country];
      if (name === undefined) continue;
      const starts = typeof holiday.date === 'string' ? YEARS.map((year) => `${year}-${holiday.date}`) : holiday.date;
      for (const start of starts) {
        entries.push({
          country,
          start_date: start,
          end_date: addDays(start, (holiday.days ?? 1) - 1),
          name,
          kind: 'public_holiday',
          festival: null,
        });
      }
    }
  }
  for (const [country, name, start, end] of SCHOOL_HOLIDAYS) {
    entries.push({ country, start_date: start, end_date: end, name, kind: 'school_holiday', festival: null });
  }
  return entries.sort(
    (a, b) =>
      a.country.localeCompare(b.country) || a.start_date.localeCompare(b.start_date) || a.name.localeCompare(b.name),
  );
}
