import { Button, Collapse, Icon, type IconName, Menu, MenuDivider, MenuItem } from '@blueprintjs/core';
import { type MouseEvent, type ReactNode, useMemo } from 'react';
import { useLocation } from 'wouter';
import { SIDEBAR_SHOW_TIMEOUT } from '../../domain/device';
import { filterLinkSearch } from '../../domain/filterHeader';
import { isCurrentLink, type MenuGroup, type MenuLink, sidebarMenu } from '../../domain/menu';
import { PRODUCT_NAME } from '../../domain/messages';
import type { RouteNode } from '../../domain/permissions';
import { AuthContext } from '../../machines/authContext';
import { LayoutContext } from '../../machines/layoutContext';
import { isClientSelectorShown, themeOf } from '../../machines/layoutMachine';
import { routeMetaFor } from '../../routes';
import { FilterHeaderContext } from '../filters/filterHeaderContext';
import { ClientSelect } from './ClientSelect';

export interface SidebarProps {
  /** The user's routes (the navigation guard's). */
  readonly routes: readonly RouteNode[];
}

/**
 * The sidebar (§2): the client selector (more than one client, menu open), the permitted non-hidden routes
 * (a single visible child as one item, groups as sub-menus: inline when open, on hover after 200 ms when
 * collapsed), the dark theme toggle (every signed-in layout has the sidebar; the showcase account has no top bar),
 * Logout, and on mobile a close button. Links route inside the app; external ones do not.
 * Open, collapsed, the device and the open groups are the layout machine's. A link to a page of the app carries
 * the current filters in its query (as that page shows them), so the next page keeps them and a reload of it
 * restores them.
 */
