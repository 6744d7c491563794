import {
  Alignment,
  Button,
  Menu,
  MenuDivider,
  MenuItem,
  Navbar,
  NavbarDivider,
  NavbarGroup,
  NavbarHeading,
  NonIdealState,
  Spinner,
} from '@blueprintjs/core';
import { type MouseEvent, type ReactNode, Suspense } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { NO_PAGES_MESSAGE, PRODUCT_NAME } from '../../domain/messages';
import { pagesOf, type RouteNode, sidebarRoutes } from '../../domain/permissions';
import { AuthContext } from '../../machines/authContext';
import { NavigationContext } from '../../machines/navigationContext';
import { iconFor, pageFor } from '../../routes';
import { PageNotAvailable } from '../common/PageNotAvailable';

/** The links of the user's permitted, listed routes (a full sidebar comes later). */
function RouteNav({ routes }: { routes: readonly RouteNode[] }) {
  const [location, navigate] = useLocation();
  const open = (path: string) => (event: MouseEvent<HTMLElement>) => {
    event.preventDefault();
    navigate(path);
  };
  const link = (route: RouteNode, label: string) => (
    <MenuItem
      key={route.path}
      href={route.path}
      text={label}
      icon={iconFor(route.path)}
      active={location === route.path}
      onClick={open(route.path)}
      data-testid={`nav-link-${route.path}`}
    />
  );
  return (
    <nav data-testid="nav" aria-label="Pages" style={{ width: 240, flexShrink: 0, borderRight: '1px solid #d3d8de' }}>
      <Menu>
        {sidebarRoutes(routes).map((route) => {
          const children = route.children ?? [];
          // A single visible child collapses into one item.
          const only = children.length === 1 ? children[0] : undefined;
          if (only) return link(only, only.meta.title);
          if (children.length === 0) return link(route, route.meta.title);
          return [
            <MenuDivider key={`${route.path}-title`} title={route.meta.title} />,
            ...children.map((page) => link(page, page.meta.title)),
          ];
        })}
      </Menu>
    </nav>
  );
}

/** The permitted pages, each rendered with its lazy page component and its title. */
function RoutePages({ routes }: { routes: readonly RouteNode[] }) {
  return (
    <Suspense fallback={<Spinner aria-label="Loading page" />}>
      <Switch>
        {pagesOf(routes).map((page) => {
          const Page = pageFor(page.path);
          return (
            <Route key={page.path} path={page.path}>
              {Page ? <Page title={page.meta.title} /> : <PageNotAvailable title={page.meta.title} />}
            </Route>
          );
        })}
        <Route path="/">
          <NonIdealState icon="folder-open" title={NO_PAGES_MESSAGE} data-testid="no-pages" />
        </Route>
        <Route>
          <PageNotAvailable />
        </Route>
      </Switch>
    </Suspense>
  );
}

/** The signed-in frame: top bar with the user and Logout, the page links and the page body. */
export function MainLayout({ children }: { children?: ReactNode }) {
  const username = AuthContext.useSelector((state) => state.context.user?.username ?? '');
  const loggingOut = AuthContext.useSelector((state) => state.matches('loggingOut'));
  const canLogout = AuthContext.useSelector((state) => state.can({ type: 'logout' }));
  const authActor = AuthContext.useActorRef();
  const routes = NavigationContext.useSelector((state) => state.context.routes) ?? [];

  return (
    <div style={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <Navbar>
        <NavbarGroup align={Alignment.START}>
          <NavbarHeading>{PRODUCT_NAME}</NavbarHeading>
        </NavbarGroup>
        <NavbarGroup align={Alignment.END}>
          <span data-testid="navbar-username">{username}</span>
          <NavbarDivider />
          <Button
            variant="minimal"
            icon="log-out"
            text="Logout"
            data-testid="logout"
            loading={loggingOut}
            disabled={!canLogout && !loggingOut}
            onClick={() => authActor.send({ type: 'logout' })}
          />
        </NavbarGroup>
      </Navbar>
      <div style={{ flex: 1, display: 'flex' }}>
        <RouteNav routes={routes} />
        <main style={{ flex: 1, padding: 20 }}>{children ?? <RoutePages routes={routes} />}</main>
      </div>
    </div>
  );
}
