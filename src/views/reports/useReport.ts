import { useSelector } from '@xstate/react';
import type { CsvFile } from '../../domain/csv';
import type { createMallReportMachine } from '../../machines/mallReportMachine';
import { useNoticeToasts } from '../common/Notifications';
import { usePageActor } from '../common/usePageActor';

export type ReportMachine<TData> = ReturnType<typeof createMallReportMachine<TData>>;

/** What the report toolbar needs of a page's report. */
export interface ReportExport {
  readonly loading: boolean;
  readonly canExport: boolean;
  readonly exporting: boolean;
  readonly exportFiles: (base: string, files: readonly CsvFile[]) => void;
}

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
  /** The machine accepts an export: a range is shown, nothing is loading, no export is running. */
  const canExport = useSelector(
    actor,
    (snapshot) => snapshot?.can({ type: 'report.export', base: '', files: [] }) === true,
  );
  const exporting = useSelector(actor, (snapshot) => snapshot?.context.exporting === true);
  const exportFiles = (base: string, files: readonly CsvFile[]) => actor?.send({ type: 'report.export', base, files });
  return { actor, query, loading, status, data, canExport, exporting, exportFiles };
}
