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
  type TimeRange,
  validateDateRange,
  withDatePart,
} from '../domain/dateLimits';
import {
  type DatePreset,
  datePresets,
  presetMaxRangeNote,
  presetOf,
  type TimeRangeChoice,
} from '../domain/datePresets';

/**
 * The date-range picker (§2, §5): a panel (a dialog of day/month/year selects on mobile) with Last 7 days,
 * Last 30 days, the calendar presets (This month, Last month and, when the owner has a time-range select
 * offering Weekly or Monthly, Quarter to date and Year to date: `datePresets` of domain/datePresets) and Custom
 * range, the note '(Max range of N days)', From and To dates (and HH:mm:ss times when the type is datetime),
 * Cancel and Apply (Okay on mobile).
 *
 *   closed ── dateRange.open ──> open.editing (the draft starts from the committed range)
 *   open.editing ── dateRange.selectOption ──> the quick range or preset (or keep the dates for Custom); a preset
 *                                             that is disabled (`presets[i].disabledReason`) is refused
 *                ── dateRange.changeStart / changeEnd / change*Time / change*Part ──> Custom, draft dates
 *                ── dateRange.cancel ──> closed (the previous range stays)
 *                ── dateRange.apply ──> closed, commits, reports `dateRange.change`
 *                                   |  open.invalid: inline 'Date must be before End Date.', the future-date text, ...
 *                                   |  open.exceeded: the 'Date Range Exceeded' alert
 *   open.invalid: any change ──> open.editing
 *   open.exceeded ── dateRange.dismissAlert ──> open.editing (the draft stays for the user to fix)
 *   while open, a draft longer than the maximum says so at once (`rangeWarning`: 'Date Range Exceeded' and its
 *   text, shown in the panel where the dates are picked), before Apply opens the alert
 *   a preset longer than the current maximum is checked against the maximum of the time range it switches to
 *   (`presets[i].timeRange`), and Apply reports that time range with the range (`dateRange.change`'s `timeRange`)
 *   anywhere: dateRange.set (owner's new value) ──> closed;  dateRange.configure (window, maximum, time ranges);
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
  /** The time range a preset asks for (its range is longer than the current one allows); absent otherwise. */
  timeRange?: TimeRange;
}

export type DateRangeReportTarget = ActorRef<Snapshot<unknown>, DateRangeChangeEvent>;

