import { Button, DialogFooter } from '@blueprintjs/core';
import type { ReactNode } from 'react';

/**
 * The footer of a dialog that saves or submits: Cancel, then the primary action, which shows that it is working
 * (`busy`: also disables Cancel when `lockCancel`) and is enabled only when the dialog may submit. Without
 * `onSubmit` the primary action is the submit button of the dialog's form.
 */
export function DialogActions(props: {
  readonly submitText: string;
  readonly submitTestId: string;
  readonly busy: boolean;
  readonly canSubmit?: boolean;
  readonly onCancel: () => void;
  readonly onSubmit?: () => void;
  readonly lockCancel?: boolean;
  /** Actions before Cancel (a Retry). */
  readonly before?: ReactNode;
}) {
  return (
    <DialogFooter
      actions={
        <>
          {props.before}
          <Button text="Cancel" disabled={props.lockCancel === true && props.busy} onClick={props.onCancel} />
          <Button
            {...(props.onSubmit ? { onClick: props.onSubmit } : { type: 'submit' as const })}
            intent="primary"
            text={props.submitText}
            loading={props.busy}
            disabled={props.canSubmit === false}
            data-testid={props.submitTestId}
          />
        </>
      }
    />
  );
}
