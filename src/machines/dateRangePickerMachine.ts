import { type ActorRef, assign, emit, enqueueActions, type Snapshot, setup } from 'xstate';
import {
  type DatePart,
  type DateRange,
  type DateRangeOption,
  type DateRangeProblem,
  type DateWindow,
  maxRangeNote,
  quickRange,
  quickRangeOf,
  showsQuickRanges,
  validateDateRange,
  withDatePart,
} from '../domain/dateLimits';

/**
 * The date-range picker (§2, §5): a panel (a dialog of day/month/year selects on mobile) with Last 7 days,
 * Last 30 days and Custom range, the note '(Max range of N days)', From and To dates (and HH:mm:ss times
 * when the type is datetime), Cancel and Apply (Okay on mobile).
 *
 *   closed ── dateRange.open ──> open.editing (the draft starts from the committed range)
 *   open.editing ── dateRange.selectOption ──> the quick range (or keep the dates for Custom)
 *                ── dateRange.changeStart / changeEnd / change*Time / change*Part ──> Custom, draft dates
 *                ── dateRange.cancel ──> closed (the previous range stays)
 *                ── dateRange.apply ──> closed, commits, reports `dateRange.change`
 *                                   |  open.invalid: inline 'Date must be before End Date.', the future-date text, ...
 *                                   |  open.exceeded: the 'Date Range Exceeded' alert
 *   open.invalid: any change ──> open.editing
 *   open.exceeded ── dateRange.dismissAlert ──> open.editing (the draft stays for the user to fix)
 *   while open, a draft longer than the maximum says so at once (`rangeWarning`: 'Date Range Exceeded' and its
 *   text, shown in the panel where the dates are picked), before Apply opens the alert
 *   anywhere: dateRange.set (owner's new value) ──> closed;  dateRange.configure (window, maximum);
 *             dateRange.disable / dateRange.enable
 *
 * Days outside [earliest allowed, today] are disabled in the calendar (`isDateDisabled` of dateLimits).
 */

export type DatePickerType = 'date' | 'datetime';
export type DatePickerVariant = 'desktop' | 'mobile';

export const DEFAULT_START_TIME = '00:00:00';
export const DEFAULT_END_TIME = '23:59:59';

export interface DateRangeChangeEvent {
  type: 'dateRange.change';
  range: DateRange;
}

export type DateRangeReportTarget = ActorRef<Snapshot<unknown>, DateRangeChangeEvent>;

export interface DateRangePickerInput {
  range: DateRange;
  window: DateWindow;
  /** Undefined: no maximum (no note). */
  maxDays?: number | undefined;
  type?: DatePickerType;
  variant?: DatePickerVariant;
  disabled?: boolean;
  reportTo?: DateRangeReportTarget;
}

export interface DateRangePickerContext {
  committed: DateRange;
  draft: DateRange;
  /** The panel's radio. */
  option: DateRangeOption;
  window: DateWindow;
  maxDays: number | undefined;
  /** '(Max range of 31 days)', or undefined without a maximum. */
  note: string | undefined;
  /** Whether the Last 7 / Last 30 days radios show (earliest allowed date over 45 days ago; not on mobile). */
  quickRangesShown: boolean;
  type: DatePickerType;
  variant: DatePickerVariant;
  /** The inline message of open.invalid. */
  errorMessage: string | undefined;
  /** The 'Date Range Exceeded' alert of open.exceeded. */
  alert: { title: string; message: string } | undefined;
  /** The draft is longer than the maximum: 'Date Range Exceeded' and its text, shown in the panel as the dates change. */
  rangeWarning: { title: string; message: string } | undefined;
  disabled: boolean;
  reportTo: DateRangeReportTarget | undefined;
}

export type DateRangePickerEvent =
  | { type: 'dateRange.open' }
  | { type: 'dateRange.selectOption'; option: DateRangeOption }
  | { type: 'dateRange.changeStart'; date: string }
  | { type: 'dateRange.changeEnd'; date: string }
  | { type: 'dateRange.changeStartTime'; time: string }
  | { type: 'dateRange.changeEndTime'; time: string }
  | { type: 'dateRange.changeStartPart'; part: DatePart; value: number }
  | { type: 'dateRange.changeEndPart'; part: DatePart; value: number }
  | { type: 'dateRange.apply' }
  | { type: 'dateRange.cancel' }
  | { type: 'dateRange.dismissAlert' }
  | { type: 'dateRange.set'; range: DateRange }
  | { type: 'dateRange.configure'; window?: DateWindow; maxDays?: number | undefined }
  | { type: 'dateRange.disable' }
  | { type: 'dateRange.enable' };

