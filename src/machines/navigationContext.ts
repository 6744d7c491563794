import { createActorContext } from '@xstate/react';
import { navigationGuardMachine } from './navigationGuardMachine';

/**
 * The app-wide navigation guard: `<NavigationContext.Provider options={{ input: { routeTable } }}>`
 * near the root, `NavigationContext.useSelector` below.
 */
export const NavigationContext = createActorContext(navigationGuardMachine);
