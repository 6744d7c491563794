import { childActorContext } from './appContext';
import { APP_SYSTEM_IDS } from './appMachine';
import { inspectorMachine } from './inspectorMachine';

/** The machine inspector panel's actor, run by the app while a user is signed in. */
export const InspectorContext = childActorContext(inspectorMachine, APP_SYSTEM_IDS.inspector);
