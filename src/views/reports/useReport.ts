import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { CurrencyFigures } from '../../api/errors';
import { type ComparisonChoice, DEFAULT_COMPARISON } from '../../domain/comparisons';
import type { CsvFile } from '../../domain/csv';
import type { createQueryPageMachine, Panel, PanelStatus } from '../../machines/factories/queryPageMachine';
import { useNoticeToasts } from '../common/Notifications';
import { usePageActor } from '../common/usePageActor';

export type ReportMachine<TPanels extends object> = ReturnType<typeof createQueryPageMachine<TPanels>>;

/** What the report toolbar needs of a page's report. */
export interface ReportExport {
  readonly loading: boolean;
  /**
   * Every panel has settled (loaded, empty or failed) for a query: the page shows its figures. Not before the first
   * query (the header's filters not known yet), nor while any panel loads.
   */
  readonly ready: boolean;
  readonly canExport: boolean;
  readonly exporting: boolean;
  readonly exportFiles: (base: string, files: readonly CsvFile[]) => void;
}

/** What a report block needs of its panel: how it stands, and how to load it again when it failed. */
export interface PanelState {
  readonly status: PanelStatus;
  readonly retry: () => void;
  /** Why the panel failed, when the server said. */
  readonly reason?: string | undefined;
  /** With a refusal for a missing exchange rate: the figures per currency instead of a total. */
  readonly byCurrency?: readonly CurrencyFigures[] | undefined;
}

const NOT_STARTED: Panel<never> = { status: 'loading', data: undefined };

/**
 * Runs a report page's machine in the app (it follows the filter header itself, and disables it while loading)
 * and shows its failure toasts. Before the machine has started, every panel is loading.
 */
export function useReport<TPanels extends object>(machine: ReportMachine<TPanels>) {
  return useReportActor(usePageActor(machine));
}

/**
 * The same for a report that a page's machine runs as its child (its query told by the page machine): the
 * report's panels, export and failure toasts.
 */
export function useReportActor<TPanels extends object>(actor: ActorRefFrom<ReportMachine<TPanels>> | undefined) {
  useNoticeToasts(actor);
  const query = useSelector(actor, (snapshot) => snapshot?.context.query);
  const loading = useSelector(actor, (snapshot) => snapshot === undefined || snapshot.hasTag('loading'));
  const ready = useSelector(
    actor,
    (snapshot) => snapshot !== undefined && !snapshot.hasTag('loading') && snapshot.context.query !== undefined,
  );
  const panels = useSelector(actor, (snapshot) => snapshot?.context.panels);
  /** The machine accepts an export: a range is shown, nothing is loading, no export is running. */
  const canExport = useSelector(
    actor,
    (snapshot) => snapshot?.can({ type: 'report.export', base: '', files: [] }) === true,
  );
  const exporting = useSelector(actor, (snapshot) => snapshot?.context.exporting === true);
  const comparison = useSelector(actor, (snapshot) => snapshot?.context.comparison) ?? DEFAULT_COMPARISON;
  /** Chooses what the growth figures compare with. */
  const compare = (choice: ComparisonChoice) => actor?.send({ type: 'report.compare', comparison: choice });
  const exportFiles = (base: string, files: readonly CsvFile[]) => actor?.send({ type: 'report.export', base, files });
  /** A panel's figures: only when it has loaded with something to show (otherwise its charts say 'No Data'). */
  const dataOf = <K extends keyof TPanels & string>(name: K): TPanels[K] | undefined => {
    const panel = panels?.[name];
    return panel?.status === 'loaded' ? panel.data : undefined;
  };
  const panelOf = (name: keyof TPanels & string): PanelState => ({
    status: (panels?.[name] ?? NOT_STARTED).status,
    reason: panels?.[name]?.reason,
    byCurrency: panels?.[name]?.byCurrency,
    retry: () => actor?.send({ type: 'report.retry', panel: name }),
  });
  return { actor, query, loading, ready, canExport, exporting, exportFiles, dataOf, panelOf, comparison, compare };
}
