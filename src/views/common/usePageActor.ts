import { useEffect } from 'react';
import type { ActorRefFrom, AnyStateMachine, InputFrom } from 'xstate';
import { AppContext } from '../../machines/appContext';

/**
 * The one way to run a page's machine: the app machine runs it in its system (where the page finds the filter
 * header) for as long as the page is shown. Undefined until it has started: the page shows its loading state.
 * `input` is the machine's input, given when it starts: pass a constant (a new value starts the machine again).
 */
export function usePageActor<TLogic extends AnyStateMachine>(
  logic: TLogic,
  input?: InputFrom<TLogic>,
): ActorRefFrom<TLogic> | undefined {
  const app = AppContext.useActorRef();
  const page = AppContext.useSelector((state) =>
    state.context.page?.logic === logic ? state.context.page.ref : undefined,
  );
  // The page's machine lives as long as its view is mounted: opened on mount, closed on unmount.
  useEffect(() => {
    app.send({ type: 'page.open', logic, input });
    return () => app.send({ type: 'page.close', logic });
  }, [app, logic, input]);
  return page as ActorRefFrom<TLogic> | undefined;
}
