import { NonIdealState, Spinner } from '@blueprintjs/core';
import { Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { NO_PAGES_MESSAGE } from '../../domain/messages';
import { pagesOf, type RouteNode } from '../../domain/permissions';
import { AuthContext } from '../../machines/authContext';
import { LayoutContext } from '../../machines/layoutContext';
import { themeOf } from '../../machines/layoutMachine';
import { NavigationContext } from '../../machines/navigationContext';
import { pageFor, routeMetaFor } from '../../routes';
import { ChartThemeContext } from '../charts/chartColors';
import { PageNotAvailable } from '../common/PageNotAvailable';
import { InspectorPanel } from '../inspector/InspectorPanel';
import type { PageHeaderKind } from '../pages/pageProps';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import './layout.css';

const NO_ROUTES: readonly RouteNode[] = [];

function headerOf(path: string): PageHeaderKind {
  const meta = routeMetaFor(path);
  if (meta?.header !== 'mall') return 'none';
  return meta.filters.headerV2 ? 'v2' : 'mall';
}

/** The permitted pages, each rendered with its lazy page component, its title and its header. */
function RoutePages({ routes }: { routes: readonly RouteNode[] }) {
  return (
    <Suspense fallback={<Spinner aria-label="Loading page" />}>
      <Switch>
        {pagesOf(routes).map((page) => {
          const Page = pageFor(page.path);
          return (
            <Route key={page.path} path={page.path}>
              {Page ? (
                <Page title={page.meta.title} header={headerOf(page.path)} />
              ) : (
                <PageNotAvailable title={page.meta.title} />
              )}
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

function joinClasses(...names: (string | false)[]): string {
  return names.filter((name) => name !== false).join(' ');
}

/**
 * The signed-in frame (§2): the sidebar (a drawer with a backdrop on mobile), the top bar (hidden for the
 * showcase account, `user.flags.hideTopBar`), the page (its charts in the user's theme), and the machine inspector
 * when it is open. The dark theme's class on the body is the layout machine's. Needs
 * the signed-in area's providers (layout, filter header, inspector).
 */
export function MainLayout() {
  const hideTopBar = AuthContext.useSelector((state) => state.context.user?.flags.hideTopBar === true);
  const routes = NavigationContext.useSelector((state) => state.context.routes) ?? NO_ROUTES;
  const layoutActor = LayoutContext.useActorRef();
  const opened = LayoutContext.useSelector((state) => state.hasTag('sidebarOpened'));
  const mobile = LayoutContext.useSelector((state) => state.hasTag('mobile'));
  const withoutAnimation = LayoutContext.useSelector((state) => state.context.withoutAnimation);
  const theme = LayoutContext.useSelector(themeOf);

  return (
    <div
      className={joinClasses(
        'app-layout',
        opened ? 'sidebar-opened' : 'sidebar-closed',
        mobile ? 'mobile' : 'desktop',
        withoutAnimation && 'without-animation',
      )}
      data-testid="app-layout"
      data-sidebar={opened ? 'opened' : 'closed'}
      data-device={mobile ? 'mobile' : 'desktop'}
      data-theme={theme}
    >
      {mobile && opened ? (
        <div
          className="app-drawer-bg"
          data-testid="sidebar-backdrop"
          aria-hidden
          onClick={() => layoutActor.send({ type: 'sidebar.close' })}
        />
      ) : null}
      <Sidebar routes={routes} />
      <div className="app-main">
        {hideTopBar ? null : <TopBar routes={routes} />}
        <main className="app-content" data-testid="app-content">
          <ChartThemeContext.Provider value={theme}>
            <RoutePages routes={routes} />
          </ChartThemeContext.Provider>
        </main>
      </div>
      <InspectorPanel />
    </div>
  );
}
