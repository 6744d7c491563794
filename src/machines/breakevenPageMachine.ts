import { type ActorRefFrom, assign, enqueueActions, fromCallback, type SnapshotFrom, setup } from 'xstate';
import { type BreakevenAnswer, updateBreakevenTargets } from '../api/breakeven';
import type { ApiClient } from '../api/client';
import {
  type BreakevenTargetsDraft,
  changedTargets,
  type Department,
  isTargetsDraftValid,
  targetText,
} from '../domain/breakeven';
import type { ReportQuery } from '../domain/mallReportViews';
import { SAVE_FAILED_MESSAGE, SAVE_SUCCESS_MESSAGE } from '../domain/settings';
import { createBreakevenMachine } from './breakevenMachine';
import { createEditorMachine } from './factories/editorMachine';

/**
 * The targets dialog: the outlets of the rows shown with their targets; a save sends the targets changed (null
 * removes one) and tells the page (`editor.saved`), which reads the rows again.
 */
export function createBreakevenTargetsMachine(client?: ApiClient) {
  let saved: BreakevenTargetsDraft | undefined;
  return createEditorMachine<BreakevenTargetsDraft, BreakevenTargetsDraft>({
    id: 'breakevenTargets',
    what: 'Breakeven target',
    load: async (input) => {
      saved = input;
      return input;
    },
    save: async (draft, { signal }) => {
      const targets = saved ? changedTargets(draft, saved) : [];
      if (targets.length > 0) {
        await updateBreakevenTargets(
          { client_id: draft.clientId, department: draft.department, month: draft.month, targets },
          client ? { signal, client } : { signal },
        );
      }
      saved = draft;
      return draft;
    },
    validate: isTargetsDraftValid,
    savedMessage: SAVE_SUCCESS_MESSAGE,
    failedMessage: SAVE_FAILED_MESSAGE,
    tellParentSaved: true,
  });
}

/** The targets of the rows shown, as the dialog starts them. */
export function targetsDraftOf(
  department: Department,
  query: ReportQuery,
  answer: BreakevenAnswer,
): BreakevenTargetsDraft {
  return {
    clientId: query.clientId,
    department,
    month: answer.month,
    outlets: answer.data.map((row) => ({ id: row.outlet_id, name: row.outlet_name, currency: row.currency })),
    targets: Object.fromEntries(answer.data.map((row) => [row.outlet_id, targetText(row.breakeven_target)])),
  };
}

export interface BreakevenPageContext {
  /** The report's query and answer while its rows are shown. */
  readonly shown: { readonly query: ReportQuery; readonly answer: BreakevenAnswer } | undefined;
  readonly editing: boolean;
}

export type BreakevenPageEvent =
  | { type: 'report.shown'; shown: BreakevenPageContext['shown'] }
  | { type: 'targets.edit' }
  | { type: 'targets.close' }
  | { type: 'editor.saved' };

/**
 * A department's breakeven page: its report (the query page of the header's malls and month, child `report`) and,
 * on `targets.edit`, the dialog editing the targets of the rows shown (child `targets`); a save closes the dialog
 * and reads the report again.
 */
export function createBreakevenPageMachine(department: Department, client?: ApiClient) {
  const report = createBreakevenMachine(department, client);
  return setup({
    types: {
      context: {} as BreakevenPageContext,
      events: {} as BreakevenPageEvent,
      children: {} as { report: 'report'; targets: 'targets' },
    },
    actors: {
      report,
      targets: createBreakevenTargetsMachine(client),
      /** Tells the page the rows the report shows (none while it loads or failed). */
      followReport: fromCallback<BreakevenPageEvent>(({ system, sendBack }) => {
        const child: ActorRefFrom<typeof report> | undefined = system.get(`breakevenReport-${department}`);
        if (!child) return () => undefined;
        let told: BreakevenPageContext['shown'] | 'none' = 'none';
        const tell = (snapshot: SnapshotFrom<typeof report>) => {
          const panel = snapshot.context.panels.breakeven;
          const query = snapshot.context.query;
          const shown = panel.status === 'loaded' && query && panel.data ? { query, answer: panel.data } : undefined;
          if (told !== 'none' && told?.answer === shown?.answer) return;
          told = shown;
          sendBack({ type: 'report.shown', shown });
        };
        const subscription = child.subscribe(tell);
        tell(child.getSnapshot());
        return () => subscription.unsubscribe();
      }),
    },
    guards: {
      canEdit: ({ context }) => !context.editing && (context.shown?.answer.data.length ?? 0) > 0,
    },
    actions: {
      openTargets: enqueueActions(({ context, enqueue }) => {
        if (!context.shown) return;
        enqueue.spawnChild('targets', {
          id: 'targets',
          input: targetsDraftOf(department, context.shown.query, context.shown.answer),
        });
        enqueue.assign({ editing: true });
      }),
      closeTargets: enqueueActions(({ enqueue }) => {
        enqueue.stopChild('targets');
        enqueue.assign({ editing: false });
      }),
      reloadReport: enqueueActions(({ context, enqueue }) => {
        if (context.shown) enqueue.sendTo('report', { type: 'report.load', query: context.shown.query });
      }),
    },
  }).createMachine({
    id: `breakevenPage-${department}`,
    context: { shown: undefined, editing: false },
    invoke: [{ id: 'report', systemId: `breakevenReport-${department}`, src: 'report' }, { src: 'followReport' }],
    on: {
      'report.shown': { actions: assign({ shown: ({ event }) => event.shown }) },
      'targets.edit': { guard: 'canEdit', actions: 'openTargets' },
      'targets.close': { actions: 'closeTargets' },
      'editor.saved': { actions: ['closeTargets', 'reloadReport'] },
    },
  });
}

export const BREAKEVEN_PAGE_MACHINES: Readonly<Record<Department, ReturnType<typeof createBreakevenPageMachine>>> = {
  leasing: createBreakevenPageMachine('leasing'),
  finance: createBreakevenPageMachine('finance'),
  marcom: createBreakevenPageMachine('marcom'),
  operations: createBreakevenPageMachine('operations'),
};
