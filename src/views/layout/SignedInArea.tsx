import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import type { UserInfo } from '../../api/auth';
import { hasDatePickerLimitation } from '../../domain/dateLimits';
import { isMobileUserAgent } from '../../domain/device';
import { isInspectorShortcut } from '../../domain/inspector';
import { menuGroupOf, sidebarMenu } from '../../domain/menu';
import { ROOT_PATH } from '../../domain/navigation';
import { canInspectMachines, type RouteNode } from '../../domain/permissions';
import { AuthContext } from '../../machines/authContext';
import { filterHeaderMachine } from '../../machines/filterHeaderMachine';
import { createFilterUrlWriter } from '../../machines/filterUrlSync';
import { inspectActors } from '../../machines/inspection';
import { InspectorContext } from '../../machines/inspectorContext';
import { LayoutContext } from '../../machines/layoutContext';
import { NavigationContext } from '../../machines/navigationContext';
import { pageFrameFor } from '../../routes';
import { FullPageSpinner } from '../common/FullPageSpinner';
import { useNoticeToasts } from '../common/Notifications';
import { FilterHeaderContext } from '../filters/filterHeaderContext';
import { MainLayout } from './MainLayout';

const NO_ROUTES: readonly RouteNode[] = [];

/**
 * Tells the signed-in machines what the app shows: on each new page `page.change` (the page's filters) then
 * `url.change` (its query, e.g. after back or forward) to the filter header and `route.change` to the
 * layout; shows the header's and the layout's notices; the inspector's keyboard shortcut.
 */
function SignedInEffects() {
  const location = NavigationContext.useSelector((state) => state.context.location);
  const routes = NavigationContext.useSelector((state) => state.context.routes) ?? NO_ROUTES;
  const headerActor = FilterHeaderContext.useActorRef();
  const layoutActor = LayoutContext.useActorRef();
  const inspectorActor = InspectorContext.useActorRef();
  useNoticeToasts(headerActor);
  useNoticeToasts(layoutActor);

  const path = location?.path ?? ROOT_PATH;
  const search = location?.search ?? '';
  const frame = useMemo(() => pageFrameFor(routes, path), [routes, path]);
  const menu = useMemo(() => sidebarMenu(routes), [routes]);
  // What the machines were last told (they started with the first location).
  const told = useRef<{ path: string; search: string } | undefined>(undefined);

  useEffect(() => {
    const previous = told.current;
    told.current = { path, search };
    if (previous === undefined) return;
    if (previous.path !== path) {
      headerActor.send({ type: 'page.change', page: frame.filters });
      layoutActor.send({ type: 'route.change', group: menuGroupOf(menu, path) });
    }
    if (previous.path !== path || previous.search !== search) headerActor.send({ type: 'url.change', search });
  }, [path, search, frame, menu, headerActor, layoutActor]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isInspectorShortcut(event)) return;
      event.preventDefault();
      inspectorActor.send({ type: 'inspector.toggle' });
    };
    window.addEventListener('keydown', onKeyDown);
    return () => {
      window.removeEventListener('keydown', onKeyDown);
    };
  }, [inspectorActor]);

  return null;
}

export interface SignedInProvidersProps {
  readonly user: UserInfo;
  readonly children?: ReactNode;
}

/**
 * The signed-in machines, started once the user is known: the layout (sidebar, device, clients), the one
 * app-wide filter header (its URL writes go through the navigation guard, its cookies to `document.cookie`)
 * and the machine inspector (for users allowed to). Every actor reports to the inspection store.
 */
export function SignedInProviders({ user, children }: SignedInProvidersProps) {
  const guard = NavigationContext.useActorRef();
  const [, navigate] = useLocation();
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;

  const [started] = useState(() => {
    const { location, routes } = guard.getSnapshot().context;
    const path = location?.path ?? ROOT_PATH;
    const search = location?.search ?? '';
    const frame = pageFrameFor(routes ?? NO_ROUTES, path);
    const mobile = isMobileUserAgent(navigator.userAgent);
    const cookies = document.cookie;
    const writeUrl = createFilterUrlWriter({
      currentLocation: () => guard.getSnapshot().context.location,
      navigate: (href, options) => navigateRef.current(href, options),
    });
    return {
      layoutInput: {
        mobile,
        cookies,
        clientIds: user.clients,
        openGroup: menuGroupOf(sidebarMenu(routes ?? NO_ROUTES), path),
      },
      filterLogic: filterHeaderMachine.provide({
        actions: { writeUrl: (_, params: { search: string; replace: boolean }) => writeUrl(params) },
      }),
      filterInput: {
        search,
        cookies,
        clientIds: user.clients,
        defaultClientId: user.client_id,
        limited: hasDatePickerLimitation(user),
        mobile,
        page: frame.filters,
      },
      inspectorInput: { allowed: canInspectMachines(user), search },
    };
  });

  return (
    <LayoutContext.Provider options={{ input: started.layoutInput, inspect: inspectActors }}>
      <FilterHeaderContext.Provider
        logic={started.filterLogic}
        options={{ input: started.filterInput, inspect: inspectActors }}
      >
        <InspectorContext.Provider options={{ input: started.inspectorInput }}>
          <SignedInEffects />
          {children}
        </InspectorContext.Provider>
      </FilterHeaderContext.Provider>
    </LayoutContext.Provider>
  );
}

/** Every permission-gated path: the main layout once signed in (the guard keeps everyone else out). */
export function SignedInArea() {
  const user = AuthContext.useSelector((state) => (state.hasTag('authenticated') ? state.context.user : undefined));
  if (!user) return <FullPageSpinner />;
  return (
    <SignedInProviders key={user.id} user={user}>
      <MainLayout />
    </SignedInProviders>
  );
}
