import { NonIdealState } from '@blueprintjs/core';
import { PAGE_NOT_AVAILABLE_MESSAGE } from '../../domain/messages';
import { PageTitle } from '../filters/PageTitle';

/** Placeholder body for a page that is not built yet, with its title when there is one. */
export function PageNotAvailable({ title }: { title?: string }) {
  return (
    <section>
      {title !== undefined && <PageTitle title={title} />}
      <NonIdealState icon="build" title={PAGE_NOT_AVAILABLE_MESSAGE} />
    </section>
  );
}
