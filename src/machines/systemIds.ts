import type { ActorRefFrom } from 'xstate';
import type { authMachine } from './authMachine';
import type { filterHeaderMachine } from './filterHeaderMachine';
import type { inspectorMachine } from './inspectorMachine';
import type { layoutMachine } from './layoutMachine';
import type { navigationGuardMachine } from './navigationGuardMachine';

/** The system ids of the app machine's actors: any actor of the app's system finds them with `system.get(id)`. */
export const APP_SYSTEM_IDS = {
  auth: 'auth',
  navigation: 'navigation',
  layout: 'layout',
  filterHeader: 'filterHeader',
  inspector: 'inspector',
} as const;

/** The actor each system id stands for. */
export interface AppSystemActors {
  auth: ActorRefFrom<typeof authMachine>;
  navigation: ActorRefFrom<typeof navigationGuardMachine>;
  layout: ActorRefFrom<typeof layoutMachine>;
  filterHeader: ActorRefFrom<typeof filterHeaderMachine>;
  inspector: ActorRefFrom<typeof inspectorMachine>;
}

/** An actor system, as XState hands it to actions and actors. */
export interface ActorSystemLike {
  get(systemId: string): unknown;
}

/**
 * The app's actor of a system id, typed; undefined when it is not running (signed out, or a machine running on its
 * own in a test). The one place that knows which actor stands behind which id.
 */
export function appActor<TId extends keyof AppSystemActors>(
  system: ActorSystemLike,
  id: TId,
): AppSystemActors[TId] | undefined {
  return system.get(APP_SYSTEM_IDS[id]) as AppSystemActors[TId] | undefined;
}
