import type { ActorRefLike, AnyEventObject, InspectionEvent, Observer } from 'xstate';

/**
 * The live machine inspection store: every app-wide actor is created with `inspect: inspectActors`
 * (`createActor(machine, { inspect })`, or a `createActorContext` Provider's `options.inspect`), and XState
 * reports to it each actor it creates (the providers' actors and their children), each event an actor
 * receives and each snapshot it reaches. The store keeps, per running actor, its current state value,
 * context and status and its last 50 events, and tells its subscribers (the inspector panel) when that
 * changes. No React here: `getSnapshot` and `subscribe` fit `useSyncExternalStore`.
 *
 * Actors are named by their XState session id (`x:3`, unique in the page, as Stately's inspector shows
 * them). An actor is listed from its first snapshot (an actor created but never started, as React's
 * StrictMode does, is never listed) until it stops.
 */

export const MAX_INSPECTED_EVENTS = 50;

export interface InspectedEvent {
  /** Increasing over the whole store. */
  readonly seq: number;
  readonly type: string;
  /** The event as received. */
  readonly event: AnyEventObject;
  /** The sender's session id, when an actor sent it. */
  readonly sourceId: string | undefined;
  /** Milliseconds since the epoch. */
  readonly at: number;
}

export type InspectedStatus = 'active' | 'done' | 'error' | 'stopped';

export interface InspectedActor {
  /** The actor's session id (`x:3`). */
  readonly id: string;
  /** The machine's id for a root (`filterHeader`), the actor's id for a child (`dateRangePicker`). */
  readonly name: string;
  readonly parentId: string | undefined;
  /** 0 for a root, 1 for its children, ... */
  readonly depth: number;
  readonly status: InspectedStatus;
  /** The state value of a machine; undefined for other actors. */
  readonly value: unknown;
  /** A machine's context, or another actor's output; undefined when it has none. */
  readonly context: unknown;
  /** The last events it received, oldest first (at most MAX_INSPECTED_EVENTS). */
  readonly events: readonly InspectedEvent[];
  /** How many events it received in all. */
  readonly eventCount: number;
}

export interface InspectionSnapshot {
  /** The running actors, each root followed by its descendants. */
  readonly actors: readonly InspectedActor[];
  /** Changes with every update. */
  readonly version: number;
}

export type InspectionListener = () => void;

export interface InspectionStore {
  /** The `inspect` option of the actors. */
  readonly inspect: (event: InspectionEvent) => void;
  readonly getSnapshot: () => InspectionSnapshot;
  /** Called (once per burst of updates, after the current task) when the snapshot changed. */
  readonly subscribe: (listener: InspectionListener) => () => void;
  /**
   * Forwards the inspection events to another inspector (Stately's): first the running actors as they are
   * now (their registration and last snapshot), then every later event. Returns the unsubscribe function.
   */
  readonly forward: (observer: Observer<InspectionEvent> | ((event: InspectionEvent) => void)) => () => void;
  /** Forgets everything (tests). */
  readonly clear: () => void;
}

interface ActorRecord {
  id: string;
  ref: ActorRefLike;
  name: string;
  parentId: string | undefined;
  started: boolean;
  status: InspectedStatus;
  value: unknown;
  context: unknown;
  events: InspectedEvent[];
  eventCount: number;
  registration: InspectionEvent;
  lastSnapshot: InspectionEvent | undefined;
}

/* ---------------------------------------------------------------- reading actor refs */

function propertyOf(value: unknown, key: string): unknown {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return undefined;
  return (value as Record<string, unknown>)[key];
}

function stringProperty(value: unknown, key: string): string | undefined {
  const property = propertyOf(value, key);
  return typeof property === 'string' ? property : undefined;
}

/** The parent actor of an actor ref (XState keeps it as `_parent`). */
function parentOf(actorRef: ActorRefLike): ActorRefLike | undefined {
  const parent = propertyOf(actorRef, '_parent');
  return isActorRef(parent) ? parent : undefined;
}

