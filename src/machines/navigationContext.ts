import { childActorContext } from './appContext';
import { APP_SYSTEM_IDS } from './appMachine';
import { navigationGuardMachine } from './navigationGuardMachine';

/** The app's navigation guard: `NavigationContext.useSelector` for the location and the user's routes. */
export const NavigationContext = childActorContext(navigationGuardMachine, APP_SYSTEM_IDS.navigation);
