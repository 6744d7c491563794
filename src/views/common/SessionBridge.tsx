import { useEffect } from 'react';
import { AuthContext } from '../../machines/authContext';
import { sessionStatusOf } from '../../machines/authMachine';
import { NavigationContext } from '../../machines/navigationContext';

/**
 * Connects the two app-wide machines: the guard learns of every change of the session, and the
 * auth machine ends a session whose routes cannot be generated.
 */
export function SessionBridge() {
  const authActor = AuthContext.useActorRef();
  const guard = NavigationContext.useActorRef();
  const status = AuthContext.useSelector(sessionStatusOf);
  const user = AuthContext.useSelector((state) => state.context.user);

  useEffect(() => {
    guard.send({ type: 'session.update', status, user: status === 'signedIn' ? user : undefined });
  }, [guard, status, user]);

  useEffect(() => {
    const subscription = guard.on('session.invalid', () => {
      authActor.send({ type: 'logout' });
    });
    return () => {
      subscription.unsubscribe();
    };
  }, [guard, authActor]);

  return null;
}
