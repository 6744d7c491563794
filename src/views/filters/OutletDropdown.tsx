import { HTMLSelect } from '@blueprintjs/core';
import { shallowEqual } from '@xstate/react';
import {
  OUTLET_PLACEHOLDER,
  outletOptions,
  outletSelectionValue,
  parseOutletSelection,
} from '../../domain/filterOptions';
import { FilterHeaderContext } from './filterHeaderContext';

/**
 * The top bar's outlet dropdown (§2): 'Choose an Outlet' until an outlet is selected, 'All Outlets'
 * (every id, comma-joined) then each outlet as 'name (id)'. The page's outlet mode decides, through the
 * machine, whether All Outlets can be chosen and whether the dropdown is enabled at all.
 */
export function OutletDropdown() {
  const headerActor = FilterHeaderContext.useActorRef();
  const outlets = FilterHeaderContext.useSelector((state) => state.context.outlets);
  const outletMode = FilterHeaderContext.useSelector((state) => state.context.page.outletMode);
  const outlet = FilterHeaderContext.useSelector((state) => state.context.filters.outlet);
  // Whether each option (in the order of `outletOptions`) can be chosen: a new array, compared by its items.
  const choosable = FilterHeaderContext.useSelector(
    (state) =>
      outletOptions(state.context.outlets, state.context.page.outletMode).map((option) => {
        const selection = parseOutletSelection(option.value);
        return selection !== undefined && state.can({ type: 'outlet.change', outlet: selection });
      }),
    shallowEqual,
  );
  const options = outletOptions(outlets, outletMode).map((option, index) => ({
    value: option.value,
    label: option.label,
    disabled: choosable[index] !== true,
  }));
  const value = outlet === undefined ? '' : outletSelectionValue(outlet);
  // The chosen outlet's whole label: a narrow dropdown cuts it.
  const chosenLabel = options.find((option) => option.value === value)?.label ?? OUTLET_PLACEHOLDER;

  return (
    <HTMLSelect
      aria-label="Outlet"
      data-testid="outlet-dropdown"
      title={chosenLabel}
      value={value}
      disabled={options.every((option) => option.disabled)}
      options={[{ value: '', label: OUTLET_PLACEHOLDER, disabled: true }, ...options]}
      onChange={(event) => {
        const selection = parseOutletSelection(event.currentTarget.value);
        if (selection !== undefined) headerActor.send({ type: 'outlet.change', outlet: selection });
      }}
    />
  );
}
