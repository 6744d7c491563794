import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import type { ApiClient } from '../api/client';
import { type DataFeedReport, getDataFeeds, mayEditFeedAlertSettings } from '../api/dataFeeds';
import {
  DATA_FEEDS_WHAT,
  type DataFeedsTarget,
  DEFAULT_FEED_SORT,
  dataFeedsTargetOf,
  type FeedFilter,
  type FeedSort,
  type FeedSortColumn,
  nextFeedSort,
  sameDataFeedsTarget,
} from '../domain/dataFeeds';
import { loadFailureNotice, type Notice } from '../domain/messages';
import { feedRulesMachine } from './feedRulesMachine';
import { followHeaderFilters, type HeaderFiltersEvent, lockHeader } from './headerLink';

/**
 * The Data Feeds page (/shopper-connect/data-feeds, issue 34): for the mall header's client and malls, whether each
 * outlet is sending receipts, read whole and shown by state and in the order chosen on the page.
 *
 *   idle (no client or malls) ── header.filters ─> loading ── done ─> loaded | empty (no outlet)
 *                                                          └ error ─> failure ── feeds.retry ─> loading
 *   loaded | empty ── feeds.refresh ─> loading; other malls ─> loading (the pending call aborted); none ─> idle
 *
 * `feeds.filter` (all, or a state) and `feeds.sort` (a column: the same one turns around, a new one sorts
 * descending first) hold in every state and survive a reload. While loading the header is disabled (tag
 * 'loading'); a failure toasts 'Data feeds error occurs. Please try again later.'.
 *
 * The client's feed and unusual-day rules in a dialog (child `rules`, feedRulesMachine), for a user who may set them:
 * rules.open (a client shown, no dialog yet) ─> the dialog; rules.close ─> closed; editor.saved ─> closed, and the
 * feeds read again (an outlet is silent after the new minutes); another client ─> closed.
 */

export interface DataFeedsContext {
  readonly target: DataFeedsTarget | undefined;
  readonly answer: DataFeedReport | undefined;
  readonly filter: FeedFilter;
  readonly sort: FeedSort;
  /** Whether the user may set the client's feed and unusual-day rules (the permission gate's check, when the page started). */
  readonly mayEditRules: boolean;
  /** Whether the rules dialog (child `rules`) runs. */
  readonly rulesOpen: boolean;
}

export type DataFeedsEvent =
  | HeaderFiltersEvent
  | { type: 'feeds.retry' }
  | { type: 'feeds.refresh' }
  | { type: 'feeds.filter'; filter: FeedFilter }
  | { type: 'feeds.sort'; column: FeedSortColumn }
  | { type: 'rules.open' }
  | { type: 'rules.close' }
  /** From the rules dialog: its draft is saved. */
  | { type: 'editor.saved' };

/** The outlets' feeds of the target's malls. */
export function loadDataFeeds(
  target: DataFeedsTarget,
  { signal, client }: { readonly signal: AbortSignal; readonly client?: ApiClient },
): Promise<DataFeedReport> {
  return getDataFeeds(
    { client_id: target.clientId, mall_ids: [...target.mallIds] },
    { signal, ...(client ? { client } : {}) },
  );
}

