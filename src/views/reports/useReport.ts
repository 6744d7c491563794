import { useSelector } from '@xstate/react';
import type { createMallReportMachine } from '../../machines/mallReportMachine';
import { useNoticeToasts } from '../common/Notifications';
import { usePageActor } from '../common/usePageActor';

export type ReportMachine<TData> = ReturnType<typeof createMallReportMachine<TData>>;

type ReportStatus = 'idle' | 'loaded' | 'empty' | 'failure';

/**
 * Runs a report page's machine in the app (it follows the filter header itself, and disables it while loading)
 * and shows its failure toasts. Before the machine has started, the page is loading.
 */
export function useReport<TData>(machine: ReportMachine<TData>) {
  const actor = usePageActor(machine);
  useNoticeToasts(actor);
  const query = useSelector(actor, (snapshot) => snapshot?.context.query);
  const loading = useSelector(actor, (snapshot) => snapshot === undefined || snapshot.hasTag('loading'));
  const status = useSelector(actor, (snapshot): ReportStatus => {
    if (snapshot?.matches('loaded')) return 'loaded';
    if (snapshot?.matches('empty')) return 'empty';
    if (snapshot?.matches('failure')) return 'failure';
    return 'idle';
  });
  /** What to draw: the figures when loaded, nothing otherwise (the charts then say 'No Data'). */
  const data = useSelector(actor, (snapshot) => (snapshot?.matches('loaded') ? snapshot.context.data : undefined));
  return { actor, query, loading, status, data };
}
