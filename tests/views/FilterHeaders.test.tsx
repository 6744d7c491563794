import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, fromPromise } from 'xstate';
import type { Mall, Outlet } from '../../src/api/lookup';
import type { FilterHeaderInput } from '../../src/domain/filterHeader';
import { filterHeaderMachine } from '../../src/machines/filterHeaderMachine';
import { FilterHeaderContext } from '../../src/views/filters/filterHeaderContext';
import { HeaderV2 } from '../../src/views/filters/HeaderV2';
import { MallHeader } from '../../src/views/filters/MallHeader';
import { OutletDropdown } from '../../src/views/filters/OutletDropdown';
import { type HeaderActor, HeaderProbe } from './headerProbe';

const TODAY = '2024-03-15';
const MALLS: Mall[] = [
  { id: 1, name: 'Central', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
  { id: 2, name: 'East', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
];
const OUTLETS: Outlet[] = [
  { id: 12, name: 'Kopi Corner', type: 1, currency: 'SGD', mall_id: 1, outlet_code: null },
  { id: 7, name: 'Noodle Bar', type: 2, currency: 'SGD', mall_id: 2, outlet_code: null },
];

let urlWrites: { search: string; replace: boolean }[];
let cookieWrites: string[][];
let headerActor: Actor<typeof filterHeaderMachine> | undefined;

const logic = filterHeaderMachine.provide({
  actors: {
    fetchMalls: fromPromise<Mall[], { clientId: number }>(async () => MALLS),
    fetchOutlets: fromPromise<Outlet[], { clientId: number }>(async () => OUTLETS),
  },
  actions: {
    writeUrl: (_, params: { search: string; replace: boolean }) => {
      urlWrites.push({ search: params.search, replace: params.replace });
    },
    writeCookies: (_, params: { cookies: readonly string[] }) => {
      cookieWrites.push([...params.cookies]);
    },
  },
});

/** Keeps the provider's actor for the test (as a page would send page.loading). */
const keepHeaderActor = (actor: HeaderActor) => {
  headerActor = actor;
};

function renderWithHeader(ui: React.ReactNode, input: Partial<FilterHeaderInput> = {}) {
  return render(
    <FilterHeaderContext.Provider
      logic={logic}
      options={{ input: { today: TODAY, clientIds: [3], defaultClientId: 3, ...input } }}
    >
      <HeaderProbe onActor={keepHeaderActor} />
      {ui}
    </FilterHeaderContext.Provider>,
  );
}

function actor(): Actor<typeof filterHeaderMachine> {
  if (!headerActor) throw new Error('the header actor is not mounted');
  return headerActor;
}

async function waitForLookups(): Promise<void> {
  await waitFor(() => expect(screen.getByTestId('malls-select')).toHaveProperty('disabled', false));
}

beforeEach(() => {
  urlWrites = [];
  cookieWrites = [];
  headerActor = undefined;
});

afterEach(() => cleanup());

describe('MallHeader', () => {
  it('shows the title, the malls and the date period', async () => {
    renderWithHeader(<MallHeader title="Mall Home" />);
    expect(screen.getByRole('heading', { name: 'Mall Home' })).toBeDefined();
    await waitForLookups();
    expect(screen.getByTestId('malls-select').textContent).toContain('Central, East');
    expect(screen.getByTestId('date-range-button').textContent).toContain('9 Mar - 15 Mar');
    expect(screen.queryByTestId('time-range-select')).toBeNull();
  });

  it('says its filters in one line that opens them (a narrow screen shows only the line)', async () => {
    renderWithHeader(<MallHeader title="Mall Home" />);
    await waitForLookups();
    const line = screen.getByTestId('filter-line');
    expect(line.textContent).toBe('Central, East · 9 Mar - 15 Mar');
    expect(line.getAttribute('aria-label')).toBe('Filters: Central, East · 9 Mar - 15 Mar');
    const controls = document.getElementById(line.getAttribute('aria-controls') ?? '');
    expect(controls?.contains(screen.getByTestId('malls-select'))).toBe(true);
    expect(line.getAttribute('aria-expanded')).toBe('false');
    expect(controls?.getAttribute('data-expanded')).toBe('false');
    fireEvent.click(line);
    expect(line.getAttribute('aria-expanded')).toBe('true');
    expect(controls?.getAttribute('data-expanded')).toBe('true');
    fireEvent.click(screen.getByTestId('malls-select'));
    fireEvent.click(screen.getByTestId('malls-option-1'));
    fireEvent.click(screen.getByTestId('malls-apply'));
    expect(screen.getByTestId('filter-line').textContent).toBe('East · 9 Mar - 15 Mar');
    fireEvent.click(line);
    expect(line.getAttribute('aria-expanded')).toBe('false');
  });

  it('applies a malls selection and refuses an empty one', async () => {
    renderWithHeader(<MallHeader title="Mall Home" />);
    await waitForLookups();
    fireEvent.click(screen.getByTestId('malls-select'));
    fireEvent.click(screen.getByTestId('malls-deselect-all'));
    fireEvent.click(screen.getByTestId('malls-apply'));
    expect(screen.getByTestId('malls-error').textContent).toBe('Please select a mall');
    fireEvent.click(screen.getByTestId('malls-option-2'));
    expect(screen.queryByTestId('malls-error')).toBeNull();
    fireEvent.click(screen.getByTestId('malls-apply'));
    expect(screen.getByTestId('malls-select').textContent).toContain('East');
    expect(screen.getByTestId('malls-select').textContent).not.toContain('Central');
    expect(urlWrites.at(-1)).toEqual({
      search: 'client=3&malls=2&outlet=all&from=2024-03-09&to=2024-03-15',
      replace: false,
    });
    expect(cookieWrites.at(-1)?.[2]).toBe('mall_ids=2; Max-Age=1209600; Path=/; SameSite=Lax');
  });

  it('commits the date period through its picker', async () => {
    renderWithHeader(<MallHeader title="Mall Home" />);
    await waitForLookups();
    fireEvent.click(screen.getByTestId('date-range-button'));
    fireEvent.click(screen.getByLabelText('Last 30 days'));
    fireEvent.click(screen.getByTestId('date-range-apply'));
    await waitFor(() => expect(actor().getSnapshot().context.filters.dateRange.start).toBe('2024-02-15'));
    expect(screen.getByTestId('date-range-button').textContent).toContain('15 Feb - 15 Mar');
  });

  it('disables its filters while the page fetches', async () => {
    renderWithHeader(<MallHeader title="Mall Home" />);
    await waitForLookups();
    act(() => actor().send({ type: 'page.loading' }));
    expect(screen.getByTestId('malls-select')).toHaveProperty('disabled', true);
    expect(screen.getByTestId('date-range-button')).toHaveProperty('disabled', true);
    expect(screen.getByTestId('mall-header').getAttribute('aria-busy')).toBe('true');
    act(() => actor().send({ type: 'page.loaded' }));
    expect(screen.getByTestId('malls-select')).toHaveProperty('disabled', false);
    expect(screen.getByTestId('date-range-button')).toHaveProperty('disabled', false);
  });

  it('shows a Month picker on monthly pages', async () => {
    renderWithHeader(<MallHeader title="Marcom" />, { page: { period: 'month' } });
    await waitForLookups();
    expect(screen.queryByTestId('date-range-button')).toBeNull();
    const picker = screen.getByTestId('month-picker');
    expect(within(picker).getByRole('option', { name: 'Please select a month' })).toHaveProperty('disabled', true);
    expect(within(picker).getByRole('option', { name: 'March 2024', selected: true })).toBeDefined();
    fireEvent.change(picker, { target: { value: '2024-01' } });
    expect(within(picker).getByRole('option', { name: 'January 2024', selected: true })).toBeDefined();
    expect(urlWrites.at(-1)?.search).toBe('client=3&malls=1,2&outlet=all&month=2024-01');
  });
});

describe('HeaderV2', () => {
  it('adds the time range, metric and hour range', async () => {
    renderWithHeader(<HeaderV2 title="Mall Peak Hours" />, { page: { headerV2: true, averageTransactionValue: true } });
    await waitForLookups();
    const timeRange = screen.getByTestId('time-range-select');
    expect(
      within(timeRange)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Hourly', 'Daily', 'Weekly', 'Monthly']);
    expect(timeRange).toHaveProperty('value', 'daily');
    const metric = screen.getByTestId('metric-select');
    expect(
      within(metric)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['GMV', 'Transactions', 'Average Transaction Value']);
    expect(screen.getByTestId('hour-picker').textContent).toContain('12:00am-12:00am');
  });

  it('names the hours, time range and metric in its filter line', async () => {
    renderWithHeader(<HeaderV2 title="Mall Peak Hours" />, { page: { headerV2: true } });
    await waitForLookups();
    expect(screen.getByTestId('filter-line').textContent).toBe(
      'Central, East · 9 Mar - 15 Mar · 12:00am-12:00am · Daily · GMV',
    );
  });

  it('switches the time range when Year to date is longer than it allows', async () => {
    renderWithHeader(<HeaderV2 title="Mall Peak Hours" />, { page: { headerV2: true }, today: '2024-08-20' });
    await waitForLookups();
    fireEvent.click(screen.getByTestId('date-range-button'));
    fireEvent.click(screen.getByLabelText('Year to date'));
    expect(screen.getByText('(Max range of 366 days, Monthly)')).toBeDefined();
    fireEvent.click(screen.getByTestId('date-range-apply'));
    await waitFor(() => expect(screen.getByTestId('time-range-select')).toHaveProperty('value', 'monthly'));
    expect(screen.getByTestId('date-range-button').textContent).toContain('1 Jan - 20 Aug');
    expect(urlWrites.at(-1)).toEqual({
      search: 'client=3&malls=1,2&outlet=all&from=2024-01-01&to=2024-08-20&hours=0-23&time_range=monthly&metric=gmv',
      replace: false,
    });
  });

  it('shows Date Range Exceeded when Hourly and Average Transaction Value do not fit the range', async () => {
    renderWithHeader(<HeaderV2 title="Mall Peak Hours" />, { page: { headerV2: true, averageTransactionValue: true } });
    await waitForLookups();
    fireEvent.change(screen.getByTestId('time-range-select'), { target: { value: 'hourly' } });
    expect(screen.getByTestId('time-range-select')).toHaveProperty('value', 'hourly');
    fireEvent.change(screen.getByTestId('metric-select'), { target: { value: 'average_transaction_value' } });
    const alert = screen.getByTestId('date-range-exceeded');
    expect(within(alert).getByText('Date Range Exceeded')).toBeDefined();
    expect(within(alert).getByText('You have selected a date range more than 1 day. Please try again.')).toBeDefined();
    expect(screen.getByTestId('metric-select')).toHaveProperty('value', 'gmv');
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByTestId('date-range-exceeded')).toBeNull());
  });

  it('offers no Average Transaction Value unless the page does', async () => {
    renderWithHeader(<HeaderV2 title="Member vs Non-member" />, { page: { headerV2: true } });
    await waitForLookups();
    expect(
      within(screen.getByTestId('metric-select')).queryByRole('option', { name: 'Average Transaction Value' }),
    ).toBeNull();
  });
});

describe('OutletDropdown', () => {
  it('offers All Outlets and each outlet as name (id)', async () => {
    renderWithHeader(<OutletDropdown />);
    const dropdown = screen.getByTestId('outlet-dropdown');
    expect(dropdown).toHaveProperty('value', '');
    expect(within(dropdown).getByRole('option', { name: 'Choose an Outlet' })).toBeDefined();
    await waitFor(() => expect(dropdown).toHaveProperty('value', 'all'));
    expect(
      within(dropdown)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Choose an Outlet', 'All Outlets', 'Kopi Corner (12)', 'Noodle Bar (7)']);
    fireEvent.change(dropdown, { target: { value: '7' } });
    expect(dropdown).toHaveProperty('value', '7');
    expect(cookieWrites.at(-1)?.[1]).toBe('outlet_id=7; Max-Age=1209600; Path=/; SameSite=Lax');
  });

  it('disables All Outlets and selects the first outlet on single-outlet pages', async () => {
    renderWithHeader(<OutletDropdown />, { page: { outletMode: 'single' } });
    const dropdown = screen.getByTestId('outlet-dropdown');
    await waitFor(() => expect(dropdown).toHaveProperty('value', '12'));
    expect(within(dropdown).getByRole('option', { name: 'All Outlets' })).toHaveProperty('disabled', true);
  });

  it('is disabled on pages that say so', async () => {
    renderWithHeader(<OutletDropdown />, { page: { outletMode: 'disabled' } });
    const dropdown = screen.getByTestId('outlet-dropdown');
    await waitFor(() => expect(dropdown).toHaveProperty('value', 'all'));
    expect(dropdown).toHaveProperty('disabled', true);
  });
});
