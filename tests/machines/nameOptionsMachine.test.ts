import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { Notice } from '../../src/domain/messages';
import { createNameOptionsMachine, type NameOptionsQuery } from '../../src/machines/factories/nameOptionsMachine';
import { type Deferred, deferred } from '../support/deferred';

/*
 * The name-option lists read 20 a page (§4, §9): the first page when opened, the next while the last had 20, a
 * search from page 1, a new scope from nothing; a failure is the toast and a retry.
 */

type Option = { id: number; name: string };
const page = (from: number, count: number): Option[] =>
  Array.from({ length: count }, (_, index) => ({ id: from + index, name: `Outlet ${from + index}` }));

function start() {
  const calls: { query: NameOptionsQuery<{ clientId: number }>; signal: AbortSignal; answer: Deferred<Option[]> }[] =
    [];
  const machine = createNameOptionsMachine<{ clientId: number }, Option>({
    id: 'options',
    what: 'Options fetching',
    load: (query, signal) => {
      const answer = deferred<Option[]>();
      calls.push({ query, signal, answer });
      return answer.promise;
    },
  });
  const actor = createActor(machine).start();
  const notices: Notice[] = [];
  actor.on('notify', (notice) => notices.push(notice));
  return { actor, calls, notices };
}

describe('name options, 20 a page', () => {
  it('reads nothing before it has a scope and is opened, then pages while a page has 20', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'options.open' });
    expect(calls).toHaveLength(0);
    actor.send({ type: 'options.scope', scope: { clientId: 7 } });
    expect(calls).toHaveLength(0);
    actor.send({ type: 'options.open' });
    expect(calls.map((call) => call.query)).toEqual([{ scope: { clientId: 7 }, search: '', page: 1 }]);
    calls[0]?.answer.resolve(page(1, 20));
    await waitFor(actor, (state) => state.matches('ready'));
    expect(actor.getSnapshot().can({ type: 'options.more' })).toBe(true);
    actor.send({ type: 'options.more' });
    expect(calls[1]?.query.page).toBe(2);
    // The second page has 7: the last. A repeated id is not listed twice.
    calls[1]?.answer.resolve([...page(20, 1), ...page(21, 6)]);
    await waitFor(actor, (state) => state.matches('ready'));
    expect(actor.getSnapshot().context.options).toHaveLength(26);
    expect(actor.getSnapshot().can({ type: 'options.more' })).toBe(false);
    actor.send({ type: 'options.more' });
    expect(calls).toHaveLength(2);
  });

  it('searches from page 1, aborting a pending page, and starts over on a new scope', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'options.scope', scope: { clientId: 7 } });
    actor.send({ type: 'options.open' });
    actor.send({ type: 'options.search', text: '  kopi ' });
    expect(calls[0]?.signal.aborted).toBe(true);
    expect(calls[1]?.query).toEqual({ scope: { clientId: 7 }, search: 'kopi', page: 1 });
    calls[1]?.answer.resolve(page(5, 2));
    await waitFor(actor, (state) => state.matches('ready'));
    expect(actor.getSnapshot().context.options.map((option) => option.id)).toEqual([5, 6]);
    actor.send({ type: 'options.scope', scope: { clientId: 8 } });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ scope: { clientId: 8 }, search: '', options: [] });
  });

  it('fails with the toast and reads again on retry', async () => {
    const { actor, calls, notices } = start();
    actor.send({ type: 'options.scope', scope: { clientId: 7 } });
    actor.send({ type: 'options.open' });
    calls[0]?.answer.reject(new Error('down'));
    await waitFor(actor, (state) => state.matches('failure'));
    expect(notices.map((notice) => notice.message)).toEqual(['Options fetching error occurs. Please try again later.']);
    actor.send({ type: 'options.retry' });
    expect(calls).toHaveLength(2);
    calls[1]?.answer.resolve(page(1, 3));
    await waitFor(actor, (state) => state.matches('ready'));
  });
});
