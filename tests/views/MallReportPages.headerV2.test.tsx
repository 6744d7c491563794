import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MallPeakHoursPage } from '../../src/views/pages/shopper-connect/MallPeakHoursPage';
import { MemberVsNonMemberPage } from '../../src/views/pages/shopper-connect/MemberVsNonMemberPage';
import {
  BASE,
  bodyRows,
  captureDownloads,
  chartIn,
  chooseLast30Days,
  deferred,
  describeCalls,
  exportDownload,
  FILE_RANGE,
  headerCells,
  installNetwork,
  ok,
  RANGE,
  type RecordedCall,
  renderReportPage,
  seriesValues,
  serverError,
  sortedCalls,
  tableIn,
  tearDownReportPage,
  toastTexts,
  unzip,
  waitForLookups,
  waitForReport,
} from './mallReportHarness';

/*
 * The Header V2 pages (mall peak hours, member vs non-member): their calls carry the hour range, time range and
 * metric of the header; what they draw; 'No Data'; the failure toast; the disabled header; the CSV export.
 */

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

afterEach(tearDownReportPage);

/** Sets a custom hour range through the hour picker. */
async function chooseHours(from: number, to: number): Promise<void> {
  await waitForReport();
  fireEvent.click(screen.getByTestId('hour-picker'));
  fireEvent.focus(screen.getByTestId('hour-picker-from'));
  fireEvent.change(screen.getByTestId('hour-picker-from'), { target: { value: String(from) } });
  fireEvent.change(screen.getByTestId('hour-picker-to'), { target: { value: String(to) } });
  fireEvent.click(screen.getByTestId('hour-picker-apply'));
}

async function chooseSelect(testId: 'time-range-select' | 'metric-select', value: string): Promise<void> {
  await waitForReport();
  fireEvent.change(screen.getByTestId(testId), { target: { value } });
}

function chartText(testId: string): string {
  return screen.getByTestId(testId).textContent ?? '';
}

/** Non-zero cells of the heat map as [hour index, weekday index, value]. */
function heatCells(): [number, number, number][] {
  const points = chartIn('peak-heat-map-chart').series[0]?.points ?? [];
  return points
    .map((point) => [point.x, point.y ?? 0, (point as unknown as { value: number }).value] as [number, number, number])
    .filter(([, , value]) => value !== 0);
}

/* ================================================================ peak hours */

// Monday 11 March: 100 GMV in 4 transactions at 9, 300 in 6 at 10; Tuesday 12 March: 50 in 5 at 9.
const GMV_CELLS = [
  { period: '2024-03-11', hour: 9, value: 100 },
  { period: '2024-03-11', hour: 10, value: 300 },
  { period: '2024-03-12', hour: 9, value: 50 },
];
const TRANSACTION_CELLS = [
  { period: '2024-03-11', hour: 9, value: 4 },
  { period: '2024-03-11', hour: 10, value: 6 },
  { period: '2024-03-12', hour: 9, value: 5 },
];
const WEEKLY_GMV = [
  { period: '2024-03-04', hour: 0, value: 700 },
  { period: '2024-03-11', hour: 0, value: 350 },
];
const WEEKLY_TRANSACTIONS = [
  { period: '2024-03-04', hour: 0, value: 10 },
  { period: '2024-03-11', hour: 0, value: 5 },
];

function peakAnswers(call: RecordedCall) {
  if (call.path !== '/api/mall_report/peak_hour') return undefined;
  const gmv = call.query.get('metric') === 'gmv';
  if (call.query.get('time_range') === 'daily') return ok({ data: gmv ? GMV_CELLS : TRANSACTION_CELLS });
  return ok({ data: gmv ? WEEKLY_GMV : WEEKLY_TRANSACTIONS });
}

const renderPeakHours = () =>
  renderReportPage(MallPeakHoursPage, {
    title: 'Mall Peak Hours',
    header: 'v2',
    page: { headerV2: true, averageTransactionValue: true },
  });

const peakCall = (params: Record<string, string | string[]>, timeRange: string, metric: string) => ({
  path: '/api/mall_report/peak_hour',
  params: { ...params, time_range: timeRange, metric },
});