export function isActorRef(value: unknown): value is ActorRefLike {
  return (
    typeof propertyOf(value, 'sessionId') === 'string' &&
    typeof propertyOf(value, 'send') === 'function' &&
    typeof propertyOf(value, 'getSnapshot') === 'function'
  );
}

/** A root is named after its machine (`auth`, `filterHeader`); a child after its id (`dateRangePicker`). */
function nameOf(actorRef: ActorRefLike): string {
  const machineId = stringProperty(propertyOf(propertyOf(actorRef, 'logic'), 'config'), 'id');
  const id = stringProperty(actorRef, 'id');
  const src = stringProperty(actorRef, 'src');
  if (parentOf(actorRef) === undefined) return machineId ?? id ?? actorRef.sessionId;
  if (id !== undefined && id !== actorRef.sessionId && !/^\d+\./.test(id)) return id;
  return src ?? machineId ?? id ?? actorRef.sessionId;
}

function statusOf(snapshot: unknown): InspectedStatus {
  const status = propertyOf(snapshot, 'status');
  return status === 'done' || status === 'error' || status === 'stopped' ? status : 'active';
}

/* ---------------------------------------------------------------- the store */

function toObserverFunction(observer: Observer<InspectionEvent> | ((event: InspectionEvent) => void)) {
  return typeof observer === 'function' ? observer : (event: InspectionEvent) => observer.next?.(event);
}

export interface InspectionStoreOptions {
  readonly maxEvents?: number;
  /** How listeners are called after an update (default: a microtask, once per burst). */
  readonly schedule?: (notify: () => void) => void;
  readonly now?: () => number;
}

