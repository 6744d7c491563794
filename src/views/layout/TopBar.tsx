import { Button, Navbar, NavbarDivider } from '@blueprintjs/core';
import type { RouteNode } from '../../domain/permissions';
import { AuthContext } from '../../machines/authContext';
import { LayoutContext } from '../../machines/layoutContext';
import { OutletDropdown } from '../filters/OutletDropdown';
import { AppBreadcrumb } from './AppBreadcrumb';

export interface TopBarProps {
  readonly routes: readonly RouteNode[];
}

/**
 * The top bar (§2): the menu toggle, the breadcrumb (below 768 px), the outlet dropdown and the user's name.
 * Logout is the sidebar's item (§2), the only one.
 */
export function TopBar({ routes }: TopBarProps) {
  const layoutActor = LayoutContext.useActorRef();
  const opened = LayoutContext.useSelector((state) => state.hasTag('sidebarOpened'));
  const username = AuthContext.useSelector((state) => state.context.user?.username ?? '');

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
      <NavbarDivider />
      <span className="app-topbar-user" data-testid="navbar-username">
        {username}
      </span>
    </Navbar>
  );
}