describe('MallPeakHoursPage', { timeout: 30_000 }, () => {
  it('asks for GMV and transactions per day and hour within the header hour range, and per week or month for those time ranges', async () => {
    const network = installNetwork(peakAnswers);
    renderPeakHours();
    await waitForReport();
    expect(describeCalls(network.reportCalls())).toEqual(
      sortedCalls([peakCall(BASE, 'daily', 'gmv'), peakCall(BASE, 'daily', 'transactions')]),
    );
    // All day: 24 hour columns, at most 6 labels shown (§9 label limit).
    const allDay = chartIn('peak-heat-map-chart').xAxis[0];
    expect(allDay?.categories).toHaveLength(24);
    expect(allDay?.categories[0]).toBe('12:00 AM');
    expect(allDay?.options.tickInterval).toBe(4);

    network.calls.length = 0;
    await chooseHours(9, 11);
    await waitFor(() => expect(network.reportCalls()).toHaveLength(2));
    const hours = { ...BASE, start_hour: '9', end_hour: '11' };
    expect(describeCalls(network.reportCalls())).toEqual(
      sortedCalls([peakCall(hours, 'daily', 'gmv'), peakCall(hours, 'daily', 'transactions')]),
    );

    network.calls.length = 0;
    await chooseSelect('time-range-select', 'weekly');
    await waitFor(() => expect(network.reportCalls()).toHaveLength(4));
    expect(describeCalls(network.reportCalls())).toEqual(
      sortedCalls([
        peakCall(hours, 'daily', 'gmv'),
        peakCall(hours, 'daily', 'transactions'),
        peakCall(hours, 'weekly', 'gmv'),
        peakCall(hours, 'weekly', 'transactions'),
      ]),
    );
  });

  it('draws the weekday x hour heat map and the GMV per day, with the peak days formatted beside it', async () => {
    installNetwork(peakAnswers);
    renderPeakHours();
    await chooseHours(9, 11);
    await waitFor(() =>
      expect(chartIn('peak-heat-map-chart').xAxis[0]?.categories).toEqual(['09:00 AM', '10:00 AM', '11:00 AM']),
    );
    await waitForReport();

    expect(within(screen.getByTestId('peak-heat-map')).getByText('Average GMV by Weekday and Hour')).toBeDefined();
    const heat = chartIn('peak-heat-map-chart');
    expect(heat.yAxis[0]?.categories).toEqual(WEEKDAYS);
    expect(heat.series[0]?.points).toHaveLength(7 * 3);
    expect(heatCells()).toEqual([
      [0, 0, 100],
      [1, 0, 300],
      [0, 1, 50],
    ]);

    const line = chartIn('peak-series-chart');
    expect(line.xAxis[0]?.categories).toEqual(['2024-03-11', '2024-03-12']);
    expect(seriesValues(line)).toEqual([400, 50]);
    expect(headerCells(tableIn('peak-series'))).toEqual(['Period', 'GMV']);
    expect(bodyRows(tableIn('peak-series'))).toEqual([
      ['2024-03-11', '$400.00'],
      ['2024-03-12', '$50.00'],
    ]);
  });

  it('shows transactions or the average transaction value (GMV / transactions) when the metric says so, per week when weekly', async () => {
    installNetwork(peakAnswers);
    renderPeakHours();
    await chooseHours(9, 11);
    await chooseSelect('metric-select', 'average_transaction_value');
    await waitFor(() => expect(headerCells(tableIn('peak-series'))).toEqual(['Period', 'Average Transaction Value']));
    await waitForReport();
    // A measure that is an average already is not called 'Average Average …'.
    expect(
      within(screen.getByTestId('peak-heat-map')).getByText('Average Transaction Value by Weekday and Hour'),
    ).toBeDefined();
    // 400 / 10 and 50 / 5 per day; per cell 100 / 4, 300 / 6 and 50 / 5.
    expect(bodyRows(tableIn('peak-series'))).toEqual([
      ['2024-03-11', '$40.00'],
      ['2024-03-12', '$10.00'],
    ]);
    expect(heatCells()).toEqual([
      [0, 0, 25],
      [1, 0, 50],
      [0, 1, 10],
    ]);

    await chooseSelect('metric-select', 'transactions');
    await chooseSelect('time-range-select', 'weekly');
    // The range (9 to 15 March, today) cuts the first week short and leaves the second open.
    await waitFor(() =>
      expect(chartIn('peak-series-chart').xAxis[0]?.categories).toEqual(['9–10 Mar (2 days)', '11–15 Mar (so far)']),
    );
    await waitForReport();
    expect(within(screen.getByTestId('peak-series')).getByText('Transactions over Time')).toBeDefined();
    expect(seriesValues(chartIn('peak-series-chart'))).toEqual([10, 5]);
    expect(bodyRows(tableIn('peak-series'))).toEqual([
      ['9–10 Mar (2 days)', '10'],
      ['11–15 Mar (so far)', '5'],
    ]);
    // The heat map stays per day and hour: transactions.
    expect(heatCells()).toEqual([
      [0, 0, 4],
      [1, 0, 6],
      [0, 1, 5],
    ]);
  });

  it('averages the heat map over the days of each weekday in the range (§9 average chart)', async () => {
    const network = installNetwork(peakAnswers);
    renderPeakHours();
    await chooseHours(9, 11);
    await waitForReport();
    network.calls.length = 0;
    chooseLast30Days();
    await waitFor(() => expect(network.reportCalls()).toHaveLength(2));
    await waitForReport();
    expect(network.reportCalls().every((call) => call.query.get('start_time') === '2024-02-15')).toBe(true);
    // 15 Feb – 15 Mar 2024 holds 4 Mondays and 4 Tuesdays.
    expect(heatCells()).toEqual([
      [0, 0, 25],
      [1, 0, 75],
      [0, 1, 12.5],
    ]);
  });

  it("says 'No Data' when the hours had no sales", async () => {
    installNetwork((_call) => ok({ data: [{ period: RANGE.start, hour: 12, value: 0 }] }));
    renderPeakHours();
    await waitForReport();
    expect(bodyRows(tableIn('peak-series'))).toEqual([['No Data']]);
    expect(chartText('peak-heat-map-chart')).toContain('No Data');
    expect(chartText('peak-series-chart')).toContain('No Data');
  });

  it("shows 'Peak hours error occurs. Please try again later.' once when its calls fail", async () => {
    installNetwork(() => serverError());
    renderPeakHours();
    await waitFor(() => expect(toastTexts()).toEqual(['Peak hours error occurs. Please try again later.']));
    await waitForReport();
    // Both blocks draw the one failed panel: each says so, with a retry.
    for (const block of ['peak-heat-map', 'peak-series']) {
      expect(within(screen.getByTestId(block)).getByTestId('panel-retry')).toBeDefined();
      expect(within(screen.getByTestId(block)).queryByText('No Data')).toBeNull();
    }
    expect(toastTexts()).toHaveLength(1);
  });

  it('shows a spinner and disables Header V2 (malls, dates, time range, metric, hours) while loading', async () => {
    const pending = deferred<{ status: number; body: unknown }>();
    const network = installNetwork((call) =>
      call.query.get('metric') === 'gmv' ? pending.promise : peakAnswers(call),
    );
    renderPeakHours();
    await waitFor(() => expect(network.reportCalls()).toHaveLength(2));
    expect(screen.getByTestId('report-loading')).toBeDefined();
    expect(screen.getByTestId('mall-header').getAttribute('aria-busy')).toBe('true');
    for (const testId of [
      'malls-select',
      'date-range-button',
      'time-range-select',
      'metric-select',
      'hour-picker',
      'export-csv',
    ]) {
      expect(screen.getByTestId(testId), testId).toHaveProperty('disabled', true);
    }
    await act(async () => pending.resolve(ok({ data: GMV_CELLS })));
    await waitForReport();
    for (const testId of ['malls-select', 'date-range-button', 'time-range-select', 'metric-select', 'hour-picker']) {
      expect(screen.getByTestId(testId), testId).toHaveProperty('disabled', false);
    }
  });

  it('exports the weekday x hour averages and the series, zipped, with title-cased headers', async () => {
    installNetwork(peakAnswers);
    const downloads = captureDownloads();
    renderPeakHours();
    await chooseHours(9, 11);
    await waitFor(() => expect(chartIn('peak-heat-map-chart').xAxis[0]?.categories).toHaveLength(3));
    await waitForReport();
    const download = await exportDownload(downloads, () => fireEvent.click(screen.getByTestId('export-csv')));
    expect(download.fileName).toBe(`mall_peak_hours_${FILE_RANGE}.zip`);
    expect(await unzip(download.blob)).toEqual({
      [`peak_hours_by_weekday_${FILE_RANGE}.csv`]: [
        'Weekday,Hour 9,Hour 10,Hour 11,Currency',
        'Mon,100,300,0,SGD',
        'Tue,50,0,0,SGD',
        ...WEEKDAYS.slice(2).map((weekday) => `${weekday},0,0,0,SGD`),
      ],
      [`peak_hours_series_${FILE_RANGE}.csv`]: ['Period,Value,Currency', '2024-03-11,400,SGD', '2024-03-12,50,SGD'],
    });
  });
});

