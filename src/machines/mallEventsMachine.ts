import { assign, emit, enqueueActions, fromCallback, fromPromise, raise, setup } from 'xstate';
import {
  createMallEvent,
  deleteMallEvent,
  getMallEvents,
  type MallEvent,
  type MallEventRequest,
  mayCreateMallEvent,
  updateMallEvent,
} from '../api/calendar';
import { type ApiClient, api } from '../api/client';
import { serverMessageWhen } from '../api/errors';
import {
  EVENT_MESSAGES,
  isMallEventKind,
  MAX_ENTRY_DAYS_AFTER,
  type MallEventDraft,
  type MallEventDraftField,
  mallEventDraftProblem,
} from '../domain/calendar';
import { type Notice, TOAST_TIMEOUT } from '../domain/messages';
import { addDays } from '../domain/reports';
import { listEditorParts } from './factories/listDialogs';
import { followHeaderFilters, type HeaderFiltersEvent } from './headerLink';

/**
 * Shopper Connect, Events (/shopper-connect/events): the events of the header's malls over its range, added,
 * changed and removed in dialogs (the root transitions and the three regions from factories/listDialogs'
 * listEditorParts). Three parallel regions:
 *
 *   list:   waiting ── header.filters (a client and malls) ─> loading ─> loaded | failed ── list.retry ─> loading
 *   form:   closed ── form.open { event? } ─> open.editing ── form.change ; form.cancel ─> closed
 *           open.editing ── form.submit (a valid draft) ─> open.submitting ─> closed (toast, the list again)
 *                                                                         | open.editing (the failure in the dialog)
 *   remove: idle ── delete.ask { event } ─> confirming ── delete.confirm ─> working ─> idle (toast, the list again)
 *
 * A new event starts on the header's first mall and range (the Mall Home's 'Add event' opens it so too, with
 * form.start, which opens nothing for a user who may not add an event: `mayAdd`).
 */

export interface MallOption {
  readonly id: number;
  readonly name: string;
}

export interface MallEventsQuery {
  readonly clientId: number;
  readonly mallIds: readonly number[];
  readonly start: string;
  readonly end: string;
}

export interface MallEventsContext {
  readonly query: MallEventsQuery | undefined;
  /** The header's malls (selected first), for the dialog's mall and the table's names. */
  readonly malls: readonly MallOption[];
  readonly events: readonly MallEvent[] | undefined;
  readonly draft: MallEventDraft | undefined;
  /** Why the last save failed (the server's 400 text, else the spec's). */
  readonly formError: string | undefined;
  readonly target: MallEvent | undefined;
  /**
   * Whether the user may add an event (the permission gate sends POST /api/mall_events), as the session stood when
   * the machine started (a page starts after sign-in, and a new user starts it again): Mall Home offers 'Add event'
   * only then.
   */
  readonly mayAdd: boolean;
}

export type MallEventsEvent =
  | HeaderFiltersEvent
  | { type: 'list.load' }
  | { type: 'list.retry' }
  | { type: 'form.open'; event?: MallEvent }
  /** Opens a new event's dialog for these malls and days (a page without the events list: Mall Home). */
  | { type: 'form.start'; query: MallEventsQuery; malls: readonly MallOption[] }
  | { type: 'form.change'; field: MallEventDraftField; value: string }
  | { type: 'form.submit' }
  | { type: 'form.cancel' }
  | { type: 'delete.ask'; event: MallEvent }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' };

export type MallEventsTag = 'loading' | 'saving' | 'deleting';

/** Emitted after an event is saved (Mall Home draws its chart's annotations again). */
export interface MallEventSaved {
  readonly type: 'event.saved';
  readonly event: MallEvent;
}

const notice = (intent: 'success' | 'danger', message: string): Notice => ({
  type: 'notify',
  intent,
  message,
  timeout: TOAST_TIMEOUT.long,
});

const sameQuery = (a: MallEventsQuery | undefined, b: MallEventsQuery | undefined) =>
  JSON.stringify(a) === JSON.stringify(b);

/** The events query of the header's committed filters; undefined before a client and malls. */
export function mallEventsQueryOf(event: HeaderFiltersEvent): MallEventsQuery | undefined {
  const { clientId, mallIds, dateRange } = event.filters;
  if (clientId === undefined || mallIds.length === 0) return undefined;
  return { clientId, mallIds: [...mallIds], start: dateRange.start, end: dateRange.end };
}

