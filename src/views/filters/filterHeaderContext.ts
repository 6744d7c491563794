import { createActorContext } from '@xstate/react';
import { filterHeaderMachine } from '../../machines/filterHeaderMachine';

/**
 * The app-wide filter header actor: `<FilterHeaderContext.Provider options={{ input }}>` in the signed-in
 * layout (one actor for every page, so the filters survive page changes), `FilterHeaderContext.useSelector`
 * in the headers, the outlet dropdown and the pages.
 */
export const FilterHeaderContext = createActorContext(filterHeaderMachine);
