import { assign, fromPromise, setup } from 'xstate';
import { getOutbox, type OutboxMail } from '../api/admin';
import { errorOccurs } from '../domain/messages';

export const OUTBOX_ERROR = errorOccurs('Outbox fetching');

export interface OutboxContext {
  mails: OutboxMail[];
  errorMessage: string | undefined;
}

export type OutboxEvent = { type: 'outbox.refresh' };

/** The local outbox for the super admin: the mails the server kept instead of sending them (no SMTP server). */
export const outboxMachine = setup({
  types: {
    context: {} as OutboxContext,
    events: {} as OutboxEvent,
  },
  actors: {
    fetchOutbox: fromPromise<OutboxMail[]>(
      async ({ signal }) => (await getOutbox({ rowsPerPage: 50 }, { signal })).data,
    ),
  },
  actions: {
    setMails: assign({ mails: (_, mails: OutboxMail[]) => mails, errorMessage: undefined }),
    setError: assign({ mails: [], errorMessage: OUTBOX_ERROR }),
  },
}).createMachine({
  id: 'outbox',
  context: { mails: [], errorMessage: undefined },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'fetchOutbox',
        onDone: { target: 'loaded', actions: { type: 'setMails', params: ({ event }) => event.output } },
        onError: { target: 'failure', actions: 'setError' },
      },
    },
    loaded: { on: { 'outbox.refresh': 'loading' } },
    failure: { on: { 'outbox.refresh': 'loading' } },
  },
});
