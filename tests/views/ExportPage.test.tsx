import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExportPage } from '../../src/views/pages/shopper-connect/ExportPage';
import {
  BASE,
  captureDownloads,
  type Download,
  deferred,
  describeCalls,
  exportDownload,
  FILE_RANGE,
  installNetwork,
  ok,
  PERMISSIONS,
  type RecordedCall,
  renderReportPage,
  serverError,
  sortedCalls,
  tearDownReportPage,
  unzip,
  waitForLookups,
} from './mallReportHarness';

/*
 * The Export page inside the app (§2: no mall header; its own Malls select and date range, the header's filters):
 * the default filters are both malls of client 3 over 9–15 March 2024. The user ticks reports, Export asks the mall
 * report calls and downloads one CSV a report, zipped; a progress bar and Cancel meanwhile; a failed report fails
 * the export naming it, with a retry; a report refused for a missing exchange rate gives its figures per currency.
 * Or the Excel workbook of the report page chosen (among those the user may download), built by the server.
 */

afterEach(() => {
  return tearDownReportPage();
});

const DAILY = [
  { date: '2024-03-09', gmv: 1250.5, transactions: 12 },
  { date: '2024-03-10', gmv: 0, transactions: 0 },
];
const MALL_RANKING = [
  { mall_id: 2, mall_name: 'East', gmv: 900, transactions: 9, average_transaction_value: 100 },
  { mall_id: 1, mall_name: 'Central', gmv: 350.5, transactions: 3, average_transaction_value: 116.83 },
];
const CATEGORIES = [{ category: 'F&B', gmv: 1250.5, transactions: 12, average_transaction_value: 104.21 }];
const LEVELS = [{ level: 'B1', gmv: 80, transactions: 8, average_transaction_value: 10 }];

function answers(call: RecordedCall) {
  switch (call.path) {
    case '/api/mall_report/daily':
      return ok({ data: DAILY });
    case '/api/mall_report/mall':
      return ok({ data: MALL_RANKING });
    case '/api/mall_report/category':
      return ok({ data: CATEGORIES });
    case '/api/mall_report/level':
      return ok({ data: LEVELS });
    case '/api/mall_report/monthly':
      return ok({ data: [{ month: '2024-03', gmv: 1250.5, transactions: 12 }] });
    default:
      return undefined;
  }
}

const renderPage = () =>
  renderReportPage(ExportPage, { title: 'Export', header: 'none', page: { period: 'range', outletMode: 'disabled' } });

const checkbox = (name: string) => screen.getByRole('checkbox', { name });
const exportButton = () => screen.getByTestId('export-start');
const workbookRadio = () => screen.getByRole('radio', { name: /Excel workbook/ });
const reportPageSelect = () => screen.getByRole('combobox', { name: 'Report page' }) as HTMLSelectElement;
const { start_hour: _start, end_hour: _end, ...DAYS } = BASE;

async function waitForFilters(): Promise<void> {
  await waitForLookups();
  await waitFor(() => expect(exportButton().hasAttribute('disabled')).toBe(false));
}

/** Unticks every report and ticks these. */
function tick(...names: string[]): void {
  fireEvent.click(screen.getByTestId('export-clear-all'));
  for (const name of names) fireEvent.click(checkbox(name));
}

/** Records the path and signal of every request (the network stub of the harness answers them). */
function recordSignals(): { path: string; signal: AbortSignal }[] {
  const requests: { path: string; signal: AbortSignal }[] = [];
  const inner = globalThis.fetch;
  vi.stubGlobal('fetch', (request: Request) => {
    requests.push({ path: new URL(request.url).pathname, signal: request.signal });
    return inner(request);
  });
  return requests;
}

