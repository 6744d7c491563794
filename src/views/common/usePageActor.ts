import { useEffect } from 'react';
import type { ActorRefFrom, AnyStateMachine } from 'xstate';
import { AppContext } from '../../machines/appContext';

/**
 * The one way to run a page's machine: the app machine runs it in its system (where the page finds the filter
 * header) for as long as the page is shown. Undefined until it has started: the page shows its loading state.
 */
export function usePageActor<TLogic extends AnyStateMachine>(logic: TLogic): ActorRefFrom<TLogic> | undefined {
  const app = AppContext.useActorRef();
  const page = AppContext.useSelector((state) =>
    state.context.page?.logic === logic ? state.context.page.ref : undefined,
  );
  // The page's machine lives as long as its view is mounted: opened on mount, closed on unmount.
  useEffect(() => {
    app.send({ type: 'page.open', logic });
    return () => app.send({ type: 'page.close', logic });
  }, [app, logic]);
  return page as ActorRefFrom<TLogic> | undefined;
}
