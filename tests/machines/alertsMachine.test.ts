import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, createActor, fromCallback, fromPromise, type SnapshotFrom, setup } from 'xstate';
import type { AlertFiring, AlertRule, AlertRuleList } from '../../src/api/alertRules';
import { clearSession, setPermissionsList } from '../../src/api/session';
import { type AlertRuleDraft, requestOfDraft } from '../../src/domain/alertRules';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import type { Notice } from '../../src/domain/messages';
import {
  ALERT_SAVED_ELSEWHERE,
  ALERTS_PATH,
  alertRuleDialogMachine,
  alertsMachine,
} from '../../src/machines/alertsMachine';
import type { HeaderFiltersEvent } from '../../src/machines/headerLink';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the Alerts page's machine, its calls answered by the test: the rules of the header's client
 * load (or fail and are retried), a new rule's draft has the header's malls and the signed-in user as its recipient
 * and is saved (or refused, and saved again), a rule's history loads and a firing is acknowledged, and deleting the
 * rule whose history is open closes the history. Then Mall Home's dialog: the same machine given its client, malls,
 * outlets and metric by `editor.new`, its saved toast linking to the Alerts page.
 */

const PERMISSIONS = [
  '/api/alertRules::Read',
  '/api/alertRules::Create',
  '/api/alertRules::Update',
  '/api/alertRules::Delete',
  '/api/alertRules/firings::Read',
  '/api/alertRules/firings/acknowledge::Update',
];

