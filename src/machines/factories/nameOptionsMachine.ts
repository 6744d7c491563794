import { assign, emit, fromPromise, setup } from 'xstate';
import { loadFailureNotice, type Notice } from '../../domain/messages';
import { appendOptions, hasMoreOptions } from '../../domain/settings';

/**
 * A name-option list read 20 a page (§4, §9): the first page when it opens, the next while the last had 20, a new
 * search from page 1. What it lists within (a client, its malls) is its scope, told by the page that uses it.
 *
 *   idle ── options.scope ─> idle (nothing read until opened)
 *   idle ── options.open ─> loading (page 1) ─> ready | failure
 *   ready ── options.more (the last page had 20) ─> loading (next page) ;  options.search ─> loading (page 1)
 *   loading ── options.search | options.scope ─> loading again (the pending call aborted)
 *   failure ── options.retry ─> loading ;  options.scope ─> idle
 */

export interface NameOptionLike {
  readonly id: number;
  readonly name: string;
}

export interface NameOptionsQuery<TScope> {
  readonly scope: TScope;
  readonly search: string;
  readonly page: number;
}

export interface NameOptionsContext<TScope, TOption extends NameOptionLike> {
  readonly scope: TScope | undefined;
  readonly search: string;
  readonly page: number;
  readonly options: readonly TOption[];
  readonly more: boolean;
}

export type NameOptionsEvent<TScope> =
  | { type: 'options.scope'; scope: TScope }
  | { type: 'options.open' }
  | { type: 'options.more' }
  | { type: 'options.search'; text: string }
  | { type: 'options.retry' };

export function createNameOptionsMachine<TScope, TOption extends NameOptionLike>(options: {
  readonly id: string;
  /** The '{what}' of the failure toast. */
  readonly what: string;
  readonly load: (query: NameOptionsQuery<TScope>, signal: AbortSignal) => Promise<readonly TOption[]>;
}) {
  return setup({
    types: {
      context: {} as NameOptionsContext<TScope, TOption>,
      events: {} as NameOptionsEvent<TScope>,
      emitted: {} as Notice,
    },
    actors: {
      loadPage: fromPromise<readonly TOption[], NameOptionsQuery<TScope>>(({ input, signal }) =>
        options.load(input, signal),
      ),
    },
    guards: {
      hasScope: ({ context }) => context.scope !== undefined,
      hasMore: ({ context }) => context.more,
    },
    actions: {
      setScope: assign((_, params: { scope: TScope }) => ({
        scope: params.scope,
        search: '',
        page: 1,
        options: [],
        more: false,
      })),
      setSearch: assign((_, params: { text: string }) => ({
        search: params.text.trim(),
        page: 1,
        options: [],
        more: false,
      })),
      firstPage: assign({ page: 1, options: [], more: false }),
      nextPage: assign(({ context }) => ({ page: context.page + 1 })),
      notifyFailure: emit(loadFailureNotice(options.what)),
    },
  }).createMachine({
    id: options.id,
    context: { scope: undefined, search: '', page: 1, options: [], more: false },
    initial: 'idle',
    on: {
      'options.scope': {
        target: '.idle',
        actions: { type: 'setScope', params: ({ event }) => ({ scope: event.scope }) },
      },
    },
    states: {
      idle: {
        on: { 'options.open': { guard: 'hasScope', target: 'loading', actions: 'firstPage' } },
      },
      loading: {
        tags: ['loading'],
        on: {
          'options.search': {
            target: 'loading',
            reenter: true,
            actions: { type: 'setSearch', params: ({ event }) => ({ text: event.text }) },
          },
        },
        invoke: {
          src: 'loadPage',
          input: ({ context }) => {
            if (context.scope === undefined) throw new Error(`${options.id}: loading without a scope`);
            return { scope: context.scope, search: context.search, page: context.page };
          },
          onDone: {
            target: 'ready',
            actions: assign(({ context, event }) => ({
              options: context.page === 1 ? [...event.output] : appendOptions(context.options, event.output),
              more: hasMoreOptions(event.output.length),
            })),
          },
          onError: { target: 'failure', actions: 'notifyFailure' },
        },
      },
      ready: {
        on: {
          'options.more': { guard: 'hasMore', target: 'loading', actions: 'nextPage' },
          'options.search': {
            target: 'loading',
            actions: { type: 'setSearch', params: ({ event }) => ({ text: event.text }) },
          },
        },
      },
      failure: {
        on: { 'options.retry': 'loading', 'options.open': { target: 'loading', actions: 'firstPage' } },
      },
    },
  });
}
