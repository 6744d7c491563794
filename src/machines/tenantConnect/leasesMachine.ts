import { and, assign, emit, enqueueActions, fromPromise, sendTo, setup } from 'xstate';
import { type ApiClient, api } from '../../api/client';
import { ApiError, serverMessageWhen } from '../../api/errors';
import { createLease, getLeases, type Lease, type LeaseSortColumn, updateLease } from '../../api/leases';
import {
  canAddTier,
  canEndLease,
  canRemoveTier,
  defaultEndDay,
  draftHasField,
  type ExpiringMonths,
  endDayProblem,
  endLeaseBodyOf,
  isTurnoverModel,
  LEASE_ADD_FAILED_MESSAGE,
  LEASES_WHAT,
  type LeaseBody,
  type LeaseDraft,
  type LeaseOutlet,
  type LeaseProblems,
  type LeaseStatusFilter,
  type LeaseTextField,
  leaseAddedMessage,
  leaseBodyOf,
  leaseDraftOf,
  leaseDraftProblems,
  leaseEndedMessage,
  leaseEndFailedMessage,
  leaseRefusalOf,
  newLeaseDraft,
  withLeaseText,
  withTierAdded,
  withTierRemoved,
  withTierText,
} from '../../domain/leaseEditor';
import { type Notice, TOAST_TIMEOUT } from '../../domain/messages';
import { SAVE_FAILED_MESSAGE, SAVE_SUCCESS_MESSAGE } from '../../domain/settings';
import { formDialogStates } from '../factories/listDialogs';
import { createPagedListMachine, type PagedListQuery, type SortOrder } from '../factories/pagedListMachine';
import { followHeaderFilters, type HeaderFiltersEvent } from '../headerLink';

/**
 * Tenant Connect's Leases (/tenant-connect/leases, issue 33): the leases of the outlets of the header's client and
 * selected malls, a paged list (the invoked child `list`, which the table sorts, pages and searches by outlet name or
 * code itself) filtered by status (all, current, upcoming, ended) and by expiry (ending, or with a notice date, within
 * 3, 6 or 12 months), and two parallel regions (their dialogs' states from factories/listDialogs):
 *
 *   form: closed ── form.open { lease? } ─> open.editing ── form.change / form.outlet / form.model / form.tier /
 *         form.addTier / form.removeTier ; form.cancel ─> closed
 *         open.editing ── form.submit (a valid draft) ─> open.submitting ─> closed (toast, the list again)
 *                                                                      | open.editing (the refusal at its field, or a toast)
 *   end:  closed ── end.open { lease } (not ended) ─> open.editing ── end.change ; end.cancel ─> closed
 *         open.editing ── end.submit (a day it may end on) ─> open.submitting (PUT with that end date) ─> closed
 *         (toast, the list again) | open.editing (the server's reason in the dialog, or a toast)
 *
 * - A new lease is of one of the header's outlets of the selected malls; the dialogs keep the client and outlets
 *   they were opened with, so a header changed meanwhile does not move them. One dialog at a time.
 * - A 400 naming a field of the lease ('body/gla_sqm ...', 'end_date: ...') shows its reason at that field; any
 *   other 400 or a 404 is the server's text as a toast; otherwise 'Add lease failed.' / 'Save Failed.'.
 * - Toasts: 'Lease of {outlet} has been added successfully.', 'Save Successfully.', "{outlet}'s lease ends on {day}."
 */

export interface LeaseListFilters {
  readonly clientId: number;
  readonly mallIds: readonly number[];
  readonly status: LeaseStatusFilter;
  readonly expiring: ExpiringMonths | undefined;
}

/** Every sort column of the contract (GET /api/leases `sortColumn`). */
export const LEASE_SORT_COLUMNS: readonly LeaseSortColumn[] = [
  'outlet_name',
  'mall_name',
  'gla_sqm',
  'base_rent',
  'model',
  'start_date',
  'end_date',
  'notice_date',
];
export const LEASE_DEFAULT_SORT: { readonly column: LeaseSortColumn; readonly order: SortOrder } = {
  column: 'outlet_name',
  order: 'asc',
};
export const LEASE_ROWS_PER_PAGE = 20;
export const LEASE_ROWS_PER_PAGE_OPTIONS: readonly number[] = [10, 20, 50, 100];