/* ================================================================ member vs non-member */

const MEMBER_OUTLETS = [
  {
    outlet_id: 12,
    outlet_name: 'Kopi Corner',
    mall_id: 1,
    mall_name: 'Central',
    gmv: 250.5,
    transactions: 1500,
    average_transaction_value: 0.17,
  },
  {
    outlet_id: 14,
    outlet_name: 'Tea House',
    mall_id: 2,
    mall_name: 'East',
    gmv: 49.5,
    transactions: 3,
    average_transaction_value: 16.5,
  },
];
const NON_MEMBER_OUTLETS = [
  {
    outlet_id: 13,
    outlet_name: 'Noodle Bar',
    mall_id: 2,
    mall_name: 'East',
    gmv: 700,
    transactions: 20,
    average_transaction_value: 35,
  },
];

function memberAnswers(call: RecordedCall) {
  const transactions = call.query.get('metric') === 'transactions' || call.query.get('rank_by') === 'transactions';
  switch (call.path) {
    case '/api/mall_report/member/overall':
      return ok(
        transactions
          ? { data: [{ period: RANGE.start, member: 1500, non_member: 500 }], total: { member: 1500, non_member: 500 } }
          : {
              data: [
                { period: '2024-03-09', member: 100, non_member: 300 },
                { period: '2024-03-10', member: 200, non_member: 400 },
              ],
              total: { member: 300, non_member: 700 },
            },
      );
    case '/api/mall_report/member/outlet':
      return ok({ data: call.query.get('member') === 'true' ? MEMBER_OUTLETS : NON_MEMBER_OUTLETS });
    default:
      return undefined;
  }
}

