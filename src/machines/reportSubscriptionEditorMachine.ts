import { assign, emit, fromPromise, setup } from 'xstate';
import { type ApiClient, api } from '../api/client';
import { ApiError, serverMessageWhen } from '../api/errors';
import {
  createReportSubscription,
  getReportSubscriptions,
  getSubscriptionRecipients,
  mayCreateReportSubscriptions,
  type RenderingState,
  type ReportSubscription,
  type ReportSubscriptionInput,
  type SubscriptionRecipient,
  updateReportSubscription,
} from '../api/reportSubscriptions';
import { errorOccurs, type Notice, TOAST_TIMEOUT } from '../domain/messages';
import {
  draftOfSubscription,
  isSubscriptionDraftValid,
  newSubscriptionDraft,
  type SubscriptionDraft,
  type SubscriptionTarget,
  subscriptionInputOf,
} from '../domain/reportSubscriptions';

/**
 * The subscribe dialog (issue 34): a new subscription of the report page shown (its path and the header's query, from
 * the report toolbar's Subscribe), or a subscription of the Subscriptions page changed. Opening it reads the users
 * the caller may send to and whether the server can render PDFs; without a browser the dialog says so and saves
 * nothing (the server would answer 409 with the same reason, which the dialog shows too).
 *
 *   closed ── subscribe.open ─> loading ── done ─> editing ; error ─> failed ── subscribe.retry ─> loading
 *   editing ── subscribe.change ─> editing ; subscribe.save (a valid draft, rendering available) ─> saving
 *   saving ── done ─> closed ('Save Successfully.', subscription.saved) ; 409 ─> editing (rendering off, its reason)
 *          └─ 400 ─> editing (the server's reason) ; other error ─> editing ('Save Failed.')
 *   any open state ── subscribe.cancel ─> closed (the draft forgotten)
 */

export const SUBSCRIPTION_SAVED_MESSAGE = 'Save Successfully.';
export const SUBSCRIPTION_SAVE_FAILED_MESSAGE = 'Save Failed.';
export const SUBSCRIPTION_OPTIONS_WHAT = 'Subscription recipients fetching';
export const SUBSCRIPTION_OPTIONS_ERROR = errorOccurs(SUBSCRIPTION_OPTIONS_WHAT);

export interface SubscriptionEditorContext {
  /** Whether the session may make subscriptions at all: without it the page offers no Subscribe. */
  readonly mayCreate: boolean;
  readonly target: SubscriptionTarget | undefined;
  /** The subscription changed, or undefined for a new one. */
  readonly editingId: number | undefined;
  readonly draft: SubscriptionDraft | undefined;
  readonly recipients: readonly SubscriptionRecipient[];
  readonly rendering: RenderingState | undefined;
  /** Why the last save failed, shown in the dialog. */
  readonly error: string | undefined;
}

export type SubscriptionEditorEvent =
  | { type: 'subscribe.open'; target: SubscriptionTarget; subscription?: ReportSubscription }
  | { type: 'subscribe.change'; change: Partial<SubscriptionDraft> }
  | { type: 'subscribe.save' }
  | { type: 'subscribe.retry' }
  | { type: 'subscribe.cancel' };

/** Told to whoever listens once a subscription is saved (the Subscriptions page reads its list again). */
export interface SubscriptionSaved {
  type: 'subscription.saved';
  subscription: ReportSubscription;
}

interface EditorOptions {
  readonly recipients: readonly SubscriptionRecipient[];
  readonly rendering: RenderingState;
}

interface SaveInput {
  readonly id: number | undefined;
  readonly body: ReportSubscriptionInput;
}

const notice = (intent: 'success' | 'danger', message: string): Notice => ({
  type: 'notify',
  intent,
  message,
  timeout: TOAST_TIMEOUT.long,
});

/** The body of a save: the page checked against the contract's pages when the dialog was opened. */
function bodyOf(target: SubscriptionTarget, draft: SubscriptionDraft): ReportSubscriptionInput {
  return { ...subscriptionInputOf(target, draft), page_path: target.pagePath as ReportSubscriptionInput['page_path'] };
}

