import { Button, Classes, H5, Tag } from '@blueprintjs/core';
import { useSyncExternalStore } from 'react';
import { INSPECTOR_SHORTCUT_LABEL } from '../../domain/inspector';
import {
  formatInspectedValue,
  type InspectedActor,
  type InspectionStore,
  inspectionStore,
} from '../../machines/inspection';
import { InspectorContext } from '../../machines/inspectorContext';

function timeOf(at: number): string {
  const date = new Date(at);
  const pad = (value: number, length = 2) => String(value).padStart(length, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/** One running actor: its state value, its context (collapsible) and its last events, newest first. */
function ActorCard({ actor, names }: { actor: InspectedActor; names: ReadonlyMap<string, string> }) {
  const events = [...actor.events].reverse();
  return (
    <section
      className="app-inspector-actor"
      style={{ marginLeft: actor.depth * 14 }}
      data-testid={`inspector-actor-${actor.name}`}
      data-actor-id={actor.id}
      aria-label={`Actor ${actor.name}`}
    >
      <div>
        <strong>{actor.name}</strong> <span className={Classes.TEXT_MUTED}>{actor.id}</span>
        {actor.parentId !== undefined ? (
          <span className={Classes.TEXT_MUTED}> in {names.get(actor.parentId) ?? actor.parentId}</span>
        ) : null}
      </div>
      <div>
        State: <code data-testid="inspector-state">{formatInspectedValue(actor.value, 0)}</code>
      </div>
      <details data-testid="inspector-context">
        <summary>Context</summary>
        <pre>{formatInspectedValue(actor.context)}</pre>
      </details>
      <details data-testid="inspector-events" open>
        <summary>
          Events ({actor.events.length}
          {actor.eventCount > actor.events.length ? ` of ${actor.eventCount}` : ''})
        </summary>
        <ol className="app-inspector-events" reversed>
          {events.map((entry) => (
            <li key={entry.seq} data-testid="inspector-event">
              <code>{entry.type}</code> <span className={Classes.TEXT_MUTED}>{timeOf(entry.at)}</span>
              {entry.sourceId !== undefined ? (
                <span className={Classes.TEXT_MUTED}> from {names.get(entry.sourceId) ?? entry.sourceId}</span>
              ) : null}
            </li>
          ))}
        </ol>
      </details>
    </section>
  );
}

function InspectorBody({ store, onClose }: { store: InspectionStore; onClose: () => void }) {
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const names = new Map(snapshot.actors.map((actor) => [actor.id, actor.name] as const));
  return (
    <aside className="app-inspector" data-testid="inspector-panel" aria-label="Machine inspector">
      <header className="app-inspector-header">
        <H5>Machine inspector</H5>
        <Tag minimal data-testid="inspector-shortcut" title="Keyboard shortcut: open or close this panel">
          {INSPECTOR_SHORTCUT_LABEL}
        </Tag>
        <Button variant="minimal" icon="cross" aria-label="Close the inspector" onClick={onClose} />
      </header>
      <div className="app-inspector-body">
        {snapshot.actors.length === 0 ? <p className={Classes.TEXT_MUTED}>No running actors.</p> : null}
        {snapshot.actors.map((actor) => (
          <ActorCard key={actor.id} actor={actor} names={names} />
        ))}
      </div>
    </aside>
  );
}

export interface InspectorPanelProps {
  /** The inspection store to show (the app's by default). */
  readonly store?: InspectionStore;
}

/**
 * The live machine inspector (operators): the running actors — the app's providers and their children —
 * each with its state value, context and last 50 events, updated as they change. Open and closed are the
 * inspector machine's (the shortcut, `?inspect=1`, the close button).
 */
export function InspectorPanel({ store = inspectionStore }: InspectorPanelProps) {
  const open = InspectorContext.useSelector((state) => state.hasTag('open'));
  const inspectorActor = InspectorContext.useActorRef();
  if (!open) return null;
  return <InspectorBody store={store} onClose={() => inspectorActor.send({ type: 'inspector.close' })} />;
}
