import { hasFilterQuery } from '../domain/filterUrl';
import { type AppLocation, hrefOf } from '../domain/navigation';
import { type ActorSystemLike, appActor } from './systemIds';

/**
 * The filter header's `writeUrl` effect for the app: the committed filters go into the URL query through
 * the navigation guard (wouter's navigate inside the guarded router), so that back and forward walk through
 * the user's filter changes and a view is a link.
 *
 * A page opened without any filter in its query keeps its address as it is (a landing page, a deep link):
 * the filters the header settles on (from cookies and defaults) are held back. The sidebar's links carry
 * the filters in their query (`filterLinkSearch`), so the page they open has them in its address at once. When the
 * user then changes a filter, that entry is first completed with the held-back filters (replace), then the
 * change is pushed, so going back shows exactly the filters the page had. A page whose query already has
 * filters is kept in step at once (replace), which also drops what the header refused from a link.
 */

export interface FilterUrlWrite {
  /** The query to show (no '?'). */
  readonly search: string;
  /** Replace the current history entry (a settled value) instead of adding one (a user's change). */
  readonly replace: boolean;
}

export interface FilterUrlWriterDeps {
  /** The location the app shows now (the navigation guard's). */
  readonly currentLocation: () => AppLocation | undefined;
  /** A navigation request to the guard. */
  readonly navigate: (href: string, options: { replace: boolean }) => void;
}

export type FilterUrlWriter = (write: FilterUrlWrite) => void;

export function createFilterUrlWriter(deps: FilterUrlWriterDeps): FilterUrlWriter {
  /** The filters held back for the entry at `at` (its href when they were held back). */
  let heldBack: { at: string; search: string } | undefined;

  return ({ search, replace }) => {
    const location = deps.currentLocation();
    if (!location) return;
    const here = hrefOf(location);
    const target = hrefOf({ path: location.path, search });
    if (replace) {
      if (!hasFilterQuery(location.search)) {
        heldBack = { at: here, search };
        return;
      }
      heldBack = undefined;
      if (target !== here) deps.navigate(target, { replace: true });
      return;
    }
    const pending = heldBack?.at === here ? heldBack : undefined;
    heldBack = undefined;
    if (pending) {
      const settled = hrefOf({ path: location.path, search: pending.search });
      if (settled !== here && settled !== target) deps.navigate(settled, { replace: true });
    }
    if (target !== here) deps.navigate(target, { replace: false });
  };
}

/** One writer per filter header actor: it remembers the filters it held back for the entry shown. */
const writers = new WeakMap<object, FilterUrlWriter>();

/**
 * The filter header's `writeUrl` in the app: the write becomes a request to the navigation guard of the header's
 * actor system (`system.get('navigation')`). Without a guard (a header running on its own) nothing is written.
 */
export function writeUrlThroughGuard(header: object, system: ActorSystemLike, write: FilterUrlWrite): void {
  const guard = () => appActor(system, 'navigation');
  if (!guard()) return;
  let writer = writers.get(header);
  if (!writer) {
    writer = createFilterUrlWriter({
      currentLocation: () => guard()?.getSnapshot().context.location,
      navigate: (href, options) => guard()?.send({ type: 'navigation.request', href, replace: options.replace }),
    });
    writers.set(header, writer);
  }
  writer(write);
}