/** The dialog's machine; `client` replaces the app's API client (tests), `mayCreate` the session's permissions. */
export function createSubscriptionEditorMachine(
  client: ApiClient = api,
  mayCreate: () => boolean = mayCreateReportSubscriptions,
) {
  return setup({
    types: {
      context: {} as SubscriptionEditorContext,
      events: {} as SubscriptionEditorEvent,
      emitted: {} as Notice | SubscriptionSaved,
    },
    actors: {
      loadOptions: fromPromise<EditorOptions, { clientId: number }>(async ({ input, signal }) => {
        const [recipients, list] = await Promise.all([
          getSubscriptionRecipients(input.clientId, { signal, client }),
          getReportSubscriptions(input.clientId, { signal, client }),
        ]);
        return { recipients, rendering: list.rendering };
      }),
      saveSubscription: fromPromise<ReportSubscription, SaveInput>(({ input, signal }) =>
        input.id === undefined
          ? createReportSubscription(input.body, { signal, client })
          : updateReportSubscription(input.id, input.body, { signal, client }),
      ),
    },
    guards: {
      mayOpen: ({ context }) => context.mayCreate,
      canSave: ({ context }) =>
        context.target !== undefined &&
        context.draft !== undefined &&
        context.rendering?.available === true &&
        isSubscriptionDraftValid(context.draft, context.target.pagePath),
      isRenderingRefusal: (_, params: { error: unknown }) =>
        params.error instanceof ApiError && params.error.status === 409,
    },
    actions: {
      open: assign(({ event }) => {
        if (event.type !== 'subscribe.open') return {};
        return {
          target: event.target,
          editingId: event.subscription?.id,
          draft: event.subscription ? draftOfSubscription(event.subscription) : newSubscriptionDraft(event.target),
          recipients: [],
          rendering: undefined,
          error: undefined,
        };
      }),
      setOptions: assign((_, params: { output: EditorOptions }) => ({
        recipients: params.output.recipients,
        rendering: params.output.rendering,
      })),
      change: assign(({ context, event }) => {
        if (event.type !== 'subscribe.change' || !context.draft) return {};
        return { draft: { ...context.draft, ...event.change }, error: undefined };
      }),
      forget: assign({
        target: undefined,
        editingId: undefined,
        draft: undefined,
        recipients: [],
        rendering: undefined,
        error: undefined,
      }),
      setRenderingOff: assign((_, params: { error: unknown }) => {
        const message = serverMessageWhen(params.error, 409) ?? SUBSCRIPTION_SAVE_FAILED_MESSAGE;
        return { rendering: { available: false, message }, error: undefined };
      }),
      setError: assign((_, params: { error: unknown }) => ({
        error: serverMessageWhen(params.error, 400) ?? SUBSCRIPTION_SAVE_FAILED_MESSAGE,
      })),
      notifySaved: emit(notice('success', SUBSCRIPTION_SAVED_MESSAGE)),
      notifySaveFailed: emit(notice('danger', SUBSCRIPTION_SAVE_FAILED_MESSAGE)),
      notifyOptionsFailed: emit(notice('danger', SUBSCRIPTION_OPTIONS_ERROR)),
      tellSaved: emit((_, params: { subscription: ReportSubscription }) => ({
        type: 'subscription.saved' as const,
        subscription: params.subscription,
      })),
    },
  }).createMachine({
    id: 'reportSubscriptionEditor',
    context: () => ({
      mayCreate: mayCreate(),
      target: undefined,
      editingId: undefined,
      draft: undefined,
      recipients: [],
      rendering: undefined,
      error: undefined,
    }),
    initial: 'closed',
    states: {
      closed: {
        on: { 'subscribe.open': { guard: 'mayOpen', target: 'loading', actions: 'open' } },
      },
      loading: {
        invoke: {
          src: 'loadOptions',
          input: ({ context }) => ({ clientId: context.target?.clientId ?? 0 }),
          onDone: {
            target: 'editing',
            actions: { type: 'setOptions', params: ({ event }) => ({ output: event.output }) },
          },
          onError: { target: 'failed', actions: 'notifyOptionsFailed' },
        },
        on: { 'subscribe.cancel': { target: 'closed', actions: 'forget' } },
      },
      failed: {
        on: {
          'subscribe.retry': 'loading',
          'subscribe.cancel': { target: 'closed', actions: 'forget' },
        },
      },
      editing: {
        on: {
          'subscribe.change': { actions: 'change' },
          'subscribe.save': { guard: 'canSave', target: 'saving' },
          'subscribe.cancel': { target: 'closed', actions: 'forget' },
        },
      },
      saving: {
        invoke: {
          src: 'saveSubscription',
          input: ({ context }) => {
            if (!context.target || !context.draft) throw new Error('subscription: saving without a draft');
            return { id: context.editingId, body: bodyOf(context.target, context.draft) };
          },
          onDone: {
            target: 'closed',
            actions: [
              'notifySaved',
              { type: 'tellSaved', params: ({ event }) => ({ subscription: event.output }) },
              'forget',
            ],
          },
          onError: [
            {
              guard: { type: 'isRenderingRefusal', params: ({ event }) => ({ error: event.error }) },
              target: 'editing',
              actions: { type: 'setRenderingOff', params: ({ event }) => ({ error: event.error }) },
            },
            {
              target: 'editing',
              actions: [{ type: 'setError', params: ({ event }) => ({ error: event.error }) }, 'notifySaveFailed'],
            },
          ],
        },
      },
    },
  });
}

/** The app's subscribe dialog machine. */
export const subscriptionEditorMachine = createSubscriptionEditorMachine();
