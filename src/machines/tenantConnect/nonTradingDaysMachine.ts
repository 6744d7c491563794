import { assign, emit, fromPromise, sendTo, setup } from 'xstate';
import type { CallOptions } from '../../api/client';
import { serverMessageWhen } from '../../api/errors';
import {
  declareNonTradingDay,
  declareOutletNonTradingDay,
  getNonTradingDays,
  getOutletNonTradingDays,
  type NonTradingDay,
  type NonTradingDayKey,
  type NonTradingDayRequest,
  type NonTradingSortColumn,
  removeNonTradingDay,
  withdrawOutletNonTradingDay,
} from '../../api/nonTradingDays';
import { type Notice, TOAST_TIMEOUT } from '../../domain/messages';
import {
  DECLARE_FAILED_MESSAGE,
  type DeclarationDraft,
  declarationProblem,
  declaredMessage,
  EMPTY_DECLARATION,
  isNonTradingPeriod,
  isWithdrawable,
  NON_TRADING_DAYS_WHAT,
  type NonTradingPeriod,
  nonTradingWindow,
  REMOVE_FAILED_MESSAGE,
  removedMessage,
  WITHDRAW_FAILED_MESSAGE,
  withdrawnMessage,
} from '../../domain/nonTradingDays';
import {
  createPagedListMachine,
  type PagedListAnswer,
  type PagedListQuery,
  type SortOrder,
} from '../factories/pagedListMachine';
import { followHeaderFilters, type HeaderFiltersEvent } from '../headerLink';

/**
 * The non-trading days of Tenant Connect, in two pages of one shape: the mall's list of every outlet it sees
 * (/tenant-connect/non-trading-days: the header's outlet, or all of them) and the tenant's view of its one outlet
 * (/tenant-connect/sales-review/non-trading-day). The days are a paged list (factories/pagedListMachine), the
 * invoked child `list`, which the table sorts and pages itself; this machine tells it the filters (the header's
 * client, outlet and date range, or the days ahead: `period.change`), and declares and removes days:
 *
 *   ready ── declaration.submit (a valid draft) ─> declaring ── done ─> ready (the toast; the form empty; the list again)
 *                                                             └ error ─> ready (the server's 400 text, or the toast; the draft kept)
 *   ready ── removal.ask (a day it may remove) ─> confirming ── removal.confirm ─> removing ─> ready (the toast; the list again)
 *                                                            └ removal.cancel ─> ready
 *
 * The mall removes any day; the tenant withdraws only the days it declared (isWithdrawable).
 */

export interface NonTradingListFilters {
  readonly clientId: number;
  /** One outlet; every outlet the caller sees when undefined (the mall's list only). */
  readonly outletId: number | undefined;
  readonly from: string;
  readonly to: string;
}

export const NON_TRADING_SORT_COLUMNS: readonly NonTradingSortColumn[] = [
  'day',
  'outlet_name',
  'reason',
  'declared_by',
  'user_email',
  'declared_at',
];
export const NON_TRADING_DEFAULT_SORT: { readonly column: NonTradingSortColumn; readonly order: SortOrder } = {
  column: 'day',
  order: 'desc',
};
export const NON_TRADING_ROWS_PER_PAGE_OPTIONS = [10, 20, 50] as const;
type RowsPerPage = (typeof NON_TRADING_ROWS_PER_PAGE_OPTIONS)[number];
const isRowsPerPage = (value: number): value is RowsPerPage =>
  (NON_TRADING_ROWS_PER_PAGE_OPTIONS as readonly number[]).includes(value);

type ListQuery = PagedListQuery<NonTradingListFilters, NonTradingSortColumn>;
type ListOptions = CallOptions & { readonly signal: AbortSignal };

/** The list's paging and sort as the calls take them. */
function pagingOf(query: ListQuery) {
  if (!isRowsPerPage(query.rowsPerPage)) throw new Error(`non-trading days: ${query.rowsPerPage} rows per page`);
  return {
    page: query.page,
    rowsPerPage: query.rowsPerPage,
    sortColumn: query.sortColumn,
    orderByMethod: query.order,
  };
}

const callOptions = ({ signal, client }: ListOptions) => ({ signal, ...(client ? { client } : {}) });

/** The mall's page of days (GET /api/nonTradingDays): one outlet, or every outlet. */
export async function loadNonTradingDays(
  query: ListQuery,
  options: ListOptions,
): Promise<PagedListAnswer<NonTradingDay>> {
  const { clientId, outletId, from, to } = query.filters;
  const page = await getNonTradingDays(
    {
      client_id: clientId,
      from,
      to,
      ...(outletId === undefined ? {} : { outlet_id: outletId }),
      ...pagingOf(query),
    },
    callOptions(options),
  );
  return { rows: page.data, total: page.total };
}

