import { Alert, Intent } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { Router } from 'wouter';
import { hrefOf } from '../../domain/navigation';
import { NavigationContext } from '../../machines/navigationContext';
import { FullPageSpinner } from '../common/FullPageSpinner';

type Navigate = (to: string, options?: { replace?: boolean }) => void;

/** wouter's location hook in the app: the location the guard decided, and navigation as a request to the guard. */
function useGuardedLocation(): [string, Navigate] {
  const guard = NavigationContext.useActorRef();
  const path = NavigationContext.useSelector((state) => state.context.location?.path ?? '/');
  return [
    path,
    (to, options) => guard.send({ type: 'navigation.request', href: to, replace: options?.replace === true }),
  ];
}

function useGuardedSearch(): string {
  return NavigationContext.useSelector((state) => state.context.location?.search ?? '');
}

/**
 * The app's router renders the navigation guard's decision: links and `navigate` are requests to the guard, and
 * the app machine keeps the browser's address in step with what the guard decided.
 */
export function GuardedRouter({ children }: { children: ReactNode }) {
  const decided = NavigationContext.useSelector((state) =>
    state.context.location ? hrefOf(state.context.location) : undefined,
  );
  if (decided === undefined) return <FullPageSpinner />;
  return (
    <Router hook={useGuardedLocation} searchHook={useGuardedSearch}>
      {children}
      <LeaveWithUnsavedChangesAlert />
    </Router>
  );
}

/** The guard asks before a link leaves a page with changes not saved yet. */
export function LeaveWithUnsavedChangesAlert() {
  const guard = NavigationContext.useActorRef();
  const asking = NavigationContext.useSelector((state) => state.matches('confirmingLeave'));
  return (
    <Alert
      isOpen={asking}
      intent={Intent.DANGER}
      icon="warning-sign"
      confirmButtonText="Leave"
      cancelButtonText="Stay"
      canEscapeKeyCancel
      onConfirm={() => guard.send({ type: 'leave.confirm' })}
      onCancel={() => guard.send({ type: 'leave.cancel' })}
    >
      <p data-testid="leave-unsaved-changes">Your changes are not saved. Leave this page and lose them?</p>
    </Alert>
  );
}
