import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import Highcharts from 'highcharts';
import { afterEach, describe, expect, it } from 'vitest';
import { SalesTrendsPage } from '../../src/views/pages/shopper-connect/SalesTrendsPage';
import {
  blobText,
  bodyRows,
  captureDownloads,
  describeCalls,
  exportDownload,
  headerCells,
  installNetwork,
  ok,
  type RecordedCall,
  renderReportPage,
  sortedCalls,
  tableIn,
  tearDownReportPage,
  waitForLookups,
  waitForReport,
} from './mallReportHarness';

/*
 * Sales trends inside the app (no mall header, §2: its own Malls select and year): today is 15 March 2024, so 2024
 * is shown against 2023, Jan to Dec, March partial (figures to the 15th; growth over 1–14 March against the same
 * days of 2023) and April on not begun. The monthly report is asked a year a call. 2024 sells 1.5 times what 2023
 * did; 2022 half of 2023. A refusal for a missing exchange rate shows the figures per currency, never a total.
 */

afterEach(tearDownReportPage);

const monthRows = (year: number, last: number, scale: number) =>
  Array.from({ length: last }, (_, index) => ({
    month: `${year}-${String(index + 1).padStart(2, '0')}`,
    gmv: 1000 * (index + 1) * scale,
    transactions: 10 * (index + 1) * scale,
  }));

function monthlyAnswers(call: RecordedCall) {
  if (call.path !== '/api/mall_report/monthly') return undefined;
  const start = call.query.get('start_time');
  const end = call.query.get('end_time');
  if (start === '2024-03-01' && end === '2024-03-14')
    return ok({ data: [{ month: '2024-03', gmv: 2100, transactions: 28 }] });
  if (start === '2023-03-01' && end === '2023-03-14')
    return ok({ data: [{ month: '2023-03', gmv: 1400, transactions: 35 }] });
  if (start === '2024-01-01') return ok({ data: monthRows(2024, 3, 1.5) });
  if (start === '2023-01-01') return ok({ data: monthRows(2023, 12, 1) });
  if (start === '2022-01-01') return ok({ data: monthRows(2022, 12, 0.5) });
  return ok({ data: [] });
}

const renderPage = () =>
  renderReportPage(SalesTrendsPage, {
    title: 'Sales Trends',
    header: 'none',
    page: { period: 'none', outletMode: 'disabled' },
  });

const monthly = (mallIds: string[], start: string, end: string) => ({
  path: '/api/mall_report/monthly',
  params: { client_id: '3', mall_ids: mallIds, start_time: start, end_time: end, start_hour: '0', end_hour: '23' },
});

