import type { InspectionEvent, Observer } from 'xstate';
import { type InspectionStore, inspectionStore } from './inspection';

/**
 * `?inspect=stately`: the app's actors are also shown in Stately's inspector (`@statelyai/inspect`,
 * `createBrowserInspector()`, which opens the inspector in a new window). It gets the actors running now
 * (replayed by the inspection store: it was attached late), then every inspection event.
 */

export interface StatelyInspectorLike {
  readonly inspect: Observer<InspectionEvent>;
  readonly stop?: () => void;
}

export type CreateStatelyInspector = () => StatelyInspectorLike;

/** Loads `@statelyai/inspect` only when asked for (it is not part of the main bundle). */
async function loadBrowserInspector(): Promise<CreateStatelyInspector> {
  const { createBrowserInspector } = await import('@statelyai/inspect');
  return () => createBrowserInspector();
}

/** Opens Stately's inspector and forwards the app's actors to it. Returns a function that stops forwarding. */
export async function connectStatelyInspector(
  store: InspectionStore = inspectionStore,
  load: () => Promise<CreateStatelyInspector> = loadBrowserInspector,
): Promise<() => void> {
  const create = await load();
  const inspector = create();
  const stop = store.forward(inspector.inspect);
  return () => {
    stop();
    inspector.stop?.();
  };
}
