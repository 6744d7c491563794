import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ActorRefFrom, createActor, fromCallback, type SnapshotFrom, setup, spawnChild, stopChild } from 'xstate';
import { errorOccurs } from '../../src/domain/messages';
import { createEditorMachine, type EditorNotice, isDirty } from '../../src/machines/factories/editorMachine';
import { type Deferred, deferred } from '../support/deferred';
import { childOf } from './childOf';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the settings editor factory with a fake server whose answers the test gives. The value
 * is a processing fee (0..100 is valid) and a note; the server trims the note when it saves, so the baseline
 * after a save is the server's value, not the draft as typed.
 */

type Fees = { fee: number; note: string };
type LoadInput = { clientId: number };

const LOADED: Fees = { fee: 10, note: 'loaded' };
const SAVED_TEXT = 'Save Successfully.';
const FAILED_TEXT = 'Save Failed.';
const LOAD_FAILED_TEXT = 'Processing fees fetching error occurs. Please try again later.';

interface Call<TArgument> {
  argument: TArgument;
  signal: AbortSignal;
  answer: Deferred<Fees>;
}

let loadCalls: Call<LoadInput>[];
let saveCalls: Call<Fees>[];

function call<TArgument>(calls: Call<TArgument>[], argument: TArgument, signal: AbortSignal): Promise<Fees> {
  const answer = deferred<Fees>();
  calls.push({ argument, signal, answer });
  return answer.promise;
}

const editorMachine = createEditorMachine<Fees, LoadInput>({
  id: 'feesEditor',
  what: 'Processing fees fetching',
  load: (input, { signal }) => call(loadCalls, input, signal),
  save: (draft, { signal }) => call(saveCalls, draft, signal),
  validate: (draft) => Number.isFinite(draft.fee) && draft.fee >= 0 && draft.fee <= 100,
  savedMessage: SAVED_TEXT,
  failedMessage: FAILED_TEXT,
});

let actor: ActorRefFrom<typeof editorMachine>;
let notices: EditorNotice[];

function start(): void {
  loadCalls = [];
  saveCalls = [];
  notices = [];
  actor = createActor(editorMachine, { input: { clientId: 3 } });
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
}

afterEach(() => actor.stop());

const snapshot = () => actor.getSnapshot();
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function last<T>(calls: T[]): T {
  const found = calls.at(-1);
  if (!found) throw new Error('no call');
  return found;
}

/* ---------------------------------------------------------------- the model */

