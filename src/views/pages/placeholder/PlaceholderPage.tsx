import { NonIdealState } from '@blueprintjs/core';
import { PAGE_NOT_AVAILABLE_MESSAGE } from '../../../domain/messages';
import { LayoutContext } from '../../../machines/layoutContext';
import { FilterSummary } from '../../filters/FilterSummary';
import { PageHeader } from '../../filters/PageHeader';
import type { PageProps } from '../pageProps';

/**
 * The body of a route whose page is not built yet: its header (the mall header or Header V2 where §2 puts
 * one, else its title), a clear notice, never a blank screen, and the committed filters in a short summary.
 */
export function PlaceholderPage({ title, header }: PageProps) {
  const clients = LayoutContext.useSelector((state) => state.context.clients);
  return (
    <section data-testid="page-placeholder">
      <PageHeader title={title} header={header} />
      <NonIdealState icon="build" title={PAGE_NOT_AVAILABLE_MESSAGE} />
      <FilterSummary clients={clients} />
    </section>
  );
}
