import { assign, emit, fromPromise, setup } from 'xstate';
import type { ApiClient } from '../../api/client';
import { api } from '../../api/client';
import { getProcessingFees, type ProcessingFee, saveProcessingFees } from '../../api/settings';
import type { DateRange } from '../../domain/dateLimits';
import { loadFailureNotice, type Notice, TOAST_TIMEOUT } from '../../domain/messages';
import {
  defaultFeeRange,
  FEE_RANGE_MESSAGE,
  formatFee,
  parseFee,
  SAVE_FAILED_MESSAGE,
  SAVE_SUCCESS_MESSAGE,
  SETTINGS_WHAT,
} from '../../domain/settings';
import { type DateRangeChangeEvent, dateRangePickerMachine } from '../dateRangePickerMachine';
import { holdUnsavedChanges } from '../factories/editorMachine';

/**
 * The processing fees of an outlet (§2, §4, §5, §7, §8, §9): one row per payment method seen in the lookup range
 * (default one month ago to today, the invoked date range picker `range`), each with its fee.
 *
 *   loading ── done ─> ready.viewing ── fees.edit ─> ready.editing ── fees.save ─> saving ── done ─> ready.viewing
 *           └ error ─> failure ── fees.retry ─> loading                                     └ error ─> ready.editing
 *   ready.editing ── fees.change (the text typed) ; fees.cancel ─> ready.viewing ; fees.edit (another row)
 *   any ── dateRange.change (the picker's Apply) ─> loading
 *
 * - One row is edited at a time; `fees.save` only for a text that is a fee from 0 to 100 (else `feeError` says
 *   so); a new method (`isNewMethod`) is saved with POST, an existing one with PUT; the fee is sent as a
 *   2-decimal string. 'Save Successfully.' / 'Save Failed.' (a failed save keeps the row in edit mode).
 */

export interface ProcessingFeesInput {
  readonly clientId: number;
  readonly outletId: number;
  readonly today: string;
}

export interface FeeEdit {
  readonly method: string;
  readonly text: string;
}

export interface ProcessingFeesContext {
  readonly clientId: number;
  readonly outletId: number;
  readonly today: string;
  readonly range: DateRange;
  readonly rows: readonly ProcessingFee[];
  /** The row in edit mode and its text. */
  readonly edit: FeeEdit | undefined;
  /** Why the edited text cannot be saved. */
  readonly feeError: string | undefined;
}

export type ProcessingFeesEvent =
  | DateRangeChangeEvent
  | { type: 'fees.edit'; method: string }
  | { type: 'fees.change'; text: string }
  | { type: 'fees.cancel' }
  | { type: 'fees.save' }
  | { type: 'fees.retry' };

function feeErrorOf(text: string): string | undefined {
  return parseFee(text) === undefined ? FEE_RANGE_MESSAGE : undefined;
}