export function createInspectionStore(options: InspectionStoreOptions = {}): InspectionStore {
  const maxEvents = options.maxEvents ?? MAX_INSPECTED_EVENTS;
  const schedule = options.schedule ?? ((notify: () => void) => queueMicrotask(notify));
  const now = options.now ?? (() => Date.now());

  let nextSeq = 1;
  let records = new Map<string, ActorRecord>();
  let snapshot: InspectionSnapshot = { actors: [], version: 0 };
  let dirty = false;
  let notifyPending = false;
  const listeners = new Set<InspectionListener>();
  const forwards = new Set<(event: InspectionEvent) => void>();

  function recordOf(actorRef: ActorRefLike, registration?: InspectionEvent): ActorRecord {
    const id = actorRef.sessionId;
    const known = records.get(id);
    if (known) return known;
    const parent = parentOf(actorRef);
    const record: ActorRecord = {
      id,
      ref: actorRef,
      name: nameOf(actorRef),
      parentId: parent?.sessionId,
      started: false,
      status: 'active',
      value: undefined,
      context: undefined,
      events: [],
      eventCount: 0,
      registration: registration ?? { type: '@xstate.actor', actorRef, rootId: actorRef.sessionId },
      lastSnapshot: undefined,
    };
    records.set(id, record);
    return record;
  }

  function rebuild(): InspectionSnapshot {
    const running = [...records.values()].filter((record) => record.started && record.status === 'active');
    const byParent = new Map<string | undefined, ActorRecord[]>();
    const runningIds = new Set(running.map((record) => record.id));
    for (const record of running) {
      const parentKey = record.parentId !== undefined && runningIds.has(record.parentId) ? record.parentId : undefined;
      const siblings = byParent.get(parentKey) ?? [];
      siblings.push(record);
      byParent.set(parentKey, siblings);
    }
    const actors: InspectedActor[] = [];
    const visit = (parentKey: string | undefined, depth: number) => {
      for (const record of byParent.get(parentKey) ?? []) {
        actors.push({
          id: record.id,
          name: record.name,
          parentId: record.parentId,
          depth,
          status: record.status,
          value: record.value,
          context: record.context,
          events: record.events,
          eventCount: record.eventCount,
        });
        visit(record.id, depth + 1);
      }
    };
    visit(undefined, 0);
    return { actors, version: snapshot.version + 1 };
  }

  function changed(): void {
    dirty = true;
    if (notifyPending) return;
    notifyPending = true;
    schedule(() => {
      notifyPending = false;
      for (const listener of [...listeners]) listener();
    });
  }

  function forget(record: ActorRecord): void {
    records.delete(record.id);
  }

  const inspect = (event: InspectionEvent): void => {
    for (const forward of forwards) forward(event);
    switch (event.type) {
      case '@xstate.actor': {
        recordOf(event.actorRef, event);
        return;
      }
      case '@xstate.event': {
        const record = recordOf(event.actorRef);
        const entry: InspectedEvent = {
          seq: nextSeq,
          type: event.event.type,
          event: event.event,
          sourceId: event.sourceRef?.sessionId,
          at: now(),
        };
        nextSeq += 1;
        record.events = [...record.events, entry].slice(-maxEvents);
        record.eventCount += 1;
        if (record.started) changed();
        return;
      }
      case '@xstate.snapshot': {
        const record = recordOf(event.actorRef);
        const state = event.snapshot;
        record.started = true;
        record.status = statusOf(state);
        record.value = propertyOf(state, 'value');
        const context = propertyOf(state, 'context');
        record.context = context !== undefined ? context : propertyOf(state, 'output');
        record.lastSnapshot = event;
        if (record.status !== 'active') forget(record);
        changed();
        return;
      }
      default:
        return;
    }
  };

  return {
    inspect,
    getSnapshot: () => {
      if (dirty) {
        snapshot = rebuild();
        dirty = false;
      }
      return snapshot;
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    forward: (observer) => {
      const next = toObserverFunction(observer);
      const running = [...records.values()].filter((record) => record.started && record.status === 'active');
      for (const record of running) next(record.registration);
      for (const record of running) if (record.lastSnapshot) next(record.lastSnapshot);
      forwards.add(next);
      return () => {
        forwards.delete(next);
      };
    },
    clear: () => {
      records = new Map();
      snapshot = { actors: [], version: snapshot.version + 1 };
      dirty = false;
      for (const listener of [...listeners]) listener();
    },
  };
}

/** The app's store. */
export const inspectionStore: InspectionStore = createInspectionStore();

/** The `inspect` option of every app-wide actor. */
export function inspectActors(event: InspectionEvent): void {
  inspectionStore.inspect(event);
}

/* ---------------------------------------------------------------- showing values */

/**
 * A value as readable JSON: actor refs as `[actor id]`, functions as `[function]`, repeated objects as
 * `[circular]`, and nothing deeper than `maxDepth`.
 */
export function formatInspectedValue(value: unknown, indent = 2, maxDepth = 12): string {
  if (value === undefined) return 'undefined';
  // The objects from the root to the value being written (JSON.stringify calls the replacer with its holder as `this`).
  const ancestors: object[] = [];
  const replacer = function (this: unknown, _key: string, current: unknown): unknown {
    if (typeof current === 'function') return '[function]';
    if (typeof current === 'bigint') return current.toString();
    if (typeof current !== 'object' || current === null) return current;
    while (ancestors.length > 0 && ancestors.at(-1) !== this) ancestors.pop();
    if (isActorRef(current)) return `[actor ${stringProperty(current, 'id') ?? current.sessionId}]`;
    // An actor ref's own toJSON (JSON.stringify calls it before the replacer).
    if (propertyOf(current, 'xstate$$type') === 1) return `[actor ${stringProperty(current, 'id') ?? ''}]`;
    if (current instanceof Error) return { name: current.name, message: current.message };
    if (ancestors.includes(current)) return '[circular]';
    if (ancestors.length >= maxDepth) return '[…]';
    const shown: object =
      current instanceof Map ? Object.fromEntries(current) : current instanceof Set ? [...current] : current;
    ancestors.push(shown);
    return shown;
  };
  return JSON.stringify(value, replacer, indent) ?? String(value);
}