const NOT_BEGUN = ['Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

describe('the sales trends page', () => {
  it('shows this year beside last year, Jan to Dec, with each month’s growth and March partial', async () => {
    const network = installNetwork(monthlyAnswers);
    renderPage();
    await waitForReport();
    expect(describeCalls(network.reportCalls())).toEqual(
      sortedCalls([
        monthly(['1', '2'], '2024-01-01', '2024-03-15'),
        monthly(['1', '2'], '2023-01-01', '2023-12-31'),
        monthly(['1', '2'], '2024-03-01', '2024-03-14'),
        monthly(['1', '2'], '2023-03-01', '2023-03-14'),
      ]),
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sales Trends');
    expect(screen.queryByTestId('mall-header')).toBeNull();
    const gmv = tableIn('trends-gmv-table');
    expect(headerCells(gmv)).toEqual(['Month', '2024', '2023', 'Growth']);
    // Each growth with the two figures it compares and their days (issue 31): whole months with whole months
    // (February 2024 has 29 days, 2023's 28), the month so far with the same days of the year before.
    expect(bodyRows(gmv)).toEqual([
      ['Jan', '$1,500.00', '$1,000.00', '+50.00%: $1,500.00, 1–31 Jan, vs $1,000.00, 1–31 Jan 2023'],
      ['Feb', '$3,000.00', '$2,000.00', '+50.00%: $3,000.00, 1–29 Feb, vs $2,000.00, 1–28 Feb 2023'],
      // The month so far; its growth over 1–14 March: 2,100 against 1,400.
      ['Mar (so far)', '$4,500.00', '$3,000.00', '+50.00%: $2,100.00, 1–14 Mar, vs $1,400.00, 1–14 Mar 2023'],
      ...NOT_BEGUN.map((name, index) => [name, '—', `$${(index + 4).toLocaleString('en-US')},000.00`, '—']),
    ]);
    expect(bodyRows(tableIn('trends-transactions-table')).slice(0, 4)).toEqual([
      ['Jan', '15', '10', '+50.00%: 15, 1–31 Jan, vs 10, 1–31 Jan 2023'],
      ['Feb', '30', '20', '+50.00%: 30, 1–29 Feb, vs 20, 1–28 Feb 2023'],
      ['Mar (so far)', '45', '30', '-20.00%: 28, 1–14 Mar, vs 35, 1–14 Mar 2023'],
      ['Apr', '—', '40', '—'],
    ]);
    // The chart's tooltip says it too, as text: this year's columns carry the line.
    const chart = Highcharts.charts.find(
      (candidate) => candidate !== undefined && screen.getByTestId('trends-gmv').contains(candidate.container),
    );
    const notes = chart?.series[1]?.points.slice(0, 4).map((point) => point.options.custom?.note);
    expect(notes).toEqual([
      '+50.00%: $1,500.00, 1–31 Jan, vs $1,000.00, 1–31 Jan 2023',
      '+50.00%: $3,000.00, 1–29 Feb, vs $2,000.00, 1–28 Feb 2023',
      '+50.00%: $2,100.00, 1–14 Mar, vs $1,400.00, 1–14 Mar 2023',
      undefined,
    ]);
    expect(screen.getByTestId('sales-trends-partial-note').textContent).toBe(
      'Mar 2024 is partial: its figures are to 15 Mar. Its growth compares its 14 complete days (1–14 Mar) with ' +
        '1–14 Mar 2023.',
    );
  });

  it('names its charts by their blocks and describes them with their tables', async () => {
    installNetwork(monthlyAnswers);
    renderPage();
    await waitForReport();
    for (const [block, name] of [
      ['trends-gmv', 'GMV by Month, 2024 and 2023'],
      ['trends-transactions', 'Transactions by Month, 2024 and 2023'],
    ] as const) {
      const element = screen.getByTestId(block);
      await waitFor(() => expect(element.querySelector('svg')?.getAttribute('aria-label')).toBe(name));
      const described = element.querySelector('svg')?.getAttribute('aria-describedby') ?? '';
      expect(document.getElementById(described)?.querySelector('table')).not.toBeNull();
    }
  });

  it('shows another year against the one before it, whole', async () => {
    const network = installNetwork(monthlyAnswers);
    renderPage();
    await waitForReport();
    const select = screen.getByTestId('year-select');
    expect([...select.querySelectorAll('option')].map((option) => option.textContent)).toEqual([
      '2024',
      '2023',
      '2022',
      '2021',
      '2020',
    ]);
    const before = network.reportCalls().length;
    fireEvent.change(select, { target: { value: '2023' } });
    await waitFor(() => expect(headerCells(tableIn('trends-gmv-table'))).toEqual(['Month', '2023', '2022', 'Growth']));
    await waitForReport();
    expect(describeCalls(network.reportCalls().slice(before))).toEqual(
      sortedCalls([monthly(['1', '2'], '2023-01-01', '2023-12-31'), monthly(['1', '2'], '2022-01-01', '2022-12-31')]),
    );
    const rows = bodyRows(tableIn('trends-gmv-table'));
    expect(rows.map((row) => row[0])).toEqual([
      'Jan',
      'Feb',
      'Mar',
      'Apr',
      'May',
      'Jun',
      'Jul',
      'Aug',
      'Sep',
      'Oct',
      'Nov',
      'Dec',
    ]);
    expect(rows[0]?.[3]).toBe('+100.00%: $1,000.00, 1–31 Jan, vs $500.00, 1–31 Jan 2022');
    expect(rows.every((row) => row[3]?.startsWith('+100.00%: '))).toBe(true);
    expect(screen.queryByTestId('sales-trends-partial-note')).toBeNull();
  });

  it('asks again for the malls chosen in its own Malls select', async () => {
    const network = installNetwork(monthlyAnswers);
    renderPage();
    await waitForReport();
    await waitForLookups();
    const before = network.reportCalls().length;
    fireEvent.click(screen.getByTestId('malls-select'));
    fireEvent.click(screen.getByTestId('malls-deselect-all'));
    fireEvent.click(screen.getByTestId('malls-option-2'));
    fireEvent.click(screen.getByTestId('malls-apply'));
    await waitFor(() => expect(network.reportCalls().length).toBe(before + 4));
    expect(
      network
        .reportCalls()
        .slice(before)
        .every((call) => call.query.getAll('mall_ids').join() === '2'),
    ).toBe(true);
  });

  it('says No Data for a month of the year before without a sale, and that there is nothing to compare', async () => {
    // The malls were onboarded in 2024: 2023 has no sale.
    installNetwork((call) => {
      if (call.path !== '/api/mall_report/monthly') return undefined;
      const start = call.query.get('start_time');
      if (start === '2024-03-01') return ok({ data: [{ month: '2024-03', gmv: 2100, transactions: 28 }] });
      if (start === '2024-01-01') return ok({ data: monthRows(2024, 3, 1.5) });
      return ok({ data: [] });
    });
    renderPage();
    await waitForReport();
    expect(bodyRows(tableIn('trends-gmv-table')).slice(0, 4)).toEqual([
      ['Jan', '$1,500.00', 'No Data', '0.00%: $1,500.00, 1–31 Jan, vs no data, 1–31 Jan 2023 · nothing to compare'],
      ['Feb', '$3,000.00', 'No Data', '0.00%: $3,000.00, 1–29 Feb, vs no data, 1–28 Feb 2023 · nothing to compare'],
      [
        'Mar (so far)',
        '$4,500.00',
        'No Data',
        '0.00%: $2,100.00, 1–14 Mar, vs no data, 1–14 Mar 2023 · nothing to compare',
      ],
      ['Apr', '—', 'No Data', '—'],
    ]);
  });

  it('gives the figures per currency when a rate is missing, never a total', async () => {
    installNetwork((call) =>
      call.path === '/api/mall_report/monthly'
        ? {
            status: 409,
            body: {
              statusCode: 409,
              error: 'Conflict',
              message: 'No exchange rate to SGD for MYR in March 2024.',
              by_currency: [
                { currency: 'MYR', gmv: 48210.5, transactions: 812 },
                { currency: 'SGD', gmv: 10250, transactions: 240 },
              ],
            },
          }
        : undefined,
    );
    renderPage();
    await waitFor(() => expect(screen.getAllByTestId('panel-by-currency')).toHaveLength(2));
    const block = screen.getByTestId('trends-gmv');
    expect(within(block).getByText('No exchange rate to SGD for MYR in March 2024.')).toBeTruthy();
    expect(bodyRows(within(block).getByTestId('panel-by-currency'))).toEqual([
      ['RM48,210.50', '812'],
      ['$10,250.00', '240'],
    ]);
    expect(screen.queryByTestId('trends-gmv-table')).toBeNull();
  });

  it('offers the comparison of every page, the same month last year first, and loads each month’s growth by it', async () => {
    /**
     * The growth call: 1,200 against 1,000 (+20.00%); a month of 2024 against the same days of 2023, 1–14 March
     * against 2–15 March 2023 (festival-aligned without a festival: the same weekdays).
     */
    const growthAnswers = (call: RecordedCall) => {
      if (call.path !== '/api/mall_report/growth') return monthlyAnswers(call);
      const start = call.query.get('start_time') ?? '';
      const end = call.query.get('end_time') ?? '';
      const side = (from: string, to: string, gmv: number) => ({
        start_time: from,
        end_time: to,
        days: 0,
        has_data: true,
        gmv,
        transactions: gmv / 100,
        average_transaction_value: 100,
        member_gmv: 0,
      });
      const lastYear = (day: string) => day.replace('2024', '2023');
      const compared =
        start === '2024-03-01'
          ? { start: '2023-03-02', end: '2023-03-15' }
          : { start: lastYear(start), end: lastYear(end) };
      return ok({
        compare: call.query.get('compare'),
        current: side(start, end, 1200),
        compared: side(compared.start, compared.end, 1000),
        aligned: [],
        like_for_like: call.query.get('like_for_like') === 'true' ? { kept: 4, left_out: 1 } : null,
      });
    };
    const network = installNetwork(growthAnswers);
    renderPage();
    await waitForReport();
    const rule = screen.getByTestId('comparison-rule') as HTMLSelectElement;
    expect([...rule.querySelectorAll('option')].map((option) => option.textContent)).toEqual([
      'Same month last year',
      'Previous period',
      'Same weekdays last year',
      'Festival-aligned last year',
    ]);
    expect(rule.value).toBe('same_month_last_year');
    // Like-for-like is offered with every rule, the page's own included; off, the monthly report alone.
    const likeForLike = screen.getByTestId('comparison-like-for-like') as HTMLInputElement;
    expect(likeForLike.disabled).toBe(false);
    expect(likeForLike.checked).toBe(false);
    expect(network.reportCalls().some((call) => call.path === '/api/mall_report/growth')).toBe(false);

    const before = network.reportCalls().length;
    fireEvent.change(rule, { target: { value: 'festival_aligned' } });
    await waitFor(() => expect(network.reportCalls().length).toBe(before + 5));
    await waitForReport();
    const growth = network
      .reportCalls()
      .slice(before)
      .filter((call) => call.path === '/api/mall_report/growth');
    expect(growth.map((call) => `${call.query.get('start_time')}..${call.query.get('end_time')}`).sort()).toEqual([
      '2024-01-01..2024-01-31',
      '2024-02-01..2024-02-29',
      '2024-03-01..2024-03-14',
    ]);
    expect(growth.every((call) => call.query.get('compare') === 'festival_aligned')).toBe(true);
    expect(bodyRows(tableIn('trends-gmv-table')).slice(2, 4)).toEqual([
      [
        'Mar (so far)',
        '$4,500.00',
        '$3,000.00',
        '+20.00%: $1,200.00, 1–14 Mar, vs $1,000.00, 2–15 Mar 2023, same weekdays last year: no festival in the range',
      ],
      ['Apr', '—', '$4,000.00', '—'],
    ]);
    expect(screen.getByTestId('sales-trends-partial-note').textContent).toBe(
      'Mar 2024 is partial: its figures are to 15 Mar. Its growth compares its 14 complete days (1–14 Mar) with ' +
        '2–15 Mar 2023.',
    );

    // Like-for-like: each month's growth says how many outlets it left out.
    expect(likeForLike.disabled).toBe(false);
    const again = network.reportCalls().length;
    fireEvent.click(likeForLike);
    await waitFor(() => expect(network.reportCalls().length).toBe(again + 5));
    await waitForReport();
    expect(
      network
        .reportCalls()
        .slice(again)
        .filter((call) => call.path === '/api/mall_report/growth')
        .every((call) => call.query.get('like_for_like') === 'true'),
    ).toBe(true);
    expect(bodyRows(tableIn('trends-transactions-table'))[0]?.[3]).toBe(
      '+20.00%: 12, 1–31 Jan, vs 10, 1–31 Jan 2023, same weekdays last year: no festival in the range, ' +
        'like-for-like: 1 outlet left out',
    );

    // Back to the same month last year, like-for-like kept: each month by the growth call's same dates last year.
    const own = network.reportCalls().length;
    fireEvent.change(rule, { target: { value: 'same_month_last_year' } });
    await waitFor(() => expect(network.reportCalls().length).toBe(own + 5));
    await waitForReport();
    const sameDates = network
      .reportCalls()
      .slice(own)
      .filter((call) => call.path === '/api/mall_report/growth');
    expect(sameDates).toHaveLength(3);
    expect(sameDates.every((call) => call.query.get('compare') === 'same_date_last_year')).toBe(true);
    expect(sameDates.every((call) => call.query.get('like_for_like') === 'true')).toBe(true);
    expect(likeForLike.checked).toBe(true);
    expect(bodyRows(tableIn('trends-transactions-table'))[0]?.[3]).toBe(
      '+20.00%: 12, 1–31 Jan, vs 10, 1–31 Jan 2023, same dates last year, like-for-like: 1 outlet left out',
    );
  });

  it('exports the twelve months as one CSV file', async () => {
    installNetwork(monthlyAnswers);
    const downloads = captureDownloads();
    renderPage();
    await waitForReport();
    const download = await exportDownload(downloads, () => fireEvent.click(screen.getByTestId('export-csv')));
    expect(download.fileName).toBe('sales_trends_2023-01-01_2024-03-15.csv');
    const lines = (await blobText(download.blob)).split('\r\n');
    expect(lines.slice(0, 5)).toEqual([
      'Month,GMV 2024,GMV 2023,GMV Growth Percent,Transactions 2024,Transactions 2023,Transactions Growth Percent,' +
        'Partial,Growth Period,GMV Growth Period Value,Transactions Growth Period Value,Compared Period,' +
        'GMV Compared Value,Transactions Compared Value,Note,Currency',
      'Jan,1500,1000,50.00,15,10,50.00,,2024-01-01 to 2024-01-31,1500,15,2023-01-01 to 2023-01-31,1000,10,,SGD',
      'Feb,3000,2000,50.00,30,20,50.00,,2024-02-01 to 2024-02-29,3000,30,2023-02-01 to 2023-02-28,2000,20,,SGD',
      'Mar,4500,3000,50.00,45,30,-20.00,Yes,2024-03-01 to 2024-03-14,2100,28,2023-03-01 to 2023-03-14,1400,35,,SGD',
      'Apr,,4000,,,40,,,,,,,,,,SGD',
    ]);
    expect(lines.filter((line) => line !== '')).toHaveLength(13);
  });
});
