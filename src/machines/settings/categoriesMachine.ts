import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import type { ApiClient } from '../../api/client';
import { api } from '../../api/client';
import { serverMessageWhen } from '../../api/errors';
import {
  assignSkus,
  assignSubcategories,
  type Category,
  createCategory,
  deleteCategory,
  getCategories,
  getSkuNameOptions,
  getSubcategories,
  getSubcategoryNameOptions,
  type NameOption,
  type Subcategory,
} from '../../api/settings';
import { loadFailureNotice, type Notice, TOAST_TIMEOUT } from '../../domain/messages';
import {
  ASSIGN_ITEMS_FAILED_MESSAGE,
  ASSIGN_ITEMS_SUCCESS_MESSAGE,
  ASSIGN_SUBCATEGORY_FAILED_MESSAGE,
  ASSIGN_SUBCATEGORY_SUCCESS_MESSAGE,
  addedMessage,
  addFailedMessage,
  appendOptions,
  CATEGORY_TYPE,
  type CategoryType,
  categoryNameOf,
  deletedMessage,
  deleteFailedMessage,
  firstMatchIndex,
  hasMoreOptions,
  NO_SUBCATEGORY_SELECTED_MESSAGE,
  SETTINGS_WHAT,
  uniqueIds,
} from '../../domain/settings';
import { confirmDialogStates, formDialogStates } from '../factories/listDialogs';
import { createPagedListMachine } from '../factories/pagedListMachine';

/**
 * Categories and subcategories with SKU assignment (§2, §3, §4, §5, §7, §8, §9).
 *
 * Two paged lists (factories/pagedListMachine), the invoked children `categories` and `subcategories`, and three
 * parallel regions (the create and remove dialogs' states from factories/listDialogs):
 *   create: closed ── create.open { categoryType: 1 | 2 } ─> open.editing ── create.change ; create.cancel ─> closed
 *           open.editing ── create.submit ─> open.submitting ─> closed (toast, the list again) | open.editing (toast)
 *           (an empty name aborts: the dialog closes and nothing is sent)
 *   remove: idle ── delete.ask ─> confirming ── delete.confirm ─> working ─> idle (toast, both lists again) ;
 *           delete.cancel ─> idle
 *   assign: closed ── assign.open { kind, id, name } ─> open.loading (name options, 20 a page) ─> open.idle
 *           open.idle ── assign.more (the next page while the last had 20) / assign.search ─> open.loading
 *           open ── assign.toggle ; assign.submit ─> assigning ─> closed (toast) | open.idle (toast) ; assign.close
 *
 * - Assigning sends the ticked ids (parsed as integers, de-duplicated) to the target and the ids it had but are no
 *   longer ticked with null (unassigned); nothing ticked nor unticked: 'No subcategory selected.'.
 * - Toasts of §8 exactly; a 400 on adding shows the server's text instead.
 */

export interface CategoriesInput {
  readonly clientId: number;
  readonly outletId?: number | undefined;
}

export interface ClientFilter {
  readonly clientId: number;
}

export const CATEGORY_ROWS_PER_PAGE = 10;
export const CATEGORY_ROWS_PER_PAGE_OPTIONS = [10, 20, 50] as const;

export function createCategoriesListMachine(client: ApiClient = api) {
  return createPagedListMachine<Category, ClientFilter, 'name'>({
    id: 'categoriesList',
    what: SETTINGS_WHAT.categories,
    load: async (query, { signal }) => {
      const { data, total } = await getCategories(
        { client_id: query.filters.clientId, page: query.page, rowsPerPage: query.rowsPerPage },
        { signal, client },
      );
      return { rows: data, total };
    },
    rowKey: (row) => String(row.id),
    sortColumns: ['name'],
    defaultSort: { column: 'name', order: 'asc' },
    rowsPerPage: CATEGORY_ROWS_PER_PAGE,
    rowsPerPageOptions: CATEGORY_ROWS_PER_PAGE_OPTIONS,
  });
}