describe('the export page', () => {
  it('shows its own malls and date range, no mall header, and the reports as a list of checkboxes', async () => {
    const network = installNetwork(answers);
    renderPage();
    await waitForFilters();
    expect(screen.getAllByRole('heading', { level: 1 }).map((heading) => heading.textContent)).toEqual(['Export']);
    expect(screen.queryByTestId('mall-header')).toBeNull();
    expect(screen.getByTestId('malls-select')).toBeTruthy();
    expect(screen.getByTestId('date-range-button')).toBeTruthy();
    const list = screen.getByRole('group', { name: 'Reports' });
    expect(
      within(list)
        .getAllByRole('checkbox')
        .map((box) => [
          box.getAttribute('aria-label') ?? box.closest('label')?.textContent,
          (box as HTMLInputElement).checked,
        ]),
    ).toEqual([
      ['Daily', true],
      ['Monthly', true],
      ['Mall ranking', true],
      ['Peak hours', true],
      ['Payment methods', true],
      ['Member vs non-member', true],
      ['Category', true],
      ['Level', true],
      ['Outlets', true],
    ]);
    expect(checkbox('Peak hours').getAttribute('aria-describedby')).toBeTruthy();
    // Nothing is asked before Export.
    expect(network.reportCalls()).toEqual([]);
    // Nothing ticked: nothing to export.
    fireEvent.click(screen.getByTestId('export-clear-all'));
    expect(exportButton().hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByTestId('export-select-all'));
    expect(exportButton().hasAttribute('disabled')).toBe(false);
  });

  it('downloads the ticked reports as one zip of CSV files named by the date range', async () => {
    const network = installNetwork(answers);
    const downloads = captureDownloads();
    renderPage();
    await waitForFilters();
    tick('Daily', 'Mall ranking', 'Category');
    const download = await exportDownload(downloads, () => fireEvent.click(exportButton()));
    expect(download.fileName).toBe(`mall-report_${FILE_RANGE}.zip`);
    expect(await unzip(download.blob)).toEqual({
      [`categories_${FILE_RANGE}.csv`]: [
        'Category,GMV,Transactions,Average Transaction Value,Currency',
        'F&B,1250.5,12,104.21,SGD',
      ],
      [`daily_${FILE_RANGE}.csv`]: ['Date,GMV,Transactions,Currency', '2024-03-09,1250.5,12,SGD', '2024-03-10,0,0,SGD'],
      [`mall_ranking_${FILE_RANGE}.csv`]: [
        'Rank,Mall ID,Mall Name,GMV,Transactions,Average Transaction Value,Currency',
        '1,2,East,900,9,100,SGD',
        '2,1,Central,350.5,3,116.83,SGD',
      ],
    });
    expect(describeCalls(network.reportCalls())).toEqual(
      sortedCalls([
        { path: '/api/mall_report/daily', params: BASE },
        { path: '/api/mall_report/mall', params: { ...BASE, rank_by: 'gmv' } },
        { path: '/api/mall_report/category', params: BASE },
      ]),
    );
    expect(screen.getByTestId('export-done').textContent).toContain(`Downloaded mall-report_${FILE_RANGE}.zip.`);
  });

  it('shows the reports done on a progress bar, and Cancel aborts the calls still pending', async () => {
    const daily = deferred<{ status: number; body: unknown }>();
    const levels = deferred<{ status: number; body: unknown }>();
    installNetwork((call) =>
      call.path === '/api/mall_report/daily'
        ? daily.promise
        : call.path === '/api/mall_report/level'
          ? levels.promise
          : answers(call),
    );
    const signals = recordSignals();
    const downloads = captureDownloads();
    renderPage();
    await waitForFilters();
    tick('Daily', 'Monthly', 'Level');
    fireEvent.click(exportButton());
    // Monthly answers at once; Level takes its slot; Daily is pending.
    await waitFor(() => expect(screen.getByTestId('export-progress-text').textContent).toBe('1 of 3 reports'));
    const bar = screen.getByRole('progressbar', { name: 'Export progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('33');
    expect(bar.getAttribute('aria-valuetext')).toBe('1 of 3 reports');
    // The header is locked meanwhile, the list too.
    await waitFor(() => expect(screen.getByTestId('export-header').getAttribute('aria-busy')).toBe('true'));
    expect((checkbox('Daily') as HTMLInputElement).disabled).toBe(true);
    daily.resolve(ok({ data: DAILY }));
    await waitFor(() => expect(screen.getByTestId('export-progress-text').textContent).toBe('2 of 3 reports'));
    fireEvent.click(screen.getByTestId('export-cancel'));
    await waitFor(() => expect(screen.queryByTestId('export-progress')).toBeNull());
    // The call still pending was aborted.
    const level = signals.find((request) => request.path === '/api/mall_report/level');
    expect(level?.signal.aborted).toBe(true);
    levels.resolve(ok({ data: LEVELS }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(downloads).toEqual([]);
    expect(exportButton().hasAttribute('disabled')).toBe(false);
    expect((checkbox('Daily') as HTMLInputElement).disabled).toBe(false);
    expect(screen.getByTestId('export-header').getAttribute('aria-busy')).toBe('false');
  });

  it('fails the export naming the report that failed, downloads nothing, and a retry finishes it', async () => {
    // Level fails once Daily is in.
    const network = installNetwork((call) =>
      call.path === '/api/mall_report/level'
        ? new Promise((resolve) => setTimeout(() => resolve(serverError()), 50))
        : answers(call),
    );
    const downloads = captureDownloads();
    renderPage();
    await waitForFilters();
    tick('Daily', 'Level');
    fireEvent.click(exportButton());
    const failure = await screen.findByTestId('export-failed');
    expect(failure.getAttribute('role')).toBe('alert');
    expect(screen.getByTestId('export-failure-message').textContent).toBe(
      'The Level report could not be loaded (boom). Nothing was downloaded.',
    );
    await waitFor(() =>
      expect([...document.querySelectorAll('.bp6-toast')].map((toast) => toast.textContent)).toContain(
        'Level export error occurs. Please try again later.',
      ),
    );
    expect(downloads).toEqual([]);
    const before = network.reportCalls().length;
    network.answerReports(answers);
    const download: Download = await exportDownload(downloads, () =>
      fireEvent.click(screen.getByTestId('export-retry')),
    );
    // Daily was in already: only Level is asked again.
    expect(
      network
        .reportCalls()
        .slice(before)
        .map((call) => call.path),
    ).toEqual(['/api/mall_report/level']);
    expect(Object.keys(await unzip(download.blob))).toEqual([`daily_${FILE_RANGE}.csv`, `levels_${FILE_RANGE}.csv`]);
  });

  it('exports the figures per currency of a report whose currencies cannot be added', async () => {
    const reason = 'No exchange rate to SGD for MYR in March 2024.';
    installNetwork(
      (call) =>
        call.path === '/api/mall_report/daily'
          ? {
              status: 409,
              body: {
                statusCode: 409,
                error: 'Conflict',
                message: reason,
                by_currency: [
                  { currency: 'MYR', gmv: 48210.5, transactions: 812 },
                  { currency: 'SGD', gmv: 10250, transactions: 240 },
                ],
              },
            }
          : answers(call),
      [
        { id: 1, name: 'Central', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
        { id: 2, name: 'Bukit', currency: 'MYR', time_zone: 'Asia/Kuala_Lumpur', country: 'MY' },
      ],
    );
    const downloads = captureDownloads();
    renderPage();
    await waitForFilters();
    tick('Daily', 'Level');
    const download = await exportDownload(downloads, () => fireEvent.click(exportButton()));
    expect(await unzip(download.blob)).toEqual({
      [`daily_by_currency_${FILE_RANGE}.csv`]: ['Currency,GMV,Transactions', 'MYR,48210.5,812', 'SGD,10250,240'],
      // The other report, converted by the server to the client's reporting currency (not known to the page here:
      // this network does not answer the clients' lookup, so no Currency column is written).
      [`levels_${FILE_RANGE}.csv`]: ['Level,GMV,Transactions,Average Transaction Value', 'B1,80,8,10'],
    });
    expect(screen.getByTestId('export-by-currency').textContent).toBe(
      `Daily: figures per currency in daily_by_currency, not added together. ${reason}`,
    );
  });

  it('offers the workbook of Mall Home at first: one call for the malls and days, its progress, then its download', async () => {
    const workbook = deferred<{ status: number; body: unknown }>();
    const network = installNetwork((call) =>
      call.path === '/api/mall_report/mall_home/workbook' ? workbook.promise : answers(call),
    );
    const downloads = captureDownloads();
    renderPage();
    await waitForFilters();
    // The page is chosen with the workbook only.
    expect(screen.queryByRole('combobox', { name: 'Report page' })).toBeNull();
    fireEvent.click(workbookRadio());
    // The reports' ticks are kept, and cannot change while the workbook is chosen.
    expect(screen.getByTestId('export-reports').hasAttribute('disabled')).toBe(true);
    // Every report page's workbook, Mall Home chosen, what it holds beneath.
    expect([...reportPageSelect().options].map((option) => option.textContent)).toEqual([
      'Mall Home',
      'Mall GMV',
      'Mall Peak Hours',
      'Mall Payment Methods',
      'Member vs Non-member',
      'Refunds',
      'Voucher Redemption',
    ]);
    expect(reportPageSelect().value).toBe('mall_home');
    const sheets = screen.getByTestId('export-workbook-page-sheets');
    expect(sheets.textContent).toBe('Key figures, days, outlets and payment methods.');
    expect(reportPageSelect().getAttribute('aria-describedby')).toBe(sheets.id);
    fireEvent.click(exportButton());
    await waitFor(() => expect(screen.getByTestId('export-progress-text').textContent).toBe('Preparing the workbook…'));
    expect(screen.getByTestId('export-cancel')).toBeTruthy();
    // Neither the format nor the page changes meanwhile.
    expect(reportPageSelect().disabled).toBe(true);
    const download = await exportDownload(downloads, () => workbook.resolve(ok('workbook bytes')));
    expect(download.fileName).toBe(`mall-home_${FILE_RANGE}.xlsx`);
    expect(describeCalls(network.reportCalls())).toEqual([
      {
        path: '/api/mall_report/mall_home/workbook',
        params: { ...DAYS, compare: 'previous', like_for_like: 'false' },
      },
    ]);
    expect(screen.getByTestId('export-done').textContent).toContain(`Downloaded mall-home_${FILE_RANGE}.xlsx.`);
    // Back to the CSV files: the reports can be ticked again.
    fireEvent.click(screen.getByRole('radio', { name: /CSV files/ }));
    expect(screen.getByTestId('export-reports').hasAttribute('disabled')).toBe(false);
    expect(screen.queryByRole('combobox', { name: 'Report page' })).toBeNull();
  });

  it('downloads the workbook of the page chosen: Mall GMV of whole days', async () => {
    const network = installNetwork((call) =>
      call.path === '/api/mall_report/mall_gmv/workbook' ? ok('workbook bytes') : answers(call),
    );
    const downloads = captureDownloads();
    renderPage();
    await waitForFilters();
    fireEvent.click(workbookRadio());
    // A page with hours says what the workbook is made of here: the page has no hours, time range or metric.
    fireEvent.change(reportPageSelect(), { target: { value: 'peak_hours' } });
    expect(screen.getByTestId('export-workbook-page-sheets').textContent).toBe(
      'Heat map, the metric over time, every day and hour. For all day, daily, GMV.',
    );
    fireEvent.change(reportPageSelect(), { target: { value: 'mall_gmv' } });
    expect(reportPageSelect().value).toBe('mall_gmv');
    expect(screen.getByTestId('export-workbook-page-sheets').textContent).toBe(
      'Days, months, outlets, categories and levels.',
    );
    const download = await exportDownload(downloads, () => fireEvent.click(exportButton()));
    expect(download.fileName).toBe(`mall-gmv_${FILE_RANGE}.xlsx`);
    expect(describeCalls(network.reportCalls())).toEqual([
      { path: '/api/mall_report/mall_gmv/workbook', params: DAYS },
    ]);
    expect(screen.getByTestId('export-done').textContent).toContain(`Downloaded mall-gmv_${FILE_RANGE}.xlsx.`);
  });

  it('downloads the Refunds workbook compared with the previous period, as the page compares by default', async () => {
    const network = installNetwork((call) =>
      call.path === '/api/mall_report/refund/workbook' ? ok('workbook bytes') : answers(call),
    );
    const downloads = captureDownloads();
    renderPage();
    await waitForFilters();
    fireEvent.click(workbookRadio());
    fireEvent.change(reportPageSelect(), { target: { value: 'refunds' } });
    expect(screen.getByTestId('export-workbook-page-sheets').textContent).toBe(
      'Key figures, refunds by day and by outlet.',
    );
    const download = await exportDownload(downloads, () => fireEvent.click(exportButton()));
    expect(download.fileName).toBe(`refunds_${FILE_RANGE}.xlsx`);
    expect(describeCalls(network.reportCalls())).toEqual([
      {
        path: '/api/mall_report/refund/workbook',
        params: { ...DAYS, compare: 'previous', like_for_like: 'false' },
      },
    ]);
  });

  it('lists only the workbooks the user may download', async () => {
    installNetwork(answers);
    renderReportPage(ExportPage, {
      title: 'Export',
      header: 'none',
      page: { period: 'range', outletMode: 'disabled' },
      permissions: [
        '/api/mall_report/daily::Read',
        '/api/mall_report/member/workbook::Read',
        ...PERMISSIONS.filter((permission) => !permission.startsWith('/api/mall_report/')),
      ],
    });
    await waitForFilters();
    fireEvent.click(workbookRadio());
    expect([...reportPageSelect().options].map((option) => option.textContent)).toEqual(['Member vs Non-member']);
    expect(reportPageSelect().value).toBe('member');
  });

  it('offers no workbook to a user who may download none: the CSV files only', async () => {
    installNetwork(answers);
    renderReportPage(ExportPage, {
      title: 'Export',
      header: 'none',
      page: { period: 'range', outletMode: 'disabled' },
      permissions: [
        ...['daily', 'mall', 'category', 'level', 'monthly'].map((report) => `/api/mall_report/${report}::Read`),
        ...PERMISSIONS.filter((permission) => !permission.startsWith('/api/mall_report/')),
      ],
    });
    await waitForFilters();
    expect(screen.queryByRole('radio', { name: /Excel workbook/ })).toBeNull();
    expect(screen.getByTestId('export-reports').hasAttribute('disabled')).toBe(false);
  });

  it('says which workbook could not be made, downloads nothing, and a retry asks again', async () => {
    let fail = true;
    const network = installNetwork((call) =>
      call.path === '/api/mall_report/peak_hour/workbook' ? (fail ? serverError() : ok('workbook bytes')) : undefined,
    );
    const downloads = captureDownloads();
    renderPage();
    await waitForFilters();
    fireEvent.click(workbookRadio());
    fireEvent.change(reportPageSelect(), { target: { value: 'peak_hours' } });
    fireEvent.click(exportButton());
    await waitFor(() =>
      expect(screen.getByTestId('export-failure-message').textContent).toBe(
        'The Mall Peak Hours workbook could not be made (boom). Nothing was downloaded.',
      ),
    );
    expect(downloads).toEqual([]);
    fail = false;
    const download = await exportDownload(downloads, () => fireEvent.click(screen.getByTestId('export-retry')));
    expect(download.fileName).toBe(`mall-peak-hours_${FILE_RANGE}.xlsx`);
    // Every hour of the day, the daily time range and GMV: the page has no such filters.
    expect(describeCalls(network.reportCalls())).toEqual(
      Array.from({ length: 2 }, () => ({
        path: '/api/mall_report/peak_hour/workbook',
        params: { ...BASE, time_range: 'daily', metric: 'gmv' },
      })),
    );
  });
});
