import { Alert, type Intent } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';

/**
 * The confirm dialog of a destructive action on a row (`factories/listDialogs`' confirming and working states):
 * the question, Cancel and the action. It stays open while the action runs (`working`: the action shows that it
 * works, and Escape no longer cancels).
 */
export function ConfirmAlert(props: {
  /** The machine is confirming. */
  readonly confirming: boolean;
  /** The machine is doing it (the working state's tag). */
  readonly working: boolean;
  readonly intent: Intent;
  readonly icon: IconName;
  readonly confirmText: string;
  readonly question: string;
  readonly questionTestId: string;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}) {
  return (
    <Alert
      isOpen={props.confirming || props.working}
      intent={props.intent}
      icon={props.icon}
      confirmButtonText={props.confirmText}
      cancelButtonText="Cancel"
      loading={props.working}
      canEscapeKeyCancel={!props.working}
      onConfirm={props.onConfirm}
      onCancel={props.onCancel}
    >
      <p data-testid={props.questionTestId}>{props.question}</p>
    </Alert>
  );
}
