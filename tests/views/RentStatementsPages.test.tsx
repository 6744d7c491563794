import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserInfo } from '../../src/api/auth';
import { setPermissionsList } from '../../src/api/session';
import { filterHeaderMachine } from '../../src/machines/filterHeaderMachine';
import { RentStatementsPage } from '../../src/views/pages/tenant-connect/RentStatementsPage';
import { RentStatementPage } from '../../src/views/pages/tenants/RentStatementPage';
import {
  BANDS,
  BATIK,
  CLOSED_REPORT,
  EMPTY_REPORT,
  KOPI,
  NO_LEASE,
  PARTIAL_REPORT,
  SHOE,
  tenantStatement,
} from '../support/rentStatements';
import {
  blobText,
  bodyRows,
  captureDownloads,
  exportDownload,
  headerCells,
  tableIn,
  tearDownReportPage,
  toastTexts,
} from './mallReportHarness';
import { renderInApp, userInfo } from './renderApp';

/*
 * The rent statement pages (issue 33) inside the app, with the real filter header, page machines and the app's one
 * api client; the network is a fetch handler on globalThis answering what each test gives it. The staff's page: client
 * 3's malls Central (SGD) and East (IDR), the header's month March 2024 (today the 15th). The tenant's page: its one
 * outlet Kopi Corner, the header's month April 2024 (the last complete month, today 10 May). Client 3's occupancy
 * cost bands: F&B the published 6-10 %, Fashion its own 12-16 %, Services none.
 */

type Answer = { status: number; body: unknown };

