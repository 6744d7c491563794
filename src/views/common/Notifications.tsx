import { OverlayToaster, Position } from '@blueprintjs/core';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef } from 'react';
import type { Notice } from '../../domain/messages';
import { AppContext } from '../../machines/appContext';
import { NavigationContext } from '../../machines/navigationContext';

type ShowNotice = (notice: Notice) => void;

const NoticeContext = createContext<ShowNotice | undefined>(undefined);

/** An actor that emits `notify` notices. */
interface NoticeSource {
  on: (type: 'notify', handler: (notice: Notice) => void) => { unsubscribe: () => void };
}

/** Shows a page actor's `notify` notices as toasts while the calling component is mounted. */
export function useNoticeToasts(actorRef: NoticeSource | undefined): void {
  const show = useContext(NoticeContext);
  // The toaster is imperative: the actor's notices reach it through a subscription while the page is shown.
  useEffect(() => {
    if (!show || !actorRef) return undefined;
    const subscription = actorRef.on('notify', show);
    return () => {
      subscription.unsubscribe();
    };
  }, [actorRef, show]);
}

/**
 * Shows the notices of the app's machines as Blueprint toasts: the app machine's (it gathers those of auth, layout
 * and filter header) here, a page's through `useNoticeToasts`. The message is the toast key, so the same message shown again replaces its
 * toast instead of stacking (§8: de-duplicated).
 */
export function Notifications({ children }: { children?: ReactNode }) {
  const appActor = AppContext.useActorRef();
  const guard = NavigationContext.useActorRef();
  const toaster = useRef<OverlayToaster>(null);

  // A notice's link is a request to the navigation guard, like every link of the app.
  const show = useCallback<ShowNotice>(
    (notice) => {
      const link = notice.link;
      toaster.current?.show(
        {
          message: notice.message,
          intent: notice.intent,
          icon: notice.intent === 'success' ? 'tick-circle' : 'error',
          timeout: notice.timeout,
          ...(link
            ? {
                action: {
                  text: link.text,
                  onClick: () => guard.send({ type: 'navigation.request', href: link.href, replace: false }),
                },
              }
            : {}),
        },
        notice.message,
      );
    },
    [guard],
  );

  // The toaster is imperative: the app's notices reach it through a subscription for as long as it is shown.
  useEffect(() => {
    const subscription = appActor.on('notify', show);
    return () => {
      subscription.unsubscribe();
    };
  }, [appActor, show]);

  return (
    <NoticeContext.Provider value={show}>
      <OverlayToaster ref={toaster} position={Position.TOP} />
      {children}
    </NoticeContext.Provider>
  );
}
