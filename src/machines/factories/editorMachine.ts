import { assign, emit, enqueueActions, fromCallback, fromPromise, setup } from 'xstate';
import { loadFailureNotice, TOAST_TIMEOUT } from '../../domain/messages';
import { appActor } from '../systemIds';

/**
 * The one shape of every settings editor: load a value, edit a draft of it, save the draft.
 *
 *   loading ── done ─> editing.clean ── editor.change ─> editing.dirty ── editor.save ─> saving
 *           └ error ─> failure ── editor.retry ─> loading
 *   editing.dirty | failed ── editor.cancel ─> editing.clean   (the draft is the loaded value again)
 *   saving ── done ─> saved   (the saved value is the new baseline)
 *          └ error ─> failed  (the draft stays) ── editor.save ─> saving ;  editor.change ─> editing.dirty
 *   saved ── editor.change ─> editing.dirty
 *
 * - `editor.save` is taken only when the draft is dirty and `validate` accepts it (the `canSave` guard:
 *   views enable Save with `state.can({ type: 'editor.save' })`).
 * - Tags: 'loading', 'saving', 'dirty' (a draft not saved yet: editing.dirty, saving, failed).
 *   `isDirty(snapshot)` tells a navigation guard whether leaving loses changes.
 * - Toasts are emitted as `notify`: `savedMessage` (success), `failedMessage` (danger), and after a failed
 *   load '{what} error occurs. Please try again later.' (danger), each for 5 s.
 * - `saveError` keeps what the failed save threw (the server's refusal, to show at its field) while its draft is
 *   kept: from `failed` until the next save, a cancel or a new load.
 */

export interface EditorOptions<TValue, TLoadInput> {
  readonly id: string;
  /** The '{what}' of the toast after a failed load. */
  readonly what: string;
  readonly load: (input: TLoadInput, options: { readonly signal: AbortSignal }) => Promise<TValue>;
  /** Saves the draft; answers the value as saved (the draft itself when the server answers nothing else). */
  readonly save: (draft: TValue, options: { readonly signal: AbortSignal }) => Promise<TValue>;
  /** Whether the draft may be saved (default: always). */
  readonly validate?: (draft: TValue) => boolean;
  /** The success toast, exactly. */
  readonly savedMessage: string;
  /** The failure toast, exactly. */
  readonly failedMessage: string;
  /** Tells the machine that invoked or spawned the editor of every save (`editor.saved`), e.g. to read again. */
  readonly tellParentSaved?: boolean;
  /**
   * Tells that machine whether the draft holds unsaved changes (`editor.dirty`, on entering each state), e.g. to
   * hold a choice that would start the editor over.
   */
  readonly tellParentDirty?: boolean;
}

export interface EditorContext<TValue, TLoadInput> {
  /** What the value is loaded for. */
  readonly input: TLoadInput;
  /** The value as loaded or last saved; undefined until loaded. */
  readonly baseline: TValue | undefined;
  /** The value as edited; undefined until loaded. */
  readonly draft: TValue | undefined;
  /** What the last save threw, while its draft is kept; undefined otherwise. */
  readonly saveError: unknown;
}

export type EditorEvent<TValue> =
  | { type: 'editor.change'; value: TValue }
  | { type: 'editor.cancel' }
  | { type: 'editor.save' }
  | { type: 'editor.retry' };

export interface EditorNotice {
  type: 'notify';
  intent: 'success' | 'danger';
  message: string;
  timeout: number;
}

export type EditorTag = 'loading' | 'saving' | 'dirty';

/** Whether an editor holds changes not saved yet (leaving would lose them). */
export function isDirty(snapshot: { hasTag: (tag: 'dirty') => boolean }): boolean {
  return snapshot.hasTag('dirty');
}

/**
 * Invoked in every dirty state: the app's navigation guard (`system.get('navigation')`) holds the page's unsaved
 * changes while the state lasts, and asks before a link leaves the page; the cleanup (the state left, the editor
 * stopped) releases them. No guard in the system (a test of the editor alone): nothing is sent.
 */
export const holdUnsavedChanges = fromCallback(({ system }) => {
  const navigation = appActor(system, 'navigation');
  navigation?.send({ type: 'page.unsavedChanges', unsaved: true });
  return () => {
    if (navigation?.getSnapshot().status === 'active') navigation.send({ type: 'page.unsavedChanges', unsaved: false });
  };
});

