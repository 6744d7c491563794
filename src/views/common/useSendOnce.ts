import { useEffect, useRef } from 'react';
import { AuthContext } from '../../machines/authContext';
import type { AuthEvent } from '../../machines/authMachine';

/**
 * Sends a page's opening event (a reset link's key, an invitation, the SSO answer) to the auth
 * machine once, as soon as the machine accepts it (after the session check, for instance).
 * `event` undefined: nothing to send.
 */
export function useSendOnce(event: AuthEvent | undefined): void {
  const authActor = AuthContext.useActorRef();
  const canSend = AuthContext.useSelector((state) => event !== undefined && state.can(event));
  const sentFor = useRef<string | undefined>(undefined);
  const key = event === undefined ? undefined : JSON.stringify(event);

  useEffect(() => {
    if (event === undefined || !canSend || sentFor.current === key) return;
    sentFor.current = key;
    authActor.send(event);
  }, [authActor, canSend, event, key]);
}
