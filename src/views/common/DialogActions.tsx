import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
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

/**
 * A dialog that is one form: submitting it (the primary action, or Enter) sends `onSubmit`; Cancel, Escape and a
 * click outside send `onCancel`, none of them while `busy`. The body is `children`, the footer DialogActions.
 */
export function FormDialog(props: {
  readonly isOpen: boolean;
  readonly title: string;
  readonly formTestId: string;
  readonly submitText: string;
  readonly submitTestId: string;
  readonly busy: boolean;
  readonly canSubmit: boolean;
  readonly onCancel: () => void;
  readonly onSubmit: () => void;
  /** The dialog's class (its width). */
  readonly className?: string;
  readonly children: ReactNode;
}) {
  return (
    <Dialog
      isOpen={props.isOpen}
      title={props.title}
      className={props.className}
      onClose={props.onCancel}
      canEscapeKeyClose={!props.busy}
      canOutsideClickClose={!props.busy}
    >
      <form
        data-testid={props.formTestId}
        onSubmit={(event) => {
          event.preventDefault();
          props.onSubmit();
        }}
      >
        <DialogBody>{props.children}</DialogBody>
        <DialogActions
          submitText={props.submitText}
          submitTestId={props.submitTestId}
          busy={props.busy}
          canSubmit={props.canSubmit}
          lockCancel
          onCancel={props.onCancel}
        />
      </form>
    </Dialog>
  );
}
