import { createActorContext } from '@xstate/react';
import { layoutMachine } from './layoutMachine';

/** The signed-in frame's actor (sidebar, device, clients): provided by the signed-in area. */
export const LayoutContext = createActorContext(layoutMachine);
