import { assign, emit, fromPromise, raise, setup } from 'xstate';
import {
  type CalendarEntry,
  type CalendarEntryRequest,
  createCalendarEntry,
  deleteCalendarEntry,
  getCalendar,
  updateCalendarEntry,
} from '../api/calendar';
import { type ApiClient, api } from '../api/client';
import { serverMessageWhen } from '../api/errors';
import {
  countriesOf,
  HOLIDAY_MESSAGES,
  type HolidayDraft,
  type HolidayDraftField,
  holidayDraftProblem,
  isCalendarKind,
} from '../domain/calendar';
import { type Notice, TOAST_TIMEOUT } from '../domain/messages';
import { listEditorParts } from './factories/listDialogs';
import { followHeaderFilters, type HeaderFiltersEvent } from './headerLink';

/**
 * Shopper Connect, Calendar (/shopper-connect/calendar): the client's holidays, festivals and school holidays of a
 * country (one of its malls' countries) in a year, added, changed and removed in dialogs (the root transitions and
 * the three regions from factories/listDialogs' listEditorParts). Three parallel regions:
 *
 *   list:   waiting ── header.filters (a client and its malls' countries) ─> loading ─> loaded | failed
 *           calendar.country / calendar.year (another one offered) ─> loading ; failed ── list.retry ─> loading
 *   form:   closed ── form.open { entry? } ─> open.editing ── form.change ; form.cancel ─> closed
 *           open.editing ── form.submit (a valid draft) ─> open.submitting ─> closed (toast, the list again)
 *                                                                         | open.editing (the failure in the dialog)
 *   remove: idle ── delete.ask { entry } ─> confirming ── delete.confirm ─> working ─> idle (toast, the list again)
 */

export interface CalendarQuery {
  readonly clientId: number;
  readonly country: string;
  readonly year: number;
}

export interface CalendarContext {
  readonly clientId: number | undefined;
  /** The countries of the client's malls the header offers. */
  readonly countries: readonly string[];
  readonly country: string | undefined;
  readonly year: number | undefined;
  readonly entries: readonly CalendarEntry[] | undefined;
  readonly draft: HolidayDraft | undefined;
  /** Why the last save failed (the server's 400 text, else the spec's). */
  readonly formError: string | undefined;
  readonly target: CalendarEntry | undefined;
}

export type CalendarEvent =
  | HeaderFiltersEvent
  | { type: 'calendar.country'; country: string }
  | { type: 'calendar.year'; year: number }
  | { type: 'list.load' }
  | { type: 'list.retry' }
  | { type: 'form.open'; entry?: CalendarEntry }
  | { type: 'form.change'; field: HolidayDraftField; value: string }
  | { type: 'form.submit' }
  | { type: 'form.cancel' }
  | { type: 'delete.ask'; entry: CalendarEntry }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' };

export type CalendarTag = 'loading' | 'saving' | 'deleting';

const notice = (intent: 'success' | 'danger', message: string): Notice => ({
  type: 'notify',
  intent,
  message,
  timeout: TOAST_TIMEOUT.long,
});

/** The query the context stands for; undefined before a client, a country and a year. */
export function calendarQueryOf(context: CalendarContext): CalendarQuery | undefined {
  const { clientId, country, year } = context;
  if (clientId === undefined || country === undefined || year === undefined) return undefined;
  return { clientId, country, year };
}

/** The context with the header's client, its malls' countries, and a country and year kept when still offered. */
function withHeader(context: CalendarContext, event: HeaderFiltersEvent): CalendarContext {
  const countries = countriesOf(event.malls ?? []);
  const country = context.country !== undefined && countries.includes(context.country) ? context.country : countries[0];
  const year = context.year ?? (event.today ? Number(event.today.slice(0, 4)) : undefined);
  return { ...context, clientId: event.filters.clientId, countries, country, year };
}

const sameQuery = (a: CalendarQuery | undefined, b: CalendarQuery | undefined) =>
  JSON.stringify(a) === JSON.stringify(b);

