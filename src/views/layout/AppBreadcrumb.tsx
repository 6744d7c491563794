import { Breadcrumb, Classes } from '@blueprintjs/core';
import { useMemo } from 'react';
import { useLocation } from 'wouter';
import { breadcrumbFor } from '../../domain/menu';
import type { RouteNode } from '../../domain/permissions';

export interface AppBreadcrumbProps {
  readonly routes: readonly RouteNode[];
}

/**
 * The top bar's breadcrumb (§2): the matched named routes, starting with Dashboard; shown only below
 * 768 px (the stylesheet hides it at 768 px and wider, §9).
 */
export function AppBreadcrumb({ routes }: AppBreadcrumbProps) {
  const [path, navigate] = useLocation();
  const crumbs = useMemo(() => breadcrumbFor(routes, path), [routes, path]);
  return (
    <nav className="app-breadcrumb" aria-label="Breadcrumb" data-testid="breadcrumb">
      <ul className={Classes.BREADCRUMBS}>
        {crumbs.map((crumb, index) => {
          const target = crumb.path;
          return (
            <li key={`${crumb.path ?? ''}|${crumb.title}`}>
              <Breadcrumb
                text={
                  <span className="app-breadcrumb-text" title={crumb.title}>
                    {crumb.title}
                  </span>
                }
                current={index === crumbs.length - 1}
                {...(target !== undefined && {
                  href: target,
                  onClick: (event) => {
                    event.preventDefault();
                    navigate(target);
                  },
                })}
              />
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
