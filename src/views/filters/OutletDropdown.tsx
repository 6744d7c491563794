import { HTMLSelect } from '@blueprintjs/core';
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
  const state = FilterHeaderContext.useSelector((snapshot) => snapshot);
  const headerActor = FilterHeaderContext.useActorRef();
  const { context } = state;
  const options = outletOptions(context.outlets, context.page.outletMode).map((option) => {
    const selection = parseOutletSelection(option.value);
    return {
      value: option.value,
      label: option.label,
      disabled: selection === undefined || !state.can({ type: 'outlet.change', outlet: selection }),
    };
  });
  const value = context.filters.outlet === undefined ? '' : outletSelectionValue(context.filters.outlet);

  return (
    <HTMLSelect
      aria-label="Outlet"
      data-testid="outlet-dropdown"
      value={value}
      disabled={options.every((option) => option.disabled)}
      options={[{ value: '', label: OUTLET_PLACEHOLDER, disabled: true }, ...options]}
      onChange={(event) => {
        const outlet = parseOutletSelection(event.currentTarget.value);
        if (outlet !== undefined) headerActor.send({ type: 'outlet.change', outlet });
      }}
    />
  );
}
