import { describe, expect, it } from 'vitest';
import { assign, createActor, emit, fromPromise, setup } from 'xstate';
import { confirmDialogStates, formDialogStates } from '../../src/machines/factories/listDialogs';

/*
 * The list dialogs' states (factories/listDialogs) on a page of their own: a list child that counts its refreshes,
 * a create dialog of a name (sent by a promise the test settles) and a confirm dialog that removes a row.
 */

interface Context {
  readonly draft: string | undefined;
  readonly target: number | undefined;
  readonly messages: readonly string[];
}

type Event =
  | { type: 'create.open' }
  | { type: 'create.change'; name: string }
  | { type: 'create.submit' }
  | { type: 'create.cancel' }
  | { type: 'remove.ask'; id: number }
  | { type: 'remove.confirm' }
  | { type: 'remove.cancel' }
  | { type: 'list.refresh' };

function pageMachine(options: { closeOnInvalidSubmit: boolean; refreshOnError: boolean }) {
  const settle: { create?: (ok: boolean) => void; remove?: (ok: boolean) => void } = {};
  const pending = (key: 'create' | 'remove') =>
    new Promise<string>((resolve, reject) => {
      settle[key] = (ok) => (ok ? resolve(`${key}d`) : reject(new Error(`${key} failed`)));
    });
  const list = setup({
    types: { context: {} as { refreshes: number }, events: {} as { type: 'list.refresh' } },
  }).createMachine({
    context: { refreshes: 0 },
    on: { 'list.refresh': { actions: assign(({ context }) => ({ refreshes: context.refreshes + 1 })) } },
  });
  const addName = fromPromise<string, string>(() => pending('create'));
  const removeRow = fromPromise<string, number>(() => pending('remove'));
  const machine = setup({
    types: {
      context: {} as Context,
      events: {} as Event,
      emitted: {} as { type: 'notify'; message: string },
      tags: {} as 'creating' | 'removing',
      children: {} as { list: 'list' },
    },
    actors: { list, addName, removeRow },
    guards: { hasName: ({ context }) => (context.draft ?? '').trim() !== '' },
    actions: {
      startDraft: assign({ draft: '' }),
      changeDraft: assign(({ event }) => (event.type === 'create.change' ? { draft: event.name } : {})),
      clearDraft: assign({ draft: undefined }),
      setTarget: assign(({ event }) => (event.type === 'remove.ask' ? { target: event.id } : {})),
      clearTarget: assign({ target: undefined }),
      refreshList: ({ system }) => system.get('list')?.send({ type: 'list.refresh' }),
      report: assign(({ context }, params: { output: string }) => ({ messages: [...context.messages, params.output] })),
      failed: emit((_, params: { error: unknown }) => ({
        type: 'notify' as const,
        message: params.error instanceof Error ? params.error.message : '',
      })),
    },
  }).createMachine({
    id: 'page',
    type: 'parallel',
    context: { draft: undefined, target: undefined, messages: [] },
    invoke: { id: 'list', systemId: 'list', src: 'list' },
    states: {
      create: {
        initial: 'closed',
        states: {
          closed: { on: { 'create.open': { target: 'open', actions: 'startDraft' } } },
          open: {
            initial: 'editing',
            states: formDialogStates({
              events: { submit: 'create.submit', cancel: 'create.cancel' },
              editing: { 'create.change': { actions: 'changeDraft' } },
              canSubmit: 'hasName',
              closeOnInvalidSubmit: options.closeOnInvalidSubmit,
              tag: 'creating',
              submit: { src: 'addName', logic: addName, input: (context: Context) => context.draft },
              closed: '#page.create.closed',
              done: '#page.create.closed',
              report: 'report',
              refresh: 'refreshList',
              clear: 'clearDraft',
              failed: 'failed',
            }),
          },
        },
      },
      remove: {
        initial: 'idle',
        states: {
          idle: { on: { 'remove.ask': { target: 'confirming', actions: 'setTarget' } } },
          ...confirmDialogStates({
            events: { confirm: 'remove.confirm', cancel: 'remove.cancel' },
            tag: 'removing',
            run: { src: 'removeRow', logic: removeRow, input: (context: Context) => context.target },
            closed: '#page.remove.idle',
            report: 'report',
            refresh: 'refreshList',
            clear: 'clearTarget',
            failed: 'failed',
            refreshOnError: options.refreshOnError,
          }),
        },
      },
    },
  });
  const actor = createActor(machine);
  const notices: string[] = [];
  actor.on('notify', (notice) => notices.push(notice.message));
  actor.start();
  const refreshes = () => actor.getSnapshot().children.list?.getSnapshot().context.refreshes;
  return { actor, settle, notices, refreshes };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the form dialog states', () => {
  it('send a valid draft, report the output, read the list again and close', async () => {
    const { actor, settle, refreshes } = pageMachine({ closeOnInvalidSubmit: false, refreshOnError: false });
    actor.send({ type: 'create.open' });
    actor.send({ type: 'create.submit' });
    expect(actor.getSnapshot().matches({ create: { open: 'editing' } })).toBe(true);
    actor.send({ type: 'create.change', name: 'Tea' });
    actor.send({ type: 'create.submit' });
    expect(actor.getSnapshot().hasTag('creating')).toBe(true);
    actor.send({ type: 'create.cancel' });
    expect(actor.getSnapshot().hasTag('creating')).toBe(true);
    settle.create?.(true);
    await flush();
    expect(actor.getSnapshot().matches({ create: 'closed' })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ draft: undefined, messages: ['created'] });
    expect(refreshes()).toBe(1);
  });

  it('go back to editing with the draft after a failure, and close on cancel', async () => {
    const { actor, settle, notices, refreshes } = pageMachine({ closeOnInvalidSubmit: false, refreshOnError: true });
    actor.send({ type: 'create.open' });
    actor.send({ type: 'create.change', name: 'Tea' });
    actor.send({ type: 'create.submit' });
    settle.create?.(false);
    await flush();
    expect(actor.getSnapshot().matches({ create: { open: 'editing' } })).toBe(true);
    expect(actor.getSnapshot().context.draft).toBe('Tea');
    expect(notices).toEqual(['create failed']);
    expect(refreshes()).toBe(0);
    actor.send({ type: 'create.cancel' });
    expect(actor.getSnapshot().matches({ create: 'closed' })).toBe(true);
    expect(actor.getSnapshot().context.draft).toBeUndefined();
  });

  it('close on a refused submit when asked, nothing sent', () => {
    const { actor } = pageMachine({ closeOnInvalidSubmit: true, refreshOnError: false });
    actor.send({ type: 'create.open' });
    actor.send({ type: 'create.submit' });
    expect(actor.getSnapshot().matches({ create: 'closed' })).toBe(true);
    expect(actor.getSnapshot().context.draft).toBeUndefined();
  });
});