/** The tenant's page of its outlet's days (GET /api/salesReview/nonTradingDays). */
export async function loadOutletNonTradingDays(
  query: ListQuery,
  options: ListOptions,
): Promise<PagedListAnswer<NonTradingDay>> {
  const { clientId, outletId, from, to } = query.filters;
  if (outletId === undefined) throw new Error('non-trading days: the tenant’s view without an outlet');
  const page = await getOutletNonTradingDays(
    { client_id: clientId, outlet_id: outletId, from, to, ...pagingOf(query) },
    callOptions(options),
  );
  return { rows: page.data, total: page.total };
}

const rowKey = (row: NonTradingDay) => `${row.outlet_id}:${row.day}`;

const listOptions = {
  what: NON_TRADING_DAYS_WHAT,
  rowKey,
  sortColumns: NON_TRADING_SORT_COLUMNS,
  defaultSort: NON_TRADING_DEFAULT_SORT,
  rowsPerPage: 20,
  rowsPerPageOptions: NON_TRADING_ROWS_PER_PAGE_OPTIONS,
} as const;

export const nonTradingListMachine = createPagedListMachine<NonTradingDay, NonTradingListFilters, NonTradingSortColumn>(
  { id: 'nonTradingList', load: loadNonTradingDays, ...listOptions },
);

export const outletNonTradingListMachine = createPagedListMachine<
  NonTradingDay,
  NonTradingListFilters,
  NonTradingSortColumn
>({ id: 'outletNonTradingList', load: loadOutletNonTradingDays, ...listOptions });

export type NonTradingListMachine = typeof nonTradingListMachine;

/** What tells the two pages apart. */
export interface NonTradingDaysOptions {
  readonly id: string;
  /** 'mall': the header's outlet or all of them, and the form picks the outlet; 'tenant': the header's one outlet. */
  readonly side: 'mall' | 'tenant';
  readonly list: NonTradingListMachine;
  readonly declare: (body: NonTradingDayRequest, options: CallOptions) => Promise<NonTradingDay>;
  readonly remove: (key: NonTradingDayKey, options: CallOptions) => Promise<unknown>;
  /** Whether the page may remove the day. */
  readonly canRemove: (row: NonTradingDay) => boolean;
  readonly removedMessage: (day: string) => string;
  readonly removeFailedMessage: string;
}

export interface NonTradingDaysContext {
  readonly clientId: number | undefined;
  /** The header's outlets (the mall's form picks one of them). */
  readonly outlets: readonly { readonly id: number; readonly name: string }[];
  /** The header's one outlet; undefined for All Outlets. */
  readonly outletId: number | undefined;
  readonly range: { readonly start: string; readonly end: string } | undefined;
  /** The header's today (`YYYY-MM-DD`). */
  readonly today: string | undefined;
  readonly period: NonTradingPeriod;
  readonly draft: DeclarationDraft;
  /** The day to remove (asked, or being removed). */
  readonly removal: NonTradingDay | undefined;
}

export type NonTradingDaysEvent =
  | HeaderFiltersEvent
  | { type: 'period.change'; period: string }
  | { type: 'declaration.change'; field: 'day' | 'reason'; value: string }
  | { type: 'declaration.outlet'; outletId: number | undefined }
  | { type: 'declaration.submit' }
  | { type: 'removal.ask'; row: NonTradingDay }
  | { type: 'removal.confirm' }
  | { type: 'removal.cancel' };

/** The list's filters the context stands for; undefined before the header has a client and a range. */
export function listFiltersOf(context: NonTradingDaysContext): NonTradingListFilters | undefined {
  const { clientId, range, today } = context;
  if (clientId === undefined || range === undefined || today === undefined) return undefined;
  return { clientId, outletId: context.outletId, ...nonTradingWindow(context.period, range, today) };
}

const sameFilters = (a: NonTradingListFilters | undefined, b: NonTradingListFilters | undefined) =>
  JSON.stringify(a) === JSON.stringify(b);

const notice = (intent: Notice['intent'], message: string): Notice => ({
  type: 'notify',
  intent,
  message,
  timeout: TOAST_TIMEOUT.long,
});

