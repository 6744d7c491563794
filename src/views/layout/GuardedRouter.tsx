import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef } from 'react';
import { Router, useLocation, useSearch } from 'wouter';
import { type AppLocation, hrefOf } from '../../domain/navigation';
import { NavigationContext } from '../../machines/navigationContext';
import { FullPageSpinner } from '../common/FullPageSpinner';

interface GuardedLocation {
  readonly path: string;
  readonly search: string;
  readonly navigate: (to: string, options?: { replace?: boolean }) => void;
}

const GuardedLocationContext = createContext<GuardedLocation | undefined>(undefined);

function useGuardedLocationValue(): GuardedLocation {
  const value = useContext(GuardedLocationContext);
  if (!value) throw new Error('the guarded location is read outside <GuardedRouter>');
  return value;
}

/** wouter location hook of the app: the location the guard let through, and navigation as a guard request. */
function useGuardedLocation(): [string, (to: string, options?: { replace?: boolean }) => void] {
  const { path, navigate } = useGuardedLocationValue();
  return [path, navigate];
}

function useGuardedSearch(): string {
  return useGuardedLocationValue().search;
}

/**
 * Puts the navigation guard between the browser (the enclosing wouter router: the browser's
 * address, or a memory location in tests) and the app: every address change is sent to the guard,
 * the app only sees the location the guard decided, and the browser is brought to that location.
 */
export function GuardedRouter({ children }: { children: ReactNode }) {
  const [browserPath, browserNavigate] = useLocation();
  const browserSearch = useSearch();
  const browserHref = browserSearch === '' ? browserPath : `${browserPath}?${browserSearch}`;
  const guard = NavigationContext.useActorRef();
  const location = NavigationContext.useSelector((state) => state.context.location);
  const navigationId = NavigationContext.useSelector((state) => state.context.navigationId);
  const replace = NavigationContext.useSelector((state) => state.context.replace);

  // What the browser shows; updated at once when this component moves it (StrictMode runs effects twice).
  const shownHref = useRef(browserHref);
  shownHref.current = browserHref;
  const navigateBrowser = useRef(browserNavigate);
  navigateBrowser.current = browserNavigate;
  // The last decision the browser was brought to.
  const followedId = useRef(-1);

  /** The guard decided: the browser follows (each decision, also several within one task). */
  const follow = useCallback(
    (decision: { location: AppLocation | undefined; navigationId: number; replace: boolean }) => {
      if (!decision.location || decision.navigationId === followedId.current) return;
      followedId.current = decision.navigationId;
      const target = hrefOf(decision.location);
      if (target === shownHref.current) return;
      shownHref.current = target;
      navigateBrowser.current(target, { replace: decision.replace });
    },
    [],
  );

  // Every decision as it is taken: two navigations in a row (completing an entry, then adding one) both reach
  // the browser's history.
  useEffect(() => {
    const subscription = guard.subscribe((snapshot) => follow(snapshot.context));
    return () => {
      subscription.unsubscribe();
    };
  }, [guard, follow]);

  // The browser moved on its own (first load, back, forward): the guard decides.
  useEffect(() => {
    guard.send({ type: 'location.change', href: browserHref });
  }, [guard, browserHref]);

  // The decision shown (in case it was taken before the subscription).
  useEffect(() => {
    follow({ location, navigationId, replace });
  }, [location, navigationId, replace, follow]);

  const value = useMemo<GuardedLocation | undefined>(
    () =>
      location && {
        path: location.path,
        search: location.search,
        navigate: (to, options) =>
          guard.send({ type: 'navigation.request', href: to, replace: options?.replace === true }),
      },
    [location, guard],
  );

  if (!value) return <FullPageSpinner />;
  return (
    <GuardedLocationContext.Provider value={value}>
      <Router hook={useGuardedLocation} searchHook={useGuardedSearch}>
        {children}
      </Router>
    </GuardedLocationContext.Provider>
  );
}
