import { assign, emit, fromPromise, setup } from 'xstate';
import type { ApiClient } from '../../api/client';
import { api } from '../../api/client';
import { serverMessageWhen } from '../../api/errors';
import {
  createMealTiming,
  deleteMealTiming,
  getMealTimings,
  type MealTiming,
  updateMealTimings,
} from '../../api/settings';
import { loadFailureNotice, type Notice, TOAST_TIMEOUT } from '../../domain/messages';
import {
  areMealTimingsValid,
  changedMealTimings,
  MEAL_ADD_FAILED_MESSAGE,
  MEAL_DELETE_FAILED_MESSAGE,
  MEAL_DELETED_MESSAGE,
  type MealTimingDraft,
  SAVE_FAILED_MESSAGE,
  SAVE_SUCCESS_MESSAGE,
  SETTINGS_WHAT,
} from '../../domain/settings';
import { holdUnsavedChanges } from '../factories/editorMachine';

/**
 * The meal timings of an outlet: list, add (the server creates one with a default name and hours), rename or
 * retime (saved together with PUT), delete (done when the server answers 200).
 *
 *   loading ── done ─> ready.clean ── meals.change ─> ready.dirty ── meals.save ─> saving ─> ready.clean | ready.dirty
 *           └ error ─> failure ── meals.retry ─> loading
 *   ready ── meals.add ─> adding ─> ready ;  meals.delete ─> deleting ─> ready ;  ready.dirty ── meals.cancel ─> clean
 *
 * - `meals.save` only for a changed draft whose times are valid (start before end, no overlap: `problems` says
 *   which row is wrong, domain/settings). 'Save Successfully.' / 'Save Failed.'; a 400 shows the server's text
 *   instead (it checks the same rules).
 * - Adding and deleting keep the draft's other edits.
 */

export interface MealTimingsInput {
  readonly clientId: number;
  readonly outletId: number;
}

export interface MealTimingsContext {
  readonly clientId: number;
  readonly outletId: number;
  readonly saved: readonly MealTimingDraft[];
  readonly draft: readonly MealTimingDraft[];
  /** The row being deleted. */
  readonly deleting: number | undefined;
}

export type MealTimingField = 'name' | 'start_time' | 'end_time';

export type MealTimingsEvent =
  | { type: 'meals.change'; id: number; field: MealTimingField; value: string }
  | { type: 'meals.add' }
  | { type: 'meals.delete'; id: number }
  | { type: 'meals.save' }
  | { type: 'meals.cancel' }
  | { type: 'meals.retry' };

function rowOf(timing: MealTiming): MealTimingDraft {
  return { id: timing.id, ...timing.meal_timing };
}

function notice(intent: 'success' | 'danger', message: string): Notice {
  return { type: 'notify', intent, message, timeout: TOAST_TIMEOUT.long };
}

/** The server's text of a 400, else `fallback`. */
function failureMessage(error: unknown, fallback: string): string {
  return serverMessageWhen(error, 400) ?? fallback;
}

