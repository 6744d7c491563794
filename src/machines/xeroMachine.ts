import dayjs from 'dayjs';
import { and, assign, emit, enqueueActions, fromPromise, setup, stateIn } from 'xstate';
import {
  disconnectXero,
  getXeroInfo,
  postXeroDay,
  startXeroConnect,
  type XeroInfoResponse,
  type XeroPostingResult,
} from '../api/apps';
import { type ApiClient, api } from '../api/client';
import { ApiError } from '../api/errors';
import {
  addDays,
  isPostableDay,
  XERO_CONNECT_FAILED_MESSAGE,
  XERO_DISCONNECT_FAILED_MESSAGE,
  XERO_DISCONNECTED_MESSAGE,
  XERO_POST_FAILED_MESSAGE,
  XERO_WHAT,
  type XeroOutcome,
  xeroPostedMessage,
  xeroStatusOf,
} from '../domain/apps';
import { loadFailureNotice, type Notice, TOAST_TIMEOUT } from '../domain/messages';
import { followHeaderFilters, type HeaderFiltersEvent, lockHeader } from './headerLink';
import {
  areAccountsChosen,
  createXeroAccountsMachine,
  withAccounts,
  type XeroAccountsValue,
} from './xeroAccountsMachine';
import { createXeroPostingsMachine } from './xeroPostingsMachine';

/**
 * The Xero page (/apps/xero) of the header's client:
 *
 *   waiting ── header.filters (a client) ─> client; a new client enters `client` again
 *   client (parallel):
 *     connection: loading ─> ready | failure ── xero.retry ─> loading
 *       ready: notConnected | expired | connected (its `accounts` editor runs)
 *       ready ── xero.connect ─> connecting ─> leaving (the browser goes to Xero) | ready (toast)
 *       ready.connected | ready.expired ── xero.disconnect ─> confirmingDisconnect
 *         ── xero.disconnect.confirm ─> disconnecting ─> ready (toast) ; xero.disconnect.cancel ─> ready
 *     log: the posting log (`postings`, a paged list of the client)
 *     posting: idle ── posting.post (connected, accounts saved, a postable day) ─> posting ─> idle (toast, the log
 *       read again)
 *
 * - `outcome` is what Xero's callback told the page (`?xero=`), shown until `outcome.dismiss`.
 * - `posting.day` sets the day to post (default: yesterday); a day is postable before today and within 366 days.
 * - Toasts: 'Save Successfully.' / 'Save Failed.' (accounts), 'Disconnected from Xero.', the posting's count, and
 *   the server's reason when it refuses (400, 409, 502).
 */

export interface XeroPageInput {
  /** What Xero's callback told (`?xero=`), if the page was opened from it. */
  readonly outcome?: XeroOutcome | undefined;
  /** `YYYY-MM-DD`; default the browser's today. */
  readonly today?: string;
}

export interface XeroPageContext {
  readonly clientId: number | undefined;
  readonly today: string;
  readonly info: XeroInfoResponse | undefined;
  readonly outcome: XeroOutcome | undefined;
  /** The day to post, `YYYY-MM-DD`. */
  readonly day: string;
  readonly lastPosting: XeroPostingResult | undefined;
}

export type XeroPageEvent =
  | HeaderFiltersEvent
  | { type: 'xero.retry' }
  | { type: 'xero.connect' }
  | { type: 'xero.disconnect' }
  | { type: 'xero.disconnect.confirm' }
  | { type: 'xero.disconnect.cancel' }
  | { type: 'outcome.dismiss' }
  | { type: 'posting.day'; day: string }
  | { type: 'posting.post' }
  | { type: 'editor.saved' };

export type XeroPageTag = 'loading' | 'connecting' | 'disconnecting' | 'posting';

const notice = (intent: Notice['intent'], message: string): Notice => ({
  type: 'notify',
  intent,
  message,
  timeout: TOAST_TIMEOUT.long,
});

/** Whether the connection's sales, tax and clearing accounts are all saved: a day may be posted only then. */
export function hasChosenAccounts(info: XeroInfoResponse | undefined): boolean {
  const chosen = info?.xeroInfo;
  return (
    chosen !== null &&
    chosen !== undefined &&
    areAccountsChosen({
      salesAccount: chosen.sales_account ?? '',
      taxAccount: chosen.tax_account ?? '',
      clearingAccount: chosen.clearing_account ?? '',
    })
  );
}

/** The server's reason for a refusal worth showing as it is (a day not postable, not connected, Xero down). */
function refusalOf(error: unknown): string | undefined {
  return error instanceof ApiError && [400, 409, 502].includes(error.status) ? error.serverMessage : undefined;
}

