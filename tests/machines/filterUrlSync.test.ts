import { beforeEach, describe, expect, it } from 'vitest';
import { type AppLocation, parseLocation } from '../../src/domain/navigation';
import { createFilterUrlWriter, type FilterUrlWriter } from '../../src/machines/filterUrlSync';

/*
 * The filter header's URL writes in the app: a page opened without filters keeps its address until the user
 * changes one; then its entry is completed (replace) and the change pushed, so back shows the filters it had.
 */

let location: AppLocation;
let navigations: { href: string; replace: boolean }[];
let write: FilterUrlWriter;

beforeEach(() => {
  location = parseLocation('/shopper-connect/mall-home');
  navigations = [];
  write = createFilterUrlWriter({
    currentLocation: () => location,
    navigate: (href, options) => {
      navigations.push({ href, replace: options.replace });
      location = parseLocation(href);
    },
  });
});

describe('the filter URL writer', () => {
  it('holds back the settled filters of a page opened without any', () => {
    write({ search: 'client=1&malls=1,2', replace: true });
    write({ search: 'client=1&malls=1,2&outlet=all', replace: true });
    expect(navigations).toEqual([]);
  });

  it('completes the entry, then pushes the change, on the first change of the user', () => {
    write({ search: 'client=1&malls=1,2&outlet=all', replace: true });
    write({ search: 'client=1&malls=2&outlet=all', replace: false });
    expect(navigations).toEqual([
      { href: '/shopper-connect/mall-home?client=1&malls=1,2&outlet=all', replace: true },
      { href: '/shopper-connect/mall-home?client=1&malls=2&outlet=all', replace: false },
    ]);
  });

  it('keeps a query that has filters in step at once, and keeps the keys that are not filters', () => {
    location = parseLocation('/shopper-connect/mall-home?inspect=1&client=1&malls=9');
    write({ search: 'inspect=1&client=1&malls=1,2', replace: true });
    expect(navigations).toEqual([{ href: '/shopper-connect/mall-home?inspect=1&client=1&malls=1,2', replace: true }]);
    write({ search: 'inspect=1&client=1&malls=1,2', replace: true });
    expect(navigations).toHaveLength(1);
  });

  it('forgets what it held back once the app shows another page', () => {
    write({ search: 'client=1&malls=1,2', replace: true });
    location = parseLocation('/shopper-connect/mall-gmv');
    write({ search: 'client=1&malls=2', replace: false });
    expect(navigations).toEqual([{ href: '/shopper-connect/mall-gmv?client=1&malls=2', replace: false }]);
  });

  it('writes nothing before the app shows a location, or when the address already says it', () => {
    const idle = createFilterUrlWriter({
      currentLocation: () => undefined,
      navigate: () => navigations.push({ href: 'x', replace: false }),
    });
    idle({ search: 'client=1', replace: false });
    location = parseLocation('/receipts?client=1');
    write({ search: 'client=1', replace: false });
    expect(navigations).toEqual([]);
  });
});
