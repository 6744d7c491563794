import { childActorContext } from './appContext';
import { APP_SYSTEM_IDS } from './appMachine';
import { authMachine } from './authMachine';

/** The app's auth actor: `AuthContext.useSelector` for the session, `AuthContext.useActorRef` to send. */
export const AuthContext = childActorContext(authMachine, APP_SYSTEM_IDS.auth);