const renderMember = () =>
  renderReportPage(MemberVsNonMemberPage, { title: 'Member vs Non-member', header: 'v2', page: { headerV2: true } });

const memberCalls = (params: Record<string, string | string[]>, timeRange: string, metric: string) =>
  sortedCalls([
    { path: '/api/mall_report/member/overall', params: { ...params, time_range: timeRange, metric } },
    { path: '/api/mall_report/member/outlet', params: { ...params, member: 'true', rank_by: metric, limit: '10' } },
    { path: '/api/mall_report/member/outlet', params: { ...params, member: 'false', rank_by: metric, limit: '10' } },
  ]);

describe('MemberVsNonMemberPage', { timeout: 30_000 }, () => {
  it('asks for the comparison and both outlet rankings with the header hours, time range and metric', async () => {
    const network = installNetwork(memberAnswers);
    renderMember();
    await waitForReport();
    expect(describeCalls(network.reportCalls())).toEqual(memberCalls(BASE, 'daily', 'gmv'));
    expect(
      within(screen.getByTestId('metric-select')).queryByRole('option', { name: 'Average Transaction Value' }),
    ).toBeNull();

    network.calls.length = 0;
    await chooseHours(10, 20);
    await waitFor(() => expect(network.reportCalls()).toHaveLength(3));
    const hours = { ...BASE, start_hour: '10', end_hour: '20' };
    expect(describeCalls(network.reportCalls())).toEqual(memberCalls(hours, 'daily', 'gmv'));

    network.calls.length = 0;
    await chooseSelect('metric-select', 'transactions');
    await waitFor(() => expect(network.reportCalls()).toHaveLength(3));
    expect(describeCalls(network.reportCalls())).toEqual(memberCalls(hours, 'daily', 'transactions'));

    network.calls.length = 0;
    await chooseSelect('time-range-select', 'monthly');
    await waitFor(() => expect(network.reportCalls()).toHaveLength(3));
    expect(describeCalls(network.reportCalls())).toEqual(memberCalls(hours, 'monthly', 'transactions'));

    network.calls.length = 0;
    await waitForLookups();
    fireEvent.click(screen.getByTestId('malls-select'));
    fireEvent.click(screen.getByTestId('malls-option-1'));
    fireEvent.click(screen.getByTestId('malls-apply'));
    await waitFor(() => expect(network.reportCalls()).toHaveLength(3));
    expect(describeCalls(network.reportCalls())).toEqual(
      memberCalls({ ...hours, mall_ids: ['2'] }, 'monthly', 'transactions'),
    );
  });

  it('draws members against non-members over time, their split with totals and shares, and the top outlets of each side', async () => {
    installNetwork(memberAnswers);
    renderMember();
    await waitForReport();

    expect(within(screen.getByTestId('member-overall')).getByText('Member vs Non-member GMV')).toBeDefined();
    const overall = chartIn('member-overall-chart');
    expect(overall.xAxis[0]?.categories).toEqual(['2024-03-09', '2024-03-10']);
    expect(overall.series.map((series) => series.name)).toEqual(['Member', 'Non-member']);
    expect(seriesValues(overall, 0)).toEqual([100, 200]);
    expect(seriesValues(overall, 1)).toEqual([300, 400]);
    expect(chartIn('member-split-chart').series[0]?.points.map((point) => [point.name, point.y])).toEqual([
      ['Member', 300],
      ['Non-member', 700],
    ]);
    expect(headerCells(tableIn('member-totals'))).toEqual(['', 'GMV', 'Share']);
    expect(bodyRows(tableIn('member-totals'))).toEqual([
      ['Member', '$300.00', '30.0%'],
      ['Non-member', '$700.00', '70.0%'],
    ]);

    const members = chartIn('member-outlets-chart');
    expect(members.xAxis[0]?.categories).toEqual(['Kopi Corner', 'Tea House']);
    expect(seriesValues(members)).toEqual([250.5, 49.5]);
    expect(headerCells(tableIn('member-outlets'))).toEqual(['Outlet', 'Mall', 'GMV', 'Transactions']);
    expect(bodyRows(tableIn('member-outlets'))).toEqual([
      ['Kopi Corner', 'Central', '$250.50', '1,500'],
      ['Tea House', 'East', '$49.50', '3'],
    ]);
    expect(seriesValues(chartIn('non-member-outlets-chart'))).toEqual([700]);
    expect(bodyRows(tableIn('non-member-outlets'))).toEqual([['Noodle Bar', 'East', '$700.00', '20']]);

    await chooseSelect('metric-select', 'transactions');
    await waitFor(() => expect(headerCells(tableIn('member-totals'))).toEqual(['', 'Transactions', 'Share']));
    await waitForReport();
    expect(bodyRows(tableIn('member-totals'))).toEqual([
      ['Member', '1,500', '75.0%'],
      ['Non-member', '500', '25.0%'],
    ]);
    expect(seriesValues(chartIn('member-outlets-chart'))).toEqual([1500, 3]);
    expect(seriesValues(chartIn('non-member-outlets-chart'))).toEqual([20]);
  });

  it("says 'No Data' when neither members nor non-members bought anything", async () => {
    installNetwork((call) =>
      call.path === '/api/mall_report/member/overall'
        ? ok({ data: [{ period: RANGE.start, member: 0, non_member: 0 }], total: { member: 0, non_member: 0 } })
        : ok({ data: [] }),
    );
    renderMember();
    await waitForReport();
    for (const table of ['member-totals', 'member-outlets', 'non-member-outlets']) {
      expect(bodyRows(tableIn(table)), table).toEqual([['No Data']]);
    }
    for (const chart of [
      'member-overall-chart',
      'member-split-chart',
      'member-outlets-chart',
      'non-member-outlets-chart',
    ]) {
      expect(chartText(chart), chart).toContain('No Data');
    }
  });

  it("shows 'Member vs non-member error occurs. Please try again later.' once when a call fails", async () => {
    installNetwork((call) => (call.path === '/api/mall_report/member/outlet' ? serverError() : memberAnswers(call)));
    renderMember();
    await waitFor(() => expect(toastTexts()).toEqual(['Member vs non-member error occurs. Please try again later.']));
    await waitForReport();
    // Both rankings failed, with a retry each; the comparison keeps its figures.
    for (const block of ['member-outlets', 'non-member-outlets']) {
      expect(within(screen.getByTestId(block)).getByTestId('panel-retry')).toBeDefined();
    }
    expect(bodyRows(tableIn('member-totals'))).not.toEqual([['No Data']]);
    expect(chartText('member-overall-chart')).not.toContain('No Data');
    expect(toastTexts()).toHaveLength(1);
  });

  it('exports the comparison and both rankings, zipped, with title-cased headers', async () => {
    installNetwork(memberAnswers);
    const downloads = captureDownloads();
    renderMember();
    await waitForReport();
    const download = await exportDownload(downloads, () => fireEvent.click(screen.getByTestId('export-csv')));
    expect(download.fileName).toBe(`member_vs_non_member_${FILE_RANGE}.zip`);
    const outletHeader = 'Outlet Name,Mall Name,GMV,Transactions,Average Transaction Value,Currency';
    expect(await unzip(download.blob)).toEqual({
      [`member_vs_non_member_${FILE_RANGE}.csv`]: [
        'Period,Member,Non Member,Currency',
        '2024-03-09,100,300,SGD',
        '2024-03-10,200,400,SGD',
      ],
      [`member_outlets_${FILE_RANGE}.csv`]: [
        outletHeader,
        'Kopi Corner,Central,250.5,1500,0.17,SGD',
        'Tea House,East,49.5,3,16.5,SGD',
      ],
      [`non_member_outlets_${FILE_RANGE}.csv`]: [outletHeader, 'Noodle Bar,East,700,20,35,SGD'],
    });
  });
});
