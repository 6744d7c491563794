import { HTMLSelect } from '@blueprintjs/core';
import { shallowEqual } from '@xstate/react';
import { monthOptions } from '../../domain/dateLimits';
import { MONTH_PLACEHOLDER } from '../../domain/filterOptions';
import { formatMonth } from '../../domain/format';
import { FilterHeaderContext } from './filterHeaderContext';

/** The Month picker of monthly pages (§2): months shown 'MMMM YYYY', latest first; 'Please select a month' when none. */
export function MonthPicker() {
  const headerActor = FilterHeaderContext.useActorRef();
  const month = FilterHeaderContext.useSelector((state) => state.context.filters.month);
  const disabled = FilterHeaderContext.useSelector((state) => state.hasTag('disabled'));
  // The months of the window that can be chosen: a new array, compared by its items.
  const choosableMonths = FilterHeaderContext.useSelector(
    (state) => monthOptions(state.context.window).filter((value) => state.can({ type: 'month.change', month: value })),
    shallowEqual,
  );
  const dateWindow = FilterHeaderContext.useSelector((state) => state.context.window);
  const options = monthOptions(dateWindow).map((value) => ({
    value,
    label: formatMonth(value),
    disabled: !choosableMonths.includes(value),
  }));
  return (
    <HTMLSelect
      aria-label="Month"
      data-testid="month-picker"
      value={month ?? ''}
      disabled={disabled}
      options={[{ value: '', label: MONTH_PLACEHOLDER, disabled: true }, ...options]}
      onChange={(event) => headerActor.send({ type: 'month.change', month: event.currentTarget.value })}
    />
  );
}
