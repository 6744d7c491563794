import { createActorContext } from '@xstate/react';
import { inspectorMachine } from './inspectorMachine';

/** The machine inspector panel's actor: provided by the signed-in area with `canInspectMachines(user)`. */
export const InspectorContext = createActorContext(inspectorMachine);
