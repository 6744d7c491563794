import { assign, emit, fromPromise, raise, setup } from 'xstate';
import { type ApiClient, api } from '../api/client';
import { serverMessageWhen } from '../api/errors';
import {
  deleteReportSubscription,
  getReportSubscriptions,
  type ReportSubscription,
  type ReportSubscriptionList,
  sendReportSubscription,
} from '../api/reportSubscriptions';
import { loadFailureNotice, type Notice, TOAST_TIMEOUT } from '../domain/messages';
import { followHeaderFilters, type HeaderFiltersEvent } from './headerLink';

/**
 * The Subscriptions page (/shopper-connect/report-subscriptions, issue 34): the header's client's report
 * subscriptions with each one's last delivery, one deleted after a confirmation, one sent now. Changing one is the
 * subscribe dialog's (reportSubscriptionEditorMachine); the view tells this machine to read the list again after
 * a save (`list.refresh`).
 *
 *   list: waiting ── header.filters (a client) ─> loading ── done ─> loaded ; error ─> failed ── list.retry ─> loading
 *         loaded | failed ── list.refresh ─> loading ; another client ─> loading ; no client ─> waiting
 *   remove: idle ── remove.ask ─> confirming ── remove.confirm ─> working ─> idle (a toast, the list again)
 *           confirming ── remove.cancel ─> idle
 *   send: idle ── send.now ─> sending ─> idle (a toast: queued, or why not; the list again)
 */

export const SUBSCRIPTIONS_WHAT = 'Report subscriptions fetching';
export const SUBSCRIPTION_DELETED_MESSAGE = 'Subscription deleted.';
export const SUBSCRIPTION_DELETE_FAILED_MESSAGE = 'The subscription could not be deleted. Please try again later.';
export const SUBSCRIPTION_SENT_MESSAGE = 'Sending now: the mail goes out in a minute or two.';
export const SUBSCRIPTION_SEND_FAILED_MESSAGE = 'The subscription could not be sent. Please try again later.';

export interface ReportSubscriptionsContext {
  readonly clientId: number | undefined;
  readonly answer: ReportSubscriptionList | undefined;
  /** The subscription the delete dialog asks about. */
  readonly removing: ReportSubscription | undefined;
  /** The subscription being sent now. */
  readonly sending: ReportSubscription | undefined;
}

export type ReportSubscriptionsEvent =
  | HeaderFiltersEvent
  | { type: 'list.retry' }
  | { type: 'list.refresh' }
  | { type: 'remove.ask'; subscription: ReportSubscription }
  | { type: 'remove.confirm' }
  | { type: 'remove.cancel' }
  | { type: 'send.now'; subscription: ReportSubscription };

const notice = (intent: 'success' | 'danger', message: string): Notice => ({
  type: 'notify',
  intent,
  message,
  timeout: TOAST_TIMEOUT.long,
});

/** The reason of a refused call worth showing (no browser: 409; the job queue starting: 503; gone: 404). */
const refusalOf = (error: unknown): string | undefined =>
  serverMessageWhen(error, 409) ?? serverMessageWhen(error, 503) ?? serverMessageWhen(error, 404);

const clientOf = (event: ReportSubscriptionsEvent) =>
  event.type === 'header.filters' ? event.filters.clientId : undefined;