/** The list's query as the call's parameters (no status for every status, no expiry, no search when none). */
export async function loadLeases(
  query: PagedListQuery<LeaseListFilters, LeaseSortColumn>,
  { signal, client = api }: { readonly signal: AbortSignal; readonly client?: ApiClient },
) {
  const { clientId, mallIds, status, expiring } = query.filters;
  const page = await getLeases(
    {
      client_id: clientId,
      mall_ids: [...mallIds],
      sortColumn: query.sortColumn,
      orderByMethod: query.order,
      page: query.page,
      rowsPerPage: query.rowsPerPage,
      ...(status === 'all' ? {} : { status }),
      ...(expiring === undefined ? {} : { expiring_within_months: expiring }),
      ...(query.search === '' ? {} : { search: query.search }),
    },
    { signal, client },
  );
  return { rows: page.data, total: page.total };
}

/** The leases of the selected malls, a paged list sorted, searched and filtered on the server. */
export function createLeasesListMachine(client: ApiClient = api) {
  return createPagedListMachine<Lease, LeaseListFilters, LeaseSortColumn>({
    id: 'leasesList',
    what: LEASES_WHAT,
    load: (query, { signal }) => loadLeases(query, { signal, client }),
    rowKey: (lease) => String(lease.id),
    sortColumns: LEASE_SORT_COLUMNS,
    defaultSort: LEASE_DEFAULT_SORT,
    rowsPerPage: LEASE_ROWS_PER_PAGE,
    rowsPerPageOptions: LEASE_ROWS_PER_PAGE_OPTIONS,
  });
}

/** A problem of the server at a field of the editor. */
export interface LeaseRefusal {
  readonly field: string;
  readonly message: string;
}

/** The editor's dialog: a new lease (no `lease`) or a change of one. */
export interface LeaseEditorState {
  readonly clientId: number;
  /** The lease changed; undefined for a new one. */
  readonly lease: Lease | undefined;
  /** The outlets a new lease may be of: the header's of the selected malls when the dialog opened. */
  readonly outlets: readonly LeaseOutlet[];
  readonly draft: LeaseDraft;
  readonly problems: LeaseProblems;
  /** The server's refusal of the last save, at the field it names, until the draft changes. */
  readonly refusal: LeaseRefusal | undefined;
}

/** The End lease dialog: the lease and the last day typed. */
export interface LeaseEndState {
  readonly clientId: number;
  readonly lease: Lease;
  readonly day: string;
  /** Why the lease may not end on the day (undefined: it may). */
  readonly problem: string | undefined;
  /** The server's reason for refusing the last try, until the day changes. */
  readonly refusal: string | undefined;
}

export interface LeasesContext {
  /** The header's client; undefined until it has one. */
  readonly clientId: number | undefined;
  /** The header's selected malls. */
  readonly mallIds: readonly number[];
  /** The header's outlets of the selected malls. */
  readonly outlets: readonly LeaseOutlet[];
  /** The header's today (`YYYY-MM-DD`). */
  readonly today: string | undefined;
  readonly status: LeaseStatusFilter;
  readonly expiring: ExpiringMonths | undefined;
  readonly editor: LeaseEditorState | undefined;
  readonly ending: LeaseEndState | undefined;
}

export type LeasesEvent =
  | HeaderFiltersEvent
  | { type: 'status.change'; status: LeaseStatusFilter }
  | { type: 'expiring.change'; months: ExpiringMonths | undefined }
  /** Opens the editor: a new lease, or a change of `lease`. */
  | { type: 'form.open'; lease?: Lease }
  | { type: 'form.change'; field: LeaseTextField; value: string }
  /** A new lease's outlet (one of those offered). */
  | { type: 'form.outlet'; outletId: number }
  | { type: 'form.model'; model: string }
  | { type: 'form.tier'; index: number; part: 'from' | 'rate'; value: string }
  | { type: 'form.addTier' }
  | { type: 'form.removeTier'; index: number }
  | { type: 'form.submit' }
  | { type: 'form.cancel' }
  | { type: 'end.open'; lease: Lease }
  | { type: 'end.change'; day: string }
  | { type: 'end.submit' }
  | { type: 'end.cancel' };

