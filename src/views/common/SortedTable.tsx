import { HTMLTable } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { SkeletonRows } from './SkeletonRows';
import { SortableHeaderRow, type SortOrder } from './SortButton';
import { TableScroll } from './TableScroll';

/**
 * A table a server sorts and pages: the header row of sortable columns (`<testIdPrefix>-sort-<column>`), skeleton
 * rows while `rows` is undefined (loading), else a row per item. Named for assistive technology by `label`; a
 * table wider than its card scrolls sideways in its own region (TableScroll).
 */
export function SortedTable<TSort extends string, TRow>(props: {
  readonly label: string;
  readonly className: string;
  readonly testId?: string;
  readonly columns: readonly { readonly name: string; readonly column: TSort | undefined }[];
  /** Undefined while loading: skeleton rows. */
  readonly rows: readonly TRow[] | undefined;
  readonly renderRow: (row: TRow) => ReactNode;
  readonly sortColumn: TSort | undefined;
  readonly order: SortOrder | undefined;
  readonly onSort: ((column: TSort) => void) | undefined;
  readonly testIdPrefix: string;
  /** What a skeleton cell says ('Loading user'), and the test id of a skeleton row. */
  readonly skeleton: { readonly label: string; readonly testId: string };
  /** A class of a column's header cell (an amount aligned right). */
  readonly classNameOf?: (column: TSort | undefined) => string | undefined;
}) {
  const { rows } = props;
  return (
    <TableScroll label={props.label}>
      <HTMLTable
        striped
        compact
        className={props.className}
        aria-busy={rows === undefined}
        aria-label={props.label}
        data-testid={props.testId}
      >
        <thead>
          <SortableHeaderRow
            columns={props.columns}
            sortColumn={props.sortColumn}
            order={props.order}
            onSort={props.onSort}
            testIdPrefix={props.testIdPrefix}
            classNameOf={props.classNameOf}
          />
        </thead>
        <tbody>
          {rows === undefined ? (
            <SkeletonRows
              columns={props.columns.map(({ name }) => name)}
              label={props.skeleton.label}
              testId={props.skeleton.testId}
            />
          ) : (
            rows.map(props.renderRow)
          )}
        </tbody>
      </HTMLTable>
    </TableScroll>
  );
}
