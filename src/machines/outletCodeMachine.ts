import { type ActorRefFrom, assign, enqueueActions, fromCallback, type SnapshotFrom, sendTo, setup } from 'xstate';
import { type ApiClient, api, type CallOptions } from '../api/client';
import { ApiError } from '../api/errors';
import { getOutletCodes, type OutletCodeRow, type OutletCodeSortColumn, updateOutletCodes } from '../api/outletCodes';
import {
  changedOutletCodes,
  isOutletCodeDraftValid,
  type OutletCodeDraft,
  type OutletCodeRefusal,
  outletCodeDraftOf,
  refusedItemOf,
  savedOutletCodeDraft,
} from '../domain/outletCodes';
import { SAVE_FAILED_MESSAGE, SAVE_SUCCESS_MESSAGE } from '../domain/settings';
import { createEditorMachine } from './factories/editorMachine';
import { createPagedListMachine, type PagedListQuery, type SortOrder } from './factories/pagedListMachine';
import { followHeaderFilters, type HeaderFiltersEvent, lockHeader } from './headerLink';

/**
 * Shopper Connect's Outlet Code page: the outlets of the header's client and malls with their codes, a paged list
 * (the invoked child `list`, searchable, sortable by mall, outlet and code) whose rows shown are edited in place by
 * an editor (the spawned child `editor`, started again for every page of rows the list answers).
 *
 *   free ── editor.dirty (true) ─> held   (tag 'held': the header locked; search, sort and paging wait)
 *   held ── editor.dirty (false: saved or cancelled) ─> free   (the header's latest malls told to the list)
 *
 * The table's list events (`list.sort`, `list.page`, `list.rowsPerPage`, `list.search`, `list.retry`,
 * `list.refresh`) come here and go on to the list only while `free`, so no new rows drop the edits. A code typed
 * (`code.change`) changes the editor's draft; typed back to every saved code, the draft is clean again. A save
 * sends only the codes changed; the server's refusal of one (400 naming `data[i].outlet_code`) is kept by the
 * editor (`saveError`) with the outlet it names (`refusalOf`), to show at its field.
 */

export interface OutletCodeFilters {
  readonly clientId: number;
  readonly mallIds: readonly number[];
}

export const OUTLET_CODE_WHAT = 'Outlet codes fetching';
export const OUTLET_CODE_SORT_COLUMNS: readonly OutletCodeSortColumn[] = ['mall_name', 'outlet_name', 'outlet_code'];
export const OUTLET_CODE_DEFAULT_SORT: { readonly column: OutletCodeSortColumn; readonly order: SortOrder } = {
  column: 'mall_name',
  order: 'asc',
};
export const OUTLET_CODE_ROWS_PER_PAGE_OPTIONS: readonly number[] = [10, 20, 50, 100];
export const OUTLET_CODE_ROWS_PER_PAGE = 20;
/** The system id of the page's list (its page machine follows its rows). */
export const OUTLET_CODE_LIST_ID = 'outletCodeList';

/** The list's query as the call's parameters (no search parameter when there is none). */
export async function loadOutletCodes(
  query: PagedListQuery<OutletCodeFilters, OutletCodeSortColumn>,
  { signal, client }: CallOptions & { readonly signal: AbortSignal },
) {
  const page = await getOutletCodes(
    {
      client_id: query.filters.clientId,
      mall_ids: [...query.filters.mallIds],
      sortColumn: query.sortColumn,
      orderByMethod: query.order,
      page: query.page,
      rowsPerPage: query.rowsPerPage,
      ...(query.search === '' ? {} : { searchText: query.search }),
    },
    { signal, ...(client ? { client } : {}) },
  );
  return { rows: page.data, total: page.total };
}

export function createOutletCodeListMachine(client: ApiClient = api) {
  return createPagedListMachine<OutletCodeRow, OutletCodeFilters, OutletCodeSortColumn>({
    id: 'outletCodeList',
    what: OUTLET_CODE_WHAT,
    load: (query, { signal }) => loadOutletCodes(query, { signal, client }),
    rowKey: (row) => String(row.outlet_id),
    sortColumns: OUTLET_CODE_SORT_COLUMNS,
    defaultSort: OUTLET_CODE_DEFAULT_SORT,
    rowsPerPage: OUTLET_CODE_ROWS_PER_PAGE,
    rowsPerPageOptions: OUTLET_CODE_ROWS_PER_PAGE_OPTIONS,
  });
}

