import { H2, NonIdealState } from '@blueprintjs/core';
import { PAGE_NOT_AVAILABLE_MESSAGE } from '../../../domain/messages';
import type { PageProps } from '../pageProps';

/** The body of a route whose page is not built yet: its title and a clear notice, never a blank screen. */
export function PlaceholderPage({ title }: PageProps) {
  return (
    <section data-testid="page-placeholder">
      <H2 data-testid="page-title">{title}</H2>
      <NonIdealState icon="build" title={PAGE_NOT_AVAILABLE_MESSAGE} />
    </section>
  );
}
