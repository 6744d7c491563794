import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, type AnyActorRef, createActor, fromCallback, type SnapshotFrom, setup } from 'xstate';
import type { HourRange } from '../../src/domain/dateLimits';
import { formatHourRange } from '../../src/domain/format';
import { type HourChangeEvent, hourPickerMachine } from '../../src/machines/hourPickerMachine';
import { describeModelCoverage } from './modelCoverage';
import { modelStateId } from './modelStateIds';

/*
 * Model-based test of the hour picker (§2, §5): what a user sees of the picker — the committed hours on
 * its button, the panel's radio and From/To, the message — written from the spec, driven against a real
 * actor. The model's top level is the committed value (All Day or 9 AM–5 PM); below it, the panel.
 */

const ALL_DAY: HourRange = { from: 0, to: 23 };
const NINE_TO_FIVE: HourRange = { from: 9, to: 17 };

let actor: Actor<typeof hourPickerMachine>;
let parent: AnyActorRef;
let parentReports: HourChangeEvent[];
let emitted: HourChangeEvent[];
let reportsAtOpen: number;
let lastStep: 'apply' | 'cancel' | 'other';

function start(hours?: HourRange): void {
  parentReports = [];
  emitted = [];
  reportsAtOpen = 0;
  lastStep = 'other';
  parent = createActor(
    fromCallback<HourChangeEvent>(({ receive }) => {
      receive((event) => parentReports.push(event));
    }),
  ).start();
  actor = createActor(hourPickerMachine, { input: { ...(hours && { hours }), reportTo: parent } });
  actor.on('hours.change', (event) => emitted.push(event));
  actor.start();
}

function snapshot(): SnapshotFrom<typeof hourPickerMachine> {
  return actor.getSnapshot();
}

type ModelEvent = {
  type:
    | 'open'
    | 'focus'
    | 'selectAll'
    | 'chooseNineToFive'
    | 'chooseFromAfterTo'
    | 'apply'
    | 'cancel'
    | 'disable'
    | 'enable'
    | 'ownerSetsAllDay';
};

/** The panel, the same whatever is committed; `committed` names the top-level state to return to. */
function panel(committed: 'allDay' | 'nineToFive') {
  const closed = `#hourModel.${committed}.closed`;
  return {
    openAll: {
      on: {
        focus: 'customAllHours',
        chooseNineToFive: 'draftNineToFive',
        chooseFromAfterTo: 'draftReversed',
        apply: '#hourModel.allDay.closed',
        cancel: closed,
      },
    },
    /** Custom chosen (focus) on the whole day. */
    customAllHours: {
      on: {
        selectAll: 'openAll',
        chooseNineToFive: 'draftNineToFive',
        chooseFromAfterTo: 'draftReversed',
        apply: '#hourModel.allDay.closed',
        cancel: closed,
      },
    },
    draftNineToFive: {
      on: {
        apply: '#hourModel.nineToFive.closed',
        cancel: closed,
        selectAll: 'openAll',
        chooseFromAfterTo: 'draftReversed',
      },
    },
    draftReversed: {
      on: { apply: 'orderError', chooseNineToFive: 'draftNineToFive', cancel: closed },
    },
    orderError: {
      on: { apply: 'orderError', chooseNineToFive: 'draftNineToFive', selectAll: 'openAll', cancel: closed },
    },
  };
}

