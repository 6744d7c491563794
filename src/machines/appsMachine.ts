import { assign, emit, fromPromise, setup } from 'xstate';
import { getXeroInfo, type XeroInfoResponse } from '../api/apps';
import { type ApiClient, api } from '../api/client';
import { APPS_WHAT } from '../domain/apps';
import { loadFailureNotice, type Notice } from '../domain/messages';
import { followHeaderFilters, type HeaderFiltersEvent, lockHeader } from './headerLink';

/**
 * The Apps page (/apps): the integrations of the header's client with their connection status (Xero's: not
 * connected, connected to an organisation, or expired).
 *
 *   waiting ── header.filters (a client) ─> loading ── done ─> loaded
 *                                                   └ error ─> failure ── apps.retry ─> loading
 *   a new client loads again.
 */

export interface AppsContext {
  readonly clientId: number | undefined;
  readonly xero: XeroInfoResponse | undefined;
}

export type AppsEvent = HeaderFiltersEvent | { type: 'apps.retry' };

export function createAppsMachine(client: ApiClient = api) {
  return setup({
    types: {
      context: {} as AppsContext,
      events: {} as AppsEvent,
      emitted: {} as Notice,
      tags: {} as 'loading',
    },
    actors: {
      followHeaderFilters,
      lockHeader,
      loadXero: fromPromise<XeroInfoResponse, { clientId: number }>(({ input, signal }) =>
        getXeroInfo(input.clientId, { signal, client }),
      ),
    },
    guards: {
      isNewClient: ({ context, event }) =>
        event.type === 'header.filters' &&
        event.filters.clientId !== undefined &&
        event.filters.clientId !== context.clientId,
    },
    actions: {
      setClient: assign(({ event }) =>
        event.type === 'header.filters' ? { clientId: event.filters.clientId, xero: undefined } : {},
      ),
      notifyLoadFailure: emit(loadFailureNotice(APPS_WHAT)),
    },
  }).createMachine({
    id: 'apps',
    context: { clientId: undefined, xero: undefined },
    invoke: { src: 'followHeaderFilters' },
    on: {
      'header.filters': { guard: 'isNewClient', target: '.loading', reenter: true, actions: 'setClient' },
    },
    initial: 'waiting',
    states: {
      waiting: {},
      loading: {
        tags: ['loading'],
        invoke: [
          { src: 'lockHeader' },
          {
            src: 'loadXero',
            input: ({ context }) => ({ clientId: context.clientId ?? 0 }),
            onDone: { target: 'loaded', actions: assign({ xero: ({ event }) => event.output }) },
            onError: { target: 'failure', actions: 'notifyLoadFailure' },
          },
        ],
      },
      loaded: {},
      failure: { on: { 'apps.retry': 'loading' } },
    },
  });
}

export const appsMachine = createAppsMachine();
