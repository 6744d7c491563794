import { childActorContext } from './appContext';
import { APP_SYSTEM_IDS } from './appMachine';
import { layoutMachine } from './layoutMachine';

/** The signed-in frame's actor (sidebar, device, clients, theme), run by the app while a user is signed in. */
export const LayoutContext = childActorContext(layoutMachine, APP_SYSTEM_IDS.layout);
