import { Spinner } from '@blueprintjs/core';

/** Shown while the session is being checked. */
export function FullPageSpinner() {
  return (
    <div className="app-full-page-center">
      <Spinner aria-label="Loading" />
    </div>
  );
}