export function createSubcategoriesListMachine(client: ApiClient = api) {
  return createPagedListMachine<Subcategory, ClientFilter, 'name'>({
    id: 'subcategoriesList',
    what: SETTINGS_WHAT.subcategories,
    load: async (query, { signal }) => {
      const { data, total } = await getSubcategories(
        { client_id: query.filters.clientId, page: query.page, rowsPerPage: query.rowsPerPage },
        { signal, client },
      );
      return { rows: data, total };
    },
    rowKey: (row) => String(row.id),
    sortColumns: ['name'],
    defaultSort: { column: 'name', order: 'asc' },
    rowsPerPage: CATEGORY_ROWS_PER_PAGE,
    rowsPerPageOptions: CATEGORY_ROWS_PER_PAGE_OPTIONS,
  });
}

/** What is assigned: subcategories to a category, or SKUs (items) to a subcategory. */
export type AssignKind = 'subcategories' | 'skus';

export interface CreateDraft {
  readonly categoryType: CategoryType;
  readonly name: string;
}

export interface RemoveTarget {
  readonly categoryType: CategoryType;
  readonly id: number;
  readonly name: string;
}

export interface AssignDraft {
  readonly kind: AssignKind;
  /** The category (subcategories) or subcategory (SKUs) assigned to. */
  readonly targetId: number;
  readonly targetName: string;
  readonly search: string;
  /** The last page asked (from 1). */
  readonly page: number;
  readonly options: readonly NameOption[];
  /** Whether a next page may follow (the last had 20). */
  readonly more: boolean;
  /** Ids the target had when the dialog opened (as the server lists them). */
  readonly assignedIds: readonly number[];
  /** Ids ticked. */
  readonly selected: readonly number[];
  /** The option of the first match of the search (-1: none). */
  readonly highlighted: number;
}

export interface CategoriesContext {
  readonly clientId: number;
  readonly outletId: number | undefined;
  readonly create: CreateDraft | undefined;
  readonly remove: RemoveTarget | undefined;
  readonly assign: AssignDraft | undefined;
}

export type CategoriesEvent =
  | { type: 'create.open'; categoryType: CategoryType }
  | { type: 'create.change'; name: string }
  | { type: 'create.submit' }
  | { type: 'create.cancel' }
  | { type: 'delete.ask'; categoryType: CategoryType; id: number; name: string }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'assign.open'; kind: AssignKind; id: number; name: string }
  | { type: 'assign.search'; text: string }
  | { type: 'assign.more' }
  | { type: 'assign.toggle'; id: number }
  | { type: 'assign.submit' }
  | { type: 'assign.close' }
  /** The header's outlet changed (sent with creations and item assignments). */
  | { type: 'categories.outlet'; outletId: number | undefined };

interface OptionsInput {
  readonly clientId: number;
  readonly kind: AssignKind;
  readonly targetId: number;
  readonly search: string;
  readonly page: number;
}

interface AssignInput {
  readonly clientId: number;
  readonly outletId: number | undefined;
  readonly kind: AssignKind;
  readonly targetId: number;
  readonly assign: readonly number[];
  readonly unassign: readonly number[];
}

function notice(intent: 'success' | 'danger', message: string): Notice {
  return { type: 'notify', intent, message, timeout: TOAST_TIMEOUT.long };
}

/** The ids to send: ticked ones to the target, ones it had but no longer ticked unassigned (§5). */
export function assignmentOf(draft: Pick<AssignDraft, 'selected' | 'assignedIds'>): {
  assign: number[];
  unassign: number[];
} {
  const assignIds = uniqueIds(draft.selected);
  const unassign = uniqueIds(draft.assignedIds).filter((id) => !assignIds.includes(id));
  return { assign: assignIds, unassign };
}

const assignMessages = {
  subcategories: { success: ASSIGN_SUBCATEGORY_SUCCESS_MESSAGE, failure: ASSIGN_SUBCATEGORY_FAILED_MESSAGE },
  skus: { success: ASSIGN_ITEMS_SUCCESS_MESSAGE, failure: ASSIGN_ITEMS_FAILED_MESSAGE },
} as const;

const listOf = (type: CategoryType) => (type === CATEGORY_TYPE.category ? 'categories' : 'subcategories');

