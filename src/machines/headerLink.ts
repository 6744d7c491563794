import { fromCallback } from 'xstate';
import type { CommittedFilters } from '../domain/filterHeader';
import { type AppSystemActors, appActor } from './systemIds';

/**
 * How a page machine works with the app's one filter header, found in its actor system
 * (`system.get('filterHeader')`): it follows the committed filters, and disables the header while it loads.
 */

type HeaderRef = AppSystemActors['filterHeader'];

type HeaderContext = ReturnType<HeaderRef['getSnapshot']>['context'];

/**
 * Sent to the page by `followHeaderFilters`: the header's committed filters, now and after each change, with the
 * outlets of the client (what the page may need to know of the outlet chosen).
 */
export interface HeaderFiltersEvent {
  type: 'header.filters';
  filters: CommittedFilters;
  outlets: HeaderContext['outlets'];
  /** The header's today (`YYYY-MM-DD`). */
  today?: string;
  /** The client's malls the header offers (their names and countries), as they were with these filters. */
  malls?: HeaderContext['malls'];
}

/**
 * Invoke at the page machine's root: sends `header.filters` with the committed filters at once and whenever they
 * change (the start, every Apply, a new client, back and forward). No header in the system: nothing is sent.
 */
export const followHeaderFilters = fromCallback<HeaderFiltersEvent>(({ system, sendBack }) => {
  const header = appActor(system, 'filterHeader');
  if (!header) return () => undefined;
  let told: Pick<HeaderContext, 'filters' | 'outlets' | 'today'> | undefined;
  const tell = ({ filters, outlets, today, malls }: HeaderContext) => {
    if (filters === told?.filters && outlets === told.outlets && today === told.today) return;
    told = { filters, outlets, today };
    sendBack({ type: 'header.filters', filters, outlets, today, malls });
  };
  const subscription = header.subscribe((snapshot) => tell(snapshot.context));
  tell(header.getSnapshot().context);
  return () => subscription.unsubscribe();
});

/**
 * Invoke in a page machine's loading state: the header is disabled (`page.loading`) while the state lasts, and
 * enabled again (`page.loaded`) by the cleanup, which also runs when the page actor is stopped mid-load (exit actions
 * do not run then).
 */
export const lockHeader = fromCallback(({ system }) => {
  const header = appActor(system, 'filterHeader');
  header?.send({ type: 'page.loading' });
  return () => {
    // The header may have stopped first (the user signed out mid-load).
    if (header?.getSnapshot().status === 'active') header.send({ type: 'page.loaded' });
  };
});