export function Sidebar({ routes }: SidebarProps) {
  const [path, navigate] = useLocation();
  const layoutActor = LayoutContext.useActorRef();
  const opened = LayoutContext.useSelector((state) => state.hasTag('sidebarOpened'));
  const mobile = LayoutContext.useSelector((state) => state.hasTag('mobile'));
  const openGroups = LayoutContext.useSelector((state) => state.context.openGroups);
  const clientSelectorShown = LayoutContext.useSelector(isClientSelectorShown);
  const dark = LayoutContext.useSelector((state) => themeOf(state) === 'dark');
  const authActor = AuthContext.useActorRef();
  const canLogout = AuthContext.useSelector((state) => state.can({ type: 'logout' }));
  const menu = useMemo(() => sidebarMenu(routes), [routes]);
  const filters = FilterHeaderContext.useSelector((state) => state.context.filters);
  const dateWindow = FilterHeaderContext.useSelector((state) => state.context.window);
  const outlets = FilterHeaderContext.useSelector((state) => state.context.outlets);
  const headerPage = FilterHeaderContext.useSelector((state) => state.context.page);

  /** The link's address: an app page with the filters it will show; an outside address as it is. */
  const hrefOf = (link: MenuLink): string => {
    const page = link.external ? undefined : routeMetaFor(link.path)?.filters;
    if (page === undefined) return link.path;
    const search = filterLinkSearch({ filters, window: dateWindow, outlets, page: headerPage }, page);
    return search === '' ? link.path : `${link.path}?${search}`;
  };
  /** Desktop, closed: icons only. */
  const collapsed = !opened && !mobile;

  const select = (link: MenuLink) => (event: MouseEvent<HTMLElement>) => {
    layoutActor.send({ type: 'menu.select' });
    // An outside address opens in the browser (a new tab); app pages route inside the app.
    if (link.external) return;
    event.preventDefault();
    if (!isCurrentLink(link, path)) navigate(hrefOf(link));
  };

  const item = (link: MenuLink) => (
    <MenuItem
      key={link.path}
      href={hrefOf(link)}
      text={<span className="app-sidebar-label">{link.title}</span>}
      htmlTitle={link.title}
      icon={link.icon as IconName}
      active={isCurrentLink(link, path)}
      onClick={select(link)}
      data-testid={`nav-link-${link.path}`}
      {...(link.external && { target: '_blank', rel: 'noopener noreferrer' })}
    />
  );

  /** Collapsed: a group is a menu item with its sub-menu in a popover. */
  const collapsedGroup = (entry: MenuGroup) => (
    <MenuItem
      key={entry.path}
      icon={entry.icon as IconName}
      text={<span className="app-sidebar-label">{entry.title}</span>}
      htmlTitle={entry.title}
      active={entry.children.some((child) => isCurrentLink(child, path))}
      popoverProps={{ hoverOpenDelay: SIDEBAR_SHOW_TIMEOUT, placement: 'right-start', usePortal: true }}
      data-testid={`nav-group-${entry.path}`}
    >
      <MenuDivider title={entry.title} />
      {entry.children.map(item)}
    </MenuItem>
  );

  /** Open: a group is a disclosure button and, when expanded, the menu of its links. */
  const openGroup = (entry: MenuGroup) => {
    const isOpen = openGroups.includes(entry.path);
    return (
      <li key={entry.path} data-testid={`nav-group-${entry.path}`}>
        <button
          type="button"
          className="bp6-menu-item app-sidebar-group-toggle"
          aria-expanded={isOpen}
          onClick={() => layoutActor.send({ type: 'menu.toggleGroup', group: entry.path })}
        >
          <Icon icon={entry.icon as IconName} />
          <span className="bp6-fill bp6-text-overflow-ellipsis app-sidebar-label">{entry.title}</span>
          <Icon icon={isOpen ? 'chevron-down' : 'chevron-right'} />
        </button>
        <Collapse isOpen={isOpen}>
          <Menu className="app-sidebar-submenu" aria-label={entry.title}>
            {entry.children.map(item)}
          </Menu>
        </Collapse>
      </li>
    );
  };

  /*
   * The page list: runs of menu items (links, and collapsed groups) each as one menu, open groups between them as
   * disclosure buttons; a menu holds nothing but menu items.
   */
  const navEntries: ReactNode[] = [];
  let run: { key: string; items: ReactNode[] } | undefined;
  const endRun = () => {
    if (run === undefined) return;
    navEntries.push(
      <li key={`menu-${run.key}`}>
        <Menu>{run.items}</Menu>
      </li>,
    );
    run = undefined;
  };
  for (const entry of menu) {
    if (entry.kind === 'group' && !collapsed) {
      endRun();
      navEntries.push(openGroup(entry));
      continue;
    }
    run ??= { key: entry.path, items: [] };
    run.items.push(entry.kind === 'group' ? collapsedGroup(entry) : item(entry));
  }
  endRun();

  return (
    <aside
      className="app-sidebar"
      data-testid="sidebar"
      data-collapsed={collapsed}
      aria-label="Menu"
      aria-hidden={mobile && !opened ? true : undefined}
    >
      <div className="app-sidebar-header">
        <span className="app-sidebar-header-title">{PRODUCT_NAME}</span>
        {mobile ? (
          <Button
            variant="minimal"
            icon="cross"
            aria-label="Close the menu"
            data-testid="sidebar-close"
            onClick={() => layoutActor.send({ type: 'sidebar.close' })}
          />
        ) : null}
      </div>
      {clientSelectorShown ? <ClientSelect /> : null}
      <nav data-testid="nav" aria-label="Pages">
        <ul className="bp6-menu app-sidebar-nav">{navEntries}</ul>
      </nav>
      <Menu className="app-sidebar-footer">
        <MenuItem
          icon="moon"
          text={<span className="app-sidebar-label">Dark theme</span>}
          labelElement={dark ? <Icon icon="tick" className="app-sidebar-label" /> : undefined}
          htmlTitle="Dark theme"
          role="menuitemcheckbox"
          aria-checked={dark}
          aria-label="Dark theme"
          onClick={() => layoutActor.send({ type: 'theme.toggle' })}
          data-testid="theme-toggle"
        />
        <MenuItem
          icon="log-out"
          text={<span className="app-sidebar-label">Logout</span>}
          htmlTitle="Logout"
          disabled={!canLogout}
          onClick={() => authActor.send({ type: 'logout' })}
          data-testid="sidebar-logout"
        />
      </Menu>
    </aside>
  );
}
