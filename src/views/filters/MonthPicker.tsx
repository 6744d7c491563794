import { HTMLSelect } from '@blueprintjs/core';
import { monthOptions } from '../../domain/dateLimits';
import { MONTH_PLACEHOLDER } from '../../domain/filterOptions';
import { formatMonth } from '../../domain/format';
import { FilterHeaderContext } from './filterHeaderContext';

/** The Month picker of monthly pages (§2): months shown 'MMMM YYYY', latest first; 'Please select a month' when none. */
export function MonthPicker() {
  const state = FilterHeaderContext.useSelector((snapshot) => snapshot);
  const headerActor = FilterHeaderContext.useActorRef();
  const { month } = state.context.filters;
  const options = monthOptions(state.context.window).map((value) => ({
    value,
    label: formatMonth(value),
    disabled: !state.can({ type: 'month.change', month: value }),
  }));
  return (
    <HTMLSelect
      aria-label="Month"
      data-testid="month-picker"
      value={month ?? ''}
      disabled={state.hasTag('disabled')}
      options={[{ value: '', label: MONTH_PLACEHOLDER, disabled: true }, ...options]}
      onChange={(event) => headerActor.send({ type: 'month.change', month: event.currentTarget.value })}
    />
  );
}
