import { useSelector } from '@xstate/react';
import type { ActorRef, EventObject, Snapshot } from 'xstate';
import type { SortOrder } from '../../machines/factories/pagedListMachine';

/** What a table reads of a paged list's snapshot (factories/pagedListMachine). */
export type PagedListSnapshot<TRow, TSort extends string> = Snapshot<unknown> & {
  readonly context: {
    readonly rows: readonly TRow[];
    readonly total: number;
    readonly page: number;
    readonly rowsPerPage: number;
    readonly sortColumn: TSort;
    readonly order: SortOrder;
    readonly search: string;
  };
  hasTag(tag: 'loading'): boolean;
  matches(state: 'idle' | 'empty' | 'failure'): boolean;
  can(event: { type: 'list.page'; page: number }): boolean;
};

/**
 * A paged list as its table draws it: loading (also before it has filters), empty, failed, the rows and paging,
 * the sort, and whether the pager may go back or on (the machine decides).
 */
export function usePagedListView<TRow, TSort extends string, TEvent extends EventObject, TEmitted extends EventObject>(
  list: ActorRef<PagedListSnapshot<TRow, TSort>, TEvent, TEmitted>,
) {
  return {
    loading: useSelector(list, (state) => state.hasTag('loading') || state.matches('idle')),
    empty: useSelector(list, (state) => state.matches('empty')),
    failed: useSelector(list, (state) => state.matches('failure')),
    rows: useSelector(list, (state) => state.context.rows),
    total: useSelector(list, (state) => state.context.total),
    page: useSelector(list, (state) => state.context.page),
    rowsPerPage: useSelector(list, (state) => state.context.rowsPerPage),
    sortColumn: useSelector(list, (state) => state.context.sortColumn),
    order: useSelector(list, (state) => state.context.order),
    search: useSelector(list, (state) => state.context.search),
    canPrevious: useSelector(list, (state) => state.can({ type: 'list.page', page: state.context.page - 1 })),
    canNext: useSelector(list, (state) => state.can({ type: 'list.page', page: state.context.page + 1 })),
  };
}