const FILTERS: CommittedFilters = {
  clientId: 1,
  mallIds: [10],
  outlet: undefined,
  dateRange: { start: '2026-03-05', end: '2026-03-11' },
  hours: { from: 0, to: 23 },
  timeRange: 'daily',
  metric: 'gmv',
  month: undefined,
};
const MALLS = [
  { id: 10, name: 'Central Mall', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
  { id: 11, name: 'Harbour Point', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
];
const OUTLETS = [
  { id: 100, name: 'Cafe Uno', type: 1 as const, currency: 'SGD', mall_id: 10, outlet_code: null },
  { id: 101, name: 'Boutique Duo', type: 1 as const, currency: 'SGD', mall_id: 11, outlet_code: null },
];
const HEADER: HeaderFiltersEvent = { type: 'header.filters', filters: FILTERS, outlets: OUTLETS, malls: MALLS };

const RULE: AlertRule = {
  id: 7,
  name: 'Central GMV low',
  metric: 'gmv',
  mall_ids: [10],
  category: null,
  outlet_ids: [],
  condition_kind: 'below',
  condition_value: 100,
  weeks: 4,
  schedule_kind: 'daily',
  schedule_time: '08:00',
  recipient_ids: [5],
  active: true,
  created_by: 'Olivia Tan',
  time_zone: 'Asia/Singapore',
  currency: 'SGD',
  firing_count: 1,
  last_fired_at: '2026-03-11T00:05:00Z',
};
const LIST: AlertRuleList = {
  rules: [RULE],
  categories: [],
  recipients: [
    { id: 5, email: 'olivia@mall.example', name: 'Olivia Tan' },
    { id: 6, email: 'ben@mall.example', name: null },
  ],
};
const FIRING: AlertFiring = {
  id: 70,
  rule_id: 7,
  period_key: '2026-03-10',
  period_start: '2026-03-09T16:00:00Z',
  period_end: '2026-03-10T16:00:00Z',
  value: 50,
  compared_value: 100,
  compared_start: null,
  compared_end: null,
  currency: 'SGD',
  fired_at: '2026-03-11T00:05:00Z',
  acknowledged_by: null,
  acknowledged_at: null,
};
const ACKNOWLEDGED: AlertFiring = { ...FIRING, acknowledged_by: 'Olivia Tan', acknowledged_at: '2026-03-11T01:00:00Z' };

/** A call the machine made, answered by the test. */
interface Call {
  readonly kind: 'rules' | 'firings' | 'acknowledge' | 'save' | 'remove';
  readonly input: unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
  settled: boolean;
}

let calls: Call[];
let notices: Notice[];

function called<T, TInput>(kind: Call['kind']) {
  return fromPromise<T, TInput>(
    ({ input }) =>
      new Promise<T>((resolve, reject) => {
        calls.push({ kind, input, resolve: (value) => resolve(value as T), reject, settled: false });
      }),
  );
}

const testActors = {
  followHeaderFilters: fromCallback<HeaderFiltersEvent>(() => undefined),
  lockHeader: fromCallback(() => () => undefined),
  fetchRules: called<AlertRuleList, number>('rules'),
  fetchFirings: called<AlertFiring[], { clientId: number; ruleId: number }>('firings'),
  acknowledge: called<AlertFiring, { clientId: number; id: number }>('acknowledge'),
  saveRule: called<AlertRule, { clientId: number; id: number | undefined; draft: AlertRuleDraft }>('save'),
  removeRule: called<{ id: number }, { clientId: number; id: number }>('remove'),
};
const pageMachine = alertsMachine.provide({ actors: testActors });
const dialogMachine = alertRuleDialogMachine.provide({ actors: testActors });

const flush = async () => {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
};

/** Answers the last pending call of `kind` (it must be pending). */
async function answer(kind: Call['kind'], value: unknown): Promise<void> {
  const call = calls.filter((candidate) => candidate.kind === kind && !candidate.settled).at(-1);
  if (!call) throw new Error(`no ${kind} call is pending`);
  call.settled = true;
  call.resolve(value);
  await flush();
}

async function fail(kind: Call['kind'], message = 'boom'): Promise<void> {
  const call = calls.filter((candidate) => candidate.kind === kind && !candidate.settled).at(-1);
  if (!call) throw new Error(`no ${kind} call is pending`);
  call.settled = true;
  call.reject(new Error(message));
  await flush();
}

const pending = (kind: Call['kind']) => calls.filter((call) => call.kind === kind && !call.settled);

let actor: Actor<typeof pageMachine>;

type ModelEvent =
  | { type: 'header' }
  | { type: 'answer' }
  | { type: 'fail' }
  | { type: 'retry' }
  | { type: 'newRule' }
  | { type: 'cancel' }
  | { type: 'save' }
  | { type: 'saveOk' }
  | { type: 'saveFail' }
  | { type: 'history' }
  | { type: 'firings' }
  | { type: 'acknowledge' }
  | { type: 'acknowledged' }
  | { type: 'close' }
  | { type: 'delete' }
  | { type: 'keep' }
  | { type: 'confirm' }
  | { type: 'deleted' };

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'alertsModel',
    initial: 'idle',
    states: {
      idle: { on: { header: 'loading' } },
      loading: { on: { answer: 'loaded', fail: 'failure' } },
      failure: { on: { retry: 'loading' } },
      loaded: { on: { newRule: 'editing', history: 'historyLoading' } },
      editing: { on: { cancel: 'loaded', save: 'saving' } },
      saving: { on: { saveOk: 'loading', saveFail: 'saveFailed' } },
      saveFailed: { on: { save: 'saving', cancel: 'loaded' } },
      historyLoading: { on: { firings: 'historyShown' } },
      historyShown: { on: { acknowledge: 'acknowledging', close: 'loaded', delete: 'confirming' } },
      acknowledging: { on: { acknowledged: 'historyShown' } },
      confirming: { on: { keep: 'historyShown', confirm: 'deleting' } },
      deleting: { on: { deleted: 'loading' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

const snapshot = () => actor.getSnapshot();

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    idle: () => {
      expect(snapshot().matches({ rules: 'idle' })).toBe(true);
      expect(calls).toEqual([]);
    },
    loading: () => {
      expect(snapshot().hasTag('loading')).toBe(true);
      expect(pending('rules').at(-1)?.input).toBe(1);
      expect(snapshot().matches({ history: 'closed', editor: 'closed', remove: 'idle' })).toBe(true);
    },
    failure: () => {
      expect(snapshot().matches({ rules: 'failure' })).toBe(true);
      expect(notices.at(-1)).toEqual({
        type: 'notify',
        intent: 'danger',
        message: 'Alert rules error occurs. Please try again later.',
        timeout: 5000,
      });
    },
    loaded: () => {
      expect(snapshot().matches({ rules: 'loaded', history: 'closed', editor: 'closed', remove: 'idle' })).toBe(true);
      expect(snapshot().context).toMatchObject({ answer: LIST, draft: undefined, historyRuleId: undefined });
    },
    editing: () => {
      expect(snapshot().matches({ editor: 'editing' })).toBe(true);
      expect(snapshot().context.draft).toMatchObject({ mall_ids: [10], recipient_ids: [5], metric: 'gmv' });
      expect(snapshot().context.saveError).toBeUndefined();
    },
    saving: () => {
      expect(snapshot().matches({ editor: 'saving' })).toBe(true);
      const draft = snapshot().context.draft as AlertRuleDraft;
      expect(pending('save').at(-1)?.input).toEqual({ clientId: 1, id: undefined, draft });
      expect(requestOfDraft(1, draft)).toMatchObject({ name: 'Cafe quiet', mall_ids: [10], recipient_ids: [5] });
    },
    saveFailed: () => {
      expect(snapshot().matches({ editor: 'editing' })).toBe(true);
      expect(snapshot().context.saveError).toBe('mall_ids: refused');
      expect(notices.at(-1)).toMatchObject({ intent: 'danger', message: 'Save Failed.' });
    },
    historyLoading: () => {
      expect(snapshot().matches({ history: 'loading' })).toBe(true);
      expect(pending('firings').at(-1)?.input).toEqual({ clientId: 1, ruleId: 7 });
    },
    historyShown: () => {
      expect(snapshot().matches({ history: 'shown' })).toBe(true);
      expect(snapshot().context.historyRuleId).toBe(7);
      expect(snapshot().context.firings).toHaveLength(1);
    },
    acknowledging: () => {
      expect(snapshot().matches({ history: 'acknowledging' })).toBe(true);
      expect(pending('acknowledge').at(-1)?.input).toEqual({ clientId: 1, id: 70 });
    },
    confirming: () => {
      expect(snapshot().matches({ remove: 'confirming', history: 'shown' })).toBe(true);
      expect(snapshot().context.removing).toEqual(RULE);
    },
    deleting: () => {
      expect(snapshot().matches({ remove: 'working' })).toBe(true);
      expect(pending('remove').at(-1)?.input).toEqual({ clientId: 1, id: 7 });
    },
  },
  events: {
    header: async () => {
      actor.send(HEADER);
      // The same client and malls again ask nothing more.
      actor.send(HEADER);
      await flush();
      expect(pending('rules')).toHaveLength(1);
    },
    answer: () => answer('rules', LIST),
    fail: () => fail('rules'),
    retry: async () => {
      actor.send({ type: 'rules.retry' });
      await flush();
    },
    newRule: async () => {
      actor.send({ type: 'editor.new', prefill: { mallIds: [10] }, userId: 5 });
      actor.send({ type: 'editor.change', patch: { name: 'Cafe quiet' } });
      await flush();
    },
    cancel: async () => {
      actor.send({ type: 'editor.cancel' });
      await flush();
    },
    save: async () => {
      actor.send({ type: 'editor.save' });
      await flush();
    },
    saveOk: async () => {
      await answer('save', { ...RULE, id: 8, name: 'Cafe quiet' });
      expect(notices.at(-1)).toEqual({
        type: 'notify',
        intent: 'success',
        message: 'Save Successfully.',
        timeout: 3000,
      });
    },
    saveFail: () => fail('save', 'mall_ids: refused'),
    history: async () => {
      actor.send({ type: 'history.open', ruleId: 7 });
      await flush();
    },
    firings: () => answer('firings', [FIRING]),
    acknowledge: async () => {
      actor.send({ type: 'firing.acknowledge', id: 70 });
      await flush();
    },
    acknowledged: async () => {
      await answer('acknowledge', ACKNOWLEDGED);
      expect(snapshot().context.firings).toEqual([ACKNOWLEDGED]);
      expect(notices.at(-1)).toMatchObject({ intent: 'success', message: 'Firing has been acknowledged.' });
    },
    close: async () => {
      actor.send({ type: 'history.close' });
      await flush();
    },
    delete: async () => {
      actor.send({ type: 'rule.delete', ruleId: 7 });
      await flush();
    },
    keep: async () => {
      actor.send({ type: 'rule.cancelDelete' });
      await flush();
    },
    confirm: async () => {
      actor.send({ type: 'rule.confirmDelete' });
      await flush();
    },
    deleted: async () => {
      await answer('remove', { id: 7 });
      expect(notices.at(-1)).toMatchObject({
        intent: 'success',
        message: 'Central GMV low has been deleted successfully.',
      });
      // The history of the rule deleted closed with it.
      expect(snapshot().context).toMatchObject({ historyRuleId: undefined, firings: undefined, removing: undefined });
    },
  },
};

function startActor(permissions: readonly string[] = PERMISSIONS) {
  calls = [];
  notices = [];
  setPermissionsList(permissions);
  actor = createActor(pageMachine);
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
}

function stopActor() {
  actor.stop();
  clearSession();
}

describe('alertsMachine (model)', () => {
  beforeEach(() => startActor());
  afterEach(stopActor);
  describeModelCoverage(model, params, {
    states: [
      'idle',
      'loading',
      'failure',
      'loaded',
      'editing',
      'saving',
      'saveFailed',
      'historyLoading',
      'historyShown',
      'acknowledging',
      'confirming',
      'deleting',
    ],
    transitions: 20,
  });
});

describe('alertsMachine details', () => {
  afterEach(stopActor);

  async function loaded() {
    startActor();
    actor.send(HEADER);
    await flush();
    await answer('rules', LIST);
  }

  it('offers the header’s malls and outlets as the editor’s scope', async () => {
    await loaded();
    expect(snapshot().context.choices).toEqual({
      malls: [
        { id: 10, name: 'Central Mall' },
        { id: 11, name: 'Harbour Point' },
      ],
      outlets: [
        { id: 100, name: 'Cafe Uno', mall_id: 10 },
        { id: 101, name: 'Boutique Duo', mall_id: 11 },
      ],
    });
  });

  it('does not save a draft that breaks a rule: the problem is shown at its field', async () => {
    await loaded();
    actor.send({ type: 'editor.new', prefill: { mallIds: [10] }, userId: 5 });
    expect(snapshot().can({ type: 'editor.save' })).toBe(true);
    actor.send({ type: 'editor.save' });
    await flush();
    expect(snapshot().matches({ editor: 'editing' })).toBe(true);
    expect(snapshot().context.problem).toEqual({ field: 'name', message: 'Please enter a name.' });
    expect(pending('save')).toEqual([]);
  });

  it('a new rule without a signed-in user has no recipient until one is chosen', async () => {
    await loaded();
    actor.send({ type: 'editor.new', prefill: { mallIds: [10] } });
    expect(snapshot().context.draft?.recipient_ids).toEqual([]);
  });

  it('deleting another rule than the history’s keeps the history open', async () => {
    await loaded();
    const other: AlertRule = { ...RULE, id: 9, name: 'Other' };
    actor.send(HEADER);
    // A list of two rules, read again after a save.
    actor.send({ type: 'rules.reload' });
    await flush();
    await answer('rules', { ...LIST, rules: [RULE, other] });
    actor.send({ type: 'history.open', ruleId: 7 });
    await flush();
    await answer('firings', [FIRING]);
    actor.send({ type: 'rule.delete', ruleId: 9 });
    actor.send({ type: 'rule.confirmDelete' });
    await flush();
    await answer('remove', { id: 9 });
    expect(snapshot().matches({ history: 'shown' })).toBe(true);
    expect(snapshot().context.historyRuleId).toBe(7);
  });

  it('closes the history when its rule is deleted while a firing is acknowledged', async () => {
    await loaded();
    actor.send({ type: 'history.open', ruleId: 7 });
    await flush();
    await answer('firings', [FIRING]);
    actor.send({ type: 'firing.acknowledge', id: 70 });
    actor.send({ type: 'rule.delete', ruleId: 7 });
    actor.send({ type: 'rule.confirmDelete' });
    await flush();
    await answer('remove', { id: 7 });
    expect(snapshot().matches({ history: 'closed' })).toBe(true);
  });

  it('offers no new rule to a user who may not add one', async () => {
    startActor(['/api/alertRules::Read']);
    actor.send(HEADER);
    await flush();
    await answer('rules', LIST);
    expect(snapshot().context.mayCreate).toBe(false);
    expect(snapshot().can({ type: 'editor.new', prefill: { mallIds: [10] } })).toBe(false);
  });
});

describe('alertRuleDialogMachine (Mall Home’s ‘Alert me when…’)', () => {
  let dialog: Actor<typeof dialogMachine>;
  beforeEach(() => {
    calls = [];
    notices = [];
    setPermissionsList(PERMISSIONS);
    dialog = createActor(dialogMachine);
    dialog.on('notify', (notice) => notices.push(notice));
    dialog.start();
  });
  afterEach(() => {
    dialog.stop();
    clearSession();
  });

  const open = {
    type: 'editor.new',
    clientId: 1,
    userId: 5,
    prefill: { mallIds: [10], outletIds: [100], metric: 'transactions' },
    choices: { malls: [{ id: 10, name: 'Central Mall' }], outlets: [{ id: 100, name: 'Cafe Uno', mall_id: 10 }] },
  } as const;

  it('opens the editor with the page’s scope and metric, reads the recipients, saves and links to the Alerts page', async () => {
    expect(calls).toEqual([]);
    dialog.send({ ...open, prefill: { ...open.prefill, outletIds: [...open.prefill.outletIds] } });
    await flush();
    expect(dialog.getSnapshot().matches({ editor: 'editing', rules: 'loading' })).toBe(true);
    expect(dialog.getSnapshot().context.draft).toMatchObject({
      mall_ids: [10],
      outlet_ids: [100],
      metric: 'transactions',
      recipient_ids: [5],
    });
    expect(dialog.getSnapshot().context.choices).toEqual(open.choices);
    const rules = pending('rules');
    expect(rules.map((call) => call.input)).toEqual([1]);
    await answer('rules', LIST);
    expect(dialog.getSnapshot().context.answer?.recipients).toEqual(LIST.recipients);

    dialog.send({ type: 'editor.change', patch: { name: 'Cafe busy', condition_kind: 'above', condition_value: 40 } });
    dialog.send({ type: 'editor.save' });
    await flush();
    expect(pending('save')[0]?.input).toMatchObject({ clientId: 1, id: undefined });
    await answer('save', { ...RULE, id: 8, name: 'Cafe busy' });
    expect(dialog.getSnapshot().matches({ editor: 'closed' })).toBe(true);
    expect(notices).toEqual([ALERT_SAVED_ELSEWHERE]);
    expect(ALERT_SAVED_ELSEWHERE.link).toEqual({ text: 'Open Alerts', href: ALERTS_PATH });
  });

  it('a second rule of the same client reads the recipients only once', async () => {
    dialog.send({ ...open, prefill: { mallIds: [10] } });
    await flush();
    await answer('rules', LIST);
    dialog.send({ type: 'editor.cancel' });
    dialog.send({ ...open, prefill: { mallIds: [10] } });
    await flush();
    expect(calls.filter((call) => call.kind === 'rules')).toHaveLength(1);
    expect(dialog.getSnapshot().matches({ editor: 'editing', rules: 'loaded' })).toBe(true);
  });

  it('a failed read of the recipients fails its own part with a retry; the draft stays', async () => {
    dialog.send({ ...open, prefill: { mallIds: [10] } });
    await flush();
    await fail('rules');
    expect(dialog.getSnapshot().matches({ editor: 'editing', rules: 'failure' })).toBe(true);
    dialog.send({ type: 'rules.retry' });
    await flush();
    await answer('rules', LIST);
    expect(dialog.getSnapshot().matches({ editor: 'editing', rules: 'loaded' })).toBe(true);
  });
});
