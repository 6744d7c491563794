import { Classes } from '@blueprintjs/core';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type DataColumn, DataTable, type DataTableProps } from '../../src/views/common/DataTable';

interface Row {
  readonly id: number;
  readonly name: string;
  readonly day: string;
  readonly amount: string;
  readonly count: number;
}

type Sort = 'name' | 'amount';

const COLUMNS: readonly DataColumn<Row, Sort>[] = [
  { key: 'name', header: 'Name', kind: 'text', sort: 'name', render: (row) => row.name },
  { key: 'day', header: 'Day', kind: 'date', render: (row) => row.day },
  { key: 'amount', header: 'Amount', kind: 'money', sort: 'amount', render: (row) => row.amount },
  { key: 'count', header: 'Receipts', kind: 'count', render: (row) => String(row.count) },
];

const LONG_NAME = 'A tenant with a very long trading name that no column should be stretched to fit in full';

const ROWS: readonly Row[] = [
  { id: 1, name: LONG_NAME, day: '2026-11-30', amount: '$1,234.50', count: 12 },
  { id: 2, name: 'Kopi', day: '2026-12-01', amount: '-$20.00', count: 3 },
];

function renderTable(props: Partial<DataTableProps<Row, Sort>> = {}) {
  return render(
    <DataTable<Row, Sort>
      label="Sales"
      testId="sales-table"
      columns={COLUMNS}
      rows={ROWS}
      rowKey={(row) => row.id}
      rowAttributes={() => ({ 'data-testid': 'sales-row' })}
      sortColumn="amount"
      order="desc"
      onSort={() => undefined}
      testIdPrefix="sales"
      skeleton={{ label: 'Loading sale', testId: 'sales-skeleton' }}
      empty={{ description: 'No sale in these days.', testId: 'sales-empty' }}
      {...props}
    />,
  );
}

afterEach(cleanup);

describe('DataTable', () => {
  it('shows skeleton rows, busy, while the rows are undefined', () => {
    renderTable({ rows: undefined });
    const table = screen.getByTestId('sales-table');
    expect(table.getAttribute('aria-busy')).toBe('true');
    expect(screen.getAllByTestId('sales-skeleton').length).toBeGreaterThan(0);
    expect(table.querySelectorAll(`td .${Classes.SKELETON}`).length).toBeGreaterThan(0);
    expect(screen.queryAllByTestId('sales-row')).toHaveLength(0);
  });

  it("says 'No Data' and why for no rows, instead of the table", () => {
    renderTable({ rows: [] });
    expect(screen.getByText('No Data')).toBeTruthy();
    expect(screen.getByTestId('sales-empty').textContent).toBe('No sale in these days.');
    expect(screen.queryByTestId('sales-table')).toBeNull();
  });

  it("says 'No Data' in a row under the header when asked to, and draws a totals row under rows", () => {
    const { unmount } = renderTable({ rows: [], empty: { inline: true }, footer: ['Total', '', '$1,214.50', '15'] });
    const table = screen.getByTestId('sales-table');
    expect([...table.querySelectorAll('tbody td')].map((cell) => cell.textContent)).toEqual(['No Data']);
    expect(table.querySelector('tfoot')).toBeNull();
    unmount();
    renderTable({ footer: ['Total', '', '$1,214.50', '15'] });
    const cells = [...screen.getByTestId('sales-table').querySelectorAll('tfoot th, tfoot td')];
    expect(cells.map((cell) => cell.textContent)).toEqual(['Total', '', '$1,214.50', '15']);
    expect(cells[2]?.classList.contains('data-table-num')).toBe(true);
  });

  it('says why the rows could not be read, with a Retry that calls back', () => {
    const onRetry = vi.fn();
    renderTable({ failed: { message: 'The sales could not be read.', onRetry, retryTestId: 'sales-retry' } });
    expect(screen.getByText('The sales could not be read.')).toBeTruthy();
    expect(screen.queryByTestId('sales-table')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('sorts by a column through its sort button, the header telling the order by aria-sort', () => {
    const onSort = vi.fn();
    renderTable({ onSort });
    expect(screen.getByRole('columnheader', { name: /^Amount/ }).getAttribute('aria-sort')).toBe('descending');
    expect(screen.getByRole('columnheader', { name: /^Name/ }).getAttribute('aria-sort')).toBe('none');
    // A column without a sort has neither a button nor aria-sort.
    expect(screen.getByRole('columnheader', { name: 'Day' }).hasAttribute('aria-sort')).toBe(false);
    fireEvent.click(screen.getByTestId('sales-sort-name'));
    expect(onSort).toHaveBeenCalledWith('name');
  });

  it('cuts a long text at its column with the whole text as its title, kept in the cell for assistive technology', () => {
    renderTable();
    const [first] = screen.getAllByTestId('sales-row');
    if (!first) throw new Error('no row');
    const name = first.querySelector('[data-col="name"]');
    expect(name?.textContent).toBe(LONG_NAME);
    expect(name?.querySelector('.data-table-ellipsis')?.getAttribute('title')).toBe(LONG_NAME);
  });

  it('marks money and counts numeric (right-aligned, tabular figures), dates and numbers never cut', () => {
    renderTable();
    const [first] = screen.getAllByTestId('sales-row');
    if (!first) throw new Error('no row');
    const cell = (key: string) => first.querySelector(`[data-col="${key}"]`);
    expect(cell('amount')?.classList.contains('data-table-num')).toBe(true);
    expect(cell('count')?.classList.contains('data-table-num')).toBe(true);
    expect(cell('day')?.classList.contains('data-table-date')).toBe(true);
    expect(cell('name')?.classList.contains('data-table-num')).toBe(false);
    // Neither is ellipsized: no cut, no title needed.
    expect(cell('amount')?.querySelector('.data-table-ellipsis')).toBeNull();
    expect(cell('day')?.querySelector('.data-table-ellipsis')).toBeNull();
    // The header of a numeric column is aligned as its cells.
    expect(screen.getByRole('columnheader', { name: /^Amount/ }).classList.contains('data-table-num')).toBe(true);
    // Each cell names its column (the phone's card layout shows it).
    expect(cell('amount')?.getAttribute('data-label')).toBe('Amount');
  });

  it('scrolls inside a focusable region named as the table', () => {
    renderTable();
    const region = screen.getByRole('region', { name: 'Sales' });
    expect(region.getAttribute('tabindex')).toBe('0');
    expect(within(region).getByRole('table', { name: 'Sales' })).toBeTruthy();
  });
});

describe('DataTable rows', () => {
  it('shows as many skeleton rows as told (the rows a page showed)', () => {
    renderTable({ rows: undefined, skeleton: { label: 'Loading sale', testId: 'sales-skeleton', rows: 8 } });
    expect(screen.getAllByTestId('sales-skeleton')).toHaveLength(8);
  });

  it("shows a row's detail in a row of its own under it, across every column", () => {
    renderTable({ detail: (row) => (row.id === 2 ? <pre data-testid="sales-detail">{row.name}</pre> : undefined) });
    const rows = screen.getByTestId('sales-table').querySelectorAll('tbody tr');
    expect(rows).toHaveLength(3);
    const detail = screen.getByTestId('sales-detail').closest('td');
    expect(detail?.getAttribute('colspan')).toBe(String(COLUMNS.length));
    expect(rows[2]?.contains(detail ?? null)).toBe(true);
  });
});