export const dataFeedsMachine = setup({
  types: {
    context: {} as DataFeedsContext,
    events: {} as DataFeedsEvent,
    emitted: {} as Notice,
    tags: {} as 'loading',
    children: {} as { rules: 'feedRules' },
  },
  actors: {
    followHeaderFilters,
    feedRules: feedRulesMachine,
    lockHeader,
    fetchFeeds: fromPromise<DataFeedReport, DataFeedsTarget>(({ input, signal }) => loadDataFeeds(input, { signal })),
  },
  guards: {
    isSameTarget: ({ context, event }) =>
      event.type === 'header.filters' && sameDataFeedsTarget(context.target, dataFeedsTargetOf(event.filters)),
    hasTarget: ({ event }) => event.type === 'header.filters' && dataFeedsTargetOf(event.filters) !== undefined,
    isEmptyAnswer: (_, params: { answer: DataFeedReport }) => params.answer.rows.length === 0,
    canOpenRules: ({ context }) => context.mayEditRules && context.target !== undefined && !context.rulesOpen,
    /** A client to show, another than the one shown (the dialog's rules are of that one). */
    isOtherClient: ({ context, event }) => {
      if (event.type !== 'header.filters') return false;
      const next = dataFeedsTargetOf(event.filters);
      return next !== undefined && next.clientId !== context.target?.clientId;
    },
  },
  actions: {
    setTarget: assign(({ event }) =>
      event.type === 'header.filters' ? { target: dataFeedsTargetOf(event.filters) } : {},
    ),
    setAnswer: assign((_, params: { answer: DataFeedReport }) => ({ answer: params.answer })),
    resetAnswer: assign({ answer: undefined }),
    resetTarget: assign({ target: undefined, answer: undefined }),
    setFilter: assign(({ event }) => (event.type === 'feeds.filter' ? { filter: event.filter } : {})),
    setSort: assign(({ context, event }) =>
      event.type === 'feeds.sort' ? { sort: nextFeedSort(context.sort, event.column) } : {},
    ),
    notifyFailure: emit(loadFailureNotice(DATA_FEEDS_WHAT)),
    openRules: enqueueActions(({ context, enqueue }) => {
      if (!context.target) return;
      enqueue.spawnChild('feedRules', { id: 'rules', input: { clientId: context.target.clientId } });
      enqueue.assign({ rulesOpen: true });
    }),
    closeRules: enqueueActions(({ context, enqueue }) => {
      if (!context.rulesOpen) return;
      enqueue.stopChild('rules');
      enqueue.assign({ rulesOpen: false });
    }),
  },
}).createMachine({
  id: 'dataFeeds',
  context: () => ({
    target: undefined,
    answer: undefined,
    filter: 'all',
    sort: DEFAULT_FEED_SORT,
    mayEditRules: mayEditFeedAlertSettings(),
    rulesOpen: false,
  }),
  invoke: { src: 'followHeaderFilters' },
  on: {
    'header.filters': [
      { guard: 'isSameTarget' },
      { guard: 'isOtherClient', target: '.loading', reenter: true, actions: ['closeRules', 'setTarget'] },
      { guard: 'hasTarget', target: '.loading', reenter: true, actions: 'setTarget' },
      { target: '.idle', actions: ['closeRules', 'resetTarget'] },
    ],
    'feeds.filter': { actions: 'setFilter' },
    'feeds.sort': { actions: 'setSort' },
    'rules.open': { guard: 'canOpenRules', actions: 'openRules' },
    'rules.close': { actions: 'closeRules' },
    'editor.saved': { target: '.loading', reenter: true, actions: 'closeRules' },
  },
  initial: 'idle',
  states: {
    /** No client or no malls chosen yet. */
    idle: {},
    loading: {
      tags: ['loading'],
      entry: 'resetAnswer',
      invoke: [
        { src: 'lockHeader' },
        {
          src: 'fetchFeeds',
          input: ({ context }) => {
            if (!context.target) throw new Error('data feeds: loading without a client and malls');
            return context.target;
          },
          onDone: [
            {
              guard: { type: 'isEmptyAnswer', params: ({ event }) => ({ answer: event.output }) },
              target: 'empty',
              actions: { type: 'setAnswer', params: ({ event }) => ({ answer: event.output }) },
            },
            { target: 'loaded', actions: { type: 'setAnswer', params: ({ event }) => ({ answer: event.output }) } },
          ],
          onError: { target: 'failure', actions: 'notifyFailure' },
        },
      ],
    },
    /** Every outlet's feed. */
    loaded: { on: { 'feeds.refresh': { target: 'loading' } } },
    /** The malls have no outlet the caller sees: 'No Data'. */
    empty: { on: { 'feeds.refresh': { target: 'loading' } } },
    /** The feeds could not be read: the toast, and a retry. */
    failure: { on: { 'feeds.retry': { target: 'loading' } } },
  },
});
