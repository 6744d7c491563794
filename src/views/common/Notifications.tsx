import { OverlayToaster, Position } from '@blueprintjs/core';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef } from 'react';
import { AuthContext } from '../../machines/authContext';

/** What a machine emits for a toast (`{ type: 'notify', intent, message, timeout }`). */
export interface Notice {
  readonly intent: 'danger' | 'success';
  readonly message: string;
  /** Milliseconds. */
  readonly timeout: number;
}

type ShowNotice = (notice: Notice) => void;

const NoticeContext = createContext<ShowNotice | undefined>(undefined);

/** An actor that emits `notify` notices. */
interface NoticeSource {
  on: (type: 'notify', handler: (notice: Notice) => void) => { unsubscribe: () => void };
}

/** Shows an actor's `notify` notices as toasts while the calling component is mounted. */
export function useNoticeToasts(actorRef: NoticeSource): void {
  const show = useContext(NoticeContext);
  useEffect(() => {
    if (!show) return undefined;
    const subscription = actorRef.on('notify', show);
    return () => {
      subscription.unsubscribe();
    };
  }, [actorRef, show]);
}

/**
 * Shows the notices of the app's machines as Blueprint toasts: the auth machine's here, the others' through
 * `useNoticeToasts` below. The message is the toast key, so the same message shown again replaces its
 * toast instead of stacking (§8: de-duplicated).
 */
export function Notifications({ children }: { children?: ReactNode }) {
  const authActor = AuthContext.useActorRef();
  const toaster = useRef<OverlayToaster>(null);

  const show = useCallback<ShowNotice>((notice) => {
    toaster.current?.show(
      {
        message: notice.message,
        intent: notice.intent,
        icon: notice.intent === 'success' ? 'tick-circle' : 'error',
        timeout: notice.timeout,
      },
      notice.message,
    );
  }, []);

  useEffect(() => {
    const subscription = authActor.on('notify', show);
    return () => {
      subscription.unsubscribe();
    };
  }, [authActor, show]);

  return (
    <NoticeContext.Provider value={show}>
      <OverlayToaster ref={toaster} position={Position.TOP} />
      {children}
    </NoticeContext.Provider>
  );
}
