import { assign, emit, fromPromise, setup } from 'xstate';
import type { ApiClient } from '../../api/client';
import { type GtoOutletMonths, getGtoOutletMonths } from '../../api/gto';
import { grossTurnoverCsv, grossTurnoverRange, isGrossTurnoverEmpty } from '../../domain/gto';
import { errorOccurs, loadFailureNotice, type Notice, TOAST_TIMEOUT } from '../../domain/messages';
import { followHeaderFilters, type HeaderFiltersEvent, lockHeader } from '../headerLink';
import { exportCsvFiles } from '../reportExport';
import { type GtoSubmissionTarget, gtoTargetOf } from './gtoSubmissionMachine';

/**
 * The tenant's Gross Turnover page: for the header's outlet and month, the GTO declared month by month over the
 * year up to that month beside the sales captured from the outlet's receipts, with the difference.
 *
 *   idle (no outlet or month) ── header.filters ─> loading ── done ─> loaded | empty ('No Data')
 *                                                          └ error ─> failure ── months.retry ─> loading
 *   a new outlet or month ─> loading (the pending call aborted)
 *   loaded ── months.export ─> the CSV file of the months (a toast when it fails)
 */

export const GROSS_TURNOVER_WHAT = 'Gross turnover fetching';

export interface GrossTurnoverContext {
  readonly target: GtoSubmissionTarget | undefined;
  readonly answer: GtoOutletMonths | undefined;
}

export type GrossTurnoverEvent = HeaderFiltersEvent | { type: 'months.retry' } | { type: 'months.export' };

/** The year of months up to the target's month (GET /api/gtoReport/outletMonths). */
export function loadGrossTurnover(
  target: GtoSubmissionTarget,
  { signal, client }: { readonly signal: AbortSignal; readonly client?: ApiClient },
): Promise<GtoOutletMonths> {
  const range = grossTurnoverRange(target.month);
  return getGtoOutletMonths(
    { client_id: target.clientId, outlet_id: target.outletId, ...range },
    { signal, ...(client ? { client } : {}) },
  );
}

const sameTarget = (a: GtoSubmissionTarget | undefined, b: GtoSubmissionTarget | undefined) =>
  a?.clientId === b?.clientId && a?.outletId === b?.outletId && a?.month === b?.month;

export const grossTurnoverMachine = setup({
  types: {
    context: {} as GrossTurnoverContext,
    events: {} as GrossTurnoverEvent,
    emitted: {} as Notice,
    tags: {} as 'loading',
  },
  actors: {
    followHeaderFilters,
    lockHeader,
    fetchMonths: fromPromise<GtoOutletMonths, GtoSubmissionTarget>(({ input, signal }) =>
      loadGrossTurnover(input, { signal }),
    ),
    exportMonths: fromPromise<void, { month: string; answer: GtoOutletMonths }>(({ input }) =>
      exportCsvFiles('gross_turnover', grossTurnoverRange(input.month).from.concat('_', input.month), [
        grossTurnoverCsv(input.answer.data, input.answer.currency),
      ]),
    ),
  },
  guards: {
    isNewTarget: ({ context, event }) => {
      if (event.type !== 'header.filters') return false;
      const target = gtoTargetOf(event);
      return target !== undefined && !sameTarget(target, context.target);
    },
    isEmptyAnswer: (_, params: { answer: GtoOutletMonths }) => isGrossTurnoverEmpty(params.answer.data),
  },
  actions: {
    setTarget: assign(({ event }) => (event.type === 'header.filters' ? { target: gtoTargetOf(event) } : {})),
    setAnswer: assign((_, params: { answer: GtoOutletMonths }) => ({ answer: params.answer })),
    resetAnswer: assign({ answer: undefined }),
    notifyFailure: emit(loadFailureNotice(GROSS_TURNOVER_WHAT)),
    notifyExportFailure: emit({
      type: 'notify',
      intent: 'danger',
      message: errorOccurs('Gross turnover export'),
      timeout: TOAST_TIMEOUT.long,
    } as const),
  },
}).createMachine({
  id: 'grossTurnover',
  context: { target: undefined, answer: undefined },
  invoke: { src: 'followHeaderFilters' },
  on: {
    'header.filters': { guard: 'isNewTarget', target: '.loading', reenter: true, actions: 'setTarget' },
  },
  initial: 'idle',
  states: {
    /** No outlet or month chosen yet. */
    idle: {},
    loading: {
      tags: ['loading'],
      entry: 'resetAnswer',
      invoke: [
        { src: 'lockHeader' },
        {
          src: 'fetchMonths',
          input: ({ context }) => {
            if (!context.target) throw new Error('gross turnover: loading without an outlet and month');
            return context.target;
          },
          onDone: [
            {
              guard: { type: 'isEmptyAnswer', params: ({ event }) => ({ answer: event.output }) },
              target: 'empty',
              actions: { type: 'setAnswer', params: ({ event }) => ({ answer: event.output }) },
            },
            { target: 'loaded', actions: { type: 'setAnswer', params: ({ event }) => ({ answer: event.output }) } },
          ],
          onError: { target: 'failure', actions: 'notifyFailure' },
        },
      ],
    },
    loaded: {
      on: { 'months.export': { target: 'exporting' } },
    },
    exporting: {
      invoke: {
        src: 'exportMonths',
        input: ({ context }) => {
          if (!context.target || !context.answer) throw new Error('gross turnover: export without months');
          return { month: context.target.month, answer: context.answer };
        },
        onDone: { target: 'loaded' },
        onError: { target: 'loaded', actions: 'notifyExportFailure' },
      },
    },
    /** Nothing declared and nothing captured in the year: 'No Data'. */
    empty: {},
    failure: {
      on: { 'months.retry': { target: 'loading' } },
    },
  },
});
