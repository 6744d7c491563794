import { createActorContext } from '@xstate/react';
import { authMachine } from './authMachine';

/** The app-wide auth actor: `<AuthContext.Provider>` near the root, `AuthContext.useSelector` below. */
export const AuthContext = createActorContext(authMachine);