/** A save the server refused: where (the outlet it names, with the code as typed) and why. */
export class OutletCodeSaveError extends Error {
  readonly refusal: OutletCodeRefusal;
  constructor(refusal: OutletCodeRefusal) {
    super(refusal.message);
    this.name = 'OutletCodeSaveError';
    this.refusal = refusal;
  }
}

/** The refusal of a failed save (the editor's `saveError`), if the server refused it with a reason. */
export function refusalOf(error: unknown): OutletCodeRefusal | undefined {
  return error instanceof OutletCodeSaveError ? error.refusal : undefined;
}

/** A 400 of a save: at the outlet of the item it names (the reason after the field), else as it is. */
function saveErrorOf(error: unknown, draft: OutletCodeDraft, sent: readonly { outlet_id: number }[]): unknown {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.serverMessage) return error;
  const item = refusedItemOf(error.serverMessage);
  const outletId = item ? sent[item.index]?.outlet_id : undefined;
  const row = draft.rows.find((candidate) => candidate.outletId === outletId);
  return new OutletCodeSaveError({
    outletId: row?.outletId,
    text: row?.text,
    message: row && item ? item.reason : error.serverMessage,
  });
}

/** The codes of the rows shown: 'Save Successfully.' / 'Save Failed.' (§8); a failed save keeps the draft. */
export function createOutletCodeEditorMachine(client: ApiClient = api) {
  return createEditorMachine<OutletCodeDraft, OutletCodeDraft>({
    id: 'outletCodeEditor',
    what: 'Outlet codes',
    load: async (draft) => draft,
    save: async (draft, { signal }) => {
      const data = changedOutletCodes(draft);
      if (data.length > 0) {
        try {
          await updateOutletCodes({ client_id: draft.clientId, data }, { signal, client });
        } catch (error) {
          throw saveErrorOf(error, draft, data);
        }
      }
      return savedOutletCodeDraft(draft);
    },
    validate: isOutletCodeDraftValid,
    savedMessage: SAVE_SUCCESS_MESSAGE,
    failedMessage: SAVE_FAILED_MESSAGE,
    tellParentDirty: true,
  });
}

/** The list events the table sends the page, passed on to the list while no edit is held. */
export type OutletCodeListEvent =
  | { type: 'list.sort'; column: string; order?: SortOrder }
  | { type: 'list.page'; page: number }
  | { type: 'list.rowsPerPage'; rowsPerPage: number }
  | { type: 'list.search'; text: string }
  | { type: 'list.retry' }
  | { type: 'list.refresh' };

export type OutletCodeEvent =
  | HeaderFiltersEvent
  | OutletCodeListEvent
  /** The rows the list answered (from `followList`). */
  | { type: 'list.shown'; rows: readonly OutletCodeRow[] }
  /** A code typed in the field of an outlet shown. */
  | { type: 'code.change'; outletId: number; text: string }
  /** From the editor: whether its draft holds unsaved codes. */
  | { type: 'editor.dirty'; dirty: boolean };

export interface OutletCodeContext {
  /** The header's client and malls (the latest, also while held). */
  readonly filters: OutletCodeFilters | undefined;
  /** The client and malls last told to the list. */
  readonly listed: OutletCodeFilters | undefined;
}

const sameFilters = (a: OutletCodeFilters | undefined, b: OutletCodeFilters | undefined) =>
  a?.clientId === b?.clientId && a?.mallIds.join(',') === b?.mallIds.join(',');

