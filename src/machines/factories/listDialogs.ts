import type { AnyActorLogic, OutputFrom } from 'xstate';
import type { HeaderFiltersEvent } from '../headerLink';

/**
 * The two dialogs a list page opens over its list (a paged list child, `factories/pagedListMachine`), as states a
 * page machine places in its own chart (so its state ids, events and context stay its own):
 *
 *   form (create):  editing ── <change events> (the page's) ; cancel ─> closed (the draft forgotten)
 *                   editing ── submit (canSubmit) ─> submitting ── done ─> the page's target (the output reported,
 *                   the list again, the draft forgotten) ; error ─> editing (the failure reported: a toast or the
 *                   dialog's message; the draft kept)
 *   confirm (a destructive action on a row):
 *                   confirming ── confirm ─> working ── done ─> closed (reported, the list again) ;
 *                   error ─> closed (the failure reported; the list again with refreshOnError) ; cancel ─> closed
 *                   (the target forgotten whichever way the dialog closes)
 *
 * The page names what these states use and its `setup` holds it, typed on its context and events: the events, the
 * guard, the invoked promise actor (`src`, its `logic` for the output's type, and its input from the context:
 * undefined is a bug), the actions (`report`: params `{ output }`; `failed`: params `{ error }`; the others none)
 * and the targets. The page's `createMachine` checks every name against its setup.
 *
 * A page that reads its list whole (not paged) from the header's filters and edits its rows in both dialogs (the
 * Calendar, the mall's Events) takes its root transitions and its three parallel regions from `listEditorParts`.
 */

interface Invoked<TContext, TSrc extends string, TLogic extends AnyActorLogic, TInput> {
  readonly src: TSrc;
  readonly logic: TLogic;
  readonly input: (context: TContext) => TInput | undefined;
}

interface Outcome<TReport extends string, TRefresh extends string, TClear extends string, TFailed extends string> {
  /** Tells of the output (params `{ output }`): a toast, or keeps it to show. */
  readonly report: TReport;
  /** Reads the list again. */
  readonly refresh: TRefresh;
  /** Forgets the draft or the target. */
  readonly clear: TClear;
  /** Tells of a failure (params `{ error }`): a toast, or the dialog's message. */
  readonly failed: TFailed;
}

/** `{ [key]: value }` for a key known only as a type parameter. */
function on<const K extends string, V>(key: K, value: V): Partial<Record<K, V>> {
  const transitions: Partial<Record<K, V>> = {};
  transitions[key] = value;
  return transitions;
}

/** The invoke of `invoked`: its input from the context, its output as a `report` action's params. */
function invokeOf<TContext, TSrc extends string, TLogic extends AnyActorLogic, TInput, TReport extends string>(
  invoked: Invoked<TContext, TSrc, TLogic, TInput>,
  report: TReport,
) {
  return {
    src: invoked.src,
    input: ({ context }: { context: TContext }): TInput => {
      const input = invoked.input(context);
      if (input === undefined) throw new Error(`${invoked.src}: nothing to send`);
      return input;
    },
    report: {
      type: report,
      params: ({ event }: { event: { output: OutputFrom<TLogic> } }) => ({ output: event.output }),
    },
  };
}

/** What an invoked actor threw, as a `failed` action's params. */
const failedWith = <TFailed extends string>(failed: TFailed) => ({
  type: failed,
  params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }),
});

/** The form dialog's `editing` and `submitting` states (the page's `initial: 'editing'`). */
export function formDialogStates<
  TContext,
  const TSubmit extends string,
  const TCancel extends string,
  const TEditing,
  const TGuard extends string,
  const TTag extends string,
  const TSrc extends string,
  TLogic extends AnyActorLogic,
  TInput,
  const TClosed extends string,
  const TDone extends string,
  const TReport extends string,
  const TRefresh extends string,
  const TClear extends string,
  const TFailed extends string,
