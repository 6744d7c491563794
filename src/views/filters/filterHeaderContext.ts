import { childActorContext } from '../../machines/appContext';
import { APP_SYSTEM_IDS } from '../../machines/appMachine';
import { filterHeaderMachine } from '../../machines/filterHeaderMachine';

/**
 * The app-wide filter header actor (one for every page, so the filters survive page changes), run by the app
 * while a user is signed in: `FilterHeaderContext.useSelector` in the headers, the outlet dropdown and the pages.
 */
export const FilterHeaderContext = childActorContext(filterHeaderMachine, APP_SYSTEM_IDS.filterHeader);

/** Today (`YYYY-MM-DD`) as the filter header reckons it: the day whose figures are still coming in. */
export const useToday = () => FilterHeaderContext.useSelector((snapshot) => snapshot.context.today);