export function createCategoriesMachine(client: ApiClient = api) {
  const addCategory = fromPromise<
    Category,
    { clientId: number; outletId: number | undefined; name: string; categoryType: CategoryType }
  >(({ input, signal }) =>
    createCategory(
      {
        client_id: input.clientId,
        ...(input.outletId !== undefined && { id: String(input.outletId) }),
        name: input.name,
        isCategory: input.categoryType === CATEGORY_TYPE.category,
      },
      { signal, client },
    ),
  );
  const removeCategory = fromPromise<void, { clientId: number; target: RemoveTarget }>(({ input, signal }) =>
    deleteCategory(
      {
        client_id: input.clientId,
        category_id: input.target.id,
        isCategory: input.target.categoryType === CATEGORY_TYPE.category,
      },
      { signal, client },
    ),
  );
  return setup({
    types: {
      context: {} as CategoriesContext,
      events: {} as CategoriesEvent,
      input: {} as CategoriesInput,
      emitted: {} as Notice,
      tags: {} as 'creating' | 'deleting' | 'assigning' | 'optionsLoading',
      children: {} as { categories: 'categoriesList'; subcategories: 'subcategoriesList' },
    },
    actors: {
      categoriesList: createCategoriesListMachine(client),
      subcategoriesList: createSubcategoriesListMachine(client),
      addCategory,
      removeCategory,
      fetchNameOptions: fromPromise<{ data: NameOption[]; assignedIds: number[] }, OptionsInput>(
        ({ input, signal }) => {
          const common = {
            client_id: input.clientId,
            page: input.page,
            ...(input.search !== '' && { searchedText: input.search }),
          };
          return input.kind === 'subcategories'
            ? getSubcategoryNameOptions({ ...common, category_id: input.targetId }, { signal, client })
            : getSkuNameOptions({ ...common, subcategory_id: input.targetId }, { signal, client });
        },
      ),
      saveAssignment: fromPromise<void, AssignInput>(async ({ input, signal }) => {
        const send = (targetId: number | null, ids: readonly number[]) =>
          input.kind === 'subcategories'
            ? assignSubcategories(
                { client_id: input.clientId, category_id: targetId, subcategory_ids: [...ids] },
                { signal, client },
              )
            : assignSkus(
                {
                  client_id: input.clientId,
                  ...(input.outletId !== undefined && { id: String(input.outletId) }),
                  subcategory_id: targetId,
                  sku_ids: [...ids],
                },
                { signal, client },
              );
        if (input.assign.length > 0) await send(input.targetId, input.assign);
        if (input.unassign.length > 0) await send(null, input.unassign);
      }),
    },
    guards: {
      hasName: ({ context }) => context.create !== undefined && categoryNameOf(context.create.name) !== undefined,
      canLoadMore: ({ context }) => context.assign?.more === true,
      hasAssignment: ({ context }) => {
        if (!context.assign) return false;
        const { assign: ids, unassign } = assignmentOf(context.assign);
        return ids.length > 0 || unassign.length > 0;
      },
      isOption: ({ context }, params: { id: number }) =>
        context.assign?.options.some((option) => option.id === params.id) === true,
    },
    actions: {
      notify: emit((_, params: { intent: 'success' | 'danger'; message: string }) =>
        notice(params.intent, params.message),
      ),
      changeCreate: assign(({ context, event }) =>
        context.create && event.type === 'create.change' ? { create: { ...context.create, name: event.name } } : {},
      ),
      clearCreate: assign({ create: undefined }),
      clearRemove: assign({ remove: undefined }),
      notifyAdded: emit(({ context }) =>
        notice('success', addedMessage(categoryNameOf(context.create?.name ?? '') ?? '')),
      ),
      notifyAddFailed: emit(({ context }, params: { error: unknown }) =>
        notice(
          'danger',
          serverMessageWhen(params.error, 400) ?? addFailedMessage(categoryNameOf(context.create?.name ?? '') ?? ''),
        ),
      ),
      refreshCreatedList: enqueueActions(({ context, enqueue }) => {
        enqueue.sendTo(listOf(context.create?.categoryType ?? CATEGORY_TYPE.category), { type: 'list.refresh' });
      }),
      notifyDeleted: emit(({ context }) => notice('success', deletedMessage(context.remove?.name ?? ''))),
      notifyDeleteFailed: emit(({ context }) => notice('danger', deleteFailedMessage(context.remove?.name ?? ''))),
      refreshBothLists: enqueueActions(({ enqueue }) => {
        enqueue.sendTo('categories', { type: 'list.refresh' });
        enqueue.sendTo('subcategories', { type: 'list.refresh' });
      }),
      refreshLists: enqueueActions(({ enqueue }, params: { lists: readonly ('categories' | 'subcategories')[] }) => {
        for (const list of params.lists) enqueue.sendTo(list, { type: 'list.refresh' });
      }),
      setOptions: assign(({ context }, params: { answer: { data: NameOption[]; assignedIds: number[] } }) => {
        const draft = context.assign;
        if (!draft) return {};
        const options = draft.page === 1 ? params.answer.data : appendOptions(draft.options, params.answer.data);
        const newlyAssigned = params.answer.assignedIds.filter((id) => !draft.assignedIds.includes(id));
        return {
          assign: {
            ...draft,
            options,
            more: hasMoreOptions(params.answer.data.length),
            assignedIds: [...draft.assignedIds, ...newlyAssigned],
            selected: uniqueIds([...draft.selected, ...newlyAssigned]),
            highlighted: firstMatchIndex(
              options.map((option) => option.name),
              draft.search,
            ),
          },
        };
      }),
    },
  }).createMachine({
    id: 'categories',
    type: 'parallel',
    context: ({ input }) => ({
      clientId: input.clientId,
      outletId: input.outletId,
      create: undefined,
      remove: undefined,
      assign: undefined,
    }),
    on: {
      'categories.outlet': { actions: assign(({ event }) => ({ outletId: event.outletId })) },
    },
    invoke: [
      {
        id: 'categories',
        src: 'categoriesList',
        input: ({ context }) => ({ filters: { clientId: context.clientId } }),
      },
      {
        id: 'subcategories',
        src: 'subcategoriesList',
        input: ({ context }) => ({ filters: { clientId: context.clientId } }),
      },
    ],
    states: {
      create: {
        initial: 'closed',
        states: {
          closed: {
            on: {
              'create.open': {
                target: 'open',
                actions: assign(({ event }) => ({ create: { categoryType: event.categoryType, name: '' } })),
              },
            },
          },
          open: {
            initial: 'editing',
            states: formDialogStates({
              events: { submit: 'create.submit', cancel: 'create.cancel' },
              editing: { 'create.change': { actions: 'changeCreate' } },
              canSubmit: 'hasName',
              // An empty name aborts: nothing is sent.
              closeOnInvalidSubmit: true,
              tag: 'creating',
              submit: {
                src: 'addCategory',
                logic: addCategory,
                input: (context: CategoriesContext) => {
                  const draft = context.create;
                  const name = draft ? categoryNameOf(draft.name) : undefined;
                  if (!draft || name === undefined) return undefined;
                  return {
                    clientId: context.clientId,
                    outletId: context.outletId,
                    name,
                    categoryType: draft.categoryType,
                  };
                },
              },
              closed: '#categories.create.closed',
              done: '#categories.create.closed',
              report: 'notifyAdded',
              refresh: 'refreshCreatedList',
              clear: 'clearCreate',
              failed: 'notifyAddFailed',
            }),
          },
        },
      },
      remove: {
        initial: 'idle',
        states: {
          idle: {
            on: {
              'delete.ask': {
                target: 'confirming',
                actions: assign(({ event }) => ({
                  remove: { categoryType: event.categoryType, id: event.id, name: event.name },
                })),
              },
            },
          },
          ...confirmDialogStates({
            events: { confirm: 'delete.confirm', cancel: 'delete.cancel' },
            tag: 'deleting',
            run: {
              src: 'removeCategory',
              logic: removeCategory,
              input: ({ clientId, remove }: CategoriesContext) => remove && { clientId, target: remove },
            },
            closed: '#categories.remove.idle',
            report: 'notifyDeleted',
            refresh: 'refreshBothLists',
            clear: 'clearRemove',
            failed: 'notifyDeleteFailed',
          }),
        },
      },
      assign: {
        initial: 'closed',
        states: {
          closed: {
            on: {
              'assign.open': {
                target: 'open',
                actions: assign(({ event }) => ({
                  assign: {
                    kind: event.kind,
                    targetId: event.id,
                    targetName: event.name,
                    search: '',
                    page: 1,
                    options: [],
                    more: false,
                    assignedIds: [],
                    selected: [],
                    highlighted: -1,
                  },
                })),
              },
            },
          },
          open: {
            initial: 'loading',
            on: {
              'assign.close': { target: 'closed', actions: assign({ assign: undefined }) },
              'assign.search': {
                target: '.loading',
                actions: assign(({ context, event }) =>
                  context.assign
                    ? { assign: { ...context.assign, search: event.text.trim(), page: 1, options: [], more: false } }
                    : {},
                ),
              },
              'assign.toggle': {
                guard: { type: 'isOption', params: ({ event }) => ({ id: event.id }) },
                actions: assign(({ context, event }) => {
                  const draft = context.assign;
                  if (!draft) return {};
                  const selected = draft.selected.includes(event.id)
                    ? draft.selected.filter((id) => id !== event.id)
                    : [...draft.selected, event.id];
                  return { assign: { ...draft, selected } };
                }),
              },
            },
            states: {
              loading: {
                tags: ['optionsLoading'],
                on: {
                  'assign.search': {
                    target: 'loading',
                    reenter: true,
                    actions: assign(({ context, event }) =>
                      context.assign
                        ? {
                            assign: { ...context.assign, search: event.text.trim(), page: 1, options: [], more: false },
                          }
                        : {},
                    ),
                  },
                },
                invoke: {
                  src: 'fetchNameOptions',
                  input: ({ context }) => {
                    const draft = context.assign;
                    if (!draft) throw new Error('categories: options of no dialog');
                    return {
                      clientId: context.clientId,
                      kind: draft.kind,
                      targetId: draft.targetId,
                      search: draft.search,
                      page: draft.page,
                    };
                  },
                  onDone: {
                    target: 'idle',
                    actions: { type: 'setOptions', params: ({ event }) => ({ answer: event.output }) },
                  },
                  onError: {
                    target: 'idle',
                    actions: [
                      assign(({ context }) => (context.assign ? { assign: { ...context.assign, more: false } } : {})),
                      { type: 'notify', params: loadFailureNotice(SETTINGS_WHAT.options) },
                    ],
                  },
                },
              },
              idle: {
                on: {
                  'assign.more': {
                    guard: 'canLoadMore',
                    target: 'loading',
                    actions: assign(({ context }) =>
                      context.assign ? { assign: { ...context.assign, page: context.assign.page + 1 } } : {},
                    ),
                  },
                  'assign.submit': [
                    { guard: 'hasAssignment', target: 'assigning' },
                    {
                      actions: {
                        type: 'notify',
                        params: { intent: 'danger', message: NO_SUBCATEGORY_SELECTED_MESSAGE },
                      },
                    },
                  ],
                },
              },
              assigning: {
                tags: ['assigning'],
                on: { 'assign.close': {}, 'assign.search': {}, 'assign.toggle': {} },
                invoke: {
                  src: 'saveAssignment',
                  input: ({ context }) => {
                    const draft = context.assign;
                    if (!draft) throw new Error('categories: assigning without a dialog');
                    return {
                      clientId: context.clientId,
                      outletId: context.outletId,
                      kind: draft.kind,
                      targetId: draft.targetId,
                      ...assignmentOf(draft),
                    };
                  },
                  onDone: {
                    target: '#categories.assign.closed',
                    actions: [
                      {
                        type: 'notify',
                        params: ({ context }) => ({
                          intent: 'success',
                          message: assignMessages[context.assign?.kind ?? 'subcategories'].success,
                        }),
                      },
                      { type: 'refreshLists', params: { lists: ['subcategories'] } },
                      assign({ assign: undefined }),
                    ],
                  },
                  onError: {
                    target: 'idle',
                    actions: {
                      type: 'notify',
                      params: ({ context }) => ({
                        intent: 'danger',
                        message: assignMessages[context.assign?.kind ?? 'subcategories'].failure,
                      }),
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  });
}

export const categoriesMachine = createCategoriesMachine();
