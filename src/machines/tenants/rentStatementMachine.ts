import { assign, emit, fromPromise, setup } from 'xstate';
import type { ApiClient } from '../../api/client';
import { getTenantRentStatement, type TenantRentStatement } from '../../api/rentStatements';
import { loadFailureNotice, type Notice } from '../../domain/messages';
import { RENT_STATEMENT_WHAT } from '../../domain/rentStatements';
import { type GtoSubmissionTarget, gtoTargetOf } from '../gto/gtoSubmissionMachine';
import { followHeaderFilters, type HeaderFiltersEvent, lockHeader } from '../headerLink';

/**
 * The tenant's Rent Statement page (/tenants/rent-statement): for the header's one outlet (top bar) and the month
 * chosen on the page (the header's Month picker, as the GTO pages hold theirs), the lease covering the month and
 * the month's rent line by line.
 *
 *   idle (no outlet or month) ── header.filters ─> loading ── done ─> loaded | empty (no lease covers the month)
 *                                                          └ error ─> failure ── statement.retry ─> loading
 *   another outlet or month ─> loading (the pending call aborted); none ─> idle
 *
 * While loading the header is disabled (tag 'loading'); a failure toasts 'Rent statement fetching error occurs.
 * Please try again later.'.
 */

export interface RentStatementContext {
  readonly target: GtoSubmissionTarget | undefined;
  readonly answer: TenantRentStatement | undefined;
}

export type RentStatementEvent = HeaderFiltersEvent | { type: 'statement.retry' };

/** The outlet's statement of the target's month. */
export function loadRentStatement(
  target: GtoSubmissionTarget,
  { signal, client }: { readonly signal: AbortSignal; readonly client?: ApiClient },
): Promise<TenantRentStatement> {
  return getTenantRentStatement(
    { client_id: target.clientId, outlet_id: target.outletId, month: target.month },
    { signal, ...(client ? { client } : {}) },
  );
}

/** No lease covers the month: the answer has no lease or no statement. */
export function isNoLease(answer: Pick<TenantRentStatement, 'lease' | 'statement'>): boolean {
  return answer.lease === undefined || answer.statement === undefined;
}

const sameTarget = (a: GtoSubmissionTarget | undefined, b: GtoSubmissionTarget | undefined) =>
  a?.clientId === b?.clientId && a?.outletId === b?.outletId && a?.month === b?.month;

export const rentStatementMachine = setup({
  types: {
    context: {} as RentStatementContext,
    events: {} as RentStatementEvent,
    emitted: {} as Notice,
    tags: {} as 'loading',
  },
  actors: {
    followHeaderFilters,
    lockHeader,
    fetchStatement: fromPromise<TenantRentStatement, GtoSubmissionTarget>(({ input, signal }) =>
      loadRentStatement(input, { signal }),
    ),
  },
  guards: {
    isSameTarget: ({ context, event }) =>
      event.type === 'header.filters' && sameTarget(context.target, gtoTargetOf(event)),
    hasTarget: ({ event }) => event.type === 'header.filters' && gtoTargetOf(event) !== undefined,
    isNoLeaseAnswer: (_, params: { answer: TenantRentStatement }) => isNoLease(params.answer),
  },
  actions: {
    setTarget: assign(({ event }) => (event.type === 'header.filters' ? { target: gtoTargetOf(event) } : {})),
    setAnswer: assign((_, params: { answer: TenantRentStatement }) => ({ answer: params.answer })),
    resetAnswer: assign({ answer: undefined }),
    resetTarget: assign({ target: undefined, answer: undefined }),
    notifyFailure: emit(loadFailureNotice(RENT_STATEMENT_WHAT)),
  },
}).createMachine({
  id: 'rentStatement',
  context: { target: undefined, answer: undefined },
  invoke: { src: 'followHeaderFilters' },
  on: {
    'header.filters': [
      { guard: 'isSameTarget' },
      { guard: 'hasTarget', target: '.loading', reenter: true, actions: 'setTarget' },
      { target: '.idle', actions: 'resetTarget' },
    ],
  },
  initial: 'idle',
  states: {
    /** No single outlet or no month chosen yet. */
    idle: {},
    loading: {
      tags: ['loading'],
      entry: 'resetAnswer',
      invoke: [
        { src: 'lockHeader' },
        {
          src: 'fetchStatement',
          input: ({ context }) => {
            if (!context.target) throw new Error('rent statement: loading without an outlet and month');
            return context.target;
          },
          onDone: [
            {
              guard: { type: 'isNoLeaseAnswer', params: ({ event }) => ({ answer: event.output }) },
              target: 'empty',
              actions: { type: 'setAnswer', params: ({ event }) => ({ answer: event.output }) },
            },
            { target: 'loaded', actions: { type: 'setAnswer', params: ({ event }) => ({ answer: event.output }) } },
          ],
          onError: { target: 'failure', actions: 'notifyFailure' },
        },
      ],
    },
    /** The lease's terms and the month's rent line by line. */
    loaded: {},
    /** No lease of the outlet covers the month. */
    empty: {},
    /** The statement could not be read: the toast, and a retry. */
    failure: {
      on: { 'statement.retry': { target: 'loading' } },
    },
  },
});