type ModelEvent = {
  type:
    | 'resolveLoad'
    | 'rejectLoad'
    | 'retry'
    | 'change'
    | 'changeInvalid'
    | 'cancel'
    | 'save'
    | 'resolveSave'
    | 'rejectSave';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'editorModel',
    initial: 'loading',
    states: {
      loading: { on: { resolveLoad: 'clean', rejectLoad: 'failure' } },
      failure: { on: { retry: 'loading' } },
      clean: { on: { change: 'dirty', changeInvalid: 'invalid' } },
      dirty: { on: { change: 'dirty', changeInvalid: 'invalid', cancel: 'clean', save: 'saving' } },
      /** Dirty, and the draft does not validate. */
      invalid: { on: { change: 'dirty', cancel: 'clean' } },
      saving: { on: { resolveSave: 'saved', rejectSave: 'failed' } },
      saved: { on: { change: 'dirty', changeInvalid: 'invalid' } },
      failed: { on: { save: 'saving', change: 'dirty', changeInvalid: 'invalid', cancel: 'clean' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

/** The baseline and the draft as the test's events made them. */
let baseline: Fees;
let draft: Fees;

const expectDraft = () => {
  expect(snapshot().context.baseline).toEqual(baseline);
  expect(snapshot().context.draft).toEqual(draft);
};

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    loading: () => {
      expect(snapshot().matches('loading')).toBe(true);
      expect(snapshot().hasTag('loading')).toBe(true);
      expect(isDirty(snapshot())).toBe(false);
      expect(last(loadCalls).argument).toEqual({ clientId: 3 });
      expect(snapshot().context.draft).toBeUndefined();
      expect(snapshot().can({ type: 'editor.change', value: LOADED })).toBe(false);
    },
    failure: () => {
      expect(snapshot().matches('failure')).toBe(true);
      expect(snapshot().hasTag('loading')).toBe(false);
      expect(isDirty(snapshot())).toBe(false);
      expect(notices.at(-1)).toEqual({ type: 'notify', intent: 'danger', message: LOAD_FAILED_TEXT, timeout: 5000 });
      expect(snapshot().can({ type: 'editor.retry' })).toBe(true);
    },
    clean: () => {
      expect(snapshot().matches({ editing: 'clean' })).toBe(true);
      expect(isDirty(snapshot())).toBe(false);
      expect(draft).toEqual(baseline);
      expectDraft();
      expect(snapshot().can({ type: 'editor.save' })).toBe(false);
      expect(snapshot().can({ type: 'editor.cancel' })).toBe(false);
    },
    dirty: () => {
      expect(snapshot().matches({ editing: 'dirty' })).toBe(true);
      expect(isDirty(snapshot())).toBe(true);
      expectDraft();
      expect(snapshot().can({ type: 'editor.save' })).toBe(true);
      expect(snapshot().can({ type: 'editor.cancel' })).toBe(true);
    },
    invalid: () => {
      expect(snapshot().matches({ editing: 'dirty' })).toBe(true);
      expect(isDirty(snapshot())).toBe(true);
      expectDraft();
      expect(snapshot().can({ type: 'editor.save' })).toBe(false);
      expect(snapshot().can({ type: 'editor.cancel' })).toBe(true);
    },
    saving: () => {
      expect(snapshot().matches('saving')).toBe(true);
      expect(snapshot().hasTag('saving')).toBe(true);
      expect(isDirty(snapshot())).toBe(true);
      expect(last(saveCalls).argument).toEqual(draft);
      expect(snapshot().can({ type: 'editor.change', value: LOADED })).toBe(false);
      expect(snapshot().can({ type: 'editor.cancel' })).toBe(false);
      expect(snapshot().can({ type: 'editor.save' })).toBe(false);
    },
    saved: () => {
      expect(snapshot().matches('saved')).toBe(true);
      expect(isDirty(snapshot())).toBe(false);
      expectDraft();
      expect(notices.at(-1)).toEqual({ type: 'notify', intent: 'success', message: SAVED_TEXT, timeout: 5000 });
      expect(snapshot().can({ type: 'editor.save' })).toBe(false);
    },
    failed: () => {
      expect(snapshot().matches('failed')).toBe(true);
      expect(isDirty(snapshot())).toBe(true);
      // Nothing typed was lost.
      expectDraft();
      expect(notices.at(-1)).toEqual({ type: 'notify', intent: 'danger', message: FAILED_TEXT, timeout: 5000 });
      expect(snapshot().can({ type: 'editor.save' })).toBe(true);
    },
  },
  events: {
    resolveLoad: async () => {
      baseline = LOADED;
      draft = LOADED;
      last(loadCalls).answer.resolve(LOADED);
      await flush();
    },
    rejectLoad: async () => {
      last(loadCalls).answer.reject(new Error('500'));
      await flush();
    },
    retry: () => actor.send({ type: 'editor.retry' }),
    change: () => {
      draft = { fee: Math.max(0, draft.fee) + 1, note: ` note ${draft.fee} ` };
      actor.send({ type: 'editor.change', value: draft });
    },
    changeInvalid: () => {
      draft = { ...draft, fee: -1 };
      actor.send({ type: 'editor.change', value: draft });
    },
    cancel: () => {
      draft = baseline;
      actor.send({ type: 'editor.cancel' });
    },
    save: () => actor.send({ type: 'editor.save' }),
    resolveSave: async () => {
      // The server keeps the note trimmed: its value is the new baseline.
      baseline = { ...draft, note: draft.note.trim() };
      draft = baseline;
      last(saveCalls).answer.resolve(baseline);
      await flush();
    },
    rejectSave: async () => {
      last(saveCalls).answer.reject(new Error('500'));
      await flush();
    },
  },
};

describe('editorMachine (model)', () => {
  beforeEach(() => start());
  describeModelCoverage(model, params, {
    states: ['loading', 'failure', 'clean', 'dirty', 'invalid', 'saving', 'saved', 'failed'],
    transitions: 19,
  });
});

/* ---------------------------------------------------------------- details */

async function loaded(): Promise<void> {
  last(loadCalls).answer.resolve(LOADED);
  await flush();
  expect(snapshot().matches({ editing: 'clean' })).toBe(true);
}

describe('editorMachine details', () => {
  beforeEach(() => start());

  it('holds the unsaved changes at the navigation guard while the draft is dirty, and releases them', async () => {
    actor.stop();
    const told: boolean[] = [];
    const guard = fromCallback<{ type: 'page.unsavedChanges'; unsaved: boolean }>(({ receive }) => {
      receive((event) => told.push(event.unsaved));
    });
    const app = createActor(
      setup({
        types: { children: {} as { guard: 'guard'; editor: 'editor' } },
        actors: { guard, editor: editorMachine },
      }).createMachine({
        invoke: { id: 'guard', systemId: 'navigation', src: 'guard' },
        entry: spawnChild('editor', { id: 'editor', input: { clientId: 3 } }),
        on: { close: { actions: stopChild('editor') } },
      }),
    ).start();
    actor = childOf(app.getSnapshot(), 'editor');
    await loaded();
    expect(told).toEqual([]);
    actor.send({ type: 'editor.change', value: { fee: 20, note: 'x' } });
    expect(told.at(-1)).toBe(true);
    actor.send({ type: 'editor.save' });
    expect(told.at(-1)).toBe(true);
    last(saveCalls).answer.reject(new Error('500'));
    await flush();
    expect(snapshot().matches('failed')).toBe(true);
    expect(told.at(-1)).toBe(true);
    actor.send({ type: 'editor.cancel' });
    expect(told.at(-1)).toBe(false);
    actor.send({ type: 'editor.change', value: { fee: 30, note: 'y' } });
    expect(told.at(-1)).toBe(true);
    // Closing the page (leaving it) releases them too.
    app.send({ type: 'close' });
    expect(told.at(-1)).toBe(false);
    app.stop();
    start();
  });

  it('cancel restores the loaded value and is not dirty', async () => {
    await loaded();
    actor.send({ type: 'editor.change', value: { fee: 20, note: 'x' } });
    actor.send({ type: 'editor.change', value: { fee: 30, note: 'y' } });
    expect(isDirty(snapshot())).toBe(true);
    actor.send({ type: 'editor.cancel' });
    expect(snapshot().context.draft).toEqual(LOADED);
    expect(isDirty(snapshot())).toBe(false);
  });

  it('a failed save keeps the draft; change edits on, save retries, cancel restores', async () => {
    await loaded();
    actor.send({ type: 'editor.change', value: { fee: 20, note: 'x' } });
    actor.send({ type: 'editor.save' });
    last(saveCalls).answer.reject(new Error('500'));
    await flush();
    expect(snapshot().context.draft).toEqual({ fee: 20, note: 'x' });
    actor.send({ type: 'editor.change', value: { fee: 21, note: 'x' } });
    expect(snapshot().matches({ editing: 'dirty' })).toBe(true);
    actor.send({ type: 'editor.save' });
    expect(last(saveCalls).argument).toEqual({ fee: 21, note: 'x' });
    last(saveCalls).answer.reject(new Error('500'));
    await flush();
    actor.send({ type: 'editor.save' });
    expect(saveCalls).toHaveLength(3);
    last(saveCalls).answer.reject(new Error('500'));
    await flush();
    actor.send({ type: 'editor.cancel' });
    expect(snapshot().context.draft).toEqual(LOADED);
    expect(notices.map((notice) => notice.message)).toEqual([FAILED_TEXT, FAILED_TEXT, FAILED_TEXT]);
  });

  it('after a save the saved value is the baseline that cancel restores', async () => {
    await loaded();
    actor.send({ type: 'editor.change', value: { fee: 20, note: ' x ' } });
    actor.send({ type: 'editor.save' });
    last(saveCalls).answer.resolve({ fee: 20, note: 'x' });
    await flush();
    expect(snapshot().context).toMatchObject({ baseline: { fee: 20, note: 'x' }, draft: { fee: 20, note: 'x' } });
    actor.send({ type: 'editor.change', value: { fee: 50, note: 'x' } });
    actor.send({ type: 'editor.cancel' });
    expect(snapshot().context.draft).toEqual({ fee: 20, note: 'x' });
    expect(notices).toEqual([{ type: 'notify', intent: 'success', message: SAVED_TEXT, timeout: 5000 }]);
  });

  it('refuses to save an invalid draft', async () => {
    await loaded();
    actor.send({ type: 'editor.change', value: { fee: 101, note: 'x' } });
    expect(snapshot().can({ type: 'editor.save' })).toBe(false);
    actor.send({ type: 'editor.save' });
    expect(saveCalls).toEqual([]);
  });

  it('aborts a pending save when the editor stops', async () => {
    await loaded();
    actor.send({ type: 'editor.change', value: { fee: 20, note: 'x' } });
    actor.send({ type: 'editor.save' });
    const pending = last(saveCalls);
    actor.stop();
    expect(pending.signal.aborted).toBe(true);
  });

  it('saves without validation when none is given, and names the load failure', async () => {
    const plain = createEditorMachine<string, undefined>({
      id: 'plainEditor',
      what: 'Notes fetching',
      load: async () => 'a',
      save: async (value) => value,
      savedMessage: SAVED_TEXT,
      failedMessage: FAILED_TEXT,
    });
    const editor = createActor(plain, { input: undefined }).start();
    await flush();
    editor.send({ type: 'editor.change', value: '' });
    expect(editor.getSnapshot().can({ type: 'editor.save' })).toBe(true);
    editor.stop();
    expect(errorOccurs('Notes fetching')).toBe('Notes fetching error occurs. Please try again later.');
  });
});
