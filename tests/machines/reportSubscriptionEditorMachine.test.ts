import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor, type SnapshotFrom, setup } from 'xstate';
import { createApiClient } from '../../src/api/client';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { Notice } from '../../src/domain/messages';
import {
  createSubscriptionEditorMachine,
  SUBSCRIPTION_OPTIONS_ERROR,
  type SubscriptionSaved,
} from '../../src/machines/reportSubscriptionEditorMachine';
import { installPendingFetch, jsonResponse, type PendingCall } from '../support/pendingFetch';
import {
  MALL_HOME_TARGET,
  NO_BROWSER_MESSAGE,
  RECIPIENTS,
  RENDERING_OFF,
  RENDERING_ON,
  SUBSCRIPTION,
  SUBSCRIPTION_PERMISSIONS,
} from '../support/reportSubscriptions';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the subscribe dialog's machine with the app's api wrappers on a client whose network the test
 * answers. Opened on Mall Home, it reads the recipients and whether PDFs can be rendered; the operator is chosen as
 * recipient and the subscription saved. A server without a browser (said by the list, or by a 409 on save) leaves
 * the dialog open saying so, with no save; a refused body shows the server's reason; a failed read offers a retry.
 */

const SERVER_ERROR = { statusCode: 500, error: 'Internal Server Error', message: 'boom' };
const BAD_REQUEST = { statusCode: 400, error: 'Bad Request', message: 'body/name must not be blank.' };

let calls: PendingCall[];
let notices: Notice[];
let saved: SubscriptionSaved[];
let actor: Actor<ReturnType<typeof createSubscriptionEditorMachine>>;

const client = createApiClient((request) => globalThis.fetch(request), { baseUrl: 'http://subscriptions.test' });
const machine = createSubscriptionEditorMachine(client, () => true);

const flush = async () => {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
};

/** Answers every pending call of `path` (its pathname) with `status` and `body`. */
async function answer(path: string, status: number, body: unknown): Promise<void> {
  const pending = calls.filter((call) => !call.settled && call.url.pathname === path);
  if (pending.length === 0) throw new Error(`nothing asked of ${path}`);
  for (const call of pending) {
    call.settled = true;
    call.answer.resolve(jsonResponse(status, body));
  }
  await flush();
}

async function answerOptions(rendering: typeof RENDERING_ON): Promise<void> {
  await answer('/api/reportSubscriptions/recipients', 200, { data: RECIPIENTS });
  await answer('/api/reportSubscriptions', 200, { data: [], rendering });
}

