import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BreakevenPage, MarcomBreakevenPage } from '../../src/views/pages/breakeven/BreakevenTargetPage';
import {
  bodyRows,
  headerCells,
  installNetwork,
  ok,
  type RecordedCall,
  renderReportPage,
  serverError,
  tableIn,
  tearDownReportPage,
  toastTexts,
  waitForReport,
} from './mallReportHarness';

/*
 * The breakeven pages (§2, §9) in the app with the real filter header (Month picker, malls) and report machine; the
 * network answers the breakeven call. March 2024 is the harness's current month: open, with projections.
 */

afterEach(tearDownReportPage);

const ROWS = [
  {
    outlet_id: 12,
    outlet_name: 'Kopi Corner',
    mall_id: 1,
    mall_name: 'Central',
    currency: 'SGD',
    gto: 300,
    breakeven_target: 200,
    difference: 100,
    progress: 150,
    projected_gto: 620.5,
    projected_progress: 310.25,
    on_track: true,
  },
  {
    outlet_id: 14,
    outlet_name: 'Batik House',
    mall_id: 2,
    mall_name: 'East',
    currency: 'IDR',
    gto: 1_500_000,
    breakeven_target: 4_000_000,
    difference: -2_500_000,
    progress: 37.5,
    projected_gto: 3_100_000,
    projected_progress: 77.5,
    on_track: false,
  },
  {
    outlet_id: 15,
    outlet_name: 'Shoe Lane',
    mall_id: 1,
    mall_name: 'Central',
    currency: 'SGD',
    gto: 50,
    breakeven_target: null,
    difference: null,
    progress: null,
    projected_gto: 90,
    projected_progress: null,
    on_track: null,
  },
];
const TOTALS = [
  { currency: 'IDR', gto: 1_500_000, breakeven_target: 4_000_000, difference: -2_500_000, progress: 37.5, outlets: 1 },
  { currency: 'SGD', gto: 350, breakeven_target: 200, difference: 100, progress: 150, outlets: 2 },
];
const ANSWER = { data: ROWS, month: '2024-03', month_open: true, totals: TOTALS };

const breakevenCalls = (calls: readonly RecordedCall[]) =>
  calls.filter((call) => call.path === '/api/mall_report/breakeven_target');
const queryOf = (call: RecordedCall | undefined) => ({
  date: call?.query.get('date'),
  department: call?.query.get('department'),
  include_gst: call?.query.get('include_gst'),
  mall_ids: call?.query.getAll('mall_ids'),
});

const page = { period: 'month', breakeven: true, outletMode: 'disabled' } as const;