const hourModel = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'hourModel',
    initial: 'allDay',
    states: {
      allDay: {
        initial: 'closed',
        states: {
          closed: { on: { open: 'openAll', disable: 'disabled' } },
          disabled: { on: { enable: 'closed' } },
          ...panel('allDay'),
        },
      },
      nineToFive: {
        initial: 'closed',
        states: {
          // Opening shows the committed 9–17 as Custom.
          closed: { on: { open: 'draftNineToFive', ownerSetsAllDay: '#hourModel.allDay.closed' } },
          ...panel('nineToFive'),
        },
      },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof hourModel.logic>;

function committedOf(model: ModelSnapshot): HourRange {
  return model.matches('nineToFive') ? NINE_TO_FIVE : ALL_DAY;
}

function expectClosed(model: ModelSnapshot): void {
  const state = snapshot();
  const committed = committedOf(model);
  expect(state.matches('closed')).toBe(true);
  expect(state.context.committed).toEqual(committed);
  expect(state.context.errorMessage).toBeUndefined();
  // The button shows the committed hours.
  expect(formatHourRange(state.context.committed)).toBe(
    model.matches('nineToFive') ? '09:00 AM - 05:00 PM' : '12:00am-12:00am',
  );
  // Apply reports the committed hours to the owner and to listeners; Cancel and the owner's value report nothing.
  const expectedReports = lastStep === 'apply' ? reportsAtOpen + 1 : reportsAtOpen;
  expect(emitted).toHaveLength(expectedReports);
  expect(parentReports).toEqual(emitted);
  if (lastStep === 'apply') expect(emitted.at(-1)).toEqual({ type: 'hours.change', hours: committed });
}

function expectOpen(mode: 'all' | 'custom', draft: HourRange, errorMessage?: string): void {
  const state = snapshot();
  expect(state.matches({ open: errorMessage === undefined ? 'editing' : 'invalid' })).toBe(true);
  expect(state.context.mode).toBe(mode);
  expect(state.context.draft).toEqual(draft);
  expect(state.context.errorMessage).toBe(errorMessage);
  expect(state.can({ type: 'hours.apply' })).toBe(true);
  expect(state.can({ type: 'hours.cancel' })).toBe(true);
  // Only hours of 0–23 are taken.
  expect(state.can({ type: 'hours.changeFrom', hour: 24 })).toBe(false);
  expect(state.can({ type: 'hours.changeTo', hour: -1 })).toBe(false);
}

const panelChecks = () => ({
  openAll: () => expectOpen('all', ALL_DAY),
  customAllHours: () => expectOpen('custom', ALL_DAY),
  draftNineToFive: () => expectOpen('custom', NINE_TO_FIVE),
  draftReversed: () => expectOpen('custom', { from: 18, to: 17 }),
  orderError: () => expectOpen('custom', { from: 18, to: 17 }, 'From must be at or before To.'),
});

const states: Record<string, (model: ModelSnapshot) => void> = {
  '#hourModel.allDay.closed': expectClosed,
  '#hourModel.allDay.disabled': () => {
    expect(snapshot().matches('closed')).toBe(true);
    expect(snapshot().context.disabled).toBe(true);
    expect(snapshot().can({ type: 'hours.open' })).toBe(false);
  },
  '#hourModel.nineToFive.closed': expectClosed,
};
for (const [name, check] of Object.entries(panelChecks())) states[`#hourModel.allDay.${name}`] = check;
for (const [name, check] of Object.entries(panelChecks())) states[`#hourModel.nineToFive.${name}`] = check;

const testParams: TestParam<ModelSnapshot, ModelEvent> = {
  states,
  events: {
    open: () => {
      reportsAtOpen = emitted.length;
      lastStep = 'other';
      actor.send({ type: 'hours.open' });
    },
    focus: () => actor.send({ type: 'hours.focus' }),
    selectAll: () => actor.send({ type: 'hours.selectAll' }),
    chooseNineToFive: () => {
      actor.send({ type: 'hours.changeFrom', hour: 9 });
      actor.send({ type: 'hours.changeTo', hour: 17 });
    },
    chooseFromAfterTo: () => {
      actor.send({ type: 'hours.changeTo', hour: 17 });
      actor.send({ type: 'hours.changeFrom', hour: 18 });
    },
    apply: () => {
      lastStep = snapshot().context.draft.from > snapshot().context.draft.to ? 'other' : 'apply';
      actor.send({ type: 'hours.apply' });
    },
    cancel: () => {
      lastStep = 'cancel';
      actor.send({ type: 'hours.cancel' });
    },
    disable: () => actor.send({ type: 'hours.disable' }),
    enable: () => actor.send({ type: 'hours.enable' }),
    ownerSetsAllDay: () => {
      reportsAtOpen = emitted.length;
      lastStep = 'other';
      actor.send({ type: 'hours.set', hours: ALL_DAY });
    },
  },
};

describe('hourPickerMachine (model-based)', () => {
  beforeEach(() => start());
  afterEach(() => {
    actor.stop();
    parent.stop();
  });

  describeModelCoverage(hourModel, testParams, {
    states: Object.keys(states),
    transitions: 47,
    stateName: (key) => modelStateId('hourModel', key),
  });
});

describe('hourPickerMachine details', () => {
  afterEach(() => {
    actor.stop();
    parent.stop();
  });

  it('starts from the given hours, or All Day for hours out of order', () => {
    start(NINE_TO_FIVE);
    expect(snapshot().context.committed).toEqual(NINE_TO_FIVE);
    expect(snapshot().context.mode).toBe('custom');
    actor.stop();
    start({ from: 20, to: 3 });
    expect(snapshot().context.committed).toEqual(ALL_DAY);
    expect(snapshot().context.mode).toBe('all');
  });

  it('applies a single hour', () => {
    start();
    actor.send({ type: 'hours.open' });
    actor.send({ type: 'hours.changeFrom', hour: 12 });
    actor.send({ type: 'hours.changeTo', hour: 12 });
    actor.send({ type: 'hours.apply' });
    expect(snapshot().context.committed).toEqual({ from: 12, to: 12 });
    expect(formatHourRange(snapshot().context.committed)).toBe('12:00 PM - 12:00 PM');
  });

  it('works without an owner (listeners only)', () => {
    emitted = [];
    actor = createActor(hourPickerMachine, { input: {} });
    actor.on('hours.change', (event) => emitted.push(event));
    parent = createActor(fromCallback(() => undefined)).start();
    actor.start();
    actor.send({ type: 'hours.open' });
    actor.send({ type: 'hours.changeFrom', hour: 6 });
    actor.send({ type: 'hours.apply' });
    expect(emitted).toEqual([{ type: 'hours.change', hours: { from: 6, to: 23 } }]);
  });

  it('closes with the owner value when it changes while open', () => {
    start();
    actor.send({ type: 'hours.open' });
    actor.send({ type: 'hours.changeFrom', hour: 6 });
    actor.send({ type: 'hours.set', hours: NINE_TO_FIVE });
    expect(snapshot().matches('closed')).toBe(true);
    expect(snapshot().context.committed).toEqual(NINE_TO_FIVE);
    expect(emitted).toEqual([]);
  });
});
