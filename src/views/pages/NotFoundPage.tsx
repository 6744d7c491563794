import { NonIdealState } from '@blueprintjs/core';
import { Link } from 'wouter';
import { PAGE_NOT_FOUND_MESSAGE } from '../../domain/messages';

/** /404: where the navigation guard sends an unknown path. */
export function NotFoundPage() {
  return (
    <div style={{ minHeight: '100vh', display: 'flex' }} data-testid="not-found">
      <NonIdealState
        icon="search"
        title={PAGE_NOT_FOUND_MESSAGE}
        description="The page you asked for does not exist or is not available to you."
        action={<Link href="/">Go to the dashboard</Link>}
      />
    </div>
  );
}
