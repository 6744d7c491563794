import { OverlayToaster, Position } from '@blueprintjs/core';
import { useEffect, useRef } from 'react';
import { AuthContext } from '../../machines/authContext';

/**
 * Shows the notices the auth machine emits as Blueprint toasts. The message is the toast key, so
 * the same message shown again replaces its toast instead of stacking.
 */
export function Notifications() {
  const authActor = AuthContext.useActorRef();
  const toaster = useRef<OverlayToaster>(null);

  useEffect(() => {
    const subscription = authActor.on('notify', (notice) => {
      toaster.current?.show(
        {
          message: notice.message,
          intent: notice.intent,
          icon: notice.intent === 'success' ? 'tick-circle' : 'error',
          timeout: notice.timeout,
        },
        notice.message,
      );
    });
    return () => {
      subscription.unsubscribe();
    };
  }, [authActor]);

  return <OverlayToaster ref={toaster} position={Position.TOP} />;
}
