import { type ActorRef, assign, emit, enqueueActions, type Snapshot, setup } from 'xstate';
import { ALL_DAY, HOUR_ORDER_MESSAGE, type HourRange, isAllDay, isHour, validateHourRange } from '../domain/dateLimits';

/**
 * The hour range picker of Header V2 (§2): 'All Day' (0–23, shown 12:00am-12:00am) or Custom From/To
 * (shown 'hh:00 A'), with Cancel and Apply.
 *
 *   closed ── hours.open ──> open.editing
 *   open.editing ── hours.focus (a From/To select or the Custom radio) ──> custom mode
 *                ── hours.selectAll ──> All Day, 0–23
 *                ── hours.changeFrom / hours.changeTo ──> custom mode, draft hour
 *                ── hours.apply ──> closed (commits, reports `hours.change`)  |  open.invalid ('From must be at or before To.')
 *                ── hours.cancel ──> closed (the committed hours stay)
 *   open.invalid: any change ──> open.editing
 *   anywhere: hours.set (the owner's new value) ──> closed;  hours.disable / hours.enable
 *
 * On Apply the committed hours are sent as `{ type: 'hours.change', hours }` to `reportTo` (the filter
 * header) and emitted (for a standalone picker: `actor.on('hours.change', ...)`).
 */

export type HourMode = 'all' | 'custom';

export interface HourChangeEvent {
  type: 'hours.change';
  hours: HourRange;
}

export type HourReportTarget = ActorRef<Snapshot<unknown>, HourChangeEvent>;

export interface HourPickerInput {
  hours?: HourRange;
  disabled?: boolean;
  reportTo?: HourReportTarget;
}

export interface HourPickerContext {
  /** What the page uses. */
  committed: HourRange;
  /** What the open panel shows. */
  draft: HourRange;
  /** The panel's radio: All Day or Custom. */
  mode: HourMode;
  errorMessage: string | undefined;
  /** While the page fetches, the picker does not open. */
  disabled: boolean;
  reportTo: HourReportTarget | undefined;
}

export type HourPickerEvent =
  | { type: 'hours.open' }
  | { type: 'hours.focus' }
  | { type: 'hours.selectAll' }
  | { type: 'hours.changeFrom'; hour: number }
  | { type: 'hours.changeTo'; hour: number }
  | { type: 'hours.apply' }
  | { type: 'hours.cancel' }
  | { type: 'hours.set'; hours: HourRange }
  | { type: 'hours.disable' }
  | { type: 'hours.enable' };

export const hourPickerMachine = setup({
  types: {
    context: {} as HourPickerContext,
    events: {} as HourPickerEvent,
    input: {} as HourPickerInput,
    emitted: {} as HourChangeEvent,
  },
  guards: {
    isEnabled: ({ context }) => !context.disabled,
    isHourValid: (_, params: { hour: number }) => isHour(params.hour),
    isDraftInvalid: ({ context }) => validateHourRange(context.draft) !== undefined,
  },
  actions: {
    setDraftFromCommitted: assign(({ context }) => ({
      draft: context.committed,
      mode: isAllDay(context.committed) ? ('all' as const) : ('custom' as const),
      errorMessage: undefined,
    })),
    setCustomMode: assign({ mode: 'custom' as const }),
    setAllDay: assign({ draft: ALL_DAY, mode: 'all' as const, errorMessage: undefined }),
    setDraftFrom: assign(({ context }, params: { hour: number }) => ({
      draft: { ...context.draft, from: params.hour },
      mode: 'custom' as const,
      errorMessage: undefined,
    })),
    setDraftTo: assign(({ context }, params: { hour: number }) => ({
      draft: { ...context.draft, to: params.hour },
      mode: 'custom' as const,
      errorMessage: undefined,
    })),
    setOrderError: assign({ errorMessage: HOUR_ORDER_MESSAGE }),
    resetError: assign({ errorMessage: undefined }),
    setCommittedFromDraft: assign(({ context }) => ({ committed: context.draft })),
    setCommitted: assign((_, params: { hours: HourRange }) => ({ committed: params.hours, draft: params.hours })),
    setDisabled: assign((_, params: { disabled: boolean }) => ({ disabled: params.disabled })),
    reportHours: enqueueActions(({ context, enqueue }) => {
      const event: HourChangeEvent = { type: 'hours.change', hours: context.committed };
      if (context.reportTo) enqueue.sendTo(context.reportTo, event);
      enqueue(emit(event));
    }),
  },
}).createMachine({
  id: 'hourPicker',
  context: ({ input }) => {
    const hours = input.hours && validateHourRange(input.hours) === undefined ? input.hours : ALL_DAY;
    return {
      committed: hours,
      draft: hours,
      mode: isAllDay(hours) ? 'all' : 'custom',
      errorMessage: undefined,
      disabled: input.disabled ?? false,
      reportTo: input.reportTo,
    };
  },
  initial: 'closed',
  on: {
    'hours.set': {
      target: '.closed',
      actions: { type: 'setCommitted', params: ({ event }) => ({ hours: event.hours }) },
    },
    'hours.disable': { actions: { type: 'setDisabled', params: { disabled: true } } },
    'hours.enable': { actions: { type: 'setDisabled', params: { disabled: false } } },
  },
  states: {
    closed: {
      on: {
        'hours.open': { guard: 'isEnabled', target: 'open', actions: 'setDraftFromCommitted' },
      },
    },
    open: {
      initial: 'editing',
      on: {
        'hours.focus': { target: '.editing', actions: 'setCustomMode' },
        'hours.selectAll': { target: '.editing', actions: 'setAllDay' },
        'hours.changeFrom': {
          guard: { type: 'isHourValid', params: ({ event }) => ({ hour: event.hour }) },
          target: '.editing',
          actions: { type: 'setDraftFrom', params: ({ event }) => ({ hour: event.hour }) },
        },
        'hours.changeTo': {
          guard: { type: 'isHourValid', params: ({ event }) => ({ hour: event.hour }) },
          target: '.editing',
          actions: { type: 'setDraftTo', params: ({ event }) => ({ hour: event.hour }) },
        },
        'hours.cancel': { target: 'closed', actions: 'resetError' },
        'hours.apply': [
          { guard: 'isDraftInvalid', target: '.invalid', actions: 'setOrderError' },
          { target: 'closed', actions: ['setCommittedFromDraft', 'reportHours'] },
        ],
      },
      states: {
        editing: {},
        invalid: {},
      },
    },
  },
});
