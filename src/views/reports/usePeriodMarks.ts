import { useMemo } from 'react';
import { formatMonth } from '../../domain/format';
import type { ReportQuery } from '../../domain/mallReportViews';
import { bucketMark, type PeriodMark } from '../../domain/periods';
import { useToday } from '../filters/filterHeaderContext';

const LABELS = { day: (date: string) => date, month: formatMonth };

/**
 * The marks of a series' periods as the server labels them (by the query's time range): their labels, and which
 * are cut short by the range or still open today.
 */
export function usePeriodMarks(query: ReportQuery | undefined, periods: readonly string[]): PeriodMark[] {
  const today = useToday();
  const key = periods.join('|');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the periods' values
  return useMemo(() => {
    if (!query) return periods.map((period) => ({ label: period, partial: false, open: false }));
    const range = { start: query.start, end: query.end };
    return periods.map((period) => bucketMark(query.timeRange, period, range, today, LABELS));
  }, [query, key, today]);
}
