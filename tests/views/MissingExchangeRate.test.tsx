import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MallHomePage } from '../../src/views/pages/shopper-connect/MallHomePage';
import {
  bodyRows,
  installNetwork,
  ok,
  renderReportPage,
  tableIn,
  tearDownReportPage,
  waitForReport,
} from './mallReportHarness';

/*
 * A report of malls in two currencies over a month without an exchange rate: the server refuses to add them (409)
 * and gives each currency's figures instead; the panels show those, never a total.
 */

afterEach(tearDownReportPage);

const MALLS = [
  { id: 1, name: 'Central', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
  { id: 2, name: 'Bukit', currency: 'MYR', time_zone: 'Asia/Kuala_Lumpur', country: 'MY' },
];
const REASON =
  'No exchange rate to SGD for MYR in March 2024. Amounts in different currencies are not added without one: ' +
  'select malls that use one currency, or a period that has rates.';
const REFUSAL = {
  status: 409,
  body: {
    statusCode: 409,
    error: 'Conflict',
    message: REASON,
    by_currency: [
      { currency: 'MYR', gmv: 48210.5, transactions: 812 },
      { currency: 'SGD', gmv: 10250, transactions: 240 },
    ],
  },
};

describe('a report whose currencies cannot be converted', () => {
  it('shows the figures per currency, each in its own currency, where the panel would add them', async () => {
    installNetwork(
      (call) => (call.path === '/api/mall_report/payment_method/overall' ? ok({ data: [] }) : REFUSAL),
      MALLS,
    );
    renderReportPage(MallHomePage, { title: 'Mall Home', header: 'mall' });
    await waitForReport();
    const daily = screen.getByTestId('daily-trend');
    await waitFor(() => expect(within(daily).getByText(REASON)).toBeDefined());
    const figures = within(daily).getByTestId('panel-by-currency');
    expect(within(figures).getByText('Figures per currency, not added together')).toBeDefined();
    const rows = [...figures.querySelectorAll('tbody tr')].map((row) =>
      [...row.children].map((cell) => cell.textContent ?? ''),
    );
    expect(rows).toEqual([
      ['MYR', 'RM48,210.50', '812'],
      ['SGD', '$10,250.00', '240'],
    ]);
    // The KPIs and the outlet ranking too; the payment split, which answered, shows its own (empty) answer.
    expect(screen.getAllByTestId('panel-by-currency')).toHaveLength(3);
    expect(within(screen.getByTestId('payment-split')).queryByTestId('panel-by-currency')).toBeNull();
    expect(bodyRows(tableIn('payment-split'))).toEqual([['No Data']]);
  });
});
