import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { AuthContext } from '../../machines/authContext';

/** Opens the next page of a sign-in flow when the auth machine asks (through the navigation guard). */
export function FlowNavigator() {
  const authActor = AuthContext.useActorRef();
  const [, navigate] = useLocation();

  useEffect(() => {
    const subscription = authActor.on('navigate', ({ to }) => {
      navigate(to);
    });
    return () => {
      subscription.unsubscribe();
    };
  }, [authActor, navigate]);

  return null;
}
