import { Spinner } from '@blueprintjs/core';

/** Shown while the session is being checked. */
export function FullPageSpinner() {
  return (
    <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', minHeight: '100vh' }}>
      <Spinner aria-label="Loading" />
    </div>
  );
}