/** The page's machine; `client` replaces the app's API client (tests). */
export function createReportSubscriptionsMachine(client: ApiClient = api) {
  return setup({
    types: {
      context: {} as ReportSubscriptionsContext,
      events: {} as ReportSubscriptionsEvent,
      emitted: {} as Notice,
      tags: {} as 'loading',
    },
    actors: {
      followHeaderFilters,
      fetchList: fromPromise<ReportSubscriptionList, { clientId: number }>(({ input, signal }) =>
        getReportSubscriptions(input.clientId, { signal, client }),
      ),
      removeSubscription: fromPromise<ReportSubscription, ReportSubscription>(({ input, signal }) =>
        deleteReportSubscription(input.client_id, input.id, { signal, client }),
      ),
      sendNow: fromPromise<string, ReportSubscription>(({ input, signal }) =>
        sendReportSubscription(input.client_id, input.id, { signal, client }),
      ),
    },
    guards: {
      isSameClient: ({ context, event }) => clientOf(event) !== undefined && clientOf(event) === context.clientId,
      hasClient: ({ event }) => clientOf(event) !== undefined,
      hasClientNow: ({ context }) => context.clientId !== undefined,
    },
    actions: {
      setClient: assign(({ event }) => ({ clientId: clientOf(event), answer: undefined })),
      clearClient: assign({ clientId: undefined, answer: undefined }),
      setAnswer: assign((_, params: { answer: ReportSubscriptionList }) => ({ answer: params.answer })),
      setRemoving: assign(({ event }) => (event.type === 'remove.ask' ? { removing: event.subscription } : {})),
      clearRemoving: assign({ removing: undefined }),
      setSending: assign(({ event }) => (event.type === 'send.now' ? { sending: event.subscription } : {})),
      clearSending: assign({ sending: undefined }),
      refreshList: raise({ type: 'list.refresh' as const }),
      notifyLoadFailed: emit(loadFailureNotice(SUBSCRIPTIONS_WHAT)),
      notifyRemoved: emit(notice('success', SUBSCRIPTION_DELETED_MESSAGE)),
      notifyRemoveFailed: emit((_, params: { error: unknown }) =>
        notice('danger', refusalOf(params.error) ?? SUBSCRIPTION_DELETE_FAILED_MESSAGE),
      ),
      notifySent: emit(notice('success', SUBSCRIPTION_SENT_MESSAGE)),
      notifySendFailed: emit((_, params: { error: unknown }) =>
        notice('danger', refusalOf(params.error) ?? SUBSCRIPTION_SEND_FAILED_MESSAGE),
      ),
    },
  }).createMachine({
    id: 'reportSubscriptions',
    context: { clientId: undefined, answer: undefined, removing: undefined, sending: undefined },
    invoke: { src: 'followHeaderFilters' },
    type: 'parallel',
    states: {
      list: {
        on: {
          'header.filters': [
            { guard: 'isSameClient' },
            { guard: 'hasClient', target: '.loading', reenter: true, actions: 'setClient' },
            { target: '.waiting', actions: 'clearClient' },
          ],
        },
        initial: 'waiting',
        states: {
          /** No client chosen yet. */
          waiting: {},
          loading: {
            tags: ['loading'],
            invoke: {
              src: 'fetchList',
              input: ({ context }) => {
                if (context.clientId === undefined) throw new Error('subscriptions: loading without a client');
                return { clientId: context.clientId };
              },
              onDone: {
                target: 'loaded',
                actions: { type: 'setAnswer', params: ({ event }) => ({ answer: event.output }) },
              },
              onError: { target: 'failed', actions: 'notifyLoadFailed' },
            },
          },
          loaded: { on: { 'list.refresh': 'loading' } },
          failed: { on: { 'list.retry': 'loading', 'list.refresh': 'loading' } },
        },
      },
      remove: {
        initial: 'idle',
        states: {
          idle: { on: { 'remove.ask': { guard: 'hasClientNow', target: 'confirming', actions: 'setRemoving' } } },
          confirming: {
            on: {
              'remove.confirm': 'working',
              'remove.cancel': { target: 'idle', actions: 'clearRemoving' },
            },
          },
          working: {
            invoke: {
              src: 'removeSubscription',
              input: ({ context }) => {
                if (!context.removing) throw new Error('subscriptions: deleting nothing');
                return context.removing;
              },
              onDone: { target: 'idle', actions: ['notifyRemoved', 'clearRemoving', 'refreshList'] },
              onError: {
                target: 'idle',
                actions: [
                  { type: 'notifyRemoveFailed', params: ({ event }) => ({ error: event.error }) },
                  'clearRemoving',
                  'refreshList',
                ],
              },
            },
          },
        },
      },
      send: {
        initial: 'idle',
        states: {
          idle: { on: { 'send.now': { guard: 'hasClientNow', target: 'sending', actions: 'setSending' } } },
          sending: {
            invoke: {
              src: 'sendNow',
              input: ({ context }) => {
                if (!context.sending) throw new Error('subscriptions: sending nothing');
                return context.sending;
              },
              onDone: { target: 'idle', actions: ['notifySent', 'clearSending'] },
              onError: {
                target: 'idle',
                actions: [
                  { type: 'notifySendFailed', params: ({ event }) => ({ error: event.error }) },
                  'clearSending',
                ],
              },
            },
          },
        },
      },
    },
  });
}

/** The app's Subscriptions page machine. */
export const reportSubscriptionsMachine = createReportSubscriptionsMachine();