export interface DateRangePickerInput {
  range: DateRange;
  window: DateWindow;
  /** Undefined: no maximum (no note). */
  maxDays?: number | undefined;
  /** The owner's time-range select (Header V2); undefined: none, so no Quarter to date or Year to date. */
  timeRanges?: TimeRangeChoice | undefined;
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
  timeRanges: TimeRangeChoice | undefined;
  /**
   * '(Max range of 31 days)', or undefined without a maximum; while a preset that switches the time range is
   * chosen, that time range's: '(Max range of 366 days, Monthly)'.
   */
  note: string | undefined;
  /** Whether the quick range and preset radios show (earliest allowed date over 45 days ago; not on mobile). */
  quickRangesShown: boolean;
  /** The calendar presets on the window's today, each with its range, time range and why it may be disabled. */
  presets: DatePreset[];
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
  | {
      type: 'dateRange.configure';
      window?: DateWindow;
      maxDays?: number | undefined;
      timeRanges?: TimeRangeChoice | undefined;
    }
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

function optionOf(
  range: DateRange,
  window: DateWindow,
  variant: DatePickerVariant,
  presets: readonly DatePreset[],
): DateRangeOption {
  if (variant === 'mobile' || !showsQuickRanges(window)) return 'custom';
  const enabled = presets.filter((preset) => preset.disabledReason === undefined);
  return quickRangeOf(range, window.latest) ?? presetOf(range, enabled)?.id ?? 'custom';
}

/** The preset of the radio, if one is chosen. */
function chosenPreset(option: DateRangeOption, presets: readonly DatePreset[]): DatePreset | undefined {
  return presets.find((preset) => preset.id === option);
}

/** The maximum the draft is checked against: a chosen preset's (its time range's), else the owner's. */
function draftMaxDays(option: DateRangeOption, presets: readonly DatePreset[], maxDays: number | undefined) {
  const preset = chosenPreset(option, presets);
  return preset === undefined ? maxDays : preset.maxDays;
}

function noteOf(option: DateRangeOption, presets: readonly DatePreset[], maxDays: number | undefined) {
  const preset = chosenPreset(option, presets);
  if (preset?.timeRange !== undefined && preset.maxDays !== undefined) {
    return presetMaxRangeNote(preset.maxDays, preset.timeRange);
  }
  return maxDays === undefined ? undefined : maxRangeNote(maxDays);
}

function problemOf(context: DateRangePickerContext): DateRangeProblem | undefined {
  return validateDateRange(context.draft, {
    window: context.window,
    maxDays: draftMaxDays(context.option, context.presets, context.maxDays),
  });
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

/** What depends on the chosen radio: the note and the warning for the draft. */
function optionParts(
  option: DateRangeOption,
  draft: DateRange,
  limits: Pick<DateRangePickerContext, 'window' | 'maxDays' | 'presets'>,
): Pick<DateRangePickerContext, 'note' | 'rangeWarning'> {
  return {
    note: noteOf(option, limits.presets, limits.maxDays),
    rangeWarning: rangeWarningOf(draft, limits.window, draftMaxDays(option, limits.presets, limits.maxDays)),
  };
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
    isQuickRangeOffered: ({ context }, params: { option: DateRangeOption }) => {
      if (params.option === 'custom') return true;
      if (!context.quickRangesShown) return false;
      if (params.option === 'last7' || params.option === 'last30') return true;
      const preset = chosenPreset(params.option, context.presets);
      return preset !== undefined && preset.disabledReason === undefined;
    },
    isDatetime: ({ context }) => context.type === 'datetime',
    isDraftExceeded: ({ context }) => problemOf(context)?.kind === 'exceeded',
    isDraftInvalid: ({ context }) => problemOf(context) !== undefined,
  },
  actions: {
    setDraftFromCommitted: assign(({ context }) => {
      const option = optionOf(context.committed, context.window, context.variant, context.presets);
      return {
        draft: context.committed,
        option,
        errorMessage: undefined,
        alert: undefined,
        ...optionParts(option, context.committed, context),
      };
    }),
    setOption: assign(({ context }, params: { option: DateRangeOption }) => {
      const preset = chosenPreset(params.option, context.presets);
      const range =
        params.option === 'last7' || params.option === 'last30'
          ? quickRange(params.option, context.window.latest)
          : preset?.range;
      const draft = range === undefined ? context.draft : normalizeRange({ ...context.draft, ...range }, context.type);
      return {
        option: params.option,
        draft,
        errorMessage: undefined,
        ...optionParts(params.option, draft, context),
      };
    }),
    setDraft: assign(({ context }, params: { draft: DateRange }) => ({
      draft: params.draft,
      option: 'custom' as const,
      errorMessage: undefined,
      ...optionParts('custom', params.draft, context),
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
    resetDraft: assign(({ context }) => ({
      draft: context.committed,
      rangeWarning: undefined,
      note: noteOf('custom', context.presets, context.maxDays),
    })),
    setCommittedFromDraft: assign(({ context }) => ({ committed: context.draft })),
    setCommitted: assign(({ context }, params: { range: DateRange }) => {
      const range = normalizeRange(params.range, context.type);
      return {
        committed: range,
        draft: range,
        errorMessage: undefined,
        alert: undefined,
        rangeWarning: undefined,
        note: noteOf('custom', context.presets, context.maxDays),
      };
    }),
    setLimits: assign(
      (
        { context },
        params: {
          window?: DateWindow;
          maxDays?: number | undefined;
          hasMaxDays: boolean;
          timeRanges?: TimeRangeChoice | undefined;
          hasTimeRanges: boolean;
        },
      ) => {
        const window = params.window ?? context.window;
        const maxDays = params.hasMaxDays ? params.maxDays : context.maxDays;
        const timeRanges = params.hasTimeRanges ? params.timeRanges : context.timeRanges;
        const presets = datePresets({ window, maxDays, timeRanges });
        // A preset chosen in the open panel that is gone or disabled now leaves its dates as a custom range.
        const preset = chosenPreset(context.option, presets);
        const option =
          chosenPreset(context.option, context.presets) !== undefined &&
          (preset === undefined || preset.disabledReason !== undefined)
            ? 'custom'
            : context.option;
        return {
          window,
          maxDays,
          timeRanges,
          presets,
          option,
          quickRangesShown: context.variant === 'desktop' && showsQuickRanges(window),
          ...optionParts(option, context.draft, { window, maxDays, presets }),
        };
      },
    ),
    setDisabled: assign((_, params: { disabled: boolean }) => ({ disabled: params.disabled })),
    reportRange: enqueueActions(({ context, enqueue }) => {
      const timeRange = chosenPreset(context.option, context.presets)?.timeRange;
      const event: DateRangeChangeEvent = {
        type: 'dateRange.change',
        range: context.committed,
        ...(timeRange !== undefined && { timeRange }),
      };
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
    const presets = datePresets({ window: input.window, maxDays: input.maxDays, timeRanges: input.timeRanges });
    return {
      committed: range,
      draft: range,
      option: optionOf(range, input.window, variant, presets),
      window: input.window,
      maxDays: input.maxDays,
      timeRanges: input.timeRanges,
      note: input.maxDays === undefined ? undefined : maxRangeNote(input.maxDays),
      quickRangesShown: variant === 'desktop' && showsQuickRanges(input.window),
      presets,
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
          timeRanges: event.timeRanges,
          hasTimeRanges: 'timeRanges' in event,
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