>(
  options: Outcome<TReport, TRefresh, TClear, TFailed> & {
    readonly events: { readonly submit: TSubmit; readonly cancel: TCancel };
    /** The editing state's own transitions: the draft's change events. */
    readonly editing: TEditing;
    /** Whether the draft may be sent. */
    readonly canSubmit: TGuard;
    /** A submit the guard refuses closes the dialog, nothing sent (else it is ignored). */
    readonly closeOnInvalidSubmit?: boolean;
    /** The submitting state's tag. */
    readonly tag: TTag;
    /** The invoked actor that sends the draft. */
    readonly submit: Invoked<TContext, TSrc, TLogic, TInput>;
    /** Where cancel goes: the closed state's id. */
    readonly closed: TClosed;
    /** Where a done submit goes (the closed state's id, or a state showing the output). */
    readonly done: TDone;
  },
) {
  const { report, ...invoke } = invokeOf(options.submit, options.report);
  const closeOnInvalid = options.closeOnInvalidSubmit
    ? [{ target: options.closed, actions: [options.clear] }]
    : ([] as const);
  return {
    editing: {
      on: {
        ...options.editing,
        ...on(options.events.submit, [{ guard: options.canSubmit, target: 'submitting' as const }, ...closeOnInvalid]),
        ...on(options.events.cancel, { target: options.closed, actions: [options.clear] }),
      },
    },
    submitting: {
      tags: [options.tag],
      invoke: {
        ...invoke,
        onDone: { target: options.done, actions: [report, options.refresh, options.clear] },
        onError: { target: 'editing' as const, actions: [failedWith(options.failed)] },
      },
    },
  };
}

/** The confirm dialog's `confirming` and `working` states (the page's `initial: 'confirming'`). */
export function confirmDialogStates<
  TContext,
  const TConfirm extends string,
  const TCancel extends string,
  const TTag extends string,
  const TSrc extends string,
  TLogic extends AnyActorLogic,
  TInput,
  const TClosed extends string,
  const TReport extends string,
  const TRefresh extends string,
  const TClear extends string,
  const TFailed extends string,
>(
  options: Outcome<TReport, TRefresh, TClear, TFailed> & {
    readonly events: { readonly confirm: TConfirm; readonly cancel: TCancel };
    /** The working state's tag. */
    readonly tag: TTag;
    /** The invoked actor that does it to the target. */
    readonly run: Invoked<TContext, TSrc, TLogic, TInput>;
    /** Where the dialog closes to: the closed state's id. */
    readonly closed: TClosed;
    /** Reads the list again after a failure too (the row may have changed meanwhile). */
    readonly refreshOnError?: boolean;
  },
) {
  const { report, ...invoke } = invokeOf(options.run, options.report);
  const afterError = options.refreshOnError ? [options.refresh, options.clear] : [options.clear];
  return {
    confirming: {
      on: {
        ...on(options.events.confirm, 'working' as const),
        ...on(options.events.cancel, { target: options.closed, actions: [options.clear] }),
      },
    },
    working: {
      tags: [options.tag],
      invoke: {
        ...invoke,
        onDone: { target: options.closed, actions: [report, options.refresh, options.clear] },
        onError: { target: options.closed, actions: [failedWith(options.failed), ...afterError] },
      },
    },
  };
}

/**
 * A list page that follows the filter header, reads its list whole and edits its rows in the two dialogs above, as
 * the root transitions and the three parallel regions of the page's chart (`id` is the page machine's id):
 *
 *   header.filters ── a new query (newQuery) ─> setHeader, refresh ;  otherwise setHeader
 *   list:   waiting ── <refresh's event> (canAct) ─> loading ─> loaded | failed ── retry ─> loading
 *           (loading: the rows forgotten, `show` gets the answer as params `{ output }`)
 *   form:   closed ── <the page's open transitions> ─> open: formDialogStates (done and cancel: closed)
 *   remove: idle ── <the page's ask transitions> ─> confirming: confirmDialogStates (closed: idle)
 *
 * `refresh` is the page's action that asks for the list again (it raises `events.load`), so every way to the list
 * (the header, a save, a delete, the page's own choices) is the one transition of the list region.
 */
export function listEditorParts<
  TContext,
  const TId extends string,
  const TLoad extends string,
  const TRetry extends string,
  const TNewQuery extends string,
  const TSetHeader extends string,
  const TCanAct extends string,
  const TListTag extends string,
  const TListSrc extends string,
  TListLogic extends AnyActorLogic,
  TListInput,
  const TShow extends string,
  const TForget extends string,
  const TRefresh extends string,
  const TOpen,
  const TAsk,
  const TSubmit extends string,
  const TCancel extends string,
  const TEditing,
  const TGuard extends string,
  const TSaveTag extends string,
  const TSaveSrc extends string,
  TSaveLogic extends AnyActorLogic,
  TSaveInput,
  const TSaved extends string,
  const TClearDraft extends string,
  const TSaveFailed extends string,
  const TConfirm extends string,
  const TConfirmCancel extends string,
  const TRemoveTag extends string,
  const TRemoveSrc extends string,
  TRemoveLogic extends AnyActorLogic,
  TRemoveInput,
  const TRemoved extends string,
  const TClearTarget extends string,
  const TRemoveFailed extends string,
