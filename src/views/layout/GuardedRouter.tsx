import type { ReactNode } from 'react';
import { Router } from 'wouter';
import { hrefOf } from '../../domain/navigation';
import { NavigationContext } from '../../machines/navigationContext';
import { FullPageSpinner } from '../common/FullPageSpinner';

type Navigate = (to: string, options?: { replace?: boolean }) => void;

/** wouter's location hook in the app: the location the guard decided, and navigation as a request to the guard. */
function useGuardedLocation(): [string, Navigate] {
  const guard = NavigationContext.useActorRef();
  const path = NavigationContext.useSelector((state) => state.context.location?.path ?? '/');
  return [
    path,
    (to, options) => guard.send({ type: 'navigation.request', href: to, replace: options?.replace === true }),
  ];
}

function useGuardedSearch(): string {
  return NavigationContext.useSelector((state) => state.context.location?.search ?? '');
}

/**
 * The app's router renders the navigation guard's decision: links and `navigate` are requests to the guard, and
 * the app machine keeps the browser's address in step with what the guard decided.
 */
export function GuardedRouter({ children }: { children: ReactNode }) {
  const decided = NavigationContext.useSelector((state) =>
    state.context.location ? hrefOf(state.context.location) : undefined,
  );
  if (decided === undefined) return <FullPageSpinner />;
  return (
    <Router hook={useGuardedLocation} searchHook={useGuardedSearch}>
      {children}
    </Router>
  );
}
