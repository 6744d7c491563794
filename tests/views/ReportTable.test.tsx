import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { type Column, ReportTable } from '../../src/views/reports/ReportParts';

interface Row {
  readonly id: number;
  readonly name: string;
  readonly gmv: number;
}

const LONG_NAME = 'An outlet whose trading name is far longer than its column could ever show in full';

const COLUMNS: readonly Column<Row>[] = [
  {
    key: 'name',
    label: 'Outlet',
    kind: 'text',
    // A link: the cell's text is not the render's.
    render: (row) => <a href={`/outlets/${row.id}`}>{row.name}</a>,
    text: (row) => row.name,
  },
  { key: 'gmv', label: 'GMV', kind: 'money', render: (row) => `$${row.gmv.toFixed(2)}` },
];

const ROWS: readonly Row[] = [
  { id: 1, name: LONG_NAME, gmv: 10 },
  { id: 2, name: 'Kopi', gmv: 250 },
];

afterEach(cleanup);

describe('ReportTable', () => {
  it("gives the naming column's cells the column's text as their tooltip, and right-aligns the figures", () => {
    render(<ReportTable testId="outlets" label="Outlets: table" columns={COLUMNS} rows={ROWS} />);
    const table = screen.getByRole('table', { name: 'Outlets: table' });
    expect(within(table).getByTitle(LONG_NAME).textContent).toBe(LONG_NAME);
    expect(within(table).getByTitle('Kopi')).toBeDefined();
    const figure = table.querySelector('tbody td[data-col="gmv"]');
    expect(figure?.className).toContain('data-table-num');
  });

  it('sorts a figure from the largest first, a name from A, and says No Data for no rows', () => {
    const { rerender } = render(<ReportTable testId="outlets" columns={COLUMNS} rows={ROWS} />);
    const names = () =>
      [...screen.getByTestId('outlets').querySelectorAll('tbody td[data-col="name"]')].map((cell) => cell.textContent);
    fireEvent.click(screen.getByTestId('outlets-sort-gmv'));
    expect(names()).toEqual(['Kopi', LONG_NAME]);
    fireEvent.click(screen.getByTestId('outlets-sort-name'));
    expect(names()).toEqual([LONG_NAME, 'Kopi']);
    rerender(<ReportTable testId="outlets" columns={COLUMNS} rows={[]} />);
    expect(within(screen.getByTestId('outlets')).getByText('No Data')).toBeDefined();
  });
});