/** A settings editor's machine: the shape above, with the page's load, save and validation. */
export function createEditorMachine<TValue, TLoadInput>(options: EditorOptions<TValue, TLoadInput>) {
  const validate = options.validate ?? (() => true);

  return setup({
    types: {
      context: {} as EditorContext<TValue, TLoadInput>,
      events: {} as EditorEvent<TValue>,
      input: {} as TLoadInput,
      emitted: {} as EditorNotice,
      tags: {} as EditorTag,
    },
    actors: {
      loadValue: fromPromise<TValue, { loadInput: TLoadInput }>(({ input, signal }) =>
        options.load(input.loadInput, { signal }),
      ),
      saveValue: fromPromise<TValue, { draft: TValue }>(({ input, signal }) => options.save(input.draft, { signal })),
      holdUnsavedChanges,
    },
    guards: {
      /** Only a dirty draft gets here: the guard sits on dirty states only. */
      canSave: ({ context }) => context.draft !== undefined && validate(context.draft),
    },
    actions: {
      setBaseline: assign((_, params: { value: TValue }) => ({ baseline: params.value, draft: params.value })),
      setDraft: assign((_, params: { value: TValue }) => ({ draft: params.value })),
      resetDraft: assign(({ context }) => ({ draft: context.baseline, saveError: undefined })),
      setSaveError: assign((_, params: { error: unknown }) => ({ saveError: params.error })),
      resetSaveError: assign({ saveError: undefined }),
      notifyLoadFailure: emit(loadFailureNotice(options.what)),
      tellParentDirty: enqueueActions(({ enqueue }, params: { dirty: boolean }) => {
        if (options.tellParentDirty) enqueue.sendParent({ type: 'editor.dirty', dirty: params.dirty });
      }),
      tellParentSaved: enqueueActions(({ enqueue }) => {
        if (options.tellParentSaved) enqueue.sendParent({ type: 'editor.saved' });
      }),
      notifySaved: emit({
        type: 'notify',
        intent: 'success',
        message: options.savedMessage,
        timeout: TOAST_TIMEOUT.long,
      } as const),
      notifySaveFailure: emit({
        type: 'notify',
        intent: 'danger',
        message: options.failedMessage,
        timeout: TOAST_TIMEOUT.long,
      } as const),
    },
  }).createMachine({
    id: options.id,
    context: ({ input }) => ({ input, baseline: undefined, draft: undefined, saveError: undefined }),
    initial: 'loading',
    states: {
      loading: {
        tags: ['loading'],
        invoke: {
          src: 'loadValue',
          input: ({ context }) => ({ loadInput: context.input }),
          onDone: {
            target: 'editing',
            actions: { type: 'setBaseline', params: ({ event }) => ({ value: event.output }) },
          },
          onError: { target: 'failure', actions: 'notifyLoadFailure' },
        },
      },
      /** Nothing loaded: the toast, and a retry. */
      failure: {
        on: { 'editor.retry': 'loading' },
      },
      editing: {
        initial: 'clean',
        on: {
          'editor.change': {
            target: '.dirty',
            actions: { type: 'setDraft', params: ({ event }) => ({ value: event.value }) },
          },
        },
        states: {
          /** The draft is the baseline. */
          clean: { entry: { type: 'tellParentDirty', params: { dirty: false } } },
          dirty: {
            tags: ['dirty'],
            entry: { type: 'tellParentDirty', params: { dirty: true } },
            invoke: { src: 'holdUnsavedChanges' },
            on: {
              'editor.cancel': { target: 'clean', actions: 'resetDraft' },
              'editor.save': { guard: 'canSave', target: `#${options.id}.saving` },
            },
          },
        },
      },
      saving: {
        tags: ['saving', 'dirty'],
        entry: 'resetSaveError',
        invoke: [
          { src: 'holdUnsavedChanges' },
          {
            src: 'saveValue',
            input: ({ context }) => {
              if (context.draft === undefined) throw new Error(`${options.id}: saving before loading`);
              return { draft: context.draft };
            },
            onDone: {
              target: 'saved',
              actions: [
                { type: 'setBaseline', params: ({ event }) => ({ value: event.output }) },
                'notifySaved',
                'tellParentSaved',
              ],
            },
            onError: {
              target: 'failed',
              actions: [{ type: 'setSaveError', params: ({ event }) => ({ error: event.error }) }, 'notifySaveFailure'],
            },
          },
        ],
      },
      /** Saved: the saved value is the baseline, and editing goes on from it. */
      saved: {
        entry: { type: 'tellParentDirty', params: { dirty: false } },
        on: {
          'editor.change': {
            target: 'editing.dirty',
            actions: { type: 'setDraft', params: ({ event }) => ({ value: event.value }) },
          },
        },
      },
      /** The save failed: the draft stays, to save again, edit on or cancel. */
      failed: {
        tags: ['dirty'],
        invoke: { src: 'holdUnsavedChanges' },
        on: {
          'editor.save': { guard: 'canSave', target: 'saving' },
          'editor.change': {
            target: 'editing.dirty',
            actions: { type: 'setDraft', params: ({ event }) => ({ value: event.value }) },
          },
          'editor.cancel': { target: 'editing.clean', actions: 'resetDraft' },
        },
      },
    },
  });
}
