import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { type Actor, createActor } from 'xstate';
import {
  type DateRangeChangeEvent,
  type DateRangePickerInput,
  dateRangePickerMachine,
} from '../../src/machines/dateRangePickerMachine';
import { DateRangePicker } from '../../src/views/filters/DateRangePicker';

const TODAY = '2024-03-15';
const WINDOW = { earliest: '2023-01-01', latest: TODAY };

let actor: Actor<typeof dateRangePickerMachine>;
let applied: DateRangeChangeEvent[];

function renderPicker(input: Partial<DateRangePickerInput> = {}) {
  applied = [];
  actor = createActor(dateRangePickerMachine, {
    input: { range: { start: '2024-03-09', end: TODAY }, window: WINDOW, maxDays: 31, ...input },
  });
  actor.on('dateRange.change', (event) => applied.push(event));
  actor.start();
  return render(<DateRangePicker actorRef={actor} />);
}

function dateInput(testId: 'date-range-from' | 'date-range-to'): HTMLElement {
  const input = document.getElementById(testId);
  if (!(input instanceof HTMLInputElement)) throw new Error(`no input #${testId}`);
  return input;
}

function typeDate(testId: 'date-range-from' | 'date-range-to', value: string): void {
  const input = dateInput(testId);
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

afterEach(() => {
  cleanup();
  actor.stop();
});

describe('DateRangePicker', () => {
  it('shows the committed range and opens the panel with the options and the note', () => {
    renderPicker();
    expect(screen.getByTestId('date-range-button').textContent).toContain('9 Mar - 15 Mar');
    expect(screen.queryByTestId('date-range-panel')).toBeNull();
    fireEvent.click(screen.getByTestId('date-range-button'));
    const panel = screen.getByTestId('date-range-panel');
    expect(within(panel).getByLabelText('Last 7 days')).toHaveProperty('checked', true);
    expect(within(panel).getByLabelText('Last 30 days')).toHaveProperty('checked', false);
    expect(within(panel).getByLabelText('Custom range')).toBeDefined();
    expect(within(panel).getByText('(Max range of 31 days)')).toBeDefined();
    expect(dateInput('date-range-from')).toHaveProperty('value', '2024-03-09');
    expect(dateInput('date-range-to')).toHaveProperty('value', TODAY);
  });

  it('commits a quick range with Apply', () => {
    renderPicker();
    fireEvent.click(screen.getByTestId('date-range-button'));
    fireEvent.click(screen.getByLabelText('Last 30 days'));
    expect(dateInput('date-range-from')).toHaveProperty('value', '2024-02-15');
    fireEvent.click(screen.getByTestId('date-range-apply'));
    expect(actor.getSnapshot().matches('closed')).toBe(true);
    expect(screen.getByTestId('date-range-button').textContent).toContain('15 Feb - 15 Mar');
    expect(applied).toEqual([{ type: 'dateRange.change', range: { start: '2024-02-15', end: TODAY } }]);
  });

  it('offers the calendar presets; Year to date asks for the Monthly time range, a disabled one says why', () => {
    const options = [
      { timeRange: 'hourly', maxDays: 31 },
      { timeRange: 'daily', maxDays: 31 },
      { timeRange: 'weekly', maxDays: 93 },
      { timeRange: 'monthly', maxDays: 366 },
    ] as const;
    // 31 Aug 2024 with 1 Jul the earliest date (61 days back): the quarter may be chosen, not the year.
    renderPicker({
      window: { earliest: '2024-07-01', latest: '2024-08-31' },
      range: { start: '2024-08-25', end: '2024-08-31' },
      timeRanges: { current: 'daily', options },
    });
    fireEvent.click(screen.getByTestId('date-range-button'));
    const panel = screen.getByTestId('date-range-panel');
    const labels = within(panel)
      .getAllByRole('radio')
      .map((radio) => radio.closest('label')?.textContent);
    expect(labels).toEqual([
      'Last 7 days',
      'Last 30 days',
      'This month',
      'Last month',
      'Quarter to date',
      'Year to date',
      'Custom range',
    ]);
    const yearToDate = within(panel).getByLabelText('Year to date');
    expect(yearToDate).toHaveProperty('disabled', true);
    const why = 'Starts before 1 Jul 2024, the earliest date you may choose.';
    // Said on the radio and on its label's text, which a pointer can hover while the radio is disabled.
    expect(yearToDate.getAttribute('title')).toBe(why);
    expect(yearToDate.closest('label')?.querySelector('span[title]')?.getAttribute('title')).toBe(why);
    expect(within(panel).getByLabelText('Quarter to date')).toHaveProperty('disabled', false);
    fireEvent.click(within(panel).getByLabelText('Last month'));
    expect(dateInput('date-range-from')).toHaveProperty('value', '2024-07-01');
    expect(dateInput('date-range-to')).toHaveProperty('value', '2024-07-31');
    expect(within(panel).getByText('(Max range of 31 days)')).toBeDefined();
    fireEvent.click(within(panel).getByLabelText('Quarter to date'));
    expect(within(panel).getByLabelText('Quarter to date')).toHaveProperty('checked', true);
    expect(within(panel).getByText('(Max range of 93 days, Weekly)')).toBeDefined();
    expect(within(panel).queryByTestId('date-range-warning')).toBeNull();
    fireEvent.click(screen.getByTestId('date-range-apply'));
    expect(applied).toEqual([
      { type: 'dateRange.change', range: { start: '2024-07-01', end: '2024-08-31' }, timeRange: 'weekly' },
    ]);
    expect(screen.getByTestId('date-range-button').textContent).toContain('1 Jul - 31 Aug');
  });

  it('offers This month and Last month without a time-range select', () => {
    renderPicker();
    fireEvent.click(screen.getByTestId('date-range-button'));
    const panel = screen.getByTestId('date-range-panel');
    expect(within(panel).queryByLabelText('Year to date')).toBeNull();
    expect(within(panel).queryByLabelText('Quarter to date')).toBeNull();
    fireEvent.click(within(panel).getByLabelText('This month'));
    fireEvent.click(screen.getByTestId('date-range-apply'));
    expect(applied).toEqual([{ type: 'dateRange.change', range: { start: '2024-03-01', end: TODAY } }]);
  });

  it('restores the previous range with Cancel', () => {
    renderPicker();
    fireEvent.click(screen.getByTestId('date-range-button'));
    typeDate('date-range-from', '2024-03-01');
    expect(screen.getByLabelText('Custom range')).toHaveProperty('checked', true);
    fireEvent.click(screen.getByTestId('date-range-cancel'));
    expect(actor.getSnapshot().matches('closed')).toBe(true);
    expect(screen.getByTestId('date-range-button').textContent).toContain('9 Mar - 15 Mar');
    expect(applied).toEqual([]);
    // Opening again starts from the committed range.
    fireEvent.click(screen.getByTestId('date-range-button'));
    expect(dateInput('date-range-from')).toHaveProperty('value', '2024-03-09');
  });

  it('says inline when the start is after the end', () => {
    renderPicker();
    fireEvent.click(screen.getByTestId('date-range-button'));
    typeDate('date-range-from', '2024-03-14');
    typeDate('date-range-to', '2024-03-12');
    fireEvent.click(screen.getByTestId('date-range-apply'));
    expect(screen.getByTestId('date-range-error').textContent).toBe('Date must be before End Date.');
    expect(applied).toEqual([]);
    typeDate('date-range-to', '2024-03-15');
    expect(screen.queryByTestId('date-range-error')).toBeNull();
  });

  it('shows the Date Range Exceeded alert and returns to the panel', async () => {
    renderPicker();
    fireEvent.click(screen.getByTestId('date-range-button'));
    typeDate('date-range-from', '2024-01-15');
    fireEvent.click(screen.getByTestId('date-range-apply'));
    const alert = screen.getByTestId('date-range-exceeded');
    expect(within(alert).getByText('Date Range Exceeded')).toBeDefined();
    expect(
      within(alert).getByText('You have selected a date range more than 31 days. Please try again.'),
    ).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(actor.getSnapshot().matches({ open: 'editing' })).toBe(true);
    await waitFor(() => expect(screen.queryByTestId('date-range-exceeded')).toBeNull());
    expect(dateInput('date-range-from')).toHaveProperty('value', '2024-01-15');
    expect(applied).toEqual([]);
  });

  it('says a typed future date is refused with the future-date message, and keeps the committed range', () => {
    renderPicker();
    fireEvent.click(screen.getByTestId('date-range-button'));
    typeDate('date-range-to', '2024-03-20');
    expect(dateInput('date-range-to')).toHaveProperty('value', '2024-03-20');
    fireEvent.click(screen.getByTestId('date-range-apply'));
    expect(screen.getByTestId('date-range-error').textContent).toBe(
      'You have selected a future date. Please try again with another date.',
    );
    expect(actor.getSnapshot().matches({ open: 'invalid' })).toBe(true);
    expect(applied).toEqual([]);
  });

  it('says a typed date before the earliest one is refused', () => {
    renderPicker();
    fireEvent.click(screen.getByTestId('date-range-button'));
    typeDate('date-range-from', '2022-12-20');
    fireEvent.click(screen.getByTestId('date-range-apply'));
    expect(screen.getByTestId('date-range-error').textContent).toBe(
      'You have selected a date before 1 Jan 2023. Please try again with another date.',
    );
    expect(applied).toEqual([]);
  });

  it('says an emptied date is not a date', () => {
    renderPicker();
    fireEvent.click(screen.getByTestId('date-range-button'));
    typeDate('date-range-from', '');
    fireEvent.click(screen.getByTestId('date-range-apply'));
    expect(screen.getByTestId('date-range-error').textContent).toBe('Please enter a valid date.');
    expect(applied).toEqual([]);
  });

  it('says in the panel, as the dates are picked, that the range is longer than the maximum', () => {
    renderPicker();
    fireEvent.click(screen.getByTestId('date-range-button'));
    const panel = screen.getByTestId('date-range-panel');
    expect(within(panel).queryByTestId('date-range-warning')).toBeNull();
    typeDate('date-range-from', '2024-01-15');
    // Before any Apply: the warning is where the dates are, under the '(Max range of 31 days)' note.
    const warning = within(panel).getByTestId('date-range-warning');
    expect(within(warning).getByText('Date Range Exceeded')).toBeDefined();
    expect(
      within(warning).getByText('You have selected a date range more than 31 days. Please try again.'),
    ).toBeDefined();
    expect(screen.queryByTestId('date-range-exceeded')).toBeNull();
    // A range that fits again: the warning goes.
    fireEvent.click(within(panel).getByLabelText('Last 30 days'));
    expect(within(panel).queryByTestId('date-range-warning')).toBeNull();
  });

  it('warns on the phone too, in the dialog of selects', () => {
    renderPicker({ variant: 'mobile' });
    fireEvent.click(screen.getByTestId('date-range-button'));
    fireEvent.change(screen.getByLabelText('Set Date From year'), { target: { value: '2023' } });
    const warning = screen.getByTestId('date-range-warning');
    expect(within(warning).getByText('Date Range Exceeded')).toBeDefined();
  });

  it('names the years of a range outside the current year, so that the same days of two years read apart', () => {
    renderPicker({ range: { start: '2023-03-09', end: '2023-03-15' } });
    expect(screen.getByTestId('date-range-button').textContent).toContain('9 Mar 2023 - 15 Mar 2023');
    cleanup();
    renderPicker({ range: { start: '2023-12-28', end: '2024-01-03' } });
    expect(screen.getByTestId('date-range-button').textContent).toContain('28 Dec 2023 - 3 Jan 2024');
  });

  it('hides the quick ranges when the earliest date is recent', () => {
    renderPicker({ window: { earliest: '2024-03-14', latest: TODAY }, range: { start: '2024-03-14', end: TODAY } });
    fireEvent.click(screen.getByTestId('date-range-button'));
    expect(screen.queryByLabelText('Last 7 days')).toBeNull();
  });

  it('disables the button while its owner says so', () => {
    renderPicker();
    act(() => actor.send({ type: 'dateRange.disable' }));
    expect(screen.getByTestId('date-range-button')).toHaveProperty('disabled', true);
    act(() => actor.send({ type: 'dateRange.enable' }));
    expect(screen.getByTestId('date-range-button')).toHaveProperty('disabled', false);
  });

  it('uses day, month and year selects in a dialog on mobile', () => {
    renderPicker({ variant: 'mobile' });
    fireEvent.click(screen.getByTestId('date-range-button'));
    expect(screen.getByText('Set Date From')).toBeDefined();
    expect(screen.getByText('Set Date To')).toBeDefined();
    fireEvent.change(screen.getByLabelText('Set Date From day'), { target: { value: '20' } });
    fireEvent.change(screen.getByLabelText('Set Date From month'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Okay' }));
    expect(applied).toEqual([{ type: 'dateRange.change', range: { start: '2024-02-20', end: TODAY } }]);
    // Okay refuses a range longer than the maximum like Apply.
    fireEvent.click(screen.getByTestId('date-range-button'));
    fireEvent.change(screen.getByLabelText('Set Date From year'), { target: { value: '2023' } });
    fireEvent.click(screen.getByRole('button', { name: 'Okay' }));
    expect(within(screen.getByTestId('date-range-exceeded')).getByText(/more than 31 days/)).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByTestId('date-range-button').textContent).toContain('20 Feb - 15 Mar');
  });
});
