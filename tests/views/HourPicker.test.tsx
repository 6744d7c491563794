import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { type Actor, createActor } from 'xstate';
import { type HourChangeEvent, hourPickerMachine } from '../../src/machines/hourPickerMachine';
import { HourPicker } from '../../src/views/filters/HourPicker';

let actor: Actor<typeof hourPickerMachine>;
let applied: HourChangeEvent[];

function renderPicker() {
  applied = [];
  actor = createActor(hourPickerMachine, { input: {} });
  actor.on('hours.change', (event) => applied.push(event));
  actor.start();
  return render(<HourPicker actorRef={actor} />);
}

afterEach(() => {
  cleanup();
  actor.stop();
});

describe('HourPicker', () => {
  it('shows All Day as 12:00am-12:00am and opens on All Day', () => {
    renderPicker();
    expect(screen.getByTestId('hour-picker').textContent).toContain('12:00am-12:00am');
    fireEvent.click(screen.getByTestId('hour-picker'));
    expect(screen.getByLabelText('All Day')).toHaveProperty('checked', true);
    expect(screen.getByTestId('hour-picker-from')).toHaveProperty('value', '0');
    expect(screen.getByTestId('hour-picker-to')).toHaveProperty('value', '23');
  });

  it('switches to Custom on focus and applies From/To shown as hh:00 A', () => {
    renderPicker();
    fireEvent.click(screen.getByTestId('hour-picker'));
    fireEvent.focus(screen.getByTestId('hour-picker-from'));
    expect(screen.getByLabelText('Custom')).toHaveProperty('checked', true);
    fireEvent.change(screen.getByTestId('hour-picker-from'), { target: { value: '9' } });
    fireEvent.change(screen.getByTestId('hour-picker-to'), { target: { value: '17' } });
    expect(screen.getByRole('option', { name: '09:00 AM', selected: true })).toBeDefined();
    fireEvent.click(screen.getByTestId('hour-picker-apply'));
    expect(screen.getByTestId('hour-picker').textContent).toContain('09:00 AM - 05:00 PM');
    expect(applied).toEqual([{ type: 'hours.change', hours: { from: 9, to: 17 } }]);
  });

  it('says when From is after To, and Cancel restores the hours', () => {
    renderPicker();
    fireEvent.click(screen.getByTestId('hour-picker'));
    fireEvent.change(screen.getByTestId('hour-picker-from'), { target: { value: '18' } });
    fireEvent.change(screen.getByTestId('hour-picker-to'), { target: { value: '9' } });
    fireEvent.click(screen.getByTestId('hour-picker-apply'));
    expect(screen.getByTestId('hour-picker-error').textContent).toBe('From must be at or before To.');
    fireEvent.click(screen.getByTestId('hour-picker-cancel'));
    expect(screen.getByTestId('hour-picker').textContent).toContain('12:00am-12:00am');
    expect(applied).toEqual([]);
  });

  it('resets to 0-23 when All Day is chosen', () => {
    renderPicker();
    fireEvent.click(screen.getByTestId('hour-picker'));
    fireEvent.change(screen.getByTestId('hour-picker-from'), { target: { value: '6' } });
    fireEvent.click(screen.getByLabelText('All Day'));
    expect(screen.getByTestId('hour-picker-from')).toHaveProperty('value', '0');
    fireEvent.click(screen.getByTestId('hour-picker-apply'));
    expect(applied).toEqual([{ type: 'hours.change', hours: { from: 0, to: 23 } }]);
  });

  it('is disabled while its owner says so', () => {
    renderPicker();
    act(() => actor.send({ type: 'hours.disable' }));
    expect(screen.getByTestId('hour-picker')).toHaveProperty('disabled', true);
  });
});