export type LeasesTag = 'saving' | 'ending';

interface SaveInput {
  readonly clientId: number;
  /** The lease changed; undefined for a new one. */
  readonly id: number | undefined;
  readonly body: LeaseBody;
}

const notice = (intent: 'success' | 'danger', message: string): Notice => ({
  type: 'notify',
  intent,
  message,
  timeout: TOAST_TIMEOUT.long,
});

/** The header's outlets of its selected malls, with their malls' names. */
export function leaseOutletsOf(event: HeaderFiltersEvent): LeaseOutlet[] {
  const selected = new Set(event.filters.mallIds);
  const mallNames = new Map((event.malls ?? []).map((mall) => [mall.id, mall.name]));
  return event.outlets
    .filter((outlet) => outlet.mall_id !== null && selected.has(outlet.mall_id))
    .map((outlet) => ({
      id: outlet.id,
      name: outlet.name,
      code: outlet.outlet_code,
      mallId: outlet.mall_id,
      mallName: (outlet.mall_id !== null && mallNames.get(outlet.mall_id)) || '',
      currency: outlet.currency,
    }));
}

/** The list's filters the context stands for; undefined before the header has a client and malls. */
export function leaseListFiltersOf(context: LeasesContext): LeaseListFilters | undefined {
  if (context.clientId === undefined || context.mallIds.length === 0) return undefined;
  return { clientId: context.clientId, mallIds: context.mallIds, status: context.status, expiring: context.expiring };
}

const sameFilters = (a: LeaseListFilters | undefined, b: LeaseListFilters | undefined) =>
  JSON.stringify(a) === JSON.stringify(b);

const withHeader = (context: LeasesContext, event: HeaderFiltersEvent): LeasesContext => ({
  ...context,
  clientId: event.filters.clientId ?? context.clientId,
  mallIds: event.filters.mallIds.length > 0 ? [...event.filters.mallIds] : context.mallIds,
  outlets: leaseOutletsOf(event),
  today: event.today ?? context.today,
});

/** The editor with its draft changed: the problems again, the server's refusal forgotten. */
const withDraft = (editor: LeaseEditorState, draft: LeaseDraft): LeaseEditorState => ({
  ...editor,
  draft,
  problems: leaseDraftProblems(draft),
  refusal: undefined,
});

const endingOn = (ending: LeaseEndState, day: string): LeaseEndState => ({
  ...ending,
  day,
  problem: endDayProblem(ending.lease, day),
  refusal: undefined,
});

