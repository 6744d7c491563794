import { Button, HTMLTable, NonIdealState } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { Fragment, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import './dataTable.css';
import { SkeletonRows } from './SkeletonRows';
import { SortableHeaderCell, type SortOrder } from './SortButton';

/**
 * What a column holds, which decides how it is sized and aligned:
 * - `text`: a name or free text; ellipsized at a maximum width, the whole text its `title` (and in the DOM);
 * - `id`, `date`, `datetime`: never wrapped or cut;
 * - `money`, `count`, `percent`: never wrapped or cut, right-aligned in tabular figures;
 * - `status`: tags, kept on one line; `actions`: buttons, right-aligned.
 */
export type ColumnKind = 'text' | 'id' | 'date' | 'datetime' | 'money' | 'count' | 'percent' | 'status' | 'actions';

export interface DataColumn<TRow, TSort extends string = string> {
  /** Unique in the table; the cells carry it as `data-col`. */
  readonly key: string;
  readonly header: string;
  readonly kind: ColumnKind;
  /** The contract's sort column: the header is a sort button. */
  readonly sort?: TSort;
  readonly render: (row: TRow) => ReactNode;
  /** The cell's whole text (its `title`), when `render` gives more than a string. */
  readonly text?: (row: TRow) => string;
}

/** The attributes of a body row: its test id and data attributes; a row that opens its detail, its handlers. */
export type RowAttributes = {
  readonly 'data-testid'?: string;
  readonly tabIndex?: number;
  readonly 'aria-expanded'?: boolean;
  readonly onClick?: (event: MouseEvent<HTMLTableRowElement>) => void;
  readonly onKeyDown?: (event: KeyboardEvent<HTMLTableRowElement>) => void;
} & {
  readonly [name: `data-${string}`]: string | number | boolean | undefined;
};

export interface DataTableProps<TRow, TSort extends string> {
  /** The table's name for assistive technology (and of its scrolling region). */
  readonly label: string;
  readonly columns: readonly DataColumn<TRow, TSort>[];
  /** Undefined while loading: skeleton rows. */
  readonly rows: readonly TRow[] | undefined;
  readonly rowKey: (row: TRow) => string | number;
  readonly rowAttributes?: (row: TRow) => RowAttributes;
  /** A row's detail, shown in a row of its own under it (undefined: none). */
  readonly detail?: (row: TRow) => ReactNode;
  /** The rows respond to a pointer (a row opens its detail). */
  readonly interactive?: boolean;
  readonly testId?: string;
  readonly className?: string;
  /** The sort the server applies, and the sort buttons' events (`<testIdPrefix>-sort-<column>`, or `sort-<column>`). */
  readonly sortColumn?: TSort;
  readonly order?: SortOrder;
  readonly onSort?: (column: TSort) => void;
  readonly testIdPrefix?: string;
  /** What a skeleton cell says ('Loading key'), the test id of a skeleton row, and how many (5 unless told). */
  readonly skeleton: { readonly label: string; readonly testId: string; readonly rows?: number };
  /** Shown instead of the table when there are no rows: 'No Data' and why. */
  readonly empty?: {
    readonly title?: string;
    readonly description?: string;
    readonly icon?: IconName;
    readonly testId?: string;
    /** Say it in a row of the table (under its header) rather than in place of the table. */
    readonly inline?: boolean;
  };
  /** A totals row: a cell per column (the first names the row). */
  readonly footer?: readonly ReactNode[];
  /** The rows could not be read: the reason and a retry instead of the table. */
  readonly failed?: { readonly message: string; readonly onRetry: () => void; readonly retryTestId?: string };
}

const NUMERIC: ReadonlySet<ColumnKind> = new Set(['money', 'count', 'percent']);

/** Whether a column of the kind holds a figure (right-aligned; a table sorts it from the largest first). */
export function isNumericKind(kind: ColumnKind): boolean {
  return NUMERIC.has(kind);
}

/** The class of a column's header and cells (its sizing and alignment). */
export function columnClass(kind: ColumnKind): string {
  return isNumericKind(kind) ? 'data-table-cell data-table-num' : `data-table-cell data-table-${kind}`;
}

/**
 * One table for every list (ARCHITECTURE.md, Tables): columns declared with their kind, sort buttons with
 * `aria-sort`, skeleton rows while loading, 'No Data' and a failure with a retry in place of the table. It sizes
 * its columns to their content and scrolls sideways inside its region (header and first column kept in view); on a
 * phone each row is a card whose cells name their column.
 */
export function DataTable<TRow, TSort extends string = string>(props: DataTableProps<TRow, TSort>) {
  const { rows, columns, failed, empty } = props;
  if (failed) {
    return (
      <NonIdealState
        icon="error"
        title={failed.message}
        description="Please try again."
        action={
          <Button icon="refresh" data-testid={failed.retryTestId} onClick={failed.onRetry}>
            Retry
          </Button>
        }
      />
    );
  }
  if (rows !== undefined && rows.length === 0 && empty && !empty.inline) {
    return (
      <NonIdealState
        icon={empty.icon ?? 'th'}
        title={empty.title ?? 'No Data'}
        description={empty.description ? <span data-testid={empty.testId}>{empty.description}</span> : undefined}
      />
    );
  }
  const sortTestId = (column: TSort | undefined) =>
    props.testIdPrefix ? `${props.testIdPrefix}-sort-${column}` : `sort-${column}`;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways is reached by the keyboard.
    <section className="data-table-scroll" aria-label={props.label} tabIndex={0}>
      <HTMLTable
        compact
        striped
        interactive={props.interactive === true && rows !== undefined}
        className={props.className ? `data-table ${props.className}` : 'data-table'}
        aria-label={props.label}
        aria-busy={rows === undefined}
        data-testid={props.testId}
      >
        <thead>
          <tr>
            {columns.map((column) => (
              <SortableHeaderCell
                key={column.key}
                name={column.header}
                column={column.sort}
                sortColumn={props.sortColumn}
                order={props.order}
                onSort={props.onSort}
                testId={sortTestId(column.sort)}
                className={columnClass(column.kind)}
              />
            ))}
          </tr>
        </thead>
        <tbody>
          {rows === undefined ? (
            <SkeletonRows
              columns={columns.map(({ key }) => key)}
              label={props.skeleton.label}
              testId={props.skeleton.testId}
              count={props.skeleton.rows}
            />
          ) : rows.length === 0 && empty?.inline ? (
            <tr>
              <td colSpan={columns.length} data-testid={empty.testId}>
                {empty.description ? `${empty.title ?? 'No Data'}: ${empty.description}` : (empty.title ?? 'No Data')}
              </td>
            </tr>
          ) : (
            rows.map((row) => {
              const detail = props.detail?.(row);
              return (
                <Fragment key={props.rowKey(row)}>
                  <tr {...props.rowAttributes?.(row)}>
                    {columns.map((column) => (
                      <DataCell key={column.key} column={column} row={row} />
                    ))}
                  </tr>
                  {detail === undefined ? null : (
                    <tr className="data-table-detail">
                      <td colSpan={columns.length}>{detail}</td>
                    </tr>
                  )}
                </Fragment>
              );
            })
          )}
        </tbody>
        {props.footer && rows !== undefined && rows.length > 0 ? (
          <tfoot>
            <tr>
              {columns.map((column, index) =>
                index === 0 ? (
                  <th key={column.key} scope="row" className={columnClass(column.kind)} data-label={column.header}>
                    {props.footer?.[index]}
                  </th>
                ) : (
                  <td key={column.key} className={columnClass(column.kind)} data-label={column.header}>
                    {props.footer?.[index]}
                  </td>
                ),
              )}
            </tr>
          </tfoot>
        ) : null}
      </HTMLTable>
    </section>
  );
}

function DataCell<TRow, TSort extends string>({
  column,
  row,
}: {
  readonly column: DataColumn<TRow, TSort>;
  readonly row: TRow;
}) {
  const content = column.render(row);
  if (column.kind === 'text') {
    // Cut at the column's maximum width: the whole text is the title, and stays in the DOM for assistive technology.
    const text = column.text?.(row) ?? (typeof content === 'string' ? content : undefined);
    return (
      <td className={columnClass(column.kind)} data-col={column.key} data-label={column.header}>
        <span className="data-table-ellipsis" title={text === '' ? undefined : text}>
          {content}
        </span>
      </td>
    );
  }
  return (
    <td className={columnClass(column.kind)} data-col={column.key} data-label={column.header}>
      {content}
    </td>
  );
}