/** A new entry's draft: a public holiday of one day. */
export const NEW_HOLIDAY: HolidayDraft = {
  id: undefined,
  name: '',
  start: '',
  end: '',
  kind: 'public_holiday',
  festival: '',
};

const draftOf = (entry: CalendarEntry): HolidayDraft => ({
  id: entry.id,
  name: entry.name,
  start: entry.start_date,
  end: entry.end_date,
  kind: isCalendarKind(entry.kind) ? entry.kind : 'public_holiday',
  festival: entry.festival ?? '',
});

function changed(draft: HolidayDraft, field: HolidayDraftField, value: string): HolidayDraft {
  if (field === 'kind') return isCalendarKind(value) ? { ...draft, kind: value } : draft;
  // A new entry's last day follows its first until it is set.
  if (field === 'start' && draft.id === undefined && (draft.end === '' || draft.end < value)) {
    return { ...draft, start: value, end: value };
  }
  return { ...draft, [field]: value };
}

interface SaveInput {
  readonly clientId: number;
  readonly country: string;
  readonly draft: HolidayDraft;
}

export function createCalendarMachine(client: ApiClient = api) {
  const saveEntry = fromPromise<CalendarEntry, SaveInput>(({ input, signal }) => {
    const { draft } = input;
    const festival = draft.festival.trim();
    const body: CalendarEntryRequest = {
      client_id: input.clientId,
      country: input.country,
      start_date: draft.start,
      end_date: draft.end,
      name: draft.name.trim(),
      kind: draft.kind,
      festival: festival === '' ? null : festival,
    };
    return draft.id === undefined
      ? createCalendarEntry(body, { signal, client })
      : updateCalendarEntry({ ...body, id: draft.id }, { signal, client });
  });
  const removeEntry = fromPromise<unknown, { clientId: number; id: number }>(({ input, signal }) =>
    deleteCalendarEntry({ client_id: input.clientId, id: input.id }, { signal, client }),
  );
  const loadEntries = fromPromise<CalendarEntry[], CalendarQuery>(({ input, signal }) =>
    getCalendar({ client_id: input.clientId, country: input.country, year: input.year }, { signal, client }),
  );
  const parts = listEditorParts({
    id: 'calendar',
    events: { load: 'list.load', retry: 'list.retry' },
    newQuery: 'isNewQuery',
    setHeader: 'setHeader',
    canAct: 'hasQuery',
    refresh: 'loadList',
    list: {
      tag: 'loading',
      load: { src: 'loadEntries', logic: loadEntries, input: calendarQueryOf },
      show: 'showEntries',
      forget: 'forgetEntries',
    },
    form: {
      open: {
        'form.open': {
          guard: 'hasQuery',
          target: 'open',
          actions: {
            type: 'openDraft',
            params: ({ event }: { event: { entry?: CalendarEntry } }) => ({ entry: event.entry }),
          },
        },
      },
      events: { submit: 'form.submit', cancel: 'form.cancel' },
      editing: {
        'form.change': {
          actions: {
            type: 'changeDraft',
            params: ({ event }: { event: { field: HolidayDraftField; value: string } }) => ({
              field: event.field,
              value: event.value,
            }),
          },
        },
      },
      canSubmit: 'canSave',
      tag: 'saving',
      submit: {
        src: 'saveEntry',
        logic: saveEntry,
        input: (context: CalendarContext) => {
          const query = calendarQueryOf(context);
          return query && context.draft
            ? { clientId: query.clientId, country: query.country, draft: context.draft }
            : undefined;
        },
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
            params: ({ event }: { event: { entry: CalendarEntry } }) => ({ entry: event.entry }),
          },
        },
      },
      events: { confirm: 'delete.confirm', cancel: 'delete.cancel' },
      tag: 'deleting',
      run: {
        src: 'removeEntry',
        logic: removeEntry,
        input: ({ clientId, target }: CalendarContext) =>
          clientId !== undefined && target ? { clientId, id: target.id } : undefined,
      },
      report: 'reportDeleted',
      clear: 'clearTarget',
      failed: 'deleteFailed',
      refreshOnError: true,
    },
  });
  return setup({
    types: {
      context: {} as CalendarContext,
      events: {} as CalendarEvent,
      emitted: {} as Notice,
      tags: {} as CalendarTag,
    },
    actors: {
      followHeaderFilters,
      loadEntries,
      saveEntry,
      removeEntry,
    },
    guards: {
      isNewQuery: ({ context }, params: { event: HeaderFiltersEvent }) => {
        const query = calendarQueryOf(withHeader(context, params.event));
        return query !== undefined && !sameQuery(query, calendarQueryOf(context));
      },
      isOtherCountry: ({ context }, params: { country: string }) =>
        params.country !== context.country && context.countries.includes(params.country),
      isOtherYear: ({ context }, params: { year: number }) =>
        params.year !== context.year && Number.isInteger(params.year) && params.year >= 2000 && params.year <= 2100,
      canSave: ({ context }) =>
        calendarQueryOf(context) !== undefined &&
        context.draft !== undefined &&
        holidayDraftProblem(context.draft) === undefined,
      hasQuery: ({ context }) => calendarQueryOf(context) !== undefined,
    },
    actions: {
      setHeader: assign(({ context }, params: { event: HeaderFiltersEvent }) => withHeader(context, params.event)),
      setCountry: assign((_, params: { country: string }) => ({ country: params.country })),
      setYear: assign((_, params: { year: number }) => ({ year: params.year })),
      loadList: raise({ type: 'list.load' }),
      showEntries: assign((_, params: { output: CalendarEntry[] }) => ({ entries: params.output })),
      forgetEntries: assign({ entries: undefined }),
      openDraft: assign((_, params: { entry: CalendarEntry | undefined }) => ({
        draft: params.entry ? draftOf(params.entry) : NEW_HOLIDAY,
        formError: undefined,
      })),
      changeDraft: assign(({ context }, params: { field: HolidayDraftField; value: string }) =>
        context.draft ? { draft: changed(context.draft, params.field, params.value), formError: undefined } : {},
      ),
      clearDraft: assign({ draft: undefined, formError: undefined }),
      reportSaved: emit(({ context }) =>
        notice('success', context.draft?.id === undefined ? HOLIDAY_MESSAGES.added : HOLIDAY_MESSAGES.updated),
      ),
      saveFailed: assign(({ context }, params: { error: unknown }) => ({
        formError:
          serverMessageWhen(params.error, 400) ??
          serverMessageWhen(params.error, 404) ??
          (context.draft?.id === undefined ? HOLIDAY_MESSAGES.addFailed : HOLIDAY_MESSAGES.updateFailed),
      })),
      setTarget: assign((_, params: { entry: CalendarEntry }) => ({ target: params.entry })),
      clearTarget: assign({ target: undefined }),
      reportDeleted: emit(({ context }) => notice('success', HOLIDAY_MESSAGES.deleted(context.target?.name ?? ''))),
      deleteFailed: emit(({ context }) => notice('danger', HOLIDAY_MESSAGES.deleteFailed(context.target?.name ?? ''))),
    },
  }).createMachine({
    id: 'calendar',
    type: 'parallel',
    context: {
      clientId: undefined,
      countries: [],
      country: undefined,
      year: undefined,
      entries: undefined,
      draft: undefined,
      formError: undefined,
      target: undefined,
    },
    invoke: { src: 'followHeaderFilters' },
    on: {
      ...parts.on,
      'calendar.country': {
        guard: { type: 'isOtherCountry', params: ({ event }) => ({ country: event.country }) },
        actions: [{ type: 'setCountry', params: ({ event }) => ({ country: event.country }) }, 'loadList'],
      },
      'calendar.year': {
        guard: { type: 'isOtherYear', params: ({ event }) => ({ year: event.year }) },
        actions: [{ type: 'setYear', params: ({ event }) => ({ year: event.year }) }, 'loadList'],
      },
    },
    states: parts.states,
  });
}

export const calendarMachine = createCalendarMachine();