const clientOf = (context: XeroPageContext): number => {
  if (context.clientId === undefined) throw new Error('xero: no client');
  return context.clientId;
};

export interface XeroMachineOptions {
  readonly client?: ApiClient;
}

export function createXeroMachine({ client = api }: XeroMachineOptions = {}) {
  return setup({
    types: {
      context: {} as XeroPageContext,
      events: {} as XeroPageEvent,
      input: {} as XeroPageInput | undefined,
      emitted: {} as Notice,
      tags: {} as XeroPageTag,
      children: {} as { accounts: 'accounts'; postings: 'postings' },
    },
    actors: {
      followHeaderFilters,
      lockHeader,
      accounts: createXeroAccountsMachine(client),
      postings: createXeroPostingsMachine(client),
      loadInfo: fromPromise<XeroInfoResponse, { clientId: number }>(({ input, signal }) =>
        getXeroInfo(input.clientId, { signal, client }),
      ),
      startConnect: fromPromise<string, { clientId: number }>(({ input, signal }) =>
        startXeroConnect(input.clientId, { signal, client }),
      ),
      disconnect: fromPromise<XeroInfoResponse, { clientId: number }>(({ input, signal }) =>
        disconnectXero(input.clientId, { signal, client }),
      ),
      postDay: fromPromise<XeroPostingResult, { clientId: number; day: string }>(({ input, signal }) =>
        postXeroDay({ client_id: input.clientId, day: input.day }, { signal, client }),
      ),
    },
    guards: {
      isNewClient: ({ context, event }) =>
        event.type === 'header.filters' &&
        event.filters.clientId !== undefined &&
        event.filters.clientId !== context.clientId,
      isNotConnected: ({ context }) => context.info === undefined || xeroStatusOf(context.info) === 'notConnected',
      isExpired: ({ context }) => context.info !== undefined && xeroStatusOf(context.info) === 'expired',
      hasAccounts: ({ context }) => hasChosenAccounts(context.info),
      isPostableDay: ({ context }) => isPostableDay(context.day, context.today),
    },
    actions: {
      setClient: assign(({ event }) =>
        event.type === 'header.filters'
          ? { clientId: event.filters.clientId, info: undefined, lastPosting: undefined }
          : {},
      ),
      setToday: assign(({ context, event }) => {
        if (event.type !== 'header.filters' || !event.today || event.today === context.today) return {};
        // A day left at its default follows the new today.
        const day = context.day === addDays(context.today, -1) ? addDays(event.today, -1) : context.day;
        return { today: event.today, day };
      }),
      setInfo: assign((_, params: { info: XeroInfoResponse }) => ({ info: params.info })),
      setSavedAccounts: assign(({ context, self }) => {
        const accounts = self.getSnapshot().children.accounts?.getSnapshot().context.baseline as
          | XeroAccountsValue
          | undefined;
        return accounts && context.info ? { info: withAccounts(context.info, accounts) } : {};
      }),
      setDay: assign(({ event }) => (event.type === 'posting.day' ? { day: event.day } : {})),
      setLastPosting: assign((_, params: { result: XeroPostingResult }) => ({ lastPosting: params.result })),
      resetOutcome: assign({ outcome: undefined }),
      notify: emit((_, params: { intent: Notice['intent']; message: string }) => notice(params.intent, params.message)),
      notifyLoadFailure: emit(loadFailureNotice(XERO_WHAT)),
      refreshLog: enqueueActions(({ enqueue, self }) => {
        const postings = self.getSnapshot().children.postings;
        if (postings) enqueue.sendTo(postings, { type: 'list.refresh' });
      }),
      /** Leaves the app for Xero's sign-in and consent page (overridden in tests). */
      navigateTo: (_, params: { url: string }) => {
        window.location.assign(params.url);
      },
    },
  }).createMachine({
    id: 'xero',
    context: ({ input }) => {
      const today = input?.today ?? dayjs().format('YYYY-MM-DD');
      return {
        clientId: undefined,
        today,
        info: undefined,
        outcome: input?.outcome,
        day: addDays(today, -1),
        lastPosting: undefined,
      };
    },
    invoke: { src: 'followHeaderFilters' },
    on: {
      'header.filters': [
        { guard: 'isNewClient', target: '.client', reenter: true, actions: ['setToday', 'setClient'] },
        { actions: 'setToday' },
      ],
      'outcome.dismiss': { actions: 'resetOutcome' },
      'posting.day': { actions: 'setDay' },
    },
    initial: 'waiting',
    states: {
      /** No client chosen yet. */
      waiting: {},
      client: {
        type: 'parallel',
        states: {
          connection: {
            initial: 'loading',
            states: {
              loading: {
                tags: ['loading'],
                invoke: [
                  { src: 'lockHeader' },
                  {
                    src: 'loadInfo',
                    input: ({ context }) => ({ clientId: clientOf(context) }),
                    onDone: {
                      target: 'ready',
                      actions: { type: 'setInfo', params: ({ event }) => ({ info: event.output }) },
                    },
                    onError: { target: 'failure', actions: 'notifyLoadFailure' },
                  },
                ],
              },
              failure: { on: { 'xero.retry': 'loading' } },
              ready: {
                initial: 'deciding',
                on: { 'xero.connect': 'connecting' },
                states: {
                  deciding: {
                    always: [
                      { guard: 'isNotConnected', target: 'notConnected' },
                      { guard: 'isExpired', target: 'expired' },
                      { target: 'connected' },
                    ],
                  },
                  notConnected: {},
                  expired: { on: { 'xero.disconnect': '#xero.client.connection.confirmingDisconnect' } },
                  connected: {
                    invoke: {
                      id: 'accounts',
                      src: 'accounts',
                      input: ({ context }) => {
                        const info = context.info?.xeroInfo;
                        if (!info) throw new Error('xero: connected without info');
                        return { clientId: clientOf(context), info };
                      },
                    },
                    on: {
                      'xero.disconnect': '#xero.client.connection.confirmingDisconnect',
                      'editor.saved': { actions: 'setSavedAccounts' },
                    },
                  },
                },
              },
              connecting: {
                tags: ['connecting'],
                invoke: {
                  src: 'startConnect',
                  input: ({ context }) => ({ clientId: clientOf(context) }),
                  onDone: {
                    target: 'leaving',
                    actions: { type: 'navigateTo', params: ({ event }) => ({ url: event.output }) },
                  },
                  onError: {
                    target: 'ready',
                    actions: {
                      type: 'notify',
                      params: ({ event }) => ({
                        intent: 'danger',
                        message: refusalOf(event.error) ?? XERO_CONNECT_FAILED_MESSAGE,
                      }),
                    },
                  },
                },
              },
              /** The browser is on its way to Xero. */
              leaving: { tags: ['connecting'] },
              confirmingDisconnect: {
                on: { 'xero.disconnect.confirm': 'disconnecting', 'xero.disconnect.cancel': 'ready' },
              },
              disconnecting: {
                tags: ['disconnecting'],
                invoke: {
                  src: 'disconnect',
                  input: ({ context }) => ({ clientId: clientOf(context) }),
                  onDone: {
                    target: 'ready',
                    actions: [
                      { type: 'setInfo', params: ({ event }) => ({ info: event.output }) },
                      { type: 'notify', params: { intent: 'success', message: XERO_DISCONNECTED_MESSAGE } },
                    ],
                  },
                  onError: {
                    target: 'ready',
                    actions: { type: 'notify', params: { intent: 'danger', message: XERO_DISCONNECT_FAILED_MESSAGE } },
                  },
                },
              },
            },
          },
          log: {
            invoke: {
              id: 'postings',
              src: 'postings',
              input: ({ context }) => ({ filters: { clientId: clientOf(context) } }),
            },
          },
          posting: {
            initial: 'idle',
            states: {
              idle: {
                on: {
                  'posting.post': {
                    guard: and([
                      stateIn({ client: { connection: { ready: 'connected' } } }),
                      'hasAccounts',
                      'isPostableDay',
                    ]),
                    target: 'posting',
                  },
                },
              },
              posting: {
                tags: ['posting'],
                invoke: {
                  src: 'postDay',
                  input: ({ context }) => ({ clientId: clientOf(context), day: context.day }),
                  onDone: {
                    target: 'idle',
                    actions: [
                      { type: 'setLastPosting', params: ({ event }) => ({ result: event.output }) },
                      {
                        type: 'notify',
                        params: ({ event }) => ({
                          intent: 'success',
                          message: xeroPostedMessage(event.output.day, event.output.postedNow),
                        }),
                      },
                      'refreshLog',
                    ],
                  },
                  onError: {
                    target: 'idle',
                    actions: {
                      type: 'notify',
                      params: ({ event }) => ({
                        intent: 'danger',
                        message: refusalOf(event.error) ?? XERO_POST_FAILED_MESSAGE,
                      }),
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  });
}

/** The app's Xero page machine. */
export const xeroMachine = createXeroMachine();
