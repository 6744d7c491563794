import { Icon } from '@blueprintjs/core';

export type SortOrder = 'asc' | 'desc';

/** The sort state a screen reader reads with a column's sort button where the table has no `aria-sort`. */
export function sortState(order: SortOrder | undefined): string {
  return order === 'asc' ? ', sorted ascending' : order === 'desc' ? ', sorted descending' : ', not sorted';
}

/** The `aria-sort` of a sortable column header. */
export function ariaSort(order: SortOrder | undefined): 'ascending' | 'descending' | 'none' {
  return order === 'asc' ? 'ascending' : order === 'desc' ? 'descending' : 'none';
}

export interface SortButtonProps {
  readonly name: string;
  /** The column's order when the table is sorted by it. */
  readonly order: SortOrder | undefined;
  readonly onSort: () => void;
  readonly testId?: string;
  /** Reads the sort state with the name (for headers without `aria-sort`, such as Blueprint Table2's). */
  readonly announceOrder?: boolean;
}

/** A sortable column's header button: its name and an icon of the order. */
export function SortButton({ name, order, onSort, testId, announceOrder = false }: SortButtonProps) {
  return (
    <button type="button" className="sort-button" data-testid={testId} data-order={order} onClick={onSort}>
      {name}{' '}
      <Icon size={12} icon={order === 'asc' ? 'sort-asc' : order === 'desc' ? 'sort-desc' : 'double-caret-vertical'} />
      {announceOrder ? <span className="visually-hidden">{sortState(order)}</span> : null}
    </button>
  );
}

/**
 * The header cell of a column a server sorts: its `aria-sort` and its sort button (the name alone before the list
 * can sort, or for a column without a sort).
 */
export function SortableHeaderCell<TSort extends string>({
  name,
  column,
  sortColumn,
  order,
  onSort,
  testId,
  className,
}: {
  readonly name: string;
  /** The sort column of the contract; undefined: the column does not sort. */
  readonly column: TSort | undefined;
  readonly sortColumn: TSort | undefined;
  readonly order: SortOrder | undefined;
  readonly onSort: ((column: TSort) => void) | undefined;
  readonly testId?: string;
  readonly className?: string;
}) {
  const columnOrder = column !== undefined && sortColumn === column ? order : undefined;
  return (
    <th scope="col" aria-sort={column !== undefined ? ariaSort(columnOrder) : undefined} className={className}>
      {column !== undefined && onSort ? (
        <SortButton name={name} order={columnOrder} onSort={() => onSort(column)} testId={testId} />
      ) : (
        name
      )}
    </th>
  );
}