export function createLeasesMachine(client: ApiClient = api) {
  const saveLease = fromPromise<Lease, SaveInput>(({ input, signal }) => {
    const body = { ...input.body, client_id: input.clientId };
    return input.id === undefined
      ? createLease(body, { signal, client })
      : updateLease({ ...body, id: input.id }, { signal, client });
  });
  const endLease = fromPromise<Lease, LeaseEndState>(({ input, signal }) =>
    updateLease(
      { ...endLeaseBodyOf(input.lease, input.day), client_id: input.clientId, id: input.lease.id },
      { signal, client },
    ),
  );
  return setup({
    types: {
      context: {} as LeasesContext,
      events: {} as LeasesEvent,
      emitted: {} as Notice,
      tags: {} as LeasesTag,
      children: {} as { list: 'leasesList' },
    },
    actors: { followHeaderFilters, leasesList: createLeasesListMachine(client), saveLease, endLease },
    guards: {
      /** The header's filters change what the list shows (not a new today or outlets alone). */
      isNewListFilters: ({ context }, params: { event: HeaderFiltersEvent }) => {
        const filters = leaseListFiltersOf(withHeader(context, params.event));
        return filters !== undefined && !sameFilters(filters, leaseListFiltersOf(context));
      },
      hasFilters: ({ context }) => leaseListFiltersOf(context) !== undefined,
      isNewStatus: ({ context, event }) => event.type === 'status.change' && event.status !== context.status,
      isNewExpiry: ({ context, event }) => event.type === 'expiring.change' && event.months !== context.expiring,
      /**
       * The editor may open: the page has a client and no other dialog is open; a new lease needs an outlet of the
       * selected malls, a change needs none.
       */
      canOpenEditor: ({ context, event }) =>
        event.type === 'form.open' &&
        context.clientId !== undefined &&
        !context.editor &&
        !context.ending &&
        (event.lease !== undefined || context.outlets.length > 0),
      /** The End lease dialog may open: a lease not ended, the page has a client and no other dialog is open. */
      canOpenEnding: ({ context, event }) =>
        event.type === 'end.open' &&
        context.clientId !== undefined &&
        !context.editor &&
        !context.ending &&
        canEndLease(event.lease),
      isOfferedOutlet: ({ context }, params: { outletId: number }) =>
        context.editor?.lease === undefined &&
        context.editor?.outlets.some((outlet) => outlet.id === params.outletId) === true,
      isModel: (_, params: { model: string }) => isTurnoverModel(params.model),
      isTier: ({ context }, params: { index: number }) => context.editor?.draft.tiers[params.index] !== undefined,
      canAddTier: ({ context }) => context.editor !== undefined && canAddTier(context.editor.draft),
      canRemoveTier: ({ context }, params: { index: number }) =>
        context.editor !== undefined && canRemoveTier(context.editor.draft, params.index),
      isDraftValid: ({ context }) => context.editor !== undefined && Object.keys(context.editor.problems).length === 0,
      isEndDayValid: ({ context }) => context.ending !== undefined && context.ending.problem === undefined,
    },
    actions: {
      setHeader: assign(({ context }, params: { event: HeaderFiltersEvent }) => withHeader(context, params.event)),
      setStatus: assign((_, params: { status: LeaseStatusFilter }) => ({ status: params.status })),
      setExpiry: assign((_, params: { months: ExpiringMonths | undefined }) => ({ expiring: params.months })),
      tellList: sendTo('list', ({ context }) => {
        const filters = leaseListFiltersOf(context);
        if (!filters) throw new Error('leases: list filters without a client and malls');
        return { type: 'list.filters' as const, filters };
      }),
      refreshList: sendTo('list', { type: 'list.refresh' as const }),
      openEditor: assign(({ context }, params: { lease: Lease | undefined }) => {
        if (context.clientId === undefined) return {};
        const draft = params.lease ? leaseDraftOf(params.lease) : newLeaseDraft(context.outlets);
        return {
          editor: {
            clientId: context.clientId,
            lease: params.lease,
            outlets: context.outlets,
            draft,
            problems: leaseDraftProblems(draft),
            refusal: undefined,
          },
        };
      }),
      changeText: assign(({ context }, params: { field: LeaseTextField; value: string }) =>
        context.editor
          ? { editor: withDraft(context.editor, withLeaseText(context.editor.draft, params.field, params.value)) }
          : {},
      ),
      changeOutlet: assign(({ context }, params: { outletId: number }) =>
        context.editor
          ? { editor: withDraft(context.editor, { ...context.editor.draft, outletId: params.outletId }) }
          : {},
      ),
      changeModel: assign(({ context }, params: { model: string }) =>
        context.editor && isTurnoverModel(params.model)
          ? { editor: withDraft(context.editor, { ...context.editor.draft, model: params.model }) }
          : {},
      ),
      changeTier: assign(({ context }, params: { index: number; part: 'from' | 'rate'; value: string }) =>
        context.editor
          ? {
              editor: withDraft(
                context.editor,
                withTierText(context.editor.draft, params.index, params.part, params.value),
              ),
            }
          : {},
      ),
      addTier: assign(({ context }) =>
        context.editor ? { editor: withDraft(context.editor, withTierAdded(context.editor.draft)) } : {},
      ),
      removeTier: assign(({ context }, params: { index: number }) =>
        context.editor
          ? { editor: withDraft(context.editor, withTierRemoved(context.editor.draft, params.index)) }
          : {},
      ),
      clearEditor: assign({ editor: undefined }),
      reportSaved: emit(({ context }, params: { output: Lease }) =>
        notice(
          'success',
          context.editor?.lease === undefined ? leaseAddedMessage(params.output.outlet_name) : SAVE_SUCCESS_MESSAGE,
        ),
      ),
      /** A refusal naming a field of the editor is shown there; any other failure is a toast. */
      saveFailed: enqueueActions(({ context, enqueue }, params: { error: unknown }) => {
        const editor = context.editor;
        if (!editor) return;
        const refused =
          params.error instanceof ApiError && params.error.status === 400 && params.error.serverMessage
            ? leaseRefusalOf(params.error.serverMessage)
            : undefined;
        if (refused && draftHasField(editor.draft, refused.field)) {
          enqueue.assign({ editor: { ...editor, refusal: refused } });
          return;
        }
        const fallback = editor.lease === undefined ? LEASE_ADD_FAILED_MESSAGE : SAVE_FAILED_MESSAGE;
        enqueue.emit(
          notice('danger', serverMessageWhen(params.error, 400) ?? serverMessageWhen(params.error, 404) ?? fallback),
        );
      }),
      openEnding: assign(({ context }, params: { lease: Lease }) => {
        if (context.clientId === undefined) return {};
        const day = defaultEndDay(params.lease, context.today);
        return {
          ending: {
            clientId: context.clientId,
            lease: params.lease,
            day,
            problem: endDayProblem(params.lease, day),
            refusal: undefined,
          },
        };
      }),
      changeEndDay: assign(({ context }, params: { day: string }) =>
        context.ending ? { ending: endingOn(context.ending, params.day) } : {},
      ),
      clearEnding: assign({ ending: undefined }),
      reportEnded: emit(({ context }, params: { output: Lease }) =>
        notice(
          'success',
          leaseEndedMessage(context.ending?.lease.outlet_name ?? params.output.outlet_name, params.output.end_date),
        ),
      ),
      /** A 400 is said in the dialog (the reason after the field it names); any other failure is a toast. */
      endFailed: enqueueActions(({ context, enqueue }, params: { error: unknown }) => {
        const ending = context.ending;
        if (!ending) return;
        const refusal = serverMessageWhen(params.error, 400);
        if (refusal) {
          enqueue.assign({ ending: { ...ending, refusal: leaseRefusalOf(refusal)?.message ?? refusal } });
          return;
        }
        enqueue.emit(
          notice('danger', serverMessageWhen(params.error, 404) ?? leaseEndFailedMessage(ending.lease.outlet_name)),
        );
      }),
    },
  }).createMachine({
    id: 'leases',
    type: 'parallel',
    context: {
      clientId: undefined,
      mallIds: [],
      outlets: [],
      today: undefined,
      status: 'all',
      expiring: undefined,
      editor: undefined,
      ending: undefined,
    },
    // The list first: the header's filters, told at once, go to it.
    invoke: [{ id: 'list', src: 'leasesList', input: {} }, { src: 'followHeaderFilters' }],
    on: {
      'header.filters': [
        {
          guard: { type: 'isNewListFilters', params: ({ event }) => ({ event }) },
          actions: [{ type: 'setHeader', params: ({ event }) => ({ event }) }, 'tellList'],
        },
        { actions: { type: 'setHeader', params: ({ event }) => ({ event }) } },
      ],
      'status.change': [
        {
          guard: and(['isNewStatus', 'hasFilters']),
          actions: [{ type: 'setStatus', params: ({ event }) => ({ status: event.status }) }, 'tellList'],
        },
        {
          guard: 'isNewStatus',
          actions: { type: 'setStatus', params: ({ event }) => ({ status: event.status }) },
        },
      ],
      'expiring.change': [
        {
          guard: and(['isNewExpiry', 'hasFilters']),
          actions: [{ type: 'setExpiry', params: ({ event }) => ({ months: event.months }) }, 'tellList'],
        },
        {
          guard: 'isNewExpiry',
          actions: { type: 'setExpiry', params: ({ event }) => ({ months: event.months }) },
        },
      ],
    },
    states: {
      form: {
        initial: 'closed',
        states: {
          closed: {
            on: {
              'form.open': {
                guard: 'canOpenEditor',
                target: 'open',
                actions: { type: 'openEditor', params: ({ event }) => ({ lease: event.lease }) },
              },
            },
          },
          open: {
            initial: 'editing',
            states: formDialogStates({
              events: { submit: 'form.submit', cancel: 'form.cancel' },
              editing: {
                'form.change': {
                  actions: {
                    type: 'changeText',
                    params: ({ event }: { event: { field: LeaseTextField; value: string } }) => ({
                      field: event.field,
                      value: event.value,
                    }),
                  },
                },
                'form.outlet': {
                  guard: {
                    type: 'isOfferedOutlet',
                    params: ({ event }: { event: { outletId: number } }) => ({ outletId: event.outletId }),
                  },
                  actions: {
                    type: 'changeOutlet',
                    params: ({ event }: { event: { outletId: number } }) => ({ outletId: event.outletId }),
                  },
                },
                'form.model': {
                  guard: {
                    type: 'isModel',
                    params: ({ event }: { event: { model: string } }) => ({ model: event.model }),
                  },
                  actions: {
                    type: 'changeModel',
                    params: ({ event }: { event: { model: string } }) => ({ model: event.model }),
                  },
                },
                'form.tier': {
                  guard: {
                    type: 'isTier',
                    params: ({ event }: { event: { index: number } }) => ({ index: event.index }),
                  },
                  actions: {
                    type: 'changeTier',
                    params: ({ event }: { event: { index: number; part: 'from' | 'rate'; value: string } }) => ({
                      index: event.index,
                      part: event.part,
                      value: event.value,
                    }),
                  },
                },
                'form.addTier': { guard: 'canAddTier', actions: 'addTier' },
                'form.removeTier': {
                  guard: {
                    type: 'canRemoveTier',
                    params: ({ event }: { event: { index: number } }) => ({ index: event.index }),
                  },
                  actions: {
                    type: 'removeTier',
                    params: ({ event }: { event: { index: number } }) => ({ index: event.index }),
                  },
                },
              },
              canSubmit: 'isDraftValid',
              tag: 'saving',
              submit: {
                src: 'saveLease',
                logic: saveLease,
                input: (context: LeasesContext): SaveInput | undefined => {
                  const editor = context.editor;
                  const body = editor ? leaseBodyOf(editor.draft) : undefined;
                  return editor && body ? { clientId: editor.clientId, id: editor.lease?.id, body } : undefined;
                },
              },
              closed: '#leases.form.closed',
              done: '#leases.form.closed',
              report: 'reportSaved',
              refresh: 'refreshList',
              clear: 'clearEditor',
              failed: 'saveFailed',
            }),
          },
        },
      },
      end: {
        initial: 'closed',
        states: {
          closed: {
            on: {
              'end.open': {
                guard: 'canOpenEnding',
                target: 'open',
                actions: { type: 'openEnding', params: ({ event }) => ({ lease: event.lease }) },
              },
            },
          },
          open: {
            initial: 'editing',
            states: formDialogStates({
              events: { submit: 'end.submit', cancel: 'end.cancel' },
              editing: {
                'end.change': {
                  actions: {
                    type: 'changeEndDay',
                    params: ({ event }: { event: { day: string } }) => ({ day: event.day }),
                  },
                },
              },
              canSubmit: 'isEndDayValid',
              tag: 'ending',
              submit: { src: 'endLease', logic: endLease, input: (context: LeasesContext) => context.ending },
              closed: '#leases.end.closed',
              done: '#leases.end.closed',
              report: 'reportEnded',
              refresh: 'refreshList',
              clear: 'clearEnding',
              failed: 'endFailed',
            }),
          },
        },
      },
    },
  });
}

/** The page's machine on the app's api client. */
export const leasesMachine = createLeasesMachine();
