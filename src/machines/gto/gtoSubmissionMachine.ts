import { assign, emit, fromPromise, setup } from 'xstate';
import type { ApiClient } from '../../api/client';
import { ApiError } from '../../api/errors';
import { type GtoSubmission, type GtoSubmissionRequest, getGtoSubmission, saveGtoSubmission } from '../../api/gto';
import {
  checkDraft,
  daysOfMonth,
  draftOf,
  GTO_SUBMISSION_WHAT,
  type GtoDraft,
  gtoSavedMessage,
  sameDraft,
  submissionRequest,
} from '../../domain/gto';
import { DEFAULT_ERROR_MESSAGE, loadFailureNotice, type Notice, TOAST_TIMEOUT } from '../../domain/messages';
import { holdUnsavedChanges } from '../factories/editorMachine';
import { followHeaderFilters, type HeaderFiltersEvent, lockHeader } from '../headerLink';

/**
 * The GTO submission page (§2, §7, §8): a tenant declares the gross turnover of each day of a month for one outlet.
 * It follows the header's client, outlet and month (`followHeaderFilters`) and has the editor's shape
 * (factories/editorMachine), with the month's own toasts and the server's message when a save fails:
 *
 *   idle (no outlet or month) ── header.filters ─> loading ── done ─> editing.clean
 *                                                           └ error ─> failure ── gto.retry ─> loading
 *   editing.clean | saved ── gto.changeDay / gto.changeRemarks (an open month) ─> editing.dirty
 *   editing.dirty ── gto.save (a valid draft) ─> saving ── done ─> saved ('GTO for <Month YYYY> submitted.')
 *                                                       └ error ─> failed (the draft and the server's message stay)
 *   editing.dirty | failed ── gto.cancel ─> editing.clean (the loaded value again)
 *
 * - A month not submitted yet is saved with POST, a submitted one with PUT (a correction).
 * - While a draft is not saved (dirty, saving, failed: tag 'dirty') the page holds its unsaved changes at the
 *   navigation guard and keeps the header disabled, so that another month or outlet cannot drop the draft.
 * - While loading or saving the header is disabled too (tags 'loading', 'saving').
 */

export interface GtoSubmissionTarget {
  readonly clientId: number;
  readonly outletId: number;
  /** `YYYY-MM`. */
  readonly month: string;
}

/** The month as loaded, and the outlet's today in its mall's time zone (the server's). */
export interface LoadedMonth {
  readonly submission: GtoSubmission;
  readonly outletToday: string;
}

/** GET submissionData for the outlet and month; it carries the outlet's today (the server takes no day after it). */
export async function loadGtoMonth(
  target: GtoSubmissionTarget,
  { signal, client }: { signal: AbortSignal; client?: ApiClient },
): Promise<LoadedMonth> {
  const submission = await getGtoSubmission(
    { client_id: target.clientId, outlet_id: target.outletId, searchedMonth: target.month },
    client ? { signal, client } : { signal },
  );
  return { submission, outletToday: submission.today };
}

export interface GtoSubmissionContext {
  readonly target: GtoSubmissionTarget | undefined;
  /** The outlet's today (`YYYY-MM-DD`; the header's until the outlet's is known): the last day to declare. */
  readonly today: string | undefined;
  /** The days of the month shown (up to today). */
  readonly days: readonly string[];
  /** The month as loaded or last saved. */
  readonly submission: GtoSubmission | undefined;
  readonly draft: GtoDraft;
  /** The server's message of the last failed save. */
  readonly saveError: string | undefined;
}

export type GtoSubmissionEvent =
  | HeaderFiltersEvent
  | { type: 'gto.changeDay'; date: string; value: string }
  | { type: 'gto.changeRemarks'; value: string }
  | { type: 'gto.cancel' }
  | { type: 'gto.save' }
  | { type: 'gto.retry' };

export type GtoSubmissionTag = 'loading' | 'saving' | 'dirty';

export const EMPTY_DRAFT: GtoDraft = { days: {}, remarks: '' };

/** A day after every month's days. */
const LAST_DAY = '9999-12-31';

