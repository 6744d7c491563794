import { createTestModel, type TestParam } from '@xstate/test';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, createActor, type SnapshotFrom, setup } from 'xstate';
import { clearSession } from '../../src/api/session';
import type { Notice } from '../../src/domain/messages';
import {
  createEmailSubscriptionsMachine,
  type EmailSubscriptionsValue,
} from '../../src/machines/settings/emailSubscriptionsMachine';
import { describeModelCoverage } from './modelCoverage';
import { errorBody, fakeNetwork } from './settingsNetwork';

/*
 * Model-based test of the e-mail subscriptions editor (§2, §7, §8) with the network answered by a fetch handler
 * injected into the api client: GET /outlets/emailSubscribe loads the user's subscription of client 3, POST sends
 * both switches as query parameters; 'Save Successfully.' / 'Save Failed.'.
 */

const CLIENT_ID = 3;
const PATH = '/outlets/emailSubscribe';
const net = fakeNetwork();
const machine = createEmailSubscriptionsMachine(net.client);

let actor: Actor<typeof machine>;
let notices: Notice[];
/** The value as the server holds it, and as the switches show it. */
let stored: EmailSubscriptionsValue;
let draft: EmailSubscriptionsValue;

function start(): void {
  net.reset();
  notices = [];
  stored = { clientId: CLIENT_ID, voidEmail: true, summaryEmail: false };
  draft = stored;
  actor = createActor(machine, { input: { clientId: CLIENT_ID } });
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
}

afterEach(() => actor.stop());
afterAll(() => clearSession());

const snapshot = () => actor.getSnapshot();

type ModelEvent = {
  type:
    | 'resolveLoad'
    | 'rejectLoad'
    | 'retry'
    | 'toggleVoid'
    | 'toggleSummary'
    | 'cancel'
    | 'save'
    | 'resolveSave'
    | 'rejectSave';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'emailModel',
    initial: 'loading',
    states: {
      loading: { on: { resolveLoad: 'clean', rejectLoad: 'failure' } },
      failure: { on: { retry: 'loading' } },
      clean: { on: { toggleVoid: 'dirty', toggleSummary: 'dirty' } },
      dirty: { on: { cancel: 'clean', save: 'saving' } },
      saving: { on: { resolveSave: 'saved', rejectSave: 'failed' } },
      saved: { on: { toggleSummary: 'dirty' } },
      failed: { on: { save: 'saving', cancel: 'clean' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    loading: async () => {
      expect(snapshot().hasTag('loading')).toBe(true);
      const request = await net.pending('GET', PATH);
      expect(request.query.get('client_id')).toBe(String(CLIENT_ID));
    },
    failure: () => {
      expect(snapshot().matches('failure')).toBe(true);
      expect(notices.at(-1)).toEqual({
        type: 'notify',
        intent: 'danger',
        message: 'E-mail subscriptions fetching error occurs. Please try again later.',
        timeout: 5000,
      });
    },
    clean: () => {
      expect(snapshot().matches({ editing: 'clean' })).toBe(true);
      expect(snapshot().context.draft).toEqual(stored);
      expect(snapshot().can({ type: 'editor.save' })).toBe(false);
    },
    dirty: () => {
      expect(snapshot().matches({ editing: 'dirty' })).toBe(true);
      expect(snapshot().context.draft).toEqual(draft);
      expect(snapshot().can({ type: 'editor.save' })).toBe(true);
    },
    saving: async () => {
      expect(snapshot().hasTag('saving')).toBe(true);
      const request = await net.pending('POST', PATH);
      expect(request.query.get('client_id')).toBe(String(CLIENT_ID));
      expect(request.query.get('void_email')).toBe(String(draft.voidEmail));
      expect(request.query.get('summary_email')).toBe(String(draft.summaryEmail));
      expect(request.body).toBeUndefined();
    },
    saved: () => {
      expect(snapshot().matches('saved')).toBe(true);
      expect(snapshot().context.baseline).toEqual(stored);
      expect(notices.at(-1)).toEqual({
        type: 'notify',
        intent: 'success',
        message: 'Save Successfully.',
        timeout: 5000,
      });
    },
    failed: () => {
      expect(snapshot().matches('failed')).toBe(true);
      expect(snapshot().context.draft).toEqual(draft);
      expect(notices.at(-1)).toEqual({ type: 'notify', intent: 'danger', message: 'Save Failed.', timeout: 5000 });
    },
  },
  events: {
    resolveLoad: async () => {
      await net.answer('GET', PATH, 200, {
        list: [
          { client_id: CLIENT_ID, email: 'alice@mall.example', email_subscribe: true, summary_email_subscribe: false },
        ],
      });
    },
    rejectLoad: async () => {
      await net.answer('GET', PATH, 500, errorBody(500, 'boom'));
    },
    retry: () => actor.send({ type: 'editor.retry' }),
    toggleVoid: () => {
      draft = { ...draft, voidEmail: !draft.voidEmail };
      actor.send({ type: 'editor.change', value: draft });
    },
    toggleSummary: () => {
      draft = { ...draft, summaryEmail: !draft.summaryEmail };
      actor.send({ type: 'editor.change', value: draft });
    },
    cancel: () => {
      draft = stored;
      actor.send({ type: 'editor.cancel' });
    },
    save: () => actor.send({ type: 'editor.save' }),
    resolveSave: async () => {
      stored = draft;
      await net.answer('POST', PATH, 200, {
        client_id: CLIENT_ID,
        email_subscribe: draft.voidEmail,
        summary_email_subscribe: draft.summaryEmail,
      });
    },
    rejectSave: async () => {
      await net.answer('POST', PATH, 500, errorBody(500, 'boom'));
    },
  },
};

describe('emailSubscriptionsMachine (model)', () => {
  beforeEach(() => start());
  describeModelCoverage(model, params, {
    states: ['loading', 'failure', 'clean', 'dirty', 'saving', 'saved', 'failed'],
    transitions: 12,
  });
});

describe('emailSubscriptionsMachine details', () => {
  beforeEach(() => start());

  it('shows both switches off for a user without a stored subscription', async () => {
    await net.answer('GET', PATH, 200, { list: [] });
    expect(snapshot().context.draft).toEqual({ clientId: CLIENT_ID, voidEmail: false, summaryEmail: false });
  });
});