export function createProcessingFeesMachine(client: ApiClient = api) {
  return setup({
    types: {
      context: {} as ProcessingFeesContext,
      events: {} as ProcessingFeesEvent,
      input: {} as ProcessingFeesInput,
      emitted: {} as Notice,
      tags: {} as 'loading' | 'saving' | 'dirty',
      children: {} as { range: 'range' },
    },
    actors: {
      range: dateRangePickerMachine,
      holdUnsavedChanges,
      fetchProcessingFees: fromPromise<ProcessingFee[], { clientId: number; outletId: number; range: DateRange }>(
        ({ input, signal }) =>
          getProcessingFees(
            {
              client_id: input.clientId,
              id: String(input.outletId),
              startTime: input.range.start,
              endTime: input.range.end,
            },
            { signal, client },
          ),
      ),
      saveProcessingFee: fromPromise<
        { method: string; fee: number },
        { clientId: number; outletId: number; method: string; fee: number; isNew: boolean }
      >(async ({ input, signal }) => {
        await saveProcessingFees(
          {
            client_id: input.clientId,
            id: String(input.outletId),
            formData: [{ payment_method: input.method, processing_fees: formatFee(input.fee) }],
          },
          input.isNew,
          { signal, client },
        );
        return { method: input.method, fee: input.fee };
      }),
    },
    guards: {
      isRow: ({ context }, params: { method: string }) =>
        context.rows.some((row) => row.payment_method === params.method),
      canSave: ({ context }) => context.edit !== undefined && parseFee(context.edit.text) !== undefined,
    },
    actions: {
      setRange: assign((_, params: { range: DateRange }) => ({
        range: { start: params.range.start, end: params.range.end },
      })),
      setRows: assign((_, params: { rows: ProcessingFee[] }) => ({
        rows: params.rows,
        edit: undefined,
        feeError: undefined,
      })),
      resetRows: assign({ rows: [], edit: undefined, feeError: undefined }),
      startEdit: assign(({ context }, params: { method: string }) => {
        const row = context.rows.find((entry) => entry.payment_method === params.method);
        return {
          edit: { method: params.method, text: row ? formatFee(row.processing_fees) : '' },
          feeError: undefined,
        };
      }),
      setText: assign(({ context }, params: { text: string }) =>
        context.edit ? { edit: { ...context.edit, text: params.text }, feeError: feeErrorOf(params.text) } : {},
      ),
      resetEdit: assign({ edit: undefined, feeError: undefined }),
      setSaved: assign(({ context }, params: { method: string; fee: number }) => ({
        rows: context.rows.map((row) =>
          row.payment_method === params.method ? { ...row, processing_fees: params.fee, isNewMethod: false } : row,
        ),
        edit: undefined,
        feeError: undefined,
      })),
      notifyLoadFailure: emit(loadFailureNotice(SETTINGS_WHAT.processingFees)),
      notifySaved: emit({
        type: 'notify',
        intent: 'success',
        message: SAVE_SUCCESS_MESSAGE,
        timeout: TOAST_TIMEOUT.long,
      } as const),
      notifySaveFailure: emit({
        type: 'notify',
        intent: 'danger',
        message: SAVE_FAILED_MESSAGE,
        timeout: TOAST_TIMEOUT.long,
      } as const),
    },
  }).createMachine({
    id: 'processingFees',
    context: ({ input }) => ({
      clientId: input.clientId,
      outletId: input.outletId,
      today: input.today,
      range: defaultFeeRange(input.today),
      rows: [],
      edit: undefined,
      feeError: undefined,
    }),
    invoke: {
      id: 'range',
      src: 'range',
      input: ({ context, self }) => ({
        range: context.range,
        window: { earliest: undefined, latest: context.today },
        maxDays: 366,
        reportTo: self,
      }),
    },
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        on: {
          'dateRange.change': {
            target: 'loading',
            reenter: true,
            actions: { type: 'setRange', params: ({ event }) => ({ range: event.range }) },
          },
        },
        invoke: {
          src: 'fetchProcessingFees',
          input: ({ context }) => ({ clientId: context.clientId, outletId: context.outletId, range: context.range }),
          onDone: { target: 'ready', actions: { type: 'setRows', params: ({ event }) => ({ rows: event.output }) } },
          onError: { target: 'failure', actions: ['resetRows', 'notifyLoadFailure'] },
        },
      },
      failure: {
        on: {
          'fees.retry': 'loading',
          'dateRange.change': {
            target: 'loading',
            actions: { type: 'setRange', params: ({ event }) => ({ range: event.range }) },
          },
        },
      },
      ready: {
        initial: 'viewing',
        on: {
          'dateRange.change': {
            target: 'loading',
            actions: { type: 'setRange', params: ({ event }) => ({ range: event.range }) },
          },
          'fees.edit': {
            guard: { type: 'isRow', params: ({ event }) => ({ method: event.method }) },
            target: '.editing',
            actions: { type: 'startEdit', params: ({ event }) => ({ method: event.method }) },
          },
        },
        states: {
          viewing: {},
          editing: {
            tags: ['dirty'],
            invoke: { src: 'holdUnsavedChanges' },
            on: {
              'fees.change': { actions: { type: 'setText', params: ({ event }) => ({ text: event.text }) } },
              'fees.cancel': { target: 'viewing', actions: 'resetEdit' },
              'fees.save': { guard: 'canSave', target: '#processingFees.saving' },
            },
          },
        },
      },
      saving: {
        tags: ['saving', 'dirty'],
        invoke: [
          { src: 'holdUnsavedChanges' },
          {
            src: 'saveProcessingFee',
            input: ({ context }) => {
              const edit = context.edit;
              const fee = edit ? parseFee(edit.text) : undefined;
              if (!edit || fee === undefined) throw new Error('processingFees: saving without a fee');
              const row = context.rows.find((entry) => entry.payment_method === edit.method);
              return {
                clientId: context.clientId,
                outletId: context.outletId,
                method: edit.method,
                fee,
                isNew: row?.isNewMethod ?? true,
              };
            },
            onDone: {
              target: 'ready.viewing',
              actions: [{ type: 'setSaved', params: ({ event }) => event.output }, 'notifySaved'],
            },
            onError: { target: 'ready.editing', actions: 'notifySaveFailure' },
          },
        ],
      },
    },
  });
}

export const processingFeesMachine = createProcessingFeesMachine();