/** The outlet and month the header selects: a single outlet the header knows, and a month. */
export function gtoTargetOf(event: Pick<HeaderFiltersEvent, 'filters' | 'outlets'>): GtoSubmissionTarget | undefined {
  const { clientId, outlet, month } = event.filters;
  if (clientId === undefined || month === undefined || typeof outlet !== 'number') return undefined;
  if (!event.outlets.some((candidate) => candidate.id === outlet)) return undefined;
  return { clientId, outletId: outlet, month };
}

const sameTarget = (a: GtoSubmissionTarget | undefined, b: GtoSubmissionTarget | undefined) =>
  a?.clientId === b?.clientId && a?.outletId === b?.outletId && a?.month === b?.month;

/** The server's message of a failed save (the spec: it rethrows, so the user reads why). */
export function saveErrorMessage(error: unknown): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : DEFAULT_ERROR_MESSAGE;
}

export interface SaveInput {
  readonly request: GtoSubmissionRequest;
  readonly correction: boolean;
}

export const gtoSubmissionMachine = setup({
  types: {
    context: {} as GtoSubmissionContext,
    events: {} as GtoSubmissionEvent,
    emitted: {} as Notice,
    tags: {} as GtoSubmissionTag,
  },
  actors: {
    followHeaderFilters,
    lockHeader,
    holdUnsavedChanges,
    fetchSubmission: fromPromise<LoadedMonth, GtoSubmissionTarget>(({ input, signal }) =>
      loadGtoMonth(input, { signal }),
    ),
    saveSubmission: fromPromise<GtoSubmission, SaveInput>(({ input, signal }) =>
      saveGtoSubmission(input.request, input.correction, { signal }),
    ),
  },
  guards: {
    isSameTarget: ({ context, event }) =>
      event.type === 'header.filters' && sameTarget(context.target, gtoTargetOf(event)),
    hasTarget: ({ event }) => event.type === 'header.filters' && gtoTargetOf(event) !== undefined,
    isOpen: ({ context }) => context.submission?.open === true,
    /** The month is open and the draft is valid and differs from the loaded value. */
    canSave: ({ context }) =>
      context.submission?.open === true &&
      checkDraft(context.draft, context.days).problem === undefined &&
      !sameDraft(context.draft, draftOf(context.submission, context.days)),
  },
  actions: {
    setTarget: assign(({ event }) =>
      event.type === 'header.filters'
        ? { target: gtoTargetOf(event), ...(event.today === undefined ? {} : { today: event.today }) }
        : {},
    ),
    resetMonth: assign({
      target: undefined,
      submission: undefined,
      days: [],
      draft: EMPTY_DRAFT,
      saveError: undefined,
    }),
    setSubmission: assign(({ context }, params: { submission: GtoSubmission }) => {
      // Without the header's today every day of the month is shown; the server refuses a day after it.
      const days = daysOfMonth(params.submission.searchedMonth, context.today ?? LAST_DAY);
      return { submission: params.submission, days, draft: draftOf(params.submission, days), saveError: undefined };
    }),
    setDay: assign(({ context, event }) =>
      event.type === 'gto.changeDay' && context.days.includes(event.date)
        ? { draft: { ...context.draft, days: { ...context.draft.days, [event.date]: event.value } } }
        : {},
    ),
    setRemarks: assign(({ context, event }) =>
      event.type === 'gto.changeRemarks' ? { draft: { ...context.draft, remarks: event.value } } : {},
    ),
    resetDraft: assign(({ context }) => ({
      draft: context.submission ? draftOf(context.submission, context.days) : EMPTY_DRAFT,
      saveError: undefined,
    })),
    clearSaveError: assign({ saveError: undefined }),
    setSaveError: assign((_, params: { message: string }) => ({ saveError: params.message })),
    notifyLoadFailure: emit(loadFailureNotice(GTO_SUBMISSION_WHAT)),
    notifySaved: emit((_, params: { month: string; correction: boolean }) => ({
      type: 'notify' as const,
      intent: 'success' as const,
      message: gtoSavedMessage(params.month, params.correction),
      timeout: TOAST_TIMEOUT.long,
    })),
    notifySaveFailure: emit((_, params: { message: string }) => ({
      type: 'notify' as const,
      intent: 'danger' as const,
      message: params.message,
      timeout: TOAST_TIMEOUT.long,
    })),
  },
}).createMachine({
  id: 'gtoSubmission',
  context: {
    target: undefined,
    today: undefined,
    days: [],
    submission: undefined,
    draft: EMPTY_DRAFT,
    saveError: undefined,
  },
  invoke: { src: 'followHeaderFilters' },
  initial: 'idle',
  on: {
    'header.filters': [
      { guard: 'isSameTarget' },
      { guard: 'hasTarget', target: '.loading', reenter: true, actions: 'setTarget' },
      { target: '.idle', actions: 'resetMonth' },
    ],
  },
  states: {
    /** No single outlet or no month chosen yet. */
    idle: {},
    loading: {
      tags: ['loading'],
      invoke: [
        { src: 'lockHeader' },
        {
          src: 'fetchSubmission',
          input: ({ context }) => {
            if (!context.target) throw new Error('gtoSubmission: loading without an outlet');
            return context.target;
          },
          onDone: {
            target: 'editing',
            actions: [
              assign(({ event }) => ({ today: event.output.outletToday })),
              { type: 'setSubmission', params: ({ event }) => ({ submission: event.output.submission }) },
            ],
          },
          onError: { target: 'failure', actions: 'notifyLoadFailure' },
        },
      ],
    },
    /** The month could not be read: the toast, and a retry. */
    failure: {
      on: { 'gto.retry': 'loading' },
    },
    editing: {
      initial: 'clean',
      on: {
        'gto.changeDay': { guard: 'isOpen', target: '.dirty', actions: 'setDay' },
        'gto.changeRemarks': { guard: 'isOpen', target: '.dirty', actions: 'setRemarks' },
      },
      states: {
        /** The draft is the loaded value. */
        clean: {},
        dirty: {
          tags: ['dirty'],
          invoke: [{ src: 'holdUnsavedChanges' }, { src: 'lockHeader' }],
          on: {
            'gto.cancel': { target: 'clean', actions: 'resetDraft' },
            'gto.save': { guard: 'canSave', target: '#gtoSubmission.saving' },
          },
        },
      },
    },
    saving: {
      tags: ['saving', 'dirty'],
      entry: 'clearSaveError',
      invoke: [
        { src: 'holdUnsavedChanges' },
        { src: 'lockHeader' },
        {
          src: 'saveSubmission',
          input: ({ context }): SaveInput => {
            if (!context.target || !context.submission) throw new Error('gtoSubmission: saving before loading');
            return {
              request: submissionRequest(
                context.target,
                checkDraft(context.draft, context.days),
                context.draft.remarks,
              ),
              correction: context.submission.submitted,
            };
          },
          onDone: {
            target: 'saved',
            actions: [
              {
                type: 'notifySaved',
                params: ({ context }) => ({
                  month: context.target?.month ?? '',
                  correction: context.submission?.submitted === true,
                }),
              },
              { type: 'setSubmission', params: ({ event }) => ({ submission: event.output }) },
            ],
          },
          onError: {
            target: 'failed',
            actions: [
              { type: 'setSaveError', params: ({ event }) => ({ message: saveErrorMessage(event.error) }) },
              { type: 'notifySaveFailure', params: ({ event }) => ({ message: saveErrorMessage(event.error) }) },
            ],
          },
        },
      ],
    },
    /** Saved: the month as the server keeps it is the loaded value, and editing goes on from it. */
    saved: {
      on: {
        'gto.changeDay': { guard: 'isOpen', target: 'editing.dirty', actions: 'setDay' },
        'gto.changeRemarks': { guard: 'isOpen', target: 'editing.dirty', actions: 'setRemarks' },
      },
    },
    /** The save failed: the draft and the server's message stay; save again, edit on or discard. */
    failed: {
      tags: ['dirty'],
      invoke: [{ src: 'holdUnsavedChanges' }, { src: 'lockHeader' }],
      on: {
        'gto.save': { guard: 'canSave', target: 'saving' },
        'gto.changeDay': { target: 'editing.dirty', actions: 'setDay' },
        'gto.changeRemarks': { target: 'editing.dirty', actions: 'setRemarks' },
        'gto.cancel': { target: 'editing.clean', actions: 'resetDraft' },
      },
    },
  },
});
