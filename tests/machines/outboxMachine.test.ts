import { afterEach, describe, expect, it } from 'vitest';
import { type Actor, createActor, fromPromise } from 'xstate';
import type { OutboxMail, OutboxSortColumn } from '../../src/api/admin';
import type { Notice } from '../../src/domain/messages';
import type { PagedListAnswer, PagedListQuery } from '../../src/machines/factories/pagedListMachine';
import {
  OUTBOX_ERROR,
  OUTBOX_FILTERS,
  OUTBOX_INPUT,
  type OutboxFilters,
  outboxMachine,
} from '../../src/machines/outboxMachine';
import { type Deferred, deferred } from '../support/deferred';

/*
 * The outbox is a paged list of the factory (tests/machines/pagedListMachine.test.ts covers its paths): what the
 * outbox sets is checked here, with the page's loads answered by the test.
 */

type Query = PagedListQuery<OutboxFilters, OutboxSortColumn>;

const MAIL: OutboxMail = {
  id: 7,
  recipient: 'mfa@demo.mall',
  subject: 'Your Mall Analytics sign-in code: 123456',
  text: 'Your one-time sign-in code is 123456.',
  created_at: '2026-11-21T00:00:00.000Z',
  attachments: [],
};

let actor: Actor<typeof outboxMachine>;
let loads: { query: Query; answer: Deferred<PagedListAnswer<OutboxMail>> }[];
let notices: Notice[];

function start(): void {
  loads = [];
  notices = [];
  actor = createActor(
    outboxMachine.provide({
      actors: {
        fetchPage: fromPromise<PagedListAnswer<OutboxMail>, Query>(({ input }) => {
          const answer = deferred<PagedListAnswer<OutboxMail>>();
          loads.push({ query: input, answer });
          return answer.promise;
        }),
      },
    }),
    { input: OUTBOX_INPUT },
  );
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const lastLoad = () => {
  const load = loads.at(-1);
  if (!load) throw new Error('nothing was loaded');
  return load;
};

async function loaded(total = 45): Promise<void> {
  lastLoad().answer.resolve({ rows: [MAIL], total });
  await settle();
  expect(actor.getSnapshot().matches('loaded')).toBe(true);
}

afterEach(() => actor.stop());

describe('outboxMachine', () => {
  it('loads at once with its constant filters: page 1 of 20 rows, newest first, no search', () => {
    start();
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    expect(loads.map((load) => load.query)).toEqual([
      { filters: OUTBOX_FILTERS, search: '', sortColumn: 'created_at', order: 'desc', page: 1, rowsPerPage: 20 },
    ]);
  });

  it('sorts by the sent time, the recipient and the subject only', async () => {
    start();
    await loaded();
    for (const column of ['text', 'id', 'created_at; DROP TABLE outbox', '']) {
      expect(actor.getSnapshot().can({ type: 'list.sort', column })).toBe(false);
    }
    for (const column of ['created_at', 'recipient', 'subject']) {
      expect(actor.getSnapshot().can({ type: 'list.sort', column })).toBe(true);
    }
    actor.send({ type: 'list.sort', column: 'recipient' });
    expect(lastLoad().query).toMatchObject({ sortColumn: 'recipient', order: 'desc', page: 1 });
    actor.send({ type: 'list.sort', column: 'text' });
    expect(loads).toHaveLength(2);
  });

  it('offers 10, 20 and 50 rows per page only', async () => {
    start();
    await loaded();
    expect(actor.getSnapshot().can({ type: 'list.rowsPerPage', rowsPerPage: 100 })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'list.rowsPerPage', rowsPerPage: 20 })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'list.rowsPerPage', rowsPerPage: 10 })).toBe(true);
    expect(actor.getSnapshot().can({ type: 'list.rowsPerPage', rowsPerPage: 50 })).toBe(true);
    expect(actor.getSnapshot().can({ type: 'list.page', page: 3 })).toBe(true);
    expect(actor.getSnapshot().can({ type: 'list.page', page: 4 })).toBe(false);
  });

  it("toasts 'Outbox fetching error occurs. Please try again later.' when a page cannot be read", async () => {
    start();
    lastLoad().answer.reject(new Error('503'));
    await settle();
    expect(actor.getSnapshot().matches('failure')).toBe(true);
    expect(OUTBOX_ERROR).toBe('Outbox fetching error occurs. Please try again later.');
    expect(notices).toEqual([
      {
        type: 'notify',
        intent: 'danger',
        message: 'Outbox fetching error occurs. Please try again later.',
        timeout: 5000,
      },
    ]);
    actor.send({ type: 'list.retry' });
    expect(loads).toHaveLength(2);
  });

  it('refreshes the page it shows', async () => {
    start();
    await loaded();
    actor.send({ type: 'list.page', page: 2 });
    await loaded();
    actor.send({ type: 'list.refresh' });
    expect(loads).toHaveLength(3);
    expect(lastLoad().query).toEqual(loads[1]?.query);
  });
});
