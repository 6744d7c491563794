import type { ActorRefLike, InspectionEvent, Observer } from 'xstate';
import { type InspectionStore, inspectionStore, isActorRef } from './inspection';

/**
 * `?inspect=stately`: the app's actors are also shown in Stately's inspector (`@statelyai/inspect`,
 * `createBrowserInspector()`, which opens the inspector in a new window). Stately's inspector tells actors
 * apart by session id, which each root's system numbers from `x:0`; so the events it gets name every actor
 * (and its parent and root) by the inspection store's unique ids instead.
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

/** An actor ref with the store's id as its session id (its parent renamed the same way). */
function renamed(store: InspectionStore, actorRef: ActorRefLike, cache: WeakMap<object, ActorRefLike>): ActorRefLike {
  const known = cache.get(actorRef);
  if (known) return known;
  const source: Record<string, unknown> = { ...actorRef };
  const parent = source._parent;
  const facade: ActorRefLike & Record<string, unknown> = {
    id: source.id,
    logic: source.logic,
    src: source.src,
    sessionId: store.idOf(actorRef) ?? actorRef.sessionId,
    send: (event) => actorRef.send(event),
    getSnapshot: () => actorRef.getSnapshot(),
    _parent: isActorRef(parent) ? renamed(store, parent, cache) : undefined,
  };
  cache.set(actorRef, facade);
  return facade;
}

function rootOf(actorRef: ActorRefLike): ActorRefLike {
  let current = actorRef;
  for (;;) {
    const parent: unknown = (current as ActorRefLike & { _parent?: unknown })._parent;
    if (!isActorRef(parent)) return current;
    current = parent;
  }
}

/** The inspection event with every actor named by the store's ids. */
export function withUniqueIds(
  store: InspectionStore,
  event: InspectionEvent,
  cache: WeakMap<object, ActorRefLike> = new WeakMap(),
): InspectionEvent {
  const actorRef = renamed(store, event.actorRef, cache);
  const rootId = store.idOf(rootOf(event.actorRef)) ?? event.rootId;
  if (event.type === '@xstate.event') {
    return {
      ...event,
      actorRef,
      rootId,
      sourceRef: event.sourceRef ? renamed(store, event.sourceRef, cache) : undefined,
    };
  }
  return { ...event, actorRef, rootId };
}

/**
 * Opens Stately's inspector and forwards the app's actors to it: those running now, then every later
 * event. Returns a function that stops forwarding.
 */
export async function connectStatelyInspector(
  store: InspectionStore = inspectionStore,
  load: () => Promise<CreateStatelyInspector> = loadBrowserInspector,
): Promise<() => void> {
  const create = await load();
  const inspector = create();
  const cache = new WeakMap<object, ActorRefLike>();
  const stop = store.forward((event) => {
    inspector.inspect.next?.(withUniqueIds(store, event, cache));
  });
  return () => {
    stop();
    inspector.stop?.();
  };
}
