import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTE_TABLE } from '../../src/domain/routeTable';

/*
 * A page is found from its path in one step (ARCHITECTURE.md, A new page): the view of `/<group>/<rest>` is
 * `src/views/pages/<folder>/<Rest>Page.tsx`, the rest in PascalCase without its parameters
 * (`/shopper-connect/cross-spending/details` -> `CrossSpendingDetailsPage.tsx`, `/receipts` -> `ReceiptsPage.tsx`),
 * in the folder of its group or of its feature when the feature's pages are in several groups (`gto`,
 * `breakeven`). A view that serves several routes names them all (`RefundsAndVoucherRedemptionPage`) or is the
 * view of a route and of the routes under it (`BreakevenTargetPage` for `/tenant-connect/breakeven-target` and
 * `/shopper-connect/breakeven-target/marcom`).
 */

/** The folders of a feature whose pages are in several groups of the route table. */
const FEATURE_FOLDERS = ['gto', 'breakeven'];

const ROUTES_SOURCE = readFileSync(path.resolve('src/routes.ts'), 'utf8');

const pascal = (words: string): string =>
  words
    .split(/[-_/]/)
    .filter((word) => word !== '' && !word.startsWith(':'))
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join('');

/** Each lazy page constant of src/routes.ts and the module it loads. */
function pageModules(): Map<string, string> {
  const modules = new Map<string, string>();
  for (const match of ROUTES_SOURCE.matchAll(/const (\w+): PageComponent = lazy\(\(\) =>\s*import\('\.\/([^']+)'\)/g)) {
    const [, name, module] = match;
    if (name && module) modules.set(name, module);
  }
  return modules;
}

/** Each path of `PAGES` and the page constant it shows. */
function pagesByPath(): Map<string, string> {
  const block = ROUTES_SOURCE.slice(ROUTES_SOURCE.indexOf('const PAGES'));
  const entries = block.split(/\n\s*'(?=\/)/).slice(1);
  const pages = new Map<string, string>();
  for (const entry of entries) {
    const routePath = entry.slice(0, entry.indexOf("'"));
    const page = /\bpage: (\w+)/.exec(entry)?.[1];
    if (page) pages.set(routePath, page);
  }
  return pages;
}

function leafPaths(): string[] {
  return ROUTE_TABLE.flatMap((route) => (route.children ?? []).map((child) => (child.index ? route.path : child.path)));
}

describe('the files of a route', () => {
  const modules = pageModules();
  const pages = pagesByPath();
  const views = leafPaths().map((routePath) => {
    const module = modules.get(pages.get(routePath) ?? '') ?? '';
    const [group = '', ...rest] = routePath.slice(1).split('/');
    return { routePath, group, stem: pascal(rest.length > 0 ? rest.join('/') : group), module };
  });

  it('reads every route of the table and its view', () => {
    expect(views.length).toBeGreaterThan(25);
    expect(views.filter((view) => view.module === '').map((view) => view.routePath)).toEqual([]);
  });

  it.each(views)('$routePath lives in a view named after its path', ({ routePath, group, stem, module }) => {
    const fileStem = path.basename(module).replace(/Page$/, '');
    const named = fileStem.includes(stem) || stem.startsWith(fileStem);
    const folder = path.dirname(module).replace(/^views\/pages\//, '');
    const placed = folder === group || FEATURE_FOLDERS.includes(folder);
    expect({ routePath, module, named, placed }).toEqual({ routePath, module, named: true, placed: true });
  });
});