/** The server's text of a refusal worth showing as it is (a rule broken, a day gone, the mall's day), else `fallback`. */
function failureMessage(error: unknown, fallback: string): string {
  return serverMessageWhen(error, 400) ?? serverMessageWhen(error, 404) ?? serverMessageWhen(error, 409) ?? fallback;
}

/** One of the two pages' machines. */
export function createNonTradingDaysMachine(options: NonTradingDaysOptions) {
  /** The header's outlet the draft takes: the tenant's always; the mall's when the draft has none of the outlets. */
  const draftOutlet = (context: NonTradingDaysContext): number | undefined => {
    if (options.side === 'tenant') return context.outletId;
    const chosen = context.draft.outletId;
    if (chosen !== undefined && context.outlets.some((outlet) => outlet.id === chosen)) return chosen;
    return context.outletId;
  };

  /** The context with the header's client, outlets, outlet, range and today, and the draft's outlet after them. */
  const withHeader = (context: NonTradingDaysContext, event: HeaderFiltersEvent): NonTradingDaysContext => {
    const { filters, outlets, today } = event;
    const next: NonTradingDaysContext = {
      ...context,
      clientId: filters.clientId,
      outlets: outlets.map(({ id, name }) => ({ id, name })),
      outletId: typeof filters.outlet === 'number' ? filters.outlet : undefined,
      range: { start: filters.dateRange.start, end: filters.dateRange.end },
      today: today ?? context.today,
    };
    return { ...next, draft: { ...next.draft, outletId: draftOutlet(next) } };
  };

  return setup({
    types: {
      context: {} as NonTradingDaysContext,
      events: {} as NonTradingDaysEvent,
      emitted: {} as Notice,
      tags: {} as 'busy',
      children: {} as { list: 'list' },
    },
    actors: {
      followHeaderFilters,
      list: options.list,
      declareDay: fromPromise<NonTradingDay, NonTradingDayRequest>(({ input, signal }) =>
        options.declare(input, { signal }),
      ),
      removeDay: fromPromise<unknown, NonTradingDayKey>(({ input, signal }) => options.remove(input, { signal })),
    },
    guards: {
      /** The header's filters change what the list shows (not a new today or list of outlets alone). */
      isNewListFilters: ({ context }, params: { event: HeaderFiltersEvent }) => {
        const filters = listFiltersOf(withHeader(context, params.event));
        return filters !== undefined && !sameFilters(filters, listFiltersOf(context));
      },
      canDeclare: ({ context }) =>
        context.clientId !== undefined &&
        context.today !== undefined &&
        declarationProblem(context.draft, context.today) === undefined,
      canRemove: ({ context }, params: { row: NonTradingDay }) =>
        context.clientId !== undefined && options.canRemove(params.row),
      isOutletOffered: ({ context }, params: { outletId: number | undefined }) =>
        options.side === 'mall' &&
        (params.outletId === undefined || context.outlets.some((outlet) => outlet.id === params.outletId)),
    },
    actions: {
      setHeader: assign(({ context }, params: { event: HeaderFiltersEvent }) => withHeader(context, params.event)),
      setPeriod: assign((_, params: { period: NonTradingPeriod }) => ({ period: params.period })),
      setDraftField: assign(({ context }, params: { field: 'day' | 'reason'; value: string }) => ({
        draft: { ...context.draft, [params.field]: params.value },
      })),
      setDraftOutlet: assign(({ context }, params: { outletId: number | undefined }) => ({
        draft: { ...context.draft, outletId: params.outletId },
      })),
      /** The form empty again, for the same outlet. */
      resetDraft: assign(({ context }) => ({ draft: { ...EMPTY_DECLARATION, outletId: context.draft.outletId } })),
      setRemoval: assign((_, params: { row: NonTradingDay }) => ({ removal: params.row })),
      resetRemoval: assign({ removal: undefined }),
      tellList: sendTo('list', ({ context }) => {
        const filters = listFiltersOf(context);
        if (!filters) throw new Error(`${options.id}: list filters without a client`);
        return { type: 'list.filters' as const, filters };
      }),
      refreshList: sendTo('list', { type: 'list.refresh' as const }),
      notify: emit((_, params: { intent: Notice['intent']; message: string }) => notice(params.intent, params.message)),
    },
  }).createMachine({
    id: options.id,
    context: {
      clientId: undefined,
      outlets: [],
      outletId: undefined,
      range: undefined,
      today: undefined,
      period: 'range',
      draft: EMPTY_DECLARATION,
      removal: undefined,
    },
    // The list first: the header's filters, told at once, go to it.
    invoke: [{ id: 'list', src: 'list', input: {} }, { src: 'followHeaderFilters' }],
    on: {
      'header.filters': [
        {
          guard: { type: 'isNewListFilters', params: ({ event }) => ({ event }) },
          actions: [{ type: 'setHeader', params: ({ event }) => ({ event }) }, 'tellList'],
        },
        { actions: { type: 'setHeader', params: ({ event }) => ({ event }) } },
      ],
      'period.change': {
        guard: ({ context, event }) => isNonTradingPeriod(event.period) && event.period !== context.period,
        actions: [
          { type: 'setPeriod', params: ({ event }) => ({ period: event.period as NonTradingPeriod }) },
          'tellList',
        ],
      },
      'declaration.change': {
        actions: { type: 'setDraftField', params: ({ event }) => ({ field: event.field, value: event.value }) },
      },
      'declaration.outlet': {
        guard: { type: 'isOutletOffered', params: ({ event }) => ({ outletId: event.outletId }) },
        actions: { type: 'setDraftOutlet', params: ({ event }) => ({ outletId: event.outletId }) },
      },
    },
    initial: 'ready',
    states: {
      ready: {
        on: {
          'declaration.submit': { guard: 'canDeclare', target: 'declaring' },
          'removal.ask': {
            guard: { type: 'canRemove', params: ({ event }) => ({ row: event.row }) },
            target: 'confirming',
            actions: { type: 'setRemoval', params: ({ event }) => ({ row: event.row }) },
          },
        },
      },
      declaring: {
        tags: ['busy'],
        invoke: {
          src: 'declareDay',
          input: ({ context }) => {
            const { clientId } = context;
            const { outletId, day, reason } = context.draft;
            if (clientId === undefined || outletId === undefined) throw new Error(`${options.id}: no outlet`);
            return { client_id: clientId, outlet_id: outletId, day, reason: reason.trim() };
          },
          onDone: {
            target: 'ready',
            actions: [
              {
                type: 'notify',
                params: ({ event }) => ({ intent: 'success', message: declaredMessage(event.output.day) }),
              },
              'resetDraft',
              'refreshList',
            ],
          },
          onError: {
            target: 'ready',
            actions: {
              type: 'notify',
              params: ({ event }) => ({
                intent: 'danger',
                message: failureMessage(event.error, DECLARE_FAILED_MESSAGE),
              }),
            },
          },
        },
      },
      /** The page asks before a day is removed. */
      confirming: {
        on: {
          'removal.confirm': { target: 'removing' },
          'removal.cancel': { target: 'ready', actions: 'resetRemoval' },
        },
      },
      removing: {
        tags: ['busy'],
        invoke: {
          src: 'removeDay',
          input: ({ context }) => {
            const { clientId, removal } = context;
            if (clientId === undefined || !removal) throw new Error(`${options.id}: nothing to remove`);
            return { client_id: clientId, outlet_id: removal.outlet_id, day: removal.day };
          },
          onDone: {
            target: 'ready',
            actions: [
              {
                type: 'notify',
                params: ({ context }) => ({
                  intent: 'success',
                  message: options.removedMessage(context.removal?.day ?? ''),
                }),
              },
              'resetRemoval',
              'refreshList',
            ],
          },
          onError: {
            target: 'ready',
            actions: [
              {
                type: 'notify',
                params: ({ event }) => ({
                  intent: 'danger',
                  message: failureMessage(event.error, options.removeFailedMessage),
                }),
              },
              'resetRemoval',
              'refreshList',
            ],
          },
        },
      },
    },
  });
}

/** The mall's list of every outlet it sees (the header's outlet, or all). */
export const nonTradingDaysMachine = createNonTradingDaysMachine({
  id: 'nonTradingDays',
  side: 'mall',
  list: nonTradingListMachine,
  declare: declareNonTradingDay,
  remove: removeNonTradingDay,
  canRemove: () => true,
  removedMessage,
  removeFailedMessage: REMOVE_FAILED_MESSAGE,
});

/** The tenant's view of its one outlet: it withdraws only the days it declared. */
export const outletNonTradingDaysMachine = createNonTradingDaysMachine({
  id: 'outletNonTradingDays',
  side: 'tenant',
  list: outletNonTradingListMachine,
  declare: declareOutletNonTradingDay,
  remove: withdrawOutletNonTradingDay,
  canRemove: isWithdrawable,
  removedMessage: withdrawnMessage,
  removeFailedMessage: WITHDRAW_FAILED_MESSAGE,
});
