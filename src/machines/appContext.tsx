import { useActorRef, useSelector } from '@xstate/react';
import { createContext, type ReactNode, useContext } from 'react';
import type { Actor, ActorOptions, AnyActorLogic, AnyActorRef, SnapshotFrom } from 'xstate';
import { appMachine } from './appMachine';

type AppLogic = typeof appMachine;
type AppActor = Actor<AppLogic>;

const AppActorContext = createContext<AppActor | undefined>(undefined);

export interface AppProviderProps {
  readonly logic?: AppLogic;
  readonly options: ActorOptions<AppLogic> & { input: NonNullable<ActorOptions<AppLogic>['input']> };
  readonly children?: ReactNode;
}

/** The one provider of the app: it runs the app machine, which owns every app-wide actor. */
function AppProvider({ logic = appMachine, options, children }: AppProviderProps) {
  const actor = useActorRef(logic, options);
  return <AppActorContext.Provider value={actor}>{children}</AppActorContext.Provider>;
}

function useAppActorRef(): AppActor {
  const actor = useContext(AppActorContext);
  if (!actor) throw new Error('the app actor is read outside <AppContext.Provider>');
  return actor;
}

/** The app actor: `AppContext.useSelector` for its state, `AppContext.useActorRef` for its events. */
export const AppContext = {
  Provider: AppProvider,
  useActorRef: useAppActorRef,
  useSelector<T>(selector: (snapshot: SnapshotFrom<AppLogic>) => T, compare?: (a: T, b: T) => boolean): T {
    return useSelector(useAppActorRef(), selector, compare);
  },
};

export interface ChildProviderProps<TLogic extends AnyActorLogic> {
  readonly logic?: TLogic;
  readonly options?: ActorOptions<TLogic>;
  readonly children?: ReactNode;
}

/**
 * Hooks to one of the app machine's actors, found by its system id (`auth`, `navigation`, `filterHeader`, ...).
 * Views read it with `useSelector` and send to it through `useActorRef`. A part of the app shown on its own (a view
 * test) can run the actor itself under `Provider`, which takes precedence over the app's.
 */
export function childActorContext<TLogic extends AnyActorLogic>(logic: TLogic, systemId: string) {
  type Ref = Actor<TLogic>;
  const OwnActorContext = createContext<Ref | undefined>(undefined);

  // biome-ignore lint/correctness/noComponentHookFactories: made once per context when its module loads, as @xstate/react's createActorContext does.
  function Provider({ logic: provided = logic, options, children }: ChildProviderProps<TLogic>) {
    const actor = useActorRef(provided, options) as Ref;
    return <OwnActorContext.Provider value={actor}>{children}</OwnActorContext.Provider>;
  }

  // biome-ignore lint/correctness/noComponentHookFactories: made once per context when its module loads, as @xstate/react's createActorContext does.
  function useChildActorRef(): Ref {
    const own = useContext(OwnActorContext);
    const app = useContext(AppActorContext);
    const fromApp = useSelector(app, (snapshot) =>
      snapshot ? (app?.system.get(systemId) as AnyActorRef | undefined) : undefined,
    );
    const actor = own ?? (fromApp as Ref | undefined);
    if (!actor) throw new Error(`the ${systemId} actor is not running`);
    return actor;
  }

  return {
    Provider,
    useActorRef: useChildActorRef,
    useSelector<T>(selector: (snapshot: SnapshotFrom<TLogic>) => T, compare?: (a: T, b: T) => boolean): T {
      return useSelector(useChildActorRef(), selector, compare);
    },
  };
}
