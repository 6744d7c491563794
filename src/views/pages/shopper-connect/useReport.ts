import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import type { CommittedFilters } from '../../../domain/filterHeader';
import type { ReportQuery } from '../../../domain/mallReportViews';
import type { createMallReportMachine } from '../../../machines/mallReportMachine';
import { useNoticeToasts } from '../../common/Notifications';
import { FilterHeaderContext } from '../../filters/filterHeaderContext';

export type ReportMachine<TData> = ReturnType<typeof createMallReportMachine<TData>>;

/** The report query of the committed filters; undefined until a client and malls are known. */
export function reportQueryOf(filters: CommittedFilters, withHours: boolean): ReportQuery | undefined {
  if (filters.clientId === undefined || filters.mallIds.length === 0) return undefined;
  return {
    clientId: filters.clientId,
    mallIds: filters.mallIds,
    start: filters.dateRange.start,
    end: filters.dateRange.end,
    startHour: withHours ? filters.hours.from : 0,
    endHour: withHours ? filters.hours.to : 23,
    timeRange: withHours ? filters.timeRange : 'daily',
    metric: withHours ? filters.metric : 'gmv',
  };
}

/**
 * Runs a report page's machine: it reports to the filter header (disabled while loading), its failure toasts
 * show, and it loads whenever the committed filters change (the start, every Apply). `withHours`: Header V2
 * pages (hours, time range and metric); the other pages report whole days.
 */
export function useReport<TData>(machine: ReportMachine<TData>, withHours: boolean) {
  const headerActor = FilterHeaderContext.useActorRef();
  const filters = FilterHeaderContext.useSelector((snapshot) => snapshot.context.filters);
  const actor = useActorRef(machine, { input: { reportTo: headerActor } });
  useNoticeToasts(actor);
  const query = useMemo(() => reportQueryOf(filters, withHours), [filters, withHours]);
  const key = query ? JSON.stringify(query) : '';
  // `key` stands for the query's value: a new object with the same filters does not refetch.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is the query's value
  useEffect(() => {
    if (query) actor.send({ type: 'report.load', query });
  }, [actor, key]);
  // A stopped actor runs no exit actions: leaving the page mid-fetch must still re-enable the header.
  useEffect(
    () => () => {
      if (actor.getSnapshot().hasTag('loading')) headerActor.send({ type: 'page.loaded' });
    },
    [actor, headerActor],
  );
  const loading = useSelector(actor, (snapshot) => snapshot.hasTag('loading'));
  const status = useSelector(actor, (snapshot) =>
    snapshot.matches('loaded')
      ? 'loaded'
      : snapshot.matches('empty')
        ? 'empty'
        : snapshot.matches('failure')
          ? 'failure'
          : 'idle',
  );
  /** What to draw: the figures when loaded, nothing otherwise (the charts then say 'No Data'). */
  const data = useSelector(actor, (snapshot) => (snapshot.matches('loaded') ? snapshot.context.data : undefined));
  return { actor, query, loading, status, data };
}
