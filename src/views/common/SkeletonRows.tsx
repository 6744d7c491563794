import { Classes } from '@blueprintjs/core';

/** How many placeholder rows a loading table shows unless told. */
const DEFAULT_ROWS = 5;

export interface SkeletonRowsProps {
  /** The keys of the table's columns: one skeleton cell each. */
  readonly columns: readonly string[];
  /** What the cells stand for ('Loading user'), read by assistive technology. */
  readonly label: string;
  readonly testId: string;
  /** How many rows (5 unless told: a page keeps the number of rows it showed). */
  readonly count?: number;
}

/** The rows of a table whose rows are loading: a skeleton, never zeros or an empty table. */
export function SkeletonRows({ columns, label, testId, count = DEFAULT_ROWS }: SkeletonRowsProps) {
  return Array.from({ length: count }, (_, index) => index + 1).map((place) => (
    <tr key={place} data-testid={testId}>
      {columns.map((column) => (
        <td key={column}>
          <span className={Classes.SKELETON}>{label}</span>
        </td>
      ))}
    </tr>
  ));
}
