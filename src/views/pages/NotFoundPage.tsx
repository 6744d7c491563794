import { H1, NonIdealState } from '@blueprintjs/core';
import { Link } from 'wouter';
import { PAGE_NOT_FOUND_MESSAGE } from '../../domain/messages';

/** /404: where the navigation guard sends an unknown path. Its message is the page's `h1`. */
export function NotFoundPage() {
  return (
    <main className="app-not-found" data-testid="not-found">
      <NonIdealState
        icon="search"
        description={
          <>
            <H1 className="app-page-title">{PAGE_NOT_FOUND_MESSAGE}</H1>
            <p>The page you asked for does not exist or is not available to you.</p>
          </>
        }
        action={<Link href="/">Go to the dashboard</Link>}
      />
    </main>
  );
}
