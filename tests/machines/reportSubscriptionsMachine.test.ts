import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor, fromCallback, type SnapshotFrom, setup } from 'xstate';
import { createApiClient } from '../../src/api/client';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import type { Notice } from '../../src/domain/messages';
import type { HeaderFiltersEvent } from '../../src/machines/headerLink';
import {
  createReportSubscriptionsMachine,
  SUBSCRIPTION_DELETED_MESSAGE,
  SUBSCRIPTION_SENT_MESSAGE,
} from '../../src/machines/reportSubscriptionsMachine';
import { installPendingFetch, jsonResponse, type PendingCall } from '../support/pendingFetch';
import {
  NO_BROWSER_MESSAGE,
  RENDERING_ON,
  SUBSCRIPTION,
  SUBSCRIPTION_PERMISSIONS,
} from '../support/reportSubscriptions';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the Subscriptions page's machine with the app's api wrappers on a client whose network the test
 * answers: the header's client's list (loaded, failed with a retry, read again on refresh; nothing without a
 * client), a subscription deleted after a confirmation (the list read again) and one sent now (its toast, or the
 * server's reason when no browser can render it).
 */

const ERROR_TEXT = 'Report subscriptions fetching error occurs. Please try again later.';
const SERVER_ERROR = { statusCode: 500, error: 'Internal Server Error', message: 'boom' };
const LIST = { data: [SUBSCRIPTION], rendering: RENDERING_ON };

const FILTERS: CommittedFilters = {
  clientId: 1,
  mallIds: [1],
  outlet: undefined,
  dateRange: { start: '2026-03-05', end: '2026-03-11' },
  hours: { from: 0, to: 23 },
  timeRange: 'daily',
  metric: 'gmv',
  month: undefined,
};
const headerEvent = (clientId: number | undefined): HeaderFiltersEvent => ({
  type: 'header.filters',
  filters: { ...FILTERS, clientId },
  outlets: [],
});

let calls: PendingCall[];
let notices: Notice[];
let actor: Actor<typeof testMachine>;

const client = createApiClient((request) => globalThis.fetch(request), { baseUrl: 'http://subscriptions.test' });
const testMachine = createReportSubscriptionsMachine(client).provide({
  actors: { followHeaderFilters: fromCallback(() => undefined) },
});

const flush = async () => {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
};

async function answerLast(status: number, body: unknown): Promise<void> {
  const call = calls.filter((each) => !each.settled).at(-1);
  if (!call) throw new Error('nothing was asked');
  call.settled = true;
  call.answer.resolve(jsonResponse(status, body));
  await flush();
}

type ModelEvent =
  | { type: 'header' }
  | { type: 'noClient' }
  | { type: 'answer' }
  | { type: 'fail' }
  | { type: 'retry' }
  | { type: 'refresh' }
  | { type: 'ask' }
  | { type: 'cancel' }
  | { type: 'confirm' }
  | { type: 'deleted' }
  | { type: 'send' }
  | { type: 'sent' }
  | { type: 'sendRefused' };

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'reportSubscriptionsModel',
    initial: 'waiting',
    states: {
      waiting: { on: { header: 'loading' } },
      loading: { on: { answer: 'loaded', fail: 'failed' } },
      failed: { on: { retry: 'loading', noClient: 'waiting' } },
      loaded: { on: { refresh: 'loading', ask: 'confirming', send: 'sending', noClient: 'waiting' } },
      confirming: { on: { cancel: 'loaded', confirm: 'deleting' } },
      deleting: { on: { deleted: 'loading' } },
      sending: { on: { sent: 'loaded', sendRefused: 'loaded' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    waiting: () => {
      expect(actor.getSnapshot().matches({ list: 'waiting' })).toBe(true);
      expect(actor.getSnapshot().context).toMatchObject({ clientId: undefined, answer: undefined });
    },
    loading: () => {
      expect(actor.getSnapshot().hasTag('loading')).toBe(true);
      const call = calls.at(-1);
      expect(`${call?.method} ${call?.url.pathname}${call?.url.search}`).toBe(
        'GET /api/reportSubscriptions?client_id=1',
      );
    },
    failed: () => {
      expect(actor.getSnapshot().matches({ list: 'failed' })).toBe(true);
      expect(notices.at(-1)).toEqual({ type: 'notify', intent: 'danger', message: ERROR_TEXT, timeout: 5000 });
    },
    loaded: () => {
      expect(actor.getSnapshot().matches({ list: 'loaded', remove: 'idle', send: 'idle' })).toBe(true);
      expect(actor.getSnapshot().context.answer).toEqual(LIST);
      expect(actor.getSnapshot().context).toMatchObject({ removing: undefined, sending: undefined });
    },
    confirming: () => {
      expect(actor.getSnapshot().matches({ remove: 'confirming' })).toBe(true);
      expect(actor.getSnapshot().context.removing).toEqual(SUBSCRIPTION);
    },
    deleting: () => {
      expect(actor.getSnapshot().matches({ remove: 'working' })).toBe(true);
      const call = calls.at(-1);
      expect(`${call?.method} ${call?.url.pathname}${call?.url.search}`).toBe(
        'DELETE /api/reportSubscriptions?client_id=1&id=7',
      );
    },
    sending: () => {
      expect(actor.getSnapshot().matches({ send: 'sending' })).toBe(true);
      const call = calls.at(-1);
      expect(`${call?.method} ${call?.url.pathname}`).toBe('POST /api/reportSubscriptions/send');
      expect(call?.body).toEqual({ client_id: 1, id: 7 });
    },
  },
  events: {
    header: async () => {
      actor.send(headerEvent(1));
      // The same client again asks nothing more.
      actor.send(headerEvent(1));
      await flush();
    },
    noClient: async () => {
      actor.send(headerEvent(undefined));
      await flush();
    },
    answer: () => answerLast(200, LIST),
    fail: () => answerLast(500, SERVER_ERROR),
    retry: async () => {
      actor.send({ type: 'list.retry' });
      await flush();
    },
    refresh: async () => {
      actor.send({ type: 'list.refresh' });
      await flush();
    },
    ask: () => {
      actor.send({ type: 'remove.ask', subscription: SUBSCRIPTION });
    },
    cancel: () => {
      actor.send({ type: 'remove.cancel' });
    },
    confirm: async () => {
      actor.send({ type: 'remove.confirm' });
      await flush();
    },
    deleted: async () => {
      await answerLast(200, SUBSCRIPTION);
      expect(notices.at(-1)).toMatchObject({ intent: 'success', message: SUBSCRIPTION_DELETED_MESSAGE });
    },
    send: async () => {
      actor.send({ type: 'send.now', subscription: SUBSCRIPTION });
      await flush();
    },
    sent: async () => {
      await answerLast(200, { period_key: 'now:2026-03-10T01:00:00.000Z' });
      expect(notices.at(-1)).toMatchObject({ intent: 'success', message: SUBSCRIPTION_SENT_MESSAGE });
    },
    sendRefused: async () => {
      await answerLast(409, { statusCode: 409, error: 'Conflict', message: NO_BROWSER_MESSAGE });
      expect(notices.at(-1)).toMatchObject({ intent: 'danger', message: NO_BROWSER_MESSAGE });
    },
  },
};

function startActor() {
  calls = installPendingFetch();
  setPermissionsList(SUBSCRIPTION_PERMISSIONS);
  notices = [];
  actor = createActor(testMachine);
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
}

function stopActor() {
  actor.stop();
  vi.unstubAllGlobals();
  clearSession();
}

describe('reportSubscriptionsMachine (model)', () => {
  beforeEach(startActor);
  afterEach(stopActor);
  describeModelCoverage(model, params, {
    states: ['waiting', 'loading', 'failed', 'loaded', 'confirming', 'deleting', 'sending'],
    transitions: 14,
  });
});

describe('reportSubscriptionsMachine details', () => {
  beforeEach(startActor);
  afterEach(stopActor);

  it('asks nothing without a client, and deletes or sends nothing before one', async () => {
    actor.send(headerEvent(undefined));
    actor.send({ type: 'remove.ask', subscription: SUBSCRIPTION });
    actor.send({ type: 'send.now', subscription: SUBSCRIPTION });
    await flush();
    expect(calls).toEqual([]);
  });

  it('reads the list again after a failed delete, with the server reason', async () => {
    actor.send(headerEvent(1));
    await flush();
    await answerLast(200, LIST);
    actor.send({ type: 'remove.ask', subscription: SUBSCRIPTION });
    actor.send({ type: 'remove.confirm' });
    await flush();
    await answerLast(404, { statusCode: 404, error: 'Not Found', message: 'There is no such subscription.' });
    expect(notices.at(-1)).toMatchObject({ intent: 'danger', message: 'There is no such subscription.' });
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
  });
});
