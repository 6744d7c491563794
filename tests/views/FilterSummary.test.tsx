import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FilterSummary } from '../../src/views/filters/FilterSummary';
import { PlaceholderPage } from '../../src/views/pages/placeholder/PlaceholderPage';
import { CLIENTS, renderFrame } from './layoutHarness';

/* Pages not built yet: their header, the notice, and the committed filters in a short summary. */

afterEach(() => cleanup());

function row(key: string): string {
  return screen.getByTestId(`filter-summary-${key}`).textContent ?? '';
}

describe('the filter summary', () => {
  it('shows the committed filters the page uses, and follows them', async () => {
    const harness = renderFrame(<FilterSummary clients={CLIENTS} />);
    await waitFor(() => expect(row('malls')).toBe('Central, East'));
    expect(row('client')).toBe('Harbourfront Malls');
    expect(row('outlet')).toBe('All Outlets');
    expect(row('dates')).toBe('2024-03-09 to 2024-03-15');
    expect(screen.queryByTestId('filter-summary-hours')).toBeNull();

    act(() => harness.header().send({ type: 'outlet.change', outlet: 12 }));
    expect(row('outlet')).toBe('Kopi Corner (12)');

    act(() => harness.header().send({ type: 'page.change', page: { headerV2: true, averageTransactionValue: true } }));
    act(() => harness.header().send({ type: 'hours.change', hours: { from: 9, to: 17 } }));
    act(() => harness.header().send({ type: 'timeRange.change', timeRange: 'weekly' }));
    act(() => harness.header().send({ type: 'metric.change', metric: 'average_transaction_value' }));
    expect(row('hours')).toBe('09:00 AM - 05:00 PM');
    expect(row('time-range')).toBe('Weekly');
    expect(row('metric')).toBe('Average Transaction Value');

    act(() => harness.header().send({ type: 'page.change', page: { period: 'month', breakeven: true } }));
    expect(row('month')).toBe('March 2024');
    expect(screen.queryByTestId('filter-summary-dates')).toBeNull();
  });

  it('says when no outlet is chosen and shows an unknown client by id', () => {
    renderFrame(<FilterSummary />);
    expect(row('client')).toBe('#3');
    expect(row('outlet')).toBe('Choose an Outlet');
  });
});

describe('a page not built yet', () => {
  it('shows the mall header, the notice and the summary', async () => {
    renderFrame(<PlaceholderPage title="Mall GMV" header="mall" />);
    expect(screen.getByTestId('page-title').textContent).toBe('Mall GMV');
    expect(screen.getByTestId('mall-header')).toBeDefined();
    expect(screen.getByText('This page is not available yet.')).toBeDefined();
    await waitFor(() => expect(row('client')).toBe('Harbourfront Malls'));
  });

  it('shows Header V2 or only the title, as the route says', () => {
    renderFrame(<PlaceholderPage title="Mall Peak Hours" header="v2" />);
    expect(screen.getByTestId('time-range-select')).toBeDefined();
    cleanup();
    renderFrame(<PlaceholderPage title="Export" />);
    expect(screen.getByTestId('page-title').textContent).toBe('Export');
    expect(screen.queryByTestId('mall-header')).toBeNull();
  });
});
