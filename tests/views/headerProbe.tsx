import { useEffect } from 'react';
import type { Actor } from 'xstate';
import { FilterHeaderContext } from '../../src/views/filters/filterHeaderContext';
import type { filterHeaderMachine } from '../../src/machines/filterHeaderMachine';

export type HeaderActor = Actor<typeof filterHeaderMachine>;

/** Hands the test the filter header's actor (as a page holds it), through `onActor`. */
export function HeaderProbe({ onActor }: { readonly onActor: (actor: HeaderActor) => void }) {
  const actor = FilterHeaderContext.useActorRef();
  useEffect(() => {
    onActor(actor);
  }, [actor, onActor]);
  return null;
}
