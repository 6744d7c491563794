import type { AnyActorLogic, OutputFrom } from 'xstate';

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