/** The header's malls, the selected ones only, by name. */
function mallsOf(event: HeaderFiltersEvent): MallOption[] {
  const selected = new Set(event.filters.mallIds);
  return (event.malls ?? []).filter((mall) => selected.has(mall.id)).map(({ id, name }) => ({ id, name }));
}

const minDay = (a: string, b: string) => (a < b ? a : b);

/** A new event's draft: the first selected mall, the range's days (cut to the longest event). */
export function newEventDraft(query: MallEventsQuery | undefined): MallEventDraft {
  return {
    id: undefined,
    mallId: query?.mallIds[0],
    title: '',
    start: query?.start ?? '',
    end: query ? minDay(query.end, addDays(query.start, MAX_ENTRY_DAYS_AFTER)) : '',
    kind: 'event',
  };
}

const draftOf = (event: MallEvent): MallEventDraft => ({
  id: event.id,
  mallId: event.mall_id,
  title: event.title,
  start: event.start_date,
  end: event.end_date,
  kind: isMallEventKind(event.kind) ? event.kind : 'other',
});

function changed(draft: MallEventDraft, field: MallEventDraftField, value: string): MallEventDraft {
  if (field === 'mallId') return { ...draft, mallId: Number(value) || undefined };
  if (field === 'kind') return isMallEventKind(value) ? { ...draft, kind: value } : draft;
  return { ...draft, [field]: value };
}

interface SaveInput {
  readonly clientId: number;
  readonly draft: MallEventDraft;
}