/** The range with the picker type's times: datetime ranges always carry both, date ranges none. */
export function normalizeRange(range: DateRange, type: DatePickerType): DateRange {
  if (type === 'date') return { start: range.start, end: range.end };
  return {
    start: range.start,
    end: range.end,
    startTime: range.startTime ?? DEFAULT_START_TIME,
    endTime: range.endTime ?? DEFAULT_END_TIME,
  };
}

function optionOf(range: DateRange, window: DateWindow, variant: DatePickerVariant): DateRangeOption {
  if (variant === 'mobile' || !showsQuickRanges(window)) return 'custom';
  return quickRangeOf(range, window.latest) ?? 'custom';
}

function problemOf(context: DateRangePickerContext): DateRangeProblem | undefined {
  return validateDateRange(context.draft, { window: context.window, maxDays: context.maxDays });
}

/** 'Date Range Exceeded' for a draft longer than the maximum (and otherwise good), else undefined. */
function rangeWarningOf(
  draft: DateRange,
  window: DateWindow,
  maxDays: number | undefined,
): DateRangePickerContext['rangeWarning'] {
  const problem = validateDateRange(draft, { window, maxDays });
  return problem?.kind === 'exceeded' ? { title: problem.title, message: problem.message } : undefined;
}

export const dateRangePickerMachine = setup({
  types: {
    context: {} as DateRangePickerContext,
    events: {} as DateRangePickerEvent,
    input: {} as DateRangePickerInput,
    emitted: {} as DateRangeChangeEvent,
  },
  guards: {
    isEnabled: ({ context }) => !context.disabled,
    isQuickRangeOffered: ({ context }, params: { option: DateRangeOption }) =>
      params.option === 'custom' || context.quickRangesShown,
    isDatetime: ({ context }) => context.type === 'datetime',
    isDraftExceeded: ({ context }) => problemOf(context)?.kind === 'exceeded',
    isDraftInvalid: ({ context }) => problemOf(context) !== undefined,
  },
  actions: {
    setDraftFromCommitted: assign(({ context }) => ({
      draft: context.committed,
      option: optionOf(context.committed, context.window, context.variant),
      errorMessage: undefined,
      alert: undefined,
      rangeWarning: rangeWarningOf(context.committed, context.window, context.maxDays),
    })),
    setOption: assign(({ context }, params: { option: DateRangeOption }) => {
      const draft =
        params.option === 'custom'
          ? context.draft
          : normalizeRange({ ...context.draft, ...quickRange(params.option, context.window.latest) }, context.type);
      return {
        option: params.option,
        draft,
        errorMessage: undefined,
        rangeWarning: rangeWarningOf(draft, context.window, context.maxDays),
      };
    }),
    setDraft: assign(({ context }, params: { draft: DateRange }) => ({
      draft: params.draft,
      option: 'custom' as const,
      errorMessage: undefined,
      rangeWarning: rangeWarningOf(params.draft, context.window, context.maxDays),
    })),
    setProblem: assign(({ context }) => {
      const problem = problemOf(context);
      if (problem?.kind === 'exceeded') {
        return { alert: { title: problem.title, message: problem.message }, errorMessage: undefined };
      }
      return { errorMessage: problem?.message, alert: undefined };
    }),
    resetMessages: assign({ errorMessage: undefined, alert: undefined }),
    /** Cancel: the draft goes back to the committed range. */
    resetDraft: assign(({ context }) => ({ draft: context.committed, rangeWarning: undefined })),
    setCommittedFromDraft: assign(({ context }) => ({ committed: context.draft })),
    setCommitted: assign(({ context }, params: { range: DateRange }) => {
      const range = normalizeRange(params.range, context.type);
      return { committed: range, draft: range, errorMessage: undefined, alert: undefined, rangeWarning: undefined };
    }),
    setLimits: assign(
      ({ context }, params: { window?: DateWindow; maxDays?: number | undefined; hasMaxDays: boolean }) => {
        const window = params.window ?? context.window;
        const maxDays = params.hasMaxDays ? params.maxDays : context.maxDays;
        return {
          window,
          maxDays,
          note: maxDays === undefined ? undefined : maxRangeNote(maxDays),
          quickRangesShown: context.variant === 'desktop' && showsQuickRanges(window),
          rangeWarning: rangeWarningOf(context.draft, window, maxDays),
        };
      },
    ),
    setDisabled: assign((_, params: { disabled: boolean }) => ({ disabled: params.disabled })),
    reportRange: enqueueActions(({ context, enqueue }) => {
      const event: DateRangeChangeEvent = { type: 'dateRange.change', range: context.committed };
      if (context.reportTo) enqueue.sendTo(context.reportTo, event);
      enqueue(emit(event));
    }),
  },
}).createMachine({
  id: 'dateRangePicker',
  context: ({ input }) => {
    const type = input.type ?? 'date';
    const variant = input.variant ?? 'desktop';
    const range = normalizeRange(input.range, type);
    return {
      committed: range,
      draft: range,
      option: optionOf(range, input.window, variant),
      window: input.window,
      maxDays: input.maxDays,
      note: input.maxDays === undefined ? undefined : maxRangeNote(input.maxDays),
      quickRangesShown: variant === 'desktop' && showsQuickRanges(input.window),
      type,
      variant,
      errorMessage: undefined,
      alert: undefined,
      rangeWarning: undefined,
      disabled: input.disabled ?? false,
      reportTo: input.reportTo,
    };
  },
  initial: 'closed',
  on: {
    'dateRange.set': {
      target: '.closed',
      actions: { type: 'setCommitted', params: ({ event }) => ({ range: event.range }) },
    },
    'dateRange.configure': {
      actions: {
        type: 'setLimits',
        params: ({ event }) => ({
          ...(event.window !== undefined && { window: event.window }),
          maxDays: event.maxDays,
          hasMaxDays: 'maxDays' in event,
        }),
      },
    },
    'dateRange.disable': { actions: { type: 'setDisabled', params: { disabled: true } } },
    'dateRange.enable': { actions: { type: 'setDisabled', params: { disabled: false } } },
  },
  states: {
    closed: {
      on: {
        'dateRange.open': { guard: 'isEnabled', target: 'open', actions: 'setDraftFromCommitted' },
      },
    },
    open: {
      initial: 'editing',
      on: {
        'dateRange.cancel': { target: 'closed', actions: ['resetMessages', 'resetDraft'] },
        'dateRange.selectOption': {
          guard: { type: 'isQuickRangeOffered', params: ({ event }) => ({ option: event.option }) },
          target: '.editing',
          actions: { type: 'setOption', params: ({ event }) => ({ option: event.option }) },
        },
        'dateRange.changeStart': {
          target: '.editing',
          actions: {
            type: 'setDraft',
            params: ({ context, event }) => ({ draft: { ...context.draft, start: event.date } }),
          },
        },
        'dateRange.changeEnd': {
          target: '.editing',
          actions: {
            type: 'setDraft',
            params: ({ context, event }) => ({ draft: { ...context.draft, end: event.date } }),
          },
        },
        'dateRange.changeStartTime': {
          guard: 'isDatetime',
          target: '.editing',
          actions: {
            type: 'setDraft',
            params: ({ context, event }) => ({ draft: { ...context.draft, startTime: event.time } }),
          },
        },
        'dateRange.changeEndTime': {
          guard: 'isDatetime',
          target: '.editing',
          actions: {
            type: 'setDraft',
            params: ({ context, event }) => ({ draft: { ...context.draft, endTime: event.time } }),
          },
        },
        'dateRange.changeStartPart': {
          target: '.editing',
          actions: {
            type: 'setDraft',
            params: ({ context, event }) => ({
              draft: { ...context.draft, start: withDatePart(context.draft.start, event.part, event.value) },
            }),
          },
        },
        'dateRange.changeEndPart': {
          target: '.editing',
          actions: {
            type: 'setDraft',
            params: ({ context, event }) => ({
              draft: { ...context.draft, end: withDatePart(context.draft.end, event.part, event.value) },
            }),
          },
        },
        'dateRange.apply': [
          { guard: 'isDraftExceeded', target: '.exceeded', actions: 'setProblem' },
          { guard: 'isDraftInvalid', target: '.invalid', actions: 'setProblem' },
          { target: 'closed', actions: ['setCommittedFromDraft', 'reportRange'] },
        ],
      },
      states: {
        editing: {},
        /** The inline message shows; the next change clears it. */
        invalid: {},
        /** The 'Date Range Exceeded' alert is open over the panel: only its button works. */
        exceeded: {
          on: {
            'dateRange.dismissAlert': { target: 'editing', actions: 'resetMessages' },
            'dateRange.cancel': {},
            'dateRange.apply': {},
            'dateRange.selectOption': {},
            'dateRange.changeStart': {},
            'dateRange.changeEnd': {},
            'dateRange.changeStartTime': {},
            'dateRange.changeEndTime': {},
            'dateRange.changeStartPart': {},
            'dateRange.changeEndPart': {},
          },
        },
      },
    },
  },
});