describe('the confirm dialog states', () => {
  it('do it after the confirmation, report, read the list again and forget the target', async () => {
    const { actor, settle, refreshes } = pageMachine({ closeOnInvalidSubmit: false, refreshOnError: false });
    actor.send({ type: 'remove.ask', id: 7 });
    expect(actor.getSnapshot().matches({ remove: 'confirming' })).toBe(true);
    actor.send({ type: 'remove.confirm' });
    expect(actor.getSnapshot().hasTag('removing')).toBe(true);
    settle.remove?.(true);
    await flush();
    expect(actor.getSnapshot().matches({ remove: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ target: undefined, messages: ['removed'] });
    expect(refreshes()).toBe(1);
  });

  it('report a failure and read the list again only with refreshOnError', async () => {
    for (const refreshOnError of [false, true]) {
      const { actor, settle, notices, refreshes } = pageMachine({ closeOnInvalidSubmit: false, refreshOnError });
      actor.send({ type: 'remove.ask', id: 7 });
      actor.send({ type: 'remove.confirm' });
      settle.remove?.(false);
      await flush();
      expect(actor.getSnapshot().matches({ remove: 'idle' })).toBe(true);
      expect(actor.getSnapshot().context.target).toBeUndefined();
      expect(notices).toEqual(['remove failed']);
      expect(refreshes()).toBe(refreshOnError ? 1 : 0);
    }
  });

  it('forget the target on cancel', () => {
    const { actor } = pageMachine({ closeOnInvalidSubmit: false, refreshOnError: false });
    actor.send({ type: 'remove.ask', id: 7 });
    actor.send({ type: 'remove.cancel' });
    expect(actor.getSnapshot().matches({ remove: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.target).toBeUndefined();
  });
});