export function createMallEventsMachine(client: ApiClient = api) {
  const saveEvent = fromPromise<MallEvent, SaveInput>(({ input, signal }) => {
    const { draft } = input;
    if (draft.mallId === undefined) throw new Error('events: no mall');
    const body: MallEventRequest = {
      client_id: input.clientId,
      mall_id: draft.mallId,
      title: draft.title.trim(),
      start_date: draft.start,
      end_date: draft.end,
      kind: draft.kind,
    };
    return draft.id === undefined
      ? createMallEvent(body, { signal, client })
      : updateMallEvent({ ...body, id: draft.id }, { signal, client });
  });
  const removeEvent = fromPromise<unknown, { clientId: number; id: number }>(({ input, signal }) =>
    deleteMallEvent({ client_id: input.clientId, id: input.id }, { signal, client }),
  );
  const loadEvents = fromPromise<MallEvent[], MallEventsQuery>(async ({ input, signal }) => {
    const answer = await getMallEvents(
      { client_id: input.clientId, mall_ids: [...input.mallIds], start_time: input.start, end_time: input.end },
      { signal, client },
    );
    return answer.events;
  });
  const parts = listEditorParts({
    id: 'mallEvents',
    events: { load: 'list.load', retry: 'list.retry' },
    newQuery: 'isNewQuery',
    setHeader: 'setHeader',
    canAct: 'hasQuery',
    refresh: 'loadList',
    list: {
      tag: 'loading',
      load: { src: 'loadEvents', logic: loadEvents, input: (context: MallEventsContext) => context.query },
      show: 'showEvents',
      forget: 'forgetEvents',
    },
    form: {
      open: {
        'form.open': {
          guard: 'hasQuery',
          target: 'open',
          actions: {
            type: 'openDraft',
            params: ({ event }: { event: { event?: MallEvent } }) => ({ event: event.event }),
          },
        },
        'form.start': {
          guard: {
            type: 'mayStart',
            params: ({ event }: { event: { query: MallEventsQuery } }) => ({ query: event.query }),
          },
          target: 'open',
          actions: {
            type: 'startDraft',
            params: ({ event }: { event: { query: MallEventsQuery; malls: readonly MallOption[] } }) => ({
              query: event.query,
              malls: event.malls,
            }),
          },
        },
      },
      events: { submit: 'form.submit', cancel: 'form.cancel' },
      editing: {
        'form.change': {
          actions: {
            type: 'changeDraft',
            params: ({ event }: { event: { field: MallEventDraftField; value: string } }) => ({
              field: event.field,
              value: event.value,
            }),
          },
        },
      },
      canSubmit: 'canSave',
      tag: 'saving',
      submit: {
        src: 'saveEvent',
        logic: saveEvent,
        input: (context: MallEventsContext) =>
          context.query && context.draft ? { clientId: context.query.clientId, draft: context.draft } : undefined,
      },
      report: 'reportSaved',
      clear: 'clearDraft',
      failed: 'saveFailed',
    },
    remove: {
      ask: {
        'delete.ask': {
          guard: 'hasQuery',
          target: 'confirming',
          actions: {
            type: 'setTarget',
            params: ({ event }: { event: { event: MallEvent } }) => ({ event: event.event }),
          },
        },
      },
      events: { confirm: 'delete.confirm', cancel: 'delete.cancel' },
      tag: 'deleting',
      run: {
        src: 'removeEvent',
        logic: removeEvent,
        input: ({ query, target }: MallEventsContext) =>
          query && target ? { clientId: query.clientId, id: target.id } : undefined,
      },
      report: 'reportDeleted',
      clear: 'clearTarget',
      failed: 'deleteFailed',
      refreshOnError: true,
    },
  });
  return setup({
    types: {
      context: {} as MallEventsContext,
      events: {} as MallEventsEvent,
      emitted: {} as Notice | MallEventSaved,
      tags: {} as MallEventsTag,
    },
    actors: {
      followHeaderFilters,
      loadEvents,
      saveEvent,
      removeEvent,
    },
    guards: {
      isNewQuery: ({ context }, params: { event: HeaderFiltersEvent }) => {
        const query = mallEventsQueryOf(params.event);
        return query !== undefined && !sameQuery(query, context.query);
      },
      canSave: ({ context }) =>
        context.query !== undefined &&
        context.draft !== undefined &&
        mallEventDraftProblem(context.draft) === undefined,
      hasQuery: ({ context }) => context.query !== undefined,
      mayStart: ({ context }, params: { query: MallEventsQuery }) => context.mayAdd && params.query.mallIds.length > 0,
    },
    actions: {
      setHeader: assign(({ context }, params: { event: HeaderFiltersEvent }) => {
        const malls = mallsOf(params.event);
        return {
          query: mallEventsQueryOf(params.event) ?? context.query,
          malls: malls.length > 0 ? malls : context.malls,
        };
      }),
      loadList: raise({ type: 'list.load' }),
      showEvents: assign((_, params: { output: MallEvent[] }) => ({ events: params.output })),
      forgetEvents: assign({ events: undefined }),
      openDraft: assign(({ context }, params: { event: MallEvent | undefined }) => ({
        draft: params.event ? draftOf(params.event) : newEventDraft(context.query),
        formError: undefined,
      })),
      changeDraft: assign(({ context }, params: { field: MallEventDraftField; value: string }) =>
        context.draft ? { draft: changed(context.draft, params.field, params.value), formError: undefined } : {},
      ),
      clearDraft: assign({ draft: undefined, formError: undefined }),
      reportSaved: enqueueActions(({ context, enqueue }, params: { output: MallEvent }) => {
        enqueue.emit(
          notice('success', context.draft?.id === undefined ? EVENT_MESSAGES.added : EVENT_MESSAGES.updated),
        );
        enqueue.emit({ type: 'event.saved', event: params.output });
      }),
      startDraft: assign((_, params: { query: MallEventsQuery; malls: readonly MallOption[] }) => ({
        query: params.query,
        malls: params.malls,
        draft: newEventDraft(params.query),
        formError: undefined,
      })),
      saveFailed: assign(({ context }, params: { error: unknown }) => ({
        formError:
          serverMessageWhen(params.error, 400) ??
          serverMessageWhen(params.error, 404) ??
          (context.draft?.id === undefined ? EVENT_MESSAGES.addFailed : EVENT_MESSAGES.updateFailed),
      })),
      setTarget: assign((_, params: { event: MallEvent }) => ({ target: params.event })),
      clearTarget: assign({ target: undefined }),
      reportDeleted: emit(({ context }) => notice('success', EVENT_MESSAGES.deleted(context.target?.title ?? ''))),
      deleteFailed: emit(({ context }) => notice('danger', EVENT_MESSAGES.deleteFailed(context.target?.title ?? ''))),
    },
  }).createMachine({
    id: 'mallEvents',
    type: 'parallel',
    context: () => ({
      query: undefined,
      malls: [],
      events: undefined,
      draft: undefined,
      formError: undefined,
      target: undefined,
      mayAdd: mayCreateMallEvent(),
    }),
    invoke: { src: 'followHeaderFilters' },
    on: parts.on,
    states: parts.states,
  });
}

export const mallEventsMachine = createMallEventsMachine();

/**
 * Mall Home's 'Add event': the same dialog without the events list. It follows no header (form.start gives it the
 * malls and days) and lists nothing after a save, since Mall Home shows the event through its chart's annotations
 * (their own call of /api/mall_events). Its `mayAdd` says whether the page offers the button at all.
 */
export const mallEventDialogMachine = mallEventsMachine.provide({
  actors: { followHeaderFilters: fromCallback(() => undefined) },
  actions: { loadList: () => undefined },
});