describe('the breakeven pages', () => {
  it('asks the month’s targets of the chosen department without GST, and shows progress and the projection', async () => {
    const network = installNetwork((call) => (call.path.endsWith('/breakeven_target') ? ok(ANSWER) : undefined));
    renderReportPage(BreakevenPage, { title: 'Breakeven Target', header: 'mall', page });
    await waitForReport();
    expect(queryOf(breakevenCalls(network.calls).at(-1))).toEqual({
      date: '2024-03-01',
      department: 'leasing',
      include_gst: 'false',
      mall_ids: ['1', '2'],
    });
    const table = tableIn('breakeven-table');
    expect(headerCells(table)).toEqual([
      'Outlet',
      'Mall',
      'Currency',
      'GTO',
      'Breakeven Target',
      'Difference',
      'Progress',
      'Projected GTO',
      'Projected Progress',
      'Status',
    ]);
    expect(bodyRows(table)).toEqual([
      ['Kopi Corner', 'Central', 'SGD', '$300.00', '$200.00', '$100.00', '150.0%', '$620.50', '310.3%', 'On track'],
      [
        'Batik House',
        'East',
        'IDR',
        'Rp1,500,000',
        'Rp4,000,000',
        '-Rp2,500,000',
        '37.5%',
        'Rp3,100,000',
        '77.5%',
        'At risk',
      ],
      ['Shoe Lane', 'Central', 'SGD', '$50.00', '', '', '', '$90.00', '', ''],
    ]);
    expect(bodyRows(tableIn('breakeven-totals-table'))).toEqual([
      ['IDR', '1', 'Rp1,500,000', 'Rp4,000,000', '-Rp2,500,000', '37.5%'],
      ['SGD', '2', '$350.00', '$200.00', '$100.00', '150.0%'],
    ]);
    expect(screen.getByTestId('breakeven-basis').textContent).toContain(
      'GTO: sales captured from receipts in the month, GST excluded. Projected month end:',
    );
    // The amounts are each outlet's own, never converted: the page says so, not that they were converted.
    expect(screen.getByTestId('currency-note').textContent).toBe(
      'Amounts in each outlet’s own currency (IDR, SGD), not converted; totals are per currency.',
    );

    // The operator has no department of its own: it picks one, and that department's page loads.
    fireEvent.change(screen.getByTestId('breakeven-department'), { target: { value: 'finance' } });
    await waitFor(() => expect(queryOf(breakevenCalls(network.calls).at(-1)).department).toBe('finance'));
  });

  it('includes GST on the Marcom page, which has no department choice', async () => {
    const network = installNetwork((call) =>
      call.path.endsWith('/breakeven_target') ? ok({ ...ANSWER, month_open: false }) : undefined,
    );
    renderReportPage(MarcomBreakevenPage, { title: 'Marcom', header: 'mall', page });
    await waitForReport();
    expect(queryOf(breakevenCalls(network.calls).at(-1))).toMatchObject({ department: 'marcom', include_gst: 'true' });
    expect(screen.queryByTestId('breakeven-department')).toBeNull();
    // A closed month: no projection columns, no method line.
    expect(headerCells(tableIn('breakeven-table'))).not.toContain('Projected GTO');
    expect(screen.getByTestId('breakeven-basis').textContent).toBe(
      'GTO: sales captured from receipts in the month, GST included.',
    );
  });

  it('fails its panel with a retry and the toast, and loads again', async () => {
    let failing = true;
    installNetwork((call) =>
      call.path.endsWith('/breakeven_target') ? (failing ? serverError() : ok(ANSWER)) : undefined,
    );
    renderReportPage(BreakevenPage, { title: 'Breakeven Target', header: 'mall', page });
    await waitFor(() => expect(toastTexts()).toContain('Breakeven target error occurs. Please try again later.'));
    failing = false;
    fireEvent.click(screen.getAllByRole('button', { name: /retry/i })[0] as HTMLElement);
    await waitFor(() => expect(bodyRows(tableIn('breakeven-table'))).toHaveLength(3));
  });

  it('edits the targets of the rows shown, sends only those changed, and reads the rows again', async () => {
    const puts: unknown[] = [];
    const network = installNetwork((call) => (call.path.endsWith('/breakeven_target') ? ok(ANSWER) : undefined));
    const fetchAnswer = globalThis.fetch;
    vi.stubGlobal('fetch', async (request: Request) => {
      if (request.method === 'PUT') {
        puts.push(await request.json());
        return new Response(JSON.stringify({ success: true }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        });
      }
      return fetchAnswer(request);
    });
    renderReportPage(BreakevenPage, { title: 'Breakeven Target', header: 'mall', page });
    await waitForReport();
    fireEvent.click(screen.getByTestId('breakeven-edit'));
    const dialog = await screen.findByRole('dialog', { name: 'Leasing targets of March 2024' });
    const kopi = within(dialog).getByLabelText('Target of Kopi Corner') as HTMLInputElement;
    expect(kopi.value).toBe('200');
    const save = within(dialog).getByTestId('breakeven-targets-save');
    fireEvent.change(kopi, { target: { value: '250.555' } });
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'Enter an amount of 0 or more with at most 2 decimals, or leave it empty.',
    );
    expect(save.hasAttribute('disabled')).toBe(true);
    fireEvent.change(kopi, { target: { value: '$1,250.50' } });
    fireEvent.change(within(dialog).getByLabelText('Target of Batik House'), { target: { value: '' } });
    fireEvent.change(within(dialog).getByLabelText('Target of Shoe Lane'), { target: { value: '80' } });
    const before = breakevenCalls(network.calls).length;
    expect(save.hasAttribute('disabled')).toBe(false);
    fireEvent.click(save);
    await waitFor(() => expect(puts).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(puts).toEqual([
      {
        client_id: 3,
        department: 'leasing',
        month: '2024-03',
        targets: [
          { outlet_id: 12, target: 1250.5 },
          { outlet_id: 14, target: null },
          { outlet_id: 15, target: 80 },
        ],
      },
    ]);
    await waitFor(() => expect(breakevenCalls(network.calls).length).toBe(before + 1));
    await waitFor(() => expect(toastTexts()).toContain('Save Successfully.'));
  });
});