const MALLS = [
  { id: 1, name: 'Central', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
  { id: 2, name: 'East', currency: 'IDR', time_zone: 'Asia/Jakarta', country: 'ID' },
];
const KOPI_OUTLET = { id: 12, name: 'Kopi Corner', type: 1, currency: 'SGD', mall_id: 1, outlet_code: null };
const SERVER_ERROR: Answer = {
  status: 500,
  body: { statusCode: 500, error: 'Internal Server Error', message: 'boom' },
};

let answer: () => Answer;
let asked: URL[];
/** How GET and PUT /api/occupancyBands answer, and the bodies of the PUTs. */
let bandsAnswer: () => Answer;
let saveAnswer: (body: unknown) => Answer;
let saved: unknown[];
/** How POST /api/rentStatements/invoices answers, and the bodies it was sent. */
let postAnswer: () => Answer;
let posted: unknown[];

beforeEach(() => {
  asked = [];
  saved = [];
  posted = [];
  postAnswer = () => ({ status: 200, body: { month: '2024-03', postedNow: 2, rows: [] } });
  bandsAnswer = () => ({ status: 200, body: { bands: BANDS } });
  saveAnswer = () => ({ status: 200, body: { bands: BANDS } });
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    let given: Answer = { status: 404, body: { statusCode: 404, error: 'Not Found', message: 'not found' } };
    if (url.pathname === '/malls') given = { status: 200, body: MALLS };
    else if (url.pathname === '/outlets') given = { status: 200, body: [KOPI_OUTLET] };
    else if (url.pathname === '/api/rentStatements' || url.pathname === '/api/tenant/rentStatement') {
      asked.push(url);
      given = answer();
    } else if (url.pathname === '/api/occupancyBands' && request.method === 'GET') {
      asked.push(url);
      given = bandsAnswer();
    } else if (url.pathname === '/api/rentStatements/invoices' && request.method === 'POST') {
      posted.push(await request.json());
      given = postAnswer();
    } else if (url.pathname === '/api/occupancyBands' && request.method === 'PUT') {
      const body: unknown = await request.json();
      saved.push(body);
      given = saveAnswer(body);
    }
    return new Response(JSON.stringify(given.body), {
      status: given.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
});

afterEach(tearDownReportPage);

const header = filterHeaderMachine.provide({ actions: { writeUrl: () => undefined, writeCookies: () => undefined } });

function render(page: 'staff' | 'tenant', user: Partial<UserInfo> = {}): void {
  setPermissionsList(['*::*']);
  if (page === 'staff') {
    renderInApp(<RentStatementsPage title="Rent Statements" header="mall" />, {
      user: userInfo({
        client_id: 3,
        clients: [3],
        roles: ['leasing'],
        permissions: [
          { name: 'tenant-connect', subPermissions: ['rent-statements', 'gto-review'] },
          { name: 'receipts', subPermissions: [] },
        ],
        permissionsList: ['*::*'],
        ...user,
      }),
      path: '/tenant-connect/rent-statements',
      today: '2024-03-15',
      header,
    });
    return;
  }
  renderInApp(<RentStatementPage title="Rent Statement" />, {
    user: userInfo({
      client_id: 3,
      clients: [3],
      roles: ['tenant'],
      permissions: [{ name: 'tenants', subPermissions: ['rent-statement'] }],
      permissionsList: ['*::*'],
      ...user,
    }),
    path: '/tenants/rent-statement',
    today: '2024-05-10',
    header,
  });
}

/** The cell of a column (`data-col`) in each body row of a table. */
const column = (table: HTMLElement, key: string) =>
  [...table.querySelectorAll(`tbody td[data-col="${key}"]`)].map((cell) => cell.textContent ?? '');

const waitForRows = (count: number) =>
  waitFor(() => expect(bodyRows(tableIn('rent-statements-table'))).toHaveLength(count));

describe('the Rent Statements page', () => {
  it('shows each lease’s rent of the month by the rent at stake, flagged rows, and totals per currency', async () => {
    answer = () => ({
      status: 200,
      body: { ...CLOSED_REPORT, rows: [CLOSED_REPORT.rows[2], ...CLOSED_REPORT.rows.slice(0, 2)] },
    });
    render('staff');
    await waitForRows(3);
    expect(asked.map((url) => [url.pathname, url.searchParams.toString()])).toEqual([
      ['/api/rentStatements', 'client_id=3&mall_ids=1&mall_ids=2&month=2024-03'],
    ]);
    const table = tableIn('rent-statements-table');
    expect(headerCells(table)).toEqual([
      'Outlet',
      'Mall',
      'Currency',
      'Rent Basis',
      'Days Leased',
      'Declared GTO',
      'Captured Sales',
      'Base Rent',
      'Turnover Rent on Declared GTO',
      'Turnover Rent on Captured Sales',
      'Rent at Stake',
      'Status',
      'Service Charge',
      'GST Rate',
      'GST',
      'Total Due',
      'Occupancy Cost',
      'Band',
      'Sales per m² a Year',
      'Invoice',
      '',
    ]);
    // By the rent at stake, largest first, whatever the order of the answer (the Status and Band columns below).
    expect(bodyRows(table).map((row) => [...row.slice(0, 11), ...row.slice(12, 17), ...row.slice(18, 20)])).toEqual([
      [
        'Kopi Corner',
        'Central',
        'SGD',
        'Declared',
        '31 of 31',
        '$200,000.00',
        '$250,000.00',
        '$10,000.00',
        '$6,000.00',
        '$11,000.00',
        '$5,000.00',
        '$1,500.00',
        '9%',
        '$1,575.00',
        '$19,075.00',
        '9.0%',
        '$25,000.00',
        '—',
      ],
      [
        'Batik House',
        'East',
        'IDR',
        'Captured (no declaration)',
        '31 of 31',
        '—',
        'Rp150,000,000',
        'Rp20,000,000',
        '—',
        'Rp2,500,000',
        'Rp0',
        'Rp3,000,000',
        '11%',
        'Rp2,805,000',
        'Rp28,305,000',
        '17.0%',
        'Rp9,000,000',
        'INV-0042',
      ],
      [
        'Shoe Lane',
        'Central',
        'SGD',
        'Declared',
        '20 of 31',
        '$50,000.00',
        '$45,000.00',
        '$4,000.00',
        '$1,000.00',
        '$500.00',
        '-$500.00',
        '$600.00',
        '9%',
        '$504.00',
        '$6,104.00',
        '11.3%',
        '$10,462.50',
        '—',
      ],
    ]);
    // Flagged beyond the client's threshold, and why.
    expect(column(table, 'flagged')).toEqual([
      'Flagged: Declared GTO 20.0% below the captured sales, beyond the 5% threshold.',
      '',
      'Flagged: Declared GTO 11.1% above the captured sales, beyond the 5% threshold.',
    ]);
    // Where each occupancy cost falls against its category's band, and what it may mean.
    expect(column(table, 'band')).toEqual([
      'Within 6–10%',
      'Above 12–16%: At risk of leaving',
      'Below 12–16%: Rent may be under market',
    ]);
    expect(screen.getByTestId('rent-statements-flag-rule').textContent).toContain(
      'Flagged: the declared GTO differs from the sales captured from receipts by more than 5%, either way.',
    );
    expect(screen.getByTestId('rent-statements-basis').textContent).toContain(
      'on the sales captured from receipts where the month has no declaration',
    );
    expect(screen.queryByTestId('rent-statements-partial')).toBeNull();
    // Never added across currencies.
    expect(bodyRows(tableIn('rent-statements-totals-table'))).toEqual([
      ['IDR', '1', '0', 'Rp20,000,000', 'Rp0', 'Rp2,500,000', 'Rp0', 'Rp3,000,000', 'Rp2,805,000', 'Rp28,305,000'],
      ['SGD', '2', '2', '$14,000.00', '$7,000.00', '$11,500.00', '$4,500.00', '$2,100.00', '$2,079.00', '$25,179.00'],
    ]);
    expect(screen.getByTestId('currency-note').textContent).toBe(
      'Amounts in each outlet’s own currency (IDR, SGD), not converted; totals are per currency.',
    );
    // The under-declared outlet leads to its GTO review and its receipts of the month.
    const review = screen.getByTestId('rent-gto-review-101');
    expect(review.getAttribute('href')).toBe('/tenant-connect/gto-review?client=3&outlet=12&month=2024-03');
    expect(review.textContent).toBe('GTO review of Kopi Corner, March 2024');
    expect(screen.getByTestId('rent-receipts-101').getAttribute('href')).toBe(
      '/receipts?client=3&outlet=12&from=2024-03-01&to=2024-03-15',
    );
  });

  it('shows no links to pages the user may not open', async () => {
    answer = () => ({ status: 200, body: CLOSED_REPORT });
    render('staff', { permissions: [{ name: 'tenant-connect', subPermissions: ['rent-statements'] }] });
    await waitForRows(3);
    expect(screen.queryByTestId('rent-gto-review-101')).toBeNull();
    expect(screen.queryByTestId('rent-receipts-101')).toBeNull();
    expect(headerCells(tableIn('rent-statements-table'))).not.toContain('');
  });

  it('lists the outlets outside their band, above first, and the occupancy cost by mall, floor and category', async () => {
    answer = () => ({ status: 200, body: CLOSED_REPORT });
    render('staff');
    await waitForRows(3);
    const outside = tableIn('rent-outside-band-table');
    expect(headerCells(outside)).toEqual([
      'Outlet',
      'Mall',
      'Category',
      'Occupancy Cost',
      'Band',
      'Position',
      'Outside by',
    ]);
    expect(bodyRows(outside)).toEqual([
      ['Batik House', 'East', 'Fashion', '17.0%', '12–16%', 'Above: At risk of leaving', '1 point'],
      ['Shoe Lane', 'Central', 'Fashion', '11.3%', '12–16%', 'Below: Rent may be under market', '0.67 points'],
    ]);
    expect(screen.getByTestId('rent-outside-band').textContent).toContain(
      'A tenant above its band is at risk of leaving; below it, the rent may be under market.',
    );
    expect(screen.queryByTestId('rent-outside-band-without')).toBeNull();
    // By mall first: each row in its one currency, never added across currencies.
    const groups = () => tableIn('rent-groups-table');
    const title = () => screen.getByTestId('rent-groups').querySelector('h5')?.textContent;
    expect(title()).toBe('Occupancy Cost by Mall');
    expect(headerCells(groups())).toEqual([
      'Mall',
      'Currency',
      'Outlets',
      'Sales',
      'Occupancy Cost',
      'Occupancy Cost Ratio',
      'Lettable Area (m²)',
      'Sales per m² a Year',
    ]);
    expect(bodyRows(groups())).toEqual([
      ['Central', 'SGD', '2', '$295,000.00', '$27,600.00', '9.4%', '200', '$19,185.00'],
      ['East', 'IDR', '1', 'Rp150,000,000', 'Rp25,500,000', '17.0%', '200', 'Rp9,000,000'],
    ]);
    fireEvent.click(screen.getByTestId('rent-groups-by-level'));
    expect(title()).toBe('Occupancy Cost by Floor');
    expect(headerCells(groups())[0]).toBe('Floor');
    expect(bodyRows(groups()).map((row) => row.slice(0, 3))).toEqual([
      ['B1', 'SGD', '1'],
      ['L1', 'SGD', '1'],
      ['L2', 'IDR', '1'],
    ]);
    fireEvent.click(screen.getByTestId('rent-groups-by-category'));
    expect(screen.getByTestId('rent-groups-by-category').getAttribute('aria-pressed')).toBe('true');
    expect(bodyRows(groups())).toEqual([
      ['F&B', 'SGD', '1', '$250,000.00', '$22,500.00', '9.0%', '120', '$25,000.00'],
      ['Fashion', 'IDR', '1', 'Rp150,000,000', 'Rp25,500,000', '17.0%', '200', 'Rp9,000,000'],
      ['Fashion', 'SGD', '1', '$45,000.00', '$5,100.00', '11.3%', '80', '$10,462.50'],
    ]);
  });

  it('says when every outlet with a band is within it, and how many have no band', async () => {
    const bandless = { band_low_percent: null, band_high_percent: null, band_position: null };
    answer = () => ({
      status: 200,
      body: { ...CLOSED_REPORT, rows: [KOPI, { ...BATIK, ...bandless }, { ...SHOE, ...bandless }] },
    });
    render('staff');
    await waitForRows(3);
    expect(screen.getByTestId('rent-outside-band-none').textContent).toBe(' Every outlet with a band is within it.');
    expect(screen.queryByTestId('rent-outside-band-table')).toBeNull();
    expect(screen.getByTestId('rent-outside-band-without').textContent).toBe(
      '2 outlets are in categories without a band.',
    );
    // No band: nothing in the Band column.
    expect(column(tableIn('rent-statements-table'), 'band')).toEqual(['Within 6–10%', '', '']);
  });

  it('labels a month not over as partial, with each outlet’s projection', async () => {
    answer = () => ({ status: 200, body: PARTIAL_REPORT });
    render('staff');
    await waitForRows(1);
    expect(screen.getByTestId('rent-statements-partial').textContent).toContain(
      'Partial: March 2024 is not over, so its figures are to date and each outlet’s month end is projected.',
    );
    const table = tableIn('rent-statements-table');
    expect(headerCells(table)).toContain('Projected Sales');
    expect(column(table, 'sales_projected')).toEqual(['$248,000.00']);
    expect(column(table, 'turnover_rent_projected')).toEqual(['$10,800.00']);
    expect(column(table, 'basis')).toEqual(['Captured (no declaration)']);
    expect(column(table, 'flagged')).toEqual([
      'Partial: Partial month: projected sales $248,000.00, projected turnover rent $10,800.00.',
    ]);
    // No invoice yet: no Invoice column.
    expect(headerCells(table)).not.toContain('Invoice');
  });

  it("says 'No Data' when no lease covers the month", async () => {
    answer = () => ({ status: 200, body: EMPTY_REPORT });
    render('staff');
    await waitFor(() => expect(bodyRows(tableIn('rent-statements-table'))).toEqual([['No Data']]));
    expect(bodyRows(tableIn('rent-statements-totals-table'))).toEqual([['No Data']]);
    expect(bodyRows(tableIn('rent-outside-band-table'))).toEqual([['No Data']]);
    expect(bodyRows(tableIn('rent-groups-table'))).toEqual([['No Data']]);
    expect(toastTexts()).toEqual([]);
  });

  it('fails its panels with the toast and a retry, and loads again', async () => {
    answer = () => SERVER_ERROR;
    render('staff');
    await waitFor(() => expect(toastTexts()).toContain('Rent statements error occurs. Please try again later.'));
    expect(screen.queryByTestId('rent-statements-table')).toBeNull();
    // Every panel of the answer fails with it, each with its retry.
    expect(screen.queryByTestId('rent-outside-band-table')).toBeNull();
    expect(screen.queryByTestId('rent-groups-table')).toBeNull();
    expect(screen.getAllByTestId('panel-retry')).toHaveLength(4);
    answer = () => ({ status: 200, body: CLOSED_REPORT });
    const [retry] = screen.getAllByTestId('panel-retry');
    fireEvent.click(retry as HTMLElement);
    await waitForRows(3);
  });

  it('exports the rows shown, named by the month, each in its own currency', async () => {
    answer = () => ({ status: 200, body: CLOSED_REPORT });
    const downloads = captureDownloads();
    render('staff');
    await waitForRows(3);
    await waitFor(() => expect(screen.getByTestId('export-csv').hasAttribute('disabled')).toBe(false));
    const download = await exportDownload(downloads, () => fireEvent.click(screen.getByTestId('export-csv')));
    expect(download.fileName).toBe('rent_statements_2024-03.csv');
    const lines = (await blobText(download.blob)).split('\r\n');
    expect(lines[0]?.startsWith('Outlet,Mall,Category,Level,Currency,Model,')).toBe(true);
    expect(lines[0]?.endsWith(',Flagged,Partial,Invoice Number')).toBe(true);
    expect(lines[0]).toContain(',Occupancy Cost Percent,Occupancy Cost Band,Band Position,');
    expect(lines[1]).toContain(',9.00,6–10%,Within,');
    expect(lines.slice(1, 4).map((line) => line.split(',').slice(0, 5).join(','))).toEqual([
      'Kopi Corner,Central,F&B,L1,SGD',
      'Batik House,East,Fashion,L2,IDR',
      'Shoe Lane,Central,Fashion,B1,SGD',
    ]);
  });
});

describe('posting the month’s turnover-rent invoices', () => {
  const statementsAsked = () => asked.filter((url) => url.pathname === '/api/rentStatements').length;

  it('posts the month shown, says how many were posted, and reads the statements again', async () => {
    answer = () => ({ status: 200, body: CLOSED_REPORT });
    render('staff');
    await waitForRows(3);
    const button = screen.getByTestId('rent-invoices-post');
    expect(button.textContent).toBe('Post invoices to Xero');
    fireEvent.click(button);
    await waitFor(() => expect(toastTexts()).toContain('2 turnover-rent invoices for March 2024 posted to Xero.'));
    expect(posted).toEqual([{ client_id: 3, month: '2024-03' }]);
    await waitFor(() => expect(statementsAsked()).toBe(2));
    // Posting again posts nothing new: every outlet's month was posted before.
    postAnswer = () => ({ status: 200, body: { month: '2024-03', postedNow: 0, rows: [] } });
    await waitForRows(3);
    fireEvent.click(screen.getByTestId('rent-invoices-post'));
    await waitFor(() =>
      expect(toastTexts()).toContain(
        "No new invoice for March 2024: every outlet's month was posted before or owes no turnover rent.",
      ),
    );
  });

  it('shows the server’s reason when it refuses', async () => {
    answer = () => ({ status: 200, body: CLOSED_REPORT });
    postAnswer = () => ({
      status: 409,
      body: { statusCode: 409, error: 'Conflict', message: 'Connect Xero first.' },
    });
    render('staff');
    await waitForRows(3);
    fireEvent.click(screen.getByTestId('rent-invoices-post'));
    await waitFor(() => expect(toastTexts()).toContain('Connect Xero first.'));
  });

  it('is not offered for a month not over', async () => {
    answer = () => ({ status: 200, body: PARTIAL_REPORT });
    render('staff');
    await waitForRows(1);
    expect(screen.getByTestId('rent-invoices-post').hasAttribute('disabled')).toBe(true);
  });

  it('is not offered without the permission', async () => {
    answer = () => ({ status: 200, body: CLOSED_REPORT });
    render('staff', { permissionsList: ['*::Read'] });
    await waitForRows(3);
    expect(screen.queryByTestId('rent-invoices-post')).toBeNull();
  });
});

describe('the occupancy cost bands dialog', () => {
  const statementsAsked = () => asked.filter((url) => url.pathname === '/api/rentStatements').length;

  async function openDialog(): Promise<HTMLElement> {
    answer = () => ({ status: 200, body: CLOSED_REPORT });
    render('staff');
    await waitForRows(3);
    fireEvent.click(screen.getByTestId('rent-bands-open'));
    const dialog = await screen.findByRole('dialog', { name: 'Occupancy cost bands' });
    await waitFor(() => expect(bodyRows(within(dialog).getByTestId('occupancy-bands-table'))).toHaveLength(3));
    return dialog;
  }

  const field = (dialog: HTMLElement, label: string) => within(dialog).getByLabelText(label) as HTMLInputElement;

  it('is not offered to a user who may not set the bands', async () => {
    answer = () => ({ status: 200, body: CLOSED_REPORT });
    render('staff', { permissionsList: ['*::Read'] });
    await waitForRows(3);
    expect(screen.queryByTestId('rent-bands-open')).toBeNull();
    expect(asked.filter((url) => url.pathname === '/api/occupancyBands')).toEqual([]);
  });

  it('lists every category with its band and source, saves the bands changed and reads the statements again', async () => {
    saveAnswer = () => ({
      status: 200,
      body: {
        bands: [
          { category: 'F&B', low_percent: 6, high_percent: 11, source: 'client' },
          { category: 'Fashion', low_percent: 10, high_percent: 15, source: 'default' },
          { category: 'Services', low_percent: 3, high_percent: 8, source: 'client' },
        ],
      },
    });
    const dialog = await openDialog();
    expect(asked.at(-1)?.search).toBe('?client_id=3');
    const table = within(dialog).getByTestId('occupancy-bands-table');
    expect(headerCells(table)).toEqual(['Category', 'Source', 'Low (%)', 'High (%)', 'Published', '']);
    expect(bodyRows(table).map((row) => [row[0], row[1], row[4], row[5]])).toEqual([
      ['F&B', 'Published', '6–10%', ''],
      ['Fashion', 'Your band', '10–15%', 'Reset'],
      ['Services', 'None', 'none', ''],
    ]);
    expect([field(dialog, 'Low end of F&B (%)').value, field(dialog, 'High end of F&B (%)').value]).toEqual([
      '6',
      '10',
    ]);
    expect(field(dialog, 'Low end of Fashion (%)').value).toBe('12');
    const save = within(dialog).getByTestId('occupancy-bands-save');
    expect(save.hasAttribute('disabled')).toBe(true);
    fireEvent.change(field(dialog, 'High end of F&B (%)'), { target: { value: '11' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset Fashion to the published band' }));
    expect(field(dialog, 'Low end of Fashion (%)').value).toBe('10');
    expect(field(dialog, 'High end of Fashion (%)').value).toBe('15');
    // Half a band is said at its field, and is not saved.
    fireEvent.change(field(dialog, 'Low end of Services (%)'), { target: { value: '3' } });
    expect(within(dialog).getByTestId('occupancy-band-message-2').textContent).toBe(
      'High end: Give both ends of the band, or neither to use the published band.',
    );
    expect(field(dialog, 'High end of Services (%)').getAttribute('aria-invalid')).toBe('true');
    expect(save.hasAttribute('disabled')).toBe(true);
    fireEvent.change(field(dialog, 'High end of Services (%)'), { target: { value: '8' } });
    expect(within(dialog).queryByTestId('occupancy-band-message-2')).toBeNull();
    expect(bodyRows(table).map((row) => row[1])).toEqual(['Your band', 'Published', 'Your band']);
    expect(save.hasAttribute('disabled')).toBe(false);
    const before = statementsAsked();
    fireEvent.click(save);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(saved).toEqual([
      {
        client_id: 3,
        bands: [
          { category: 'F&B', low_percent: 6, high_percent: 11 },
          { category: 'Fashion', low_percent: null, high_percent: null },
          { category: 'Services', low_percent: 3, high_percent: 8 },
        ],
      },
    ]);
    await waitFor(() => expect(toastTexts()).toContain('Save Successfully.'));
    await waitFor(() => expect(statementsAsked()).toBe(before + 1));
    await waitForRows(3);
  });

  it('shows the server’s refusal at the field it names, and keeps the draft', async () => {
    saveAnswer = () => ({
      status: 400,
      body: {
        statusCode: 400,
        error: 'Bad Request',
        message: 'bands.0.high_percent: The high end is beyond what this client allows.',
      },
    });
    const dialog = await openDialog();
    const high = field(dialog, 'High end of F&B (%)');
    fireEvent.change(high, { target: { value: '11' } });
    const before = statementsAsked();
    fireEvent.click(within(dialog).getByTestId('occupancy-bands-save'));
    await waitFor(() => expect(toastTexts()).toContain('Save Failed.'));
    expect(within(dialog).getByTestId('occupancy-band-message-0').textContent).toBe(
      'High end: The high end is beyond what this client allows.',
    );
    expect(high.getAttribute('aria-invalid')).toBe('true');
    expect(high.getAttribute('aria-describedby')).toBe('occupancy-band-message-0');
    expect(field(dialog, 'Low end of F&B (%)').getAttribute('aria-invalid')).toBe('false');
    expect(high.value).toBe('11');
    expect(screen.getByRole('dialog')).toBeDefined();
    expect(statementsAsked()).toBe(before);
    // Typed again, the refusal is of another band.
    fireEvent.change(high, { target: { value: '12' } });
    expect(within(dialog).queryByTestId('occupancy-band-message-0')).toBeNull();
  });

  it('says when the bands cannot be read, reads them again, and closes on Cancel', async () => {
    bandsAnswer = () => SERVER_ERROR;
    answer = () => ({ status: 200, body: CLOSED_REPORT });
    render('staff');
    await waitForRows(3);
    fireEvent.click(screen.getByTestId('rent-bands-open'));
    await waitFor(() =>
      expect(toastTexts()).toContain('Occupancy cost bands fetching error occurs. Please try again later.'),
    );
    bandsAnswer = () => ({ status: 200, body: { bands: BANDS } });
    fireEvent.click(await screen.findByTestId('occupancy-bands-retry'));
    const dialog = screen.getByRole('dialog');
    await waitFor(() => expect(bodyRows(within(dialog).getByTestId('occupancy-bands-table'))).toHaveLength(3));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(saved).toEqual([]);
  });
});

describe('the tenant’s Rent Statement page', () => {
  it('shows its lease’s terms in words and the month’s rent line by line', async () => {
    answer = () => ({ status: 200, body: tenantStatement() });
    render('tenant');
    const table = await screen.findByTestId('rent-statement-table');
    expect(asked.map((url) => url.searchParams.toString())).toEqual(['client_id=3&outlet_id=12&month=2024-04']);
    const terms = within(screen.getByTestId('rent-statement-terms'));
    expect(terms.getByText('11 Apr 2024 to 11 Mar 2027')).toBeDefined();
    expect(terms.getByText('8% of the month’s turnover from $0.00 to $200,000.00')).toBeDefined();
    expect(terms.getByText('10% of the month’s turnover above $200,000.00')).toBeDefined();
    expect(screen.getByRole('heading', { name: 'Rent of April 2024' })).toBeDefined();
    expect(bodyRows(table)).toEqual([
      ['Sales declared (GTO submission)', '$150,000.00'],
      ['Base rent, 20 of 30 days', '$6,666.67'],
      ['8% of $133,333.33 from $0.00 to $133,333.33', '$10,666.67'],
      ['10% of $16,666.67 above $133,333.33', '$1,666.67'],
      ['Percentage rent: the sum of the tiers, their thresholds prorated to 20 of 30 days', '$12,333.34'],
      [
        'Turnover rent: the higher of the base rent ($6,666.67) and the percentage rent ($12,333.34), less the base rent',
        '$5,666.67',
      ],
      ['Service charge, 20 of 30 days', '$1,000.00'],
      ['Rent and service charge, without GST', '$13,333.34'],
      ['GST 9%', '$1,200.00'],
    ]);
    expect([...table.querySelectorAll('tfoot th, tfoot td')].map((cell) => cell.textContent)).toEqual([
      'Total due',
      '$14,533.34',
    ]);
    expect(screen.queryByTestId('rent-statement-partial')).toBeNull();
    expect(screen.queryByTestId('rent-statement-basis')).toBeNull();
  });

  it('says a month without a declaration is on the captured sales, and a month not over is partial', async () => {
    answer = () => ({ status: 200, body: tenantStatement('captured', true) });
    render('tenant');
    const table = await screen.findByTestId('rent-statement-table');
    expect(bodyRows(table)[0]).toEqual(['Sales captured from receipts so far (no declaration)', '$150,000.00']);
    expect(screen.getByTestId('rent-statement-basis').textContent).toBe(
      'No GTO was declared for this month: the rent is on the sales captured from your receipts.',
    );
    expect(screen.getByTestId('rent-statement-partial').textContent).toBe(
      'Partial: the month is not over, so this is the rent on the sales so far; it is final when the month ends.',
    );
  });

  it('says when no lease covers the month', async () => {
    answer = () => ({ status: 200, body: NO_LEASE });
    render('tenant');
    expect((await screen.findByTestId('rent-statement-no-lease')).textContent).toContain('No lease covers this month.');
    expect(screen.queryByTestId('rent-statement-table')).toBeNull();
    expect(toastTexts()).toEqual([]);
  });

  it('fails with the toast and a retry, and loads again', async () => {
    answer = () => SERVER_ERROR;
    render('tenant');
    await waitFor(() =>
      expect(toastTexts()).toContain('Rent statement fetching error occurs. Please try again later.'),
    );
    answer = () => ({ status: 200, body: tenantStatement() });
    fireEvent.click(await screen.findByTestId('panel-retry'));
    await screen.findByTestId('rent-statement-table');
  });
});