export function createMealTimingsMachine(client: ApiClient = api) {
  return setup({
    types: {
      context: {} as MealTimingsContext,
      events: {} as MealTimingsEvent,
      input: {} as MealTimingsInput,
      emitted: {} as Notice,
      tags: {} as 'loading' | 'busy' | 'dirty',
    },
    actors: {
      holdUnsavedChanges,
      fetchMealTimings: fromPromise<MealTimingDraft[], MealTimingsInput>(async ({ input, signal }) =>
        (await getMealTimings({ outlet_id: input.outletId, client_id: input.clientId }, { signal, client })).map(rowOf),
      ),
      addMealTiming: fromPromise<MealTimingDraft, MealTimingsInput>(async ({ input, signal }) =>
        rowOf(await createMealTiming({ outlet_id: input.outletId, client_id: input.clientId }, { signal, client })),
      ),
      removeMealTiming: fromPromise<number, MealTimingsInput & { id: number }>(async ({ input, signal }) => {
        await deleteMealTiming(
          { id: input.id, outlet_id: input.outletId, client_id: input.clientId },
          { signal, client },
        );
        return input.id;
      }),
      saveMealTimings: fromPromise<MealTimingDraft[], MealTimingsInput & { rows: MealTimingDraft[] }>(
        async ({ input, signal }) =>
          (
            await updateMealTimings(
              { meal_timing: input.rows, outlet_id: input.outletId, client_id: input.clientId },
              { signal, client },
            )
          ).map(rowOf),
      ),
    },
    guards: {
      isRow: ({ context }, params: { id: number }) => context.draft.some((row) => row.id === params.id),
      canSave: ({ context }) =>
        changedMealTimings(context.saved, context.draft).length > 0 && areMealTimingsValid(context.draft),
      isClean: ({ context }) => changedMealTimings(context.saved, context.draft).length === 0,
    },
    actions: {
      setRows: assign((_, params: { rows: MealTimingDraft[] }) => ({ saved: params.rows, draft: params.rows })),
      setField: assign(({ context }, params: { id: number; field: MealTimingField; value: string }) => ({
        draft: context.draft.map((row) => (row.id === params.id ? { ...row, [params.field]: params.value } : row)),
      })),
      resetDraft: assign(({ context }) => ({ draft: context.saved })),
      addRow: assign(({ context }, params: { row: MealTimingDraft }) => ({
        saved: [...context.saved, params.row],
        draft: [...context.draft, params.row],
      })),
      setDeleting: assign((_, params: { id: number }) => ({ deleting: params.id })),
      removeRow: assign(({ context }, params: { id: number }) => ({
        saved: context.saved.filter((row) => row.id !== params.id),
        draft: context.draft.filter((row) => row.id !== params.id),
        deleting: undefined,
      })),
      resetDeleting: assign({ deleting: undefined }),
      /** The saved rows from the server; rows it did not answer keep the draft's values. */
      setSaved: assign(({ context }, params: { rows: MealTimingDraft[] }) => ({
        saved: params.rows,
        draft: params.rows,
        deleting: context.deleting,
      })),
      notifyLoadFailure: emit(loadFailureNotice(SETTINGS_WHAT.mealTimings)),
      notify: emit((_, params: { intent: 'success' | 'danger'; message: string }) =>
        notice(params.intent, params.message),
      ),
    },
  }).createMachine({
    id: 'mealTimings',
    context: ({ input }) => ({
      clientId: input.clientId,
      outletId: input.outletId,
      saved: [],
      draft: [],
      deleting: undefined,
    }),
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        invoke: {
          src: 'fetchMealTimings',
          input: ({ context }) => ({ clientId: context.clientId, outletId: context.outletId }),
          onDone: { target: 'ready', actions: { type: 'setRows', params: ({ event }) => ({ rows: event.output }) } },
          onError: { target: 'failure', actions: 'notifyLoadFailure' },
        },
      },
      failure: {
        on: { 'meals.retry': 'loading' },
      },
      ready: {
        initial: 'clean',
        on: {
          'meals.change': {
            guard: { type: 'isRow', params: ({ event }) => ({ id: event.id }) },
            target: '.dirty',
            actions: { type: 'setField', params: ({ event }) => event },
          },
          'meals.add': 'adding',
          'meals.delete': {
            guard: { type: 'isRow', params: ({ event }) => ({ id: event.id }) },
            target: 'deleting',
            actions: { type: 'setDeleting', params: ({ event }) => ({ id: event.id }) },
          },
        },
        states: {
          /** Checks whether the draft is the saved value again (after adding or deleting). */
          settle: {
            always: [{ guard: 'isClean', target: 'clean' }, { target: 'dirty' }],
          },
          clean: {},
          dirty: {
            tags: ['dirty'],
            invoke: { src: 'holdUnsavedChanges' },
            always: { guard: 'isClean', target: 'clean' },
            on: {
              'meals.cancel': { target: 'clean', actions: 'resetDraft' },
              'meals.save': { guard: 'canSave', target: '#mealTimings.saving' },
            },
          },
        },
      },
      adding: {
        tags: ['busy'],
        invoke: {
          src: 'addMealTiming',
          input: ({ context }) => ({ clientId: context.clientId, outletId: context.outletId }),
          onDone: {
            target: 'ready.settle',
            actions: { type: 'addRow', params: ({ event }) => ({ row: event.output }) },
          },
          onError: {
            target: 'ready.settle',
            actions: {
              type: 'notify',
              params: ({ event }) => ({
                intent: 'danger',
                message: failureMessage(event.error, MEAL_ADD_FAILED_MESSAGE),
              }),
            },
          },
        },
      },
      deleting: {
        tags: ['busy'],
        invoke: {
          src: 'removeMealTiming',
          input: ({ context }) => ({
            clientId: context.clientId,
            outletId: context.outletId,
            id: context.deleting ?? 0,
          }),
          onDone: {
            target: 'ready.settle',
            actions: [
              { type: 'removeRow', params: ({ event }) => ({ id: event.output }) },
              { type: 'notify', params: { intent: 'success', message: MEAL_DELETED_MESSAGE } },
            ],
          },
          onError: {
            target: 'ready.settle',
            actions: [
              'resetDeleting',
              {
                type: 'notify',
                params: ({ event }) => ({
                  intent: 'danger',
                  message: failureMessage(event.error, MEAL_DELETE_FAILED_MESSAGE),
                }),
              },
            ],
          },
        },
      },
      saving: {
        tags: ['busy', 'dirty'],
        invoke: [
          { src: 'holdUnsavedChanges' },
          {
            src: 'saveMealTimings',
            input: ({ context }) => ({
              clientId: context.clientId,
              outletId: context.outletId,
              rows: changedMealTimings(context.saved, context.draft),
            }),
            onDone: {
              target: 'ready.clean',
              actions: [
                { type: 'setSaved', params: ({ event }) => ({ rows: event.output }) },
                { type: 'notify', params: { intent: 'success', message: SAVE_SUCCESS_MESSAGE } },
              ],
            },
            onError: {
              target: 'ready.dirty',
              actions: {
                type: 'notify',
                params: ({ event }) => ({
                  intent: 'danger',
                  message: failureMessage(event.error, SAVE_FAILED_MESSAGE),
                }),
              },
            },
          },
        ],
      },
    },
  });
}

export const mealTimingsMachine = createMealTimingsMachine();
