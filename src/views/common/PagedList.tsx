import { Button, Classes, NonIdealState } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import type { ReactNode } from 'react';
import type { ActorRef } from 'xstate';
import { formatNumber } from '../../domain/format';
import { lastPage } from '../../domain/paging';
import type { SortOrder } from '../../machines/factories/pagedListMachine';
import { Pager } from './Pager';
import { type PagedListSnapshot, usePagedListView } from './usePagedListView';

export interface PagedListWording {
  /** 'The audit log could not be read.' */
  readonly failure: string;
  readonly emptyIcon: IconName;
  /** Under 'No Data': 'No change matches these filters.' */
  readonly empty: string;
  /** What the count counts: ['change', 'changes']. */
  readonly unit: readonly [string, string];
  /** Test ids: `${testId}-retry`, `${testId}-total`, `${testId}-pager`. */
  readonly testId: string;
}

/** What the table of a paged list draws: its rows (undefined while loading: skeletons) and its sort. */
export interface PagedTableView<TRow, TSort extends string> {
  readonly rows: readonly TRow[] | undefined;
  readonly sortColumn: TSort;
  readonly order: SortOrder;
  readonly onSort: (column: TSort) => void;
}

/** The events a paged list's table and pager send it (factories/pagedListMachine). */
type ListControlEvent =
  | { type: 'list.retry' }
  | { type: 'list.sort'; column: string }
  | { type: 'list.page'; page: number }
  | { type: 'list.rowsPerPage'; rowsPerPage: number };

/**
 * A paged list as a page shows it: a failed list says why with a retry, an empty one 'No Data'; otherwise the count
 * (blank while loading), the table the page draws from the view, and the pager.
 */
export function PagedList<TRow, TSort extends string>({
  list,
  wording,
  rowsPerPageOptions,
  children,
}: {
  readonly list: ActorRef<PagedListSnapshot<TRow, TSort>, ListControlEvent>;
  readonly wording: PagedListWording;
  readonly rowsPerPageOptions: readonly number[];
  readonly children: (view: PagedTableView<TRow, TSort>) => ReactNode;
}) {
  const send = list.send;
  const { loading, empty, failed, rows, sortColumn, order, page, total, rowsPerPage, canPrevious, canNext } =
    usePagedListView(list);
  if (failed) {
    return (
      <NonIdealState
        icon="error"
        title={wording.failure}
        description="Please try again."
        action={
          <Button icon="refresh" data-testid={`${wording.testId}-retry`} onClick={() => send({ type: 'list.retry' })}>
            Retry
          </Button>
        }
      />
    );
  }
  if (empty) return <NonIdealState icon={wording.emptyIcon} title="No Data" description={wording.empty} />;
  const [one, many] = wording.unit;
  return (
    <>
      <div className={Classes.TEXT_MUTED} data-testid={`${wording.testId}-total`}>
        {loading ? '' : `${formatNumber(total)} ${total === 1 ? one : many}`}
      </div>
      {children({
        rows: loading ? undefined : rows,
        sortColumn,
        order,
        onSort: (column) => send({ type: 'list.sort', column }),
      })}
      <Pager
        testId={`${wording.testId}-pager`}
        page={page}
        pages={lastPage(total, rowsPerPage)}
        canPrevious={canPrevious}
        canNext={canNext}
        rowsPerPage={rowsPerPage}
        rowsPerPageOptions={rowsPerPageOptions}
        onPage={(next) => send({ type: 'list.page', page: next })}
        onRowsPerPage={(value) => send({ type: 'list.rowsPerPage', rowsPerPage: value })}
      />
    </>
  );
}
