import { Link } from 'wouter';
import { mallOutletHref } from '../../domain/mallOutlet';
import { FilterHeaderContext } from '../filters/filterHeaderContext';

/** An outlet's name as a link to its mall outlet page, keeping the client, malls and dates of the page it is on. */
export function OutletLink({ outletId, name }: { readonly outletId: number | string; readonly name: string }) {
  const filters = FilterHeaderContext.useSelector((state) => state.context.filters);
  return (
    <Link href={mallOutletHref(outletId, filters)} data-testid={`outlet-link-${outletId}`}>
      {name}
    </Link>
  );
}