>(options: {
  readonly id: TId;
  readonly events: { readonly load: TLoad; readonly retry: TRetry };
  /** The header's filters make a query other than the list's (params `{ event }`). */
  readonly newQuery: TNewQuery;
  /** Keeps what the page needs of the header's filters (params `{ event }`). */
  readonly setHeader: TSetHeader;
  /** The page has a query: its list may be read, a dialog opened. */
  readonly canAct: TCanAct;
  /** Reads the list again: raises `events.load`. */
  readonly refresh: TRefresh;
  readonly list: {
    /** The loading state's tag. */
    readonly tag: TListTag;
    readonly load: Invoked<TContext, TListSrc, TListLogic, TListInput>;
    /** Keeps the rows read (params `{ output }`). */
    readonly show: TShow;
    /** Forgets the rows shown while the list is read again. */
    readonly forget: TForget;
  };
  readonly form: {
    /** The closed form's own transitions (to 'open'), guarded by the page. */
    readonly open: TOpen;
    readonly events: { readonly submit: TSubmit; readonly cancel: TCancel };
    readonly editing: TEditing;
    readonly canSubmit: TGuard;
    readonly tag: TSaveTag;
    readonly submit: Invoked<TContext, TSaveSrc, TSaveLogic, TSaveInput>;
    readonly report: TSaved;
    readonly clear: TClearDraft;
    readonly failed: TSaveFailed;
  };
  readonly remove: {
    /** The idle state's own transitions (to 'confirming'), guarded by the page. */
    readonly ask: TAsk;
    readonly events: { readonly confirm: TConfirm; readonly cancel: TConfirmCancel };
    readonly tag: TRemoveTag;
    readonly run: Invoked<TContext, TRemoveSrc, TRemoveLogic, TRemoveInput>;
    readonly report: TRemoved;
    readonly clear: TClearTarget;
    readonly failed: TRemoveFailed;
    readonly refreshOnError?: boolean;
  };
}) {
  const { report: show, ...loadInvoke } = invokeOf(options.list.load, options.list.show);
  const withHeader = {
    type: options.setHeader,
    params: ({ event }: { event: HeaderFiltersEvent }) => ({ event }),
  };
  const formClosed = `#${options.id}.form.closed` as const;
  return {
    on: {
      'header.filters': [
        {
          guard: {
            type: options.newQuery,
            params: ({ event }: { event: HeaderFiltersEvent }) => ({ event }),
          },
          actions: [withHeader, options.refresh],
        },
        { actions: [withHeader] },
      ],
    },
    states: {
      list: {
        initial: 'waiting' as const,
        on: on(options.events.load, { guard: options.canAct, target: '.loading' as const, reenter: true }),
        states: {
          waiting: {},
          loading: {
            tags: [options.list.tag],
            entry: [options.list.forget],
            invoke: {
              ...loadInvoke,
              onDone: { target: 'loaded' as const, actions: [show] },
              onError: { target: 'failed' as const },
            },
          },
          loaded: {},
          failed: { on: on(options.events.retry, { target: 'loading' as const }) },
        },
      },
      form: {
        initial: 'closed' as const,
        states: {
          closed: { on: options.form.open },
          open: {
            initial: 'editing' as const,
            states: formDialogStates({
              events: options.form.events,
              editing: options.form.editing,
              canSubmit: options.form.canSubmit,
              tag: options.form.tag,
              submit: options.form.submit,
              closed: formClosed,
              done: formClosed,
              report: options.form.report,
              refresh: options.refresh,
              clear: options.form.clear,
              failed: options.form.failed,
            }),
          },
        },
      },
      remove: {
        initial: 'idle' as const,
        states: {
          idle: { on: options.remove.ask },
          ...confirmDialogStates({
            events: options.remove.events,
            tag: options.remove.tag,
            run: options.remove.run,
            closed: `#${options.id}.remove.idle` as const,
            report: options.remove.report,
            refresh: options.refresh,
            clear: options.remove.clear,
            failed: options.remove.failed,
            ...(options.remove.refreshOnError === undefined ? {} : { refreshOnError: options.remove.refreshOnError }),
          }),
        },
      },
    },
  };
}
