import { Button, Navbar, NavbarDivider } from '@blueprintjs/core';
import type { RouteNode } from '../../domain/permissions';
import { AuthContext } from '../../machines/authContext';
import { LayoutContext } from '../../machines/layoutContext';
import { OutletDropdown } from '../filters/OutletDropdown';
import { AppBreadcrumb } from './AppBreadcrumb';

export interface TopBarProps {
  readonly routes: readonly RouteNode[];
}

/** The top bar (§2): the menu toggle, the breadcrumb (below 768 px), the outlet dropdown, the user and Logout. */
export function TopBar({ routes }: TopBarProps) {
  const layoutActor = LayoutContext.useActorRef();
  const opened = LayoutContext.useSelector((state) => state.hasTag('sidebarOpened'));
  const username = AuthContext.useSelector((state) => state.context.user?.username ?? '');
  const loggingOut = AuthContext.useSelector((state) => state.matches('loggingOut'));
  const canLogout = AuthContext.useSelector((state) => state.can({ type: 'logout' }));
  const authActor = AuthContext.useActorRef();

  return (
    <Navbar className="app-topbar" data-testid="top-bar">
      <Button
        variant="minimal"
        icon={opened ? 'menu-closed' : 'menu-open'}
        aria-label={opened ? 'Collapse the menu' : 'Open the menu'}
        aria-expanded={opened}
        data-testid="sidebar-toggle"
        onClick={() => layoutActor.send({ type: 'sidebar.toggle' })}
      />
      <AppBreadcrumb routes={routes} />
      <span className="app-topbar-spacer" />
      <OutletDropdown />
      <span className="app-topbar-user">
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
      </span>
    </Navbar>
  );
}
