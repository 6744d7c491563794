import { Button, HTMLSelect } from '@blueprintjs/core';

export interface PagerProps {
  /** From 1. */
  readonly page: number;
  /** The last page (1 when there are no rows). */
  readonly pages: number;
  /** Whether the previous / next page can be asked now (the machine decides; false while loading). */
  readonly canPrevious: boolean;
  readonly canNext: boolean;
  readonly rowsPerPage: number;
  readonly rowsPerPageOptions: readonly number[];
  readonly onPage: (page: number) => void;
  readonly onRowsPerPage: (rowsPerPage: number) => void;
  readonly testId?: string;
}

/** A table's pager: previous and next page, 'Page x of y' and the rows per page. */
export function Pager({
  page,
  pages,
  canPrevious,
  canNext,
  rowsPerPage,
  rowsPerPageOptions,
  onPage,
  onRowsPerPage,
  testId,
}: PagerProps) {
  return (
    <div className="pager" data-testid={testId}>
      <Button
        icon="chevron-left"
        aria-label="Previous page"
        data-testid="page-prev"
        disabled={!canPrevious}
        onClick={() => onPage(page - 1)}
      />
      <span data-testid="page-indicator">
        Page {page} of {pages}
      </span>
      <Button
        icon="chevron-right"
        aria-label="Next page"
        data-testid="page-next"
        disabled={!canNext}
        onClick={() => onPage(page + 1)}
      />
      <HTMLSelect
        aria-label="Rows per page"
        data-testid="rows-per-page"
        value={rowsPerPage}
        onChange={(event) => onRowsPerPage(Number(event.currentTarget.value))}
      >
        {rowsPerPageOptions.map((value) => (
          <option key={value} value={value}>
            {value} / page
          </option>
        ))}
      </HTMLSelect>
    </div>
  );
}
