import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, type AnyActorRef, createActor, fromCallback, type SnapshotFrom, setup } from 'xstate';
import { type DateRange, isDateDisabled } from '../../src/domain/dateLimits';
import {
  type DateRangeChangeEvent,
  type DateRangePickerInput,
  dateRangePickerMachine,
} from '../../src/machines/dateRangePickerMachine';
import { describeModelCoverage } from './modelCoverage';
import { modelStateId } from './modelStateIds';

/*
 * Model-based test of the date-range picker (§2, §5, §9), written from the spec: the committed range (the
 * top level of the model: Last 7 days, Last 30 days, This month, Last month or a custom range), and in the open
 * panel the radio,
 * the From/To dates and what Apply says: the inline 'Date must be before End Date.', the future-date
 * message, a start before the earliest date, a malformed date, or the 'Date Range Exceeded' alert. Each
 * path drives a real actor; Cancel must restore the committed range.
 */

const TODAY = '2024-03-15';
const WINDOW = { earliest: '2023-01-01', latest: TODAY };

const RANGES = {
  last7: { start: '2024-03-09', end: TODAY },
  last30: { start: '2024-02-15', end: TODAY },
  thisMonth: { start: '2024-03-01', end: TODAY },
  lastMonth: { start: '2024-02-01', end: '2024-02-29' },
  custom: { start: '2024-03-01', end: '2024-03-10' },
  reversed: { start: '2024-03-12', end: '2024-03-10' },
  future: { start: '2024-03-10', end: '2024-03-16' },
  tooLong: { start: '2024-01-01', end: TODAY },
  beforeEarliest: { start: '2022-12-25', end: '2023-01-03' },
  malformed: { start: 'not a date', end: '2024-03-10' },
} satisfies Record<string, DateRange>;

type Committed = 'last7' | 'last30' | 'thisMonth' | 'lastMonth' | 'custom';

let actor: Actor<typeof dateRangePickerMachine>;
let parent: AnyActorRef;
let parentReports: DateRangeChangeEvent[];
let emitted: DateRangeChangeEvent[];
let reportsAtOpen: number;
let lastStep: 'apply' | 'other';

function start(input: Partial<DateRangePickerInput> = {}): void {
  parentReports = [];
  emitted = [];
  reportsAtOpen = 0;
  lastStep = 'other';
  parent = createActor(
    fromCallback<DateRangeChangeEvent>(({ receive }) => {
      receive((event) => parentReports.push(event));
    }),
  ).start();
  actor = createActor(dateRangePickerMachine, {
    input: { range: RANGES.last7, window: WINDOW, maxDays: 31, reportTo: parent, ...input },
  });
  actor.on('dateRange.change', (event) => emitted.push(event));
  actor.start();
}

function snapshot(): SnapshotFrom<typeof dateRangePickerMachine> {
  return actor.getSnapshot();
}

type ModelEvent = {
  type:
    | 'open'
    | 'selectLast7'
    | 'selectLast30'
    | 'selectThisMonth'
    | 'selectLastMonth'
    | 'selectCustom'
    | 'typeCustom'
    | 'typeReversed'
    | 'typeFuture'
    | 'typeTooLong'
    | 'typeBeforeEarliest'
    | 'typeMalformed'
    | 'apply'
    | 'cancel'
    | 'dismissAlert'
    | 'disable'
    | 'enable'
    | 'ownerSetsCustom';
};

/** The open panel, the same whatever is committed; Cancel returns to `committed`. */
function panel(committed: Committed) {
  const back = `#dateModel.${committed}.closed`;
  return {
    quick7: {
      on: {
        selectLast30: 'quick30',
        selectThisMonth: 'thisMonth',
        selectLastMonth: 'lastMonth',
        typeCustom: 'custom',
        typeReversed: 'reversed',
        typeFuture: 'future',
        typeTooLong: 'tooLong',
        typeBeforeEarliest: 'beforeEarliest',
        typeMalformed: 'malformed',
        apply: '#dateModel.last7.closed',
        cancel: back,
      },
    },
    quick30: {
      on: { selectLast7: 'quick7', typeCustom: 'custom', apply: '#dateModel.last30.closed', cancel: back },
    },
    thisMonth: {
      on: { selectLastMonth: 'lastMonth', apply: '#dateModel.thisMonth.closed', cancel: back },
    },
    lastMonth: {
      on: { selectLast7: 'quick7', typeCustom: 'custom', apply: '#dateModel.lastMonth.closed', cancel: back },
    },
    custom: {
      on: {
        selectLast7: 'quick7',
        selectCustom: 'custom',
        typeTooLong: 'tooLong',
        apply: '#dateModel.custom.closed',
        cancel: back,
      },
    },
    reversed: { on: { apply: 'invalidOrder', cancel: back } },
    future: { on: { apply: 'invalidFuture', cancel: back } },
    tooLong: { on: { apply: 'exceeded', typeCustom: 'custom', cancel: back } },
    beforeEarliest: { on: { apply: 'invalidEarliest' } },
    malformed: { on: { apply: 'invalidMalformed' } },
    invalidOrder: { on: { apply: 'invalidOrder', typeCustom: 'custom', selectLast7: 'quick7', cancel: back } },
    invalidFuture: { on: { typeCustom: 'custom', cancel: back } },
    invalidEarliest: { on: { typeCustom: 'custom' } },
    invalidMalformed: { on: { typeCustom: 'custom' } },
    exceeded: { on: { dismissAlert: 'tooLong' } },
  };
}

