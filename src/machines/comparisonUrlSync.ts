import { type EventObject, fromCallback } from 'xstate';
import { type CompareRule, type ComparisonChoice, DEFAULT_COMPARISON } from '../domain/comparisons';
import {
  type PageComparison,
  parseComparisonQuery,
  saysComparison,
  withComparisonQuery,
} from '../domain/comparisonUrl';
import { withReadableCommas } from '../domain/filterUrl';
import { hrefOf } from '../domain/navigation';
import { type ActorSystemLike, appActor } from './systemIds';

/**
 * A report page's choice of comparison in the app's address (domain/comparisonUrl.ts), for the page's machine: it
 * starts with the choice the address holds and shows each change of the user there, through the navigation guard
 * as the filter header does (filterUrlSync.ts). A change replaces the history entry rather than adding one, as the
 * filters' settled values do. The header keeps the comparison's keys when it writes the filters (they are not its
 * own), so a filter change keeps them.
 *
 * The page follows the address as the header does (the app tells it `url.change`): when the address of the page's
 * path moves to another choice (back, forward), `followComparisonUrl` tells the page the choice it holds now. The
 * page's own write says the choice the page already has, which changes nothing.
 */

/** The choice in the address the app shows; the default without a navigation guard (a machine on its own). */
export function comparisonInUrl(system: ActorSystemLike): ComparisonChoice {
  return parseComparisonQuery(appActor(system, 'navigation')?.getSnapshot().context.location?.search ?? '');
}

/**
 * The choice in the address the app shows (`defaultRule`: the page's own default, by default the previous period);
 * undefined without a navigation guard showing one, where the page keeps its own choice.
 */
export function shownComparison<Default extends string = CompareRule>(
  system: ActorSystemLike,
  defaultRule: CompareRule | Default = DEFAULT_COMPARISON.rule,
): PageComparison<Default> | undefined {
  const location = appActor(system, 'navigation')?.getSnapshot().context.location;
  return location && parseComparisonQuery(location.search, defaultRule);
}

/**
 * Asks the navigation guard to show `choice` in the address (in place); nothing when the address already says it.
 * `defaultRule`: the page's own default, left unsaid (by default the previous period).
 */
export function writeComparisonThroughGuard<Default extends string>(
  system: ActorSystemLike,
  choice: PageComparison<Default>,
  defaultRule: CompareRule | Default = DEFAULT_COMPARISON.rule,
): void {
  const guard = appActor(system, 'navigation');
  const location = guard?.getSnapshot().context.location;
  if (!guard || !location || saysComparison(location.search, choice, defaultRule)) return;
  const search = withReadableCommas(withComparisonQuery(location.search, choice, defaultRule));
  guard.send({ type: 'navigation.request', href: hrefOf({ path: location.path, search }), replace: true });
}

/** Sent to the page by `followComparisonUrl`: the address of its path now holds another choice. */
export interface ComparisonUrlEvent<Choice = ComparisonChoice> {
  readonly type: 'comparison.url';
  readonly comparison: Choice;
}

/**
 * Invoke at the page machine's root: sends `comparison.url` whenever the address of the page's path comes to hold
 * another choice (back and forward; the page's own write too, which says the choice the page has), read with the
 * page's default rule (`defaultRule`). An address of another path is the page being left: nothing is sent. No
 * navigation guard in the system: nothing is sent.
 */
export function followComparisonUrlOf<Default extends string>(defaultRule: CompareRule | Default) {
  return fromCallback<EventObject, undefined, ComparisonUrlEvent<PageComparison<Default>>>(({ system, sendBack }) => {
    const guard = appActor(system, 'navigation');
    if (!guard) return () => undefined;
    let path = guard.getSnapshot().context.location?.path;
    let said = shownComparison(system, defaultRule);
    const subscription = guard.subscribe(({ context: { location } }) => {
      if (!location) return;
      path ??= location.path;
      if (location.path !== path) return;
      const comparison = parseComparisonQuery(location.search, defaultRule);
      if (said && saysComparison(location.search, said, defaultRule)) return;
      said = comparison;
      sendBack({ type: 'comparison.url', comparison });
    });
    return () => subscription.unsubscribe();
  });
}

/** followComparisonUrlOf for the pages whose default is the previous period. */
export const followComparisonUrl = followComparisonUrlOf<CompareRule>(DEFAULT_COMPARISON.rule);
