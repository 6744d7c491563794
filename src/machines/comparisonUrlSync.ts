import type { ComparisonChoice } from '../domain/comparisons';
import { parseComparisonQuery, saysComparison, withComparisonQuery } from '../domain/comparisonUrl';
import { withReadableCommas } from '../domain/filterUrl';
import { hrefOf } from '../domain/navigation';
import { type ActorSystemLike, appActor } from './systemIds';

/**
 * A report page's choice of comparison in the app's address (domain/comparisonUrl.ts), for the page's machine: it
 * starts with the choice the address holds and shows each change of the user there, through the navigation guard
 * as the filter header does (filterUrlSync.ts). A change replaces the history entry rather than adding one, as the
 * filters' settled values do. The header keeps the comparison's keys when it writes the filters (they are not its
 * own), so a filter change keeps them.
 */

/** The choice in the address the app shows; the default without a navigation guard (a machine on its own). */
export function comparisonInUrl(system: ActorSystemLike): ComparisonChoice {
  return parseComparisonQuery(appActor(system, 'navigation')?.getSnapshot().context.location?.search ?? '');
}

/** Asks the navigation guard to show `choice` in the address (in place); nothing when the address already says it. */
export function writeComparisonThroughGuard(system: ActorSystemLike, choice: ComparisonChoice): void {
  const guard = appActor(system, 'navigation');
  const location = guard?.getSnapshot().context.location;
  if (!guard || !location || saysComparison(location.search, choice)) return;
  const search = withReadableCommas(withComparisonQuery(location.search, choice));
  guard.send({ type: 'navigation.request', href: hrefOf({ path: location.path, search }), replace: true });
}