const dateModel = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'dateModel',
    initial: 'last7',
    states: {
      last7: {
        initial: 'closed',
        states: {
          closed: { on: { open: 'quick7', disable: 'disabled', ownerSetsCustom: '#dateModel.custom.closed' } },
          disabled: { on: { enable: 'closed' } },
          ...panel('last7'),
        },
      },
      last30: {
        initial: 'closed',
        states: { closed: { on: { open: 'quick30' } }, ...panel('last30') },
      },
      thisMonth: {
        initial: 'closed',
        states: { closed: { on: { open: 'thisMonth' } }, ...panel('thisMonth') },
      },
      lastMonth: {
        initial: 'closed',
        states: { closed: { on: { open: 'lastMonth' } }, ...panel('lastMonth') },
      },
      custom: {
        initial: 'closed',
        states: { closed: { on: { open: 'custom' } }, ...panel('custom') },
      },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof dateModel.logic>;

function committedOf(model: ModelSnapshot): Committed {
  if (model.matches('last30')) return 'last30';
  if (model.matches('thisMonth')) return 'thisMonth';
  if (model.matches('lastMonth')) return 'lastMonth';
  if (model.matches('custom')) return 'custom';
  return 'last7';
}

function expectClosed(model: ModelSnapshot): void {
  const state = snapshot();
  const committed = RANGES[committedOf(model)];
  expect(state.matches('closed')).toBe(true);
  expect(state.context.committed).toEqual(committed);
  expect(state.context.errorMessage).toBeUndefined();
  expect(state.context.alert).toBeUndefined();
  expect(state.can({ type: 'dateRange.open' })).toBe(true);
  // Apply reports the range to the owner and to listeners; Cancel and the owner's own value do not.
  expect(emitted).toHaveLength(lastStep === 'apply' ? reportsAtOpen + 1 : reportsAtOpen);
  expect(parentReports).toEqual(emitted);
  if (lastStep === 'apply') expect(emitted.at(-1)).toEqual({ type: 'dateRange.change', range: committed });
}

interface PanelExpectation {
  option: Committed;
  draft: DateRange;
  state?: 'editing' | 'invalid' | 'exceeded';
  errorMessage?: string;
  alert?: { title: string; message: string };
}

function expectPanel(model: ModelSnapshot, expected: PanelExpectation): void {
  const state = snapshot();
  expect(state.matches({ open: expected.state ?? 'editing' })).toBe(true);
  expect(state.context.option).toBe(expected.option);
  expect(state.context.draft).toEqual(expected.draft);
  expect(state.context.errorMessage).toBe(expected.errorMessage);
  expect(state.context.alert).toEqual(expected.alert);
  expect(state.context.note).toBe('(Max range of 31 days)');
  expect(state.context.quickRangesShown).toBe(true);
  // What is committed does not change until Apply succeeds.
  expect(state.context.committed).toEqual(RANGES[committedOf(model)]);
  expect(emitted).toHaveLength(reportsAtOpen);
  const alertOpen = expected.state === 'exceeded';
  // While the alert is open only its button works.
  expect(state.can({ type: 'dateRange.dismissAlert' })).toBe(alertOpen);
  expect(state.can({ type: 'dateRange.apply' })).toBe(!alertOpen);
  expect(state.can({ type: 'dateRange.cancel' })).toBe(!alertOpen);
  expect(state.can({ type: 'dateRange.changeStart', date: TODAY })).toBe(!alertOpen);
}

const panelChecks: Record<string, (model: ModelSnapshot) => void> = {
  quick7: (model) => expectPanel(model, { option: 'last7', draft: RANGES.last7 }),
  quick30: (model) => expectPanel(model, { option: 'last30', draft: RANGES.last30 }),
  thisMonth: (model) => expectPanel(model, { option: 'thisMonth', draft: RANGES.thisMonth }),
  lastMonth: (model) => expectPanel(model, { option: 'lastMonth', draft: RANGES.lastMonth }),
  custom: (model) => expectPanel(model, { option: 'custom', draft: RANGES.custom }),
  reversed: (model) => expectPanel(model, { option: 'custom', draft: RANGES.reversed }),
  future: (model) => expectPanel(model, { option: 'custom', draft: RANGES.future }),
  tooLong: (model) => expectPanel(model, { option: 'custom', draft: RANGES.tooLong }),
  beforeEarliest: (model) => expectPanel(model, { option: 'custom', draft: RANGES.beforeEarliest }),
  malformed: (model) => expectPanel(model, { option: 'custom', draft: RANGES.malformed }),
  invalidOrder: (model) =>
    expectPanel(model, {
      option: 'custom',
      draft: RANGES.reversed,
      state: 'invalid',
      errorMessage: 'Date must be before End Date.',
    }),
  invalidFuture: (model) =>
    expectPanel(model, {
      option: 'custom',
      draft: RANGES.future,
      state: 'invalid',
      errorMessage: 'You have selected a future date. Please try again with another date.',
    }),
  invalidEarliest: (model) =>
    expectPanel(model, {
      option: 'custom',
      draft: RANGES.beforeEarliest,
      state: 'invalid',
      errorMessage: 'You have selected a date before 1 Jan 2023. Please try again with another date.',
    }),
  invalidMalformed: (model) =>
    expectPanel(model, {
      option: 'custom',
      draft: RANGES.malformed,
      state: 'invalid',
      errorMessage: 'Please enter a valid date.',
    }),
  exceeded: (model) =>
    expectPanel(model, {
      option: 'custom',
      draft: RANGES.tooLong,
      state: 'exceeded',
      alert: {
        title: 'Date Range Exceeded',
        message: 'You have selected a date range more than 31 days. Please try again.',
      },
    }),
};

const states: Record<string, (model: ModelSnapshot) => void> = {
  '#dateModel.last7.disabled': () => {
    expect(snapshot().matches('closed')).toBe(true);
    expect(snapshot().context.disabled).toBe(true);
    expect(snapshot().can({ type: 'dateRange.open' })).toBe(false);
  },
};
for (const committed of ['last7', 'last30', 'thisMonth', 'lastMonth', 'custom'] as const) {
  states[`#dateModel.${committed}.closed`] = expectClosed;
  for (const [name, check] of Object.entries(panelChecks)) states[`#dateModel.${committed}.${name}`] = check;
}

function typeRange(range: DateRange): void {
  actor.send({ type: 'dateRange.changeStart', date: range.start });
  actor.send({ type: 'dateRange.changeEnd', date: range.end });
}

const testParams: TestParam<ModelSnapshot, ModelEvent> = {
  states,
  events: {
    open: () => {
      reportsAtOpen = emitted.length;
      lastStep = 'other';
      actor.send({ type: 'dateRange.open' });
    },
    selectLast7: () => actor.send({ type: 'dateRange.selectOption', option: 'last7' }),
    selectLast30: () => actor.send({ type: 'dateRange.selectOption', option: 'last30' }),
    selectThisMonth: () => actor.send({ type: 'dateRange.selectOption', option: 'thisMonth' }),
    selectLastMonth: () => actor.send({ type: 'dateRange.selectOption', option: 'lastMonth' }),
    selectCustom: () => actor.send({ type: 'dateRange.selectOption', option: 'custom' }),
    typeCustom: () => typeRange(RANGES.custom),
    typeReversed: () => typeRange(RANGES.reversed),
    typeFuture: () => typeRange(RANGES.future),
    typeTooLong: () => typeRange(RANGES.tooLong),
    typeBeforeEarliest: () => typeRange(RANGES.beforeEarliest),
    typeMalformed: () => typeRange(RANGES.malformed),
    apply: () => {
      const wasOpen = snapshot().matches('open');
      actor.send({ type: 'dateRange.apply' });
      lastStep = wasOpen && snapshot().matches('closed') ? 'apply' : 'other';
    },
    cancel: () => {
      lastStep = 'other';
      actor.send({ type: 'dateRange.cancel' });
    },
    dismissAlert: () => actor.send({ type: 'dateRange.dismissAlert' }),
    disable: () => actor.send({ type: 'dateRange.disable' }),
    enable: () => actor.send({ type: 'dateRange.enable' }),
    ownerSetsCustom: () => {
      reportsAtOpen = emitted.length;
      lastStep = 'other';
      actor.send({ type: 'dateRange.set', range: RANGES.custom });
    },
  },
};

describe('dateRangePickerMachine (model-based)', () => {
  beforeEach(() => start());
  afterEach(() => {
    actor.stop();
    parent.stop();
  });

  describeModelCoverage(dateModel, testParams, {
    states: Object.keys(states),
    transitions: 233,
    stateName: (key) => modelStateId('dateModel', key),
  });
});

describe('dateRangePickerMachine details', () => {
  afterEach(() => {
    actor.stop();
    parent.stop();
  });

  it('disables days outside [earliest, today]', () => {
    start();
    const { window } = snapshot().context;
    expect(isDateDisabled('2024-03-16', window)).toBe(true);
    expect(isDateDisabled('2022-12-31', window)).toBe(true);
    expect(isDateDisabled('2023-01-01', window)).toBe(false);
  });

  it('hides the quick ranges when the earliest date is 45 days ago or less, and refuses them', () => {
    start({ window: { earliest: '2024-03-14', latest: TODAY }, range: { start: '2024-03-14', end: TODAY } });
    expect(snapshot().context.quickRangesShown).toBe(false);
    actor.send({ type: 'dateRange.open' });
    expect(snapshot().context.option).toBe('custom');
    expect(snapshot().can({ type: 'dateRange.selectOption', option: 'last7' })).toBe(false);
    expect(snapshot().can({ type: 'dateRange.selectOption', option: 'custom' })).toBe(true);
    actor.send({ type: 'dateRange.changeStart', date: '2024-03-13' });
    actor.send({ type: 'dateRange.apply' });
    expect(snapshot().context.errorMessage).toBe(
      'You have selected a date before 14 Mar 2024. Please try again with another date.',
    );
  });

  it('says as the draft changes, before Apply, that it is longer than the maximum', () => {
    const exceeded = {
      title: 'Date Range Exceeded',
      message: 'You have selected a date range more than 31 days. Please try again.',
    };
    start();
    actor.send({ type: 'dateRange.open' });
    expect(snapshot().context.rangeWarning).toBeUndefined();
    typeRange(RANGES.tooLong);
    expect(snapshot().matches({ open: 'editing' })).toBe(true);
    expect(snapshot().context.rangeWarning).toEqual(exceeded);
    // Apply opens the alert; dismissing it leaves the warning while the draft is still too long.
    actor.send({ type: 'dateRange.apply' });
    expect(snapshot().context.alert).toEqual(exceeded);
    actor.send({ type: 'dateRange.dismissAlert' });
    expect(snapshot().context.rangeWarning).toEqual(exceeded);
    // A longer maximum from the owner: the draft fits, the warning goes.
    actor.send({ type: 'dateRange.configure', maxDays: 93 });
    expect(snapshot().context.rangeWarning).toBeUndefined();
    actor.send({ type: 'dateRange.configure', maxDays: 31 });
    expect(snapshot().context.rangeWarning).toEqual(exceeded);
    actor.send({ type: 'dateRange.selectOption', option: 'last30' });
    expect(snapshot().context.rangeWarning).toBeUndefined();
    // Only a too-long range warns: the other problems are said at Apply.
    typeRange(RANGES.reversed);
    expect(snapshot().context.rangeWarning).toBeUndefined();
    // Cancel drops the draft and its warning.
    typeRange(RANGES.tooLong);
    actor.send({ type: 'dateRange.cancel' });
    expect(snapshot().context.rangeWarning).toBeUndefined();
    expect(snapshot().context.draft).toEqual(RANGES.last7);
  });

  it('has no note without a maximum and takes a new maximum from its owner', () => {
    start({ maxDays: undefined });
    expect(snapshot().context.note).toBeUndefined();
    actor.send({ type: 'dateRange.open' });
    typeRange(RANGES.tooLong);
    actor.send({ type: 'dateRange.apply' });
    expect(snapshot().matches('closed')).toBe(true);
    actor.send({ type: 'dateRange.configure', maxDays: 1 });
    expect(snapshot().context.note).toBe('(Max range of 1 day)');
    actor.send({ type: 'dateRange.open' });
    actor.send({ type: 'dateRange.selectOption', option: 'last7' });
    actor.send({ type: 'dateRange.apply' });
    expect(snapshot().context.alert).toEqual({
      title: 'Date Range Exceeded',
      message: 'You have selected a date range more than 1 day. Please try again.',
    });
    // A configure without maxDays keeps the maximum.
    actor.send({ type: 'dateRange.configure', window: { earliest: undefined, latest: TODAY } });
    expect(snapshot().context.maxDays).toBe(1);
    expect(snapshot().context.window.earliest).toBeUndefined();
  });

  it('carries HH:mm:ss times when the type is datetime', () => {
    start({ type: 'datetime' });
    expect(snapshot().context.committed).toEqual({ ...RANGES.last7, startTime: '00:00:00', endTime: '23:59:59' });
    actor.send({ type: 'dateRange.open' });
    actor.send({ type: 'dateRange.changeStart', date: TODAY });
    actor.send({ type: 'dateRange.changeStartTime', time: '18:00:00' });
    actor.send({ type: 'dateRange.changeEndTime', time: '09:30:00' });
    actor.send({ type: 'dateRange.apply' });
    expect(snapshot().context.errorMessage).toBe('Date must be before End Date.');
    actor.send({ type: 'dateRange.changeEndTime', time: '20:00:00' });
    expect(snapshot().matches({ open: 'editing' })).toBe(true);
    actor.send({ type: 'dateRange.apply' });
    expect(emitted.at(-1)).toEqual({
      type: 'dateRange.change',
      range: { start: TODAY, end: TODAY, startTime: '18:00:00', endTime: '20:00:00' },
    });
  });

  it('ignores times when the type is date', () => {
    start();
    actor.send({ type: 'dateRange.open' });
    expect(snapshot().can({ type: 'dateRange.changeStartTime', time: '10:00:00' })).toBe(false);
  });

  it('sets dates part by part on mobile, without quick ranges', () => {
    start({ variant: 'mobile', range: { start: '2024-01-31', end: '2024-02-10' } });
    expect(snapshot().context.quickRangesShown).toBe(false);
    actor.send({ type: 'dateRange.open' });
    expect(snapshot().context.option).toBe('custom');
    actor.send({ type: 'dateRange.changeStartPart', part: 'month', value: 2 });
    expect(snapshot().context.draft.start).toBe('2024-02-29');
    actor.send({ type: 'dateRange.changeStartPart', part: 'day', value: 1 });
    actor.send({ type: 'dateRange.changeEndPart', part: 'month', value: 3 });
    actor.send({ type: 'dateRange.changeEndPart', part: 'day', value: 2 });
    actor.send({ type: 'dateRange.apply' });
    expect(snapshot().context.committed).toEqual({ start: '2024-02-01', end: '2024-03-02' });
    // Okay refuses what Apply refuses.
    actor.send({ type: 'dateRange.open' });
    actor.send({ type: 'dateRange.changeEndPart', part: 'year', value: 2025 });
    actor.send({ type: 'dateRange.apply' });
    expect(snapshot().context.errorMessage).toBe(
      'You have selected a future date. Please try again with another date.',
    );
  });

  it('offers Quarter to date and Year to date with a time-range select, asking for the time range that fits', () => {
    const today = '2024-08-20';
    const options = [
      { timeRange: 'hourly', maxDays: 31 },
      { timeRange: 'daily', maxDays: 31 },
      { timeRange: 'weekly', maxDays: 93 },
      { timeRange: 'monthly', maxDays: 366 },
    ] as const;
    start({
      window: { earliest: undefined, latest: today },
      range: { start: '2024-08-14', end: today },
      timeRanges: { current: 'daily', options },
    });
    expect(snapshot().context.presets.map((preset) => preset.id)).toEqual([
      'thisMonth',
      'lastMonth',
      'quarterToDate',
      'yearToDate',
    ]);
    actor.send({ type: 'dateRange.open' });
    // Year to date is 233 days: longer than Daily's 31 and Weekly's 93, so Monthly; no warning, its maximum noted.
    actor.send({ type: 'dateRange.selectOption', option: 'yearToDate' });
    expect(snapshot().context.draft).toEqual({ start: '2024-01-01', end: today });
    expect(snapshot().context.rangeWarning).toBeUndefined();
    expect(snapshot().context.note).toBe('(Max range of 366 days, Monthly)');
    // Changing a date makes it a custom range again, checked against the owner's maximum.
    actor.send({ type: 'dateRange.changeStart', date: '2024-01-02' });
    expect(snapshot().context.option).toBe('custom');
    expect(snapshot().context.note).toBe('(Max range of 31 days)');
    expect(snapshot().context.rangeWarning?.title).toBe('Date Range Exceeded');
    actor.send({ type: 'dateRange.selectOption', option: 'quarterToDate' });
    expect(snapshot().context.draft).toEqual({ start: '2024-07-01', end: today });
    expect(snapshot().context.note).toBe('(Max range of 93 days, Weekly)');
    actor.send({ type: 'dateRange.apply' });
    expect(snapshot().matches('closed')).toBe(true);
    expect(emitted).toEqual([
      { type: 'dateRange.change', range: { start: '2024-07-01', end: today }, timeRange: 'weekly' },
    ]);
    expect(parentReports).toEqual(emitted);
    // The owner switches to Weekly and says so: the quarter needs no other time range now.
    actor.send({ type: 'dateRange.configure', maxDays: 93, timeRanges: { current: 'weekly', options } });
    expect(snapshot().context.note).toBe('(Max range of 93 days)');
    actor.send({ type: 'dateRange.open' });
    expect(snapshot().context.option).toBe('quarterToDate');
    actor.send({ type: 'dateRange.selectOption', option: 'lastMonth' });
    actor.send({ type: 'dateRange.apply' });
    // A preset that fits the current time range reports the range alone.
    expect(emitted.at(-1)).toEqual({ type: 'dateRange.change', range: { start: '2024-07-01', end: '2024-07-31' } });
  });

  it('refuses a disabled preset, and a preset the owner no longer allows becomes a custom range', () => {
    start({ window: { earliest: '2023-12-01', latest: TODAY }, maxDays: 31 });
    expect(snapshot().context.presets.map((preset) => [preset.id, preset.disabledReason])).toEqual([
      ['thisMonth', undefined],
      ['lastMonth', undefined],
    ]);
    actor.send({ type: 'dateRange.open' });
    actor.send({ type: 'dateRange.selectOption', option: 'lastMonth' });
    expect(snapshot().context.option).toBe('lastMonth');
    // Not offered without a time-range select.
    expect(snapshot().can({ type: 'dateRange.selectOption', option: 'yearToDate' })).toBe(false);
    // The earliest date moves after the 1st of last month: Last month is disabled and the draft is a custom range.
    actor.send({ type: 'dateRange.configure', window: { earliest: '2024-02-10', latest: TODAY } });
    expect(snapshot().context.quickRangesShown).toBe(false);
    expect(snapshot().context.option).toBe('custom');
    expect(snapshot().context.draft).toEqual(RANGES.lastMonth);
    actor.send({ type: 'dateRange.configure', window: { earliest: '2024-01-20', latest: TODAY } });
    expect(snapshot().context.quickRangesShown).toBe(true);
    expect(snapshot().can({ type: 'dateRange.selectOption', option: 'lastMonth' })).toBe(true);
    actor.stop();
    parent.stop();
    // On 31 Mar, with 10 Feb the earliest date (50 days back, so the radios show), Last month is disabled.
    start({
      window: { earliest: '2024-02-10', latest: '2024-03-31' },
      range: { start: '2024-03-25', end: '2024-03-31' },
    });
    expect(snapshot().context.quickRangesShown).toBe(true);
    expect(snapshot().context.presets.find((preset) => preset.id === 'lastMonth')?.disabledReason).toBe(
      'Starts before 10 Feb 2024, the earliest date you may choose.',
    );
    actor.send({ type: 'dateRange.open' });
    expect(snapshot().can({ type: 'dateRange.selectOption', option: 'lastMonth' })).toBe(false);
    expect(snapshot().can({ type: 'dateRange.selectOption', option: 'thisMonth' })).toBe(true);
    actor.send({ type: 'dateRange.selectOption', option: 'lastMonth' });
    expect(snapshot().context.option).toBe('last7');
  });

  it('closes with the owner value when it changes while open', () => {
    start();
    actor.send({ type: 'dateRange.open' });
    typeRange(RANGES.reversed);
    actor.send({ type: 'dateRange.apply' });
    actor.send({ type: 'dateRange.set', range: RANGES.custom });
    expect(snapshot().matches('closed')).toBe(true);
    expect(snapshot().context.committed).toEqual(RANGES.custom);
    expect(snapshot().context.errorMessage).toBeUndefined();
    expect(emitted).toEqual([]);
  });
});