export function createOutletCodeMachine(client: ApiClient = api) {
  const list = createOutletCodeListMachine(client);
  const editor = createOutletCodeEditorMachine(client);
  type ListRef = ActorRefFrom<typeof list>;
  type EditorRef = ActorRefFrom<typeof editor>;
  const forward = { actions: 'forwardToList' } as const;

  return setup({
    types: {
      context: {} as OutletCodeContext,
      events: {} as OutletCodeEvent,
      children: {} as { list: 'list'; editor: 'editor' },
    },
    actors: {
      list,
      editor,
      followHeaderFilters,
      lockHeader,
      /** Tells the page the rows the list answers (a new answer, or none after a failure). */
      followList: fromCallback<OutletCodeEvent>(({ system, sendBack }) => {
        const child = system.get(OUTLET_CODE_LIST_ID) as ListRef | undefined;
        if (!child) return () => undefined;
        let told: readonly OutletCodeRow[] | undefined;
        const tell = (snapshot: SnapshotFrom<typeof list>) => {
          if (snapshot.context.rows === told) return;
          told = snapshot.context.rows;
          sendBack({ type: 'list.shown', rows: told });
        };
        const subscription = child.subscribe(tell);
        tell(child.getSnapshot());
        return () => subscription.unsubscribe();
      }),
    },
    guards: {
      isDirty: ({ event }) => event.type === 'editor.dirty' && event.dirty,
      isClean: ({ event }) => event.type === 'editor.dirty' && !event.dirty,
    },
    actions: {
      setFilters: assign(({ event }) => {
        if (event.type !== 'header.filters') return {};
        const { clientId, mallIds } = event.filters;
        return clientId === undefined || mallIds.length === 0 ? {} : { filters: { clientId, mallIds } };
      }),
      /** Tells the list the header's client and malls, when they are new to it. */
      tellList: enqueueActions(({ context, enqueue }) => {
        if (!context.filters || sameFilters(context.filters, context.listed)) return;
        enqueue.assign({ listed: context.filters });
        enqueue.sendTo('list', { type: 'list.filters', filters: context.filters });
      }),
      forwardToList: sendTo('list', ({ event }) => event as OutletCodeListEvent),
      /** A new editor over the rows the list answered. */
      editRows: enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'list.shown') return;
        enqueue.stopChild('editor');
        if (!context.listed) return;
        enqueue.spawnChild('editor', { id: 'editor', input: outletCodeDraftOf(context.listed.clientId, event.rows) });
      }),
      /** The typed code into the editor's draft; a draft back to every saved code, as saved, is clean again. */
      changeCode: enqueueActions(({ event, enqueue, self }) => {
        if (event.type !== 'code.change') return;
        // XState types `self` in actions without the machine's children: the editor's type is said here.
        const child = self.getSnapshot().children.editor as EditorRef | undefined;
        const draft = child?.getSnapshot().context.draft;
        if (!child || !draft?.rows.some((row) => row.outletId === event.outletId)) return;
        const value: OutletCodeDraft = {
          ...draft,
          rows: draft.rows.map((row) => (row.outletId === event.outletId ? { ...row, text: event.text } : row)),
        };
        // Every field as saved, to the character (a space typed after a code is kept, not cancelled away).
        const cancels =
          value.rows.every((row) => row.text === (row.saved ?? '')) &&
          child.getSnapshot().can({ type: 'editor.cancel' });
        enqueue.sendTo(child, cancels ? { type: 'editor.cancel' } : { type: 'editor.change', value });
      }),
    },
  }).createMachine({
    id: 'outletCode',
    context: { filters: undefined, listed: undefined },
    // The list first: its rows are followed, and the header's filters, told at once, go to it.
    invoke: [
      { id: 'list', systemId: OUTLET_CODE_LIST_ID, src: 'list', input: {} },
      { src: 'followList' },
      { src: 'followHeaderFilters' },
    ],
    on: {
      'list.shown': { actions: 'editRows' },
      'code.change': { actions: 'changeCode' },
    },
    initial: 'free',
    states: {
      free: {
        entry: 'tellList',
        on: {
          'header.filters': { actions: ['setFilters', 'tellList'] },
          'list.sort': forward,
          'list.page': forward,
          'list.rowsPerPage': forward,
          'list.search': forward,
          'list.retry': forward,
          'list.refresh': forward,
          'editor.dirty': { guard: 'isDirty', target: 'held' },
        },
      },
      /** The draft holds unsaved codes: the header is locked and the list waits. */
      held: {
        tags: ['held'],
        invoke: { src: 'lockHeader' },
        on: {
          'header.filters': { actions: 'setFilters' },
          'editor.dirty': { guard: 'isClean', target: 'free' },
        },
      },
    },
  });
}

export const outletCodeMachine = createOutletCodeMachine();