type ModelEvent =
  | { type: 'open' }
  | { type: 'options' }
  | { type: 'optionsOffline' }
  | { type: 'fail' }
  | { type: 'retry' }
  | { type: 'save' }
  | { type: 'saved' }
  | { type: 'refusedNoBrowser' }
  | { type: 'refusedBody' }
  | { type: 'cancel' };

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'subscriptionEditorModel',
    initial: 'closed',
    states: {
      closed: { on: { open: 'loading' } },
      loading: { on: { options: 'editing', optionsOffline: 'offline', fail: 'failed', cancel: 'closed' } },
      failed: { on: { retry: 'loading', cancel: 'closed' } },
      editing: { on: { save: 'saving', cancel: 'closed' } },
      saving: { on: { saved: 'closed', refusedNoBrowser: 'offline', refusedBody: 'refused' } },
      refused: { on: { save: 'saving', cancel: 'closed' } },
      offline: { on: { cancel: 'closed' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

const expectEditing = () => {
  const snapshot = actor.getSnapshot();
  expect(snapshot.matches('editing')).toBe(true);
  expect(snapshot.context.recipients).toEqual(RECIPIENTS);
  expect(snapshot.context.draft).toMatchObject({ name: 'Mall Home', formats: ['pdf', 'workbook'], recipientIds: [2] });
  expect(snapshot.can({ type: 'subscribe.save' })).toBe(true);
};

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    closed: () => {
      expect(actor.getSnapshot().matches('closed')).toBe(true);
      expect(actor.getSnapshot().context).toMatchObject({ target: undefined, draft: undefined, error: undefined });
    },
    loading: () => {
      expect(actor.getSnapshot().matches('loading')).toBe(true);
      const pending = calls.filter((call) => !call.settled).map((call) => `${call.url.pathname}${call.url.search}`);
      expect(pending.sort()).toEqual([
        '/api/reportSubscriptions/recipients?client_id=1',
        '/api/reportSubscriptions?client_id=1',
      ]);
    },
    failed: () => {
      expect(actor.getSnapshot().matches('failed')).toBe(true);
      expect(notices.at(-1)).toMatchObject({ intent: 'danger', message: SUBSCRIPTION_OPTIONS_ERROR });
    },
    editing: expectEditing,
    saving: () => {
      expect(actor.getSnapshot().matches('saving')).toBe(true);
      const call = calls.at(-1);
      expect(call?.method).toBe('POST');
      expect(call?.url.pathname).toBe('/api/reportSubscriptions');
      expect(call?.body).toEqual({
        client_id: 1,
        name: 'Mall Home',
        page_path: '/shopper-connect/mall-home',
        filters: MALL_HOME_TARGET.filters,
        formats: ['pdf', 'workbook'],
        frequency: 'daily',
        weekday: null,
        month_day: null,
        hour: 8,
        recipient_ids: [2],
        active: true,
      });
    },
    refused: () => {
      expect(actor.getSnapshot().matches('editing')).toBe(true);
      expect(actor.getSnapshot().context.error).toBe(BAD_REQUEST.message);
      expect(notices.at(-1)).toMatchObject({ intent: 'danger', message: 'Save Failed.' });
      expect(actor.getSnapshot().can({ type: 'subscribe.save' })).toBe(true);
    },
    offline: () => {
      expect(actor.getSnapshot().matches('editing')).toBe(true);
      expect(actor.getSnapshot().context.rendering).toEqual(RENDERING_OFF);
      expect(actor.getSnapshot().can({ type: 'subscribe.save' })).toBe(false);
    },
  },
  events: {
    open: async () => {
      actor.send({ type: 'subscribe.open', target: MALL_HOME_TARGET });
      await flush();
    },
    options: async () => {
      await answerOptions(RENDERING_ON);
      actor.send({ type: 'subscribe.change', change: { recipientIds: [2] } });
    },
    optionsOffline: async () => {
      await answerOptions(RENDERING_OFF);
      actor.send({ type: 'subscribe.change', change: { recipientIds: [2] } });
    },
    fail: async () => {
      await answer('/api/reportSubscriptions/recipients', 500, SERVER_ERROR);
      // The list's call is aborted with the failed read.
      for (const call of calls) call.settled = true;
    },
    retry: async () => {
      actor.send({ type: 'subscribe.retry' });
      await flush();
    },
    save: async () => {
      actor.send({ type: 'subscribe.save' });
      await flush();
    },
    saved: async () => {
      await answer('/api/reportSubscriptions', 200, { ...SUBSCRIPTION, id: 9 });
      expect(notices.at(-1)).toMatchObject({ intent: 'success', message: 'Save Successfully.' });
      expect(saved.at(-1)?.subscription.id).toBe(9);
    },
    refusedNoBrowser: () =>
      answer('/api/reportSubscriptions', 409, { statusCode: 409, error: 'Conflict', message: NO_BROWSER_MESSAGE }),
    refusedBody: () => answer('/api/reportSubscriptions', 400, BAD_REQUEST),
    cancel: async () => {
      actor.send({ type: 'subscribe.cancel' });
      await flush();
    },
  },
};

function startActor() {
  calls = installPendingFetch();
  setPermissionsList(SUBSCRIPTION_PERMISSIONS);
  notices = [];
  saved = [];
  actor = createActor(machine);
  actor.on('notify', (notice) => notices.push(notice));
  actor.on('subscription.saved', (event) => saved.push(event));
  actor.start();
}

function stopActor() {
  actor.stop();
  vi.unstubAllGlobals();
  clearSession();
}

describe('subscriptionEditorMachine (model)', () => {
  beforeEach(startActor);
  afterEach(stopActor);
  describeModelCoverage(model, params, {
    states: ['closed', 'loading', 'failed', 'editing', 'saving', 'refused', 'offline'],
    transitions: 15,
  });
});

describe('subscriptionEditorMachine details', () => {
  beforeEach(startActor);
  afterEach(stopActor);

  it('opens nothing for a user who may not make subscriptions', async () => {
    const gated = createActor(createSubscriptionEditorMachine(client, () => false)).start();
    expect(gated.getSnapshot().context.mayCreate).toBe(false);
    gated.send({ type: 'subscribe.open', target: MALL_HOME_TARGET });
    await flush();
    expect(gated.getSnapshot().matches('closed')).toBe(true);
    expect(calls).toEqual([]);
    gated.stop();
  });

  it('changes a subscription with PUT ?id=, its schedule sent only for its frequency', async () => {
    actor.send({ type: 'subscribe.open', target: MALL_HOME_TARGET, subscription: SUBSCRIPTION });
    await flush();
    await answerOptions(RENDERING_ON);
    expect(actor.getSnapshot().context.draft).toMatchObject({ frequency: 'weekly', weekday: 1, recipientIds: [2] });
    actor.send({ type: 'subscribe.change', change: { frequency: 'monthly', monthDay: 15, hour: 6 } });
    actor.send({ type: 'subscribe.save' });
    await flush();
    const call = calls.at(-1);
    expect(call?.method).toBe('PUT');
    expect(`${call?.url.pathname}${call?.url.search}`).toBe('/api/reportSubscriptions?id=7');
    expect(call?.body).toMatchObject({ frequency: 'monthly', weekday: null, month_day: 15, hour: 6 });
  });

  it('saves nothing without a recipient or a format', async () => {
    actor.send({ type: 'subscribe.open', target: MALL_HOME_TARGET });
    await flush();
    await answerOptions(RENDERING_ON);
    expect(actor.getSnapshot().can({ type: 'subscribe.save' })).toBe(false);
    actor.send({ type: 'subscribe.change', change: { recipientIds: [5], formats: [] } });
    expect(actor.getSnapshot().can({ type: 'subscribe.save' })).toBe(false);
    actor.send({ type: 'subscribe.change', change: { formats: ['pdf'] } });
    expect(actor.getSnapshot().can({ type: 'subscribe.save' })).toBe(true);
  });
});
