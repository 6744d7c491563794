import { useEffect } from 'react';
import type { Actor } from 'xstate';
import type { filterHeaderMachine } from '../../src/machines/filterHeaderMachine';
import { FilterHeaderContext } from '../../src/views/filters/filterHeaderContext';

export type HeaderActor = Actor<typeof filterHeaderMachine>;

/** Hands the test the filter header's actor (as a page holds it), through `onActor`. */
export function HeaderProbe({ onActor }: { readonly onActor: (actor: HeaderActor) => void }) {
  const actor = FilterHeaderContext.useActorRef();
  useEffect(() => {
    onActor(actor);
  }, [actor, onActor]);
  return null;
}
