import { FormGroup, InputGroup } from '@blueprintjs/core';
import { NEW_PASSWORD_RULE_MESSAGE, PASSWORDS_DIFFER_MESSAGE } from '../../../domain/messages';

interface NewPasswordFieldsProps {
  /** Prefix of the inputs' ids and test ids (`update` gives `update-new-password`, `update-confirm-password`). */
  readonly idPrefix: string;
  readonly newPassword: string;
  readonly confirmPassword: string;
  readonly disabled: boolean;
  readonly onNewPasswordChange: (value: string) => void;
  readonly onConfirmPasswordChange: (value: string) => void;
}

/** The new password and its confirmation, with the password rule as help text. */
export function NewPasswordFields(props: NewPasswordFieldsProps) {
  const { idPrefix, newPassword, confirmPassword, disabled } = props;
  const differs = confirmPassword !== '' && confirmPassword !== newPassword;
  return (
    <>
      <FormGroup label="New password" labelFor={`${idPrefix}-new-password`} helperText={NEW_PASSWORD_RULE_MESSAGE}>
        <InputGroup
          id={`${idPrefix}-new-password`}
          name="new-password"
          type="password"
          autoComplete="new-password"
          data-testid={`${idPrefix}-new-password`}
          value={newPassword}
          disabled={disabled}
          onValueChange={props.onNewPasswordChange}
        />
      </FormGroup>
      <FormGroup
        label="Confirm new password"
        labelFor={`${idPrefix}-confirm-password`}
        intent={differs ? 'danger' : 'none'}
        helperText={differs ? PASSWORDS_DIFFER_MESSAGE : undefined}
      >
        <InputGroup
          id={`${idPrefix}-confirm-password`}
          name="confirm-password"
          type="password"
          autoComplete="new-password"
          data-testid={`${idPrefix}-confirm-password`}
          value={confirmPassword}
          intent={differs ? 'danger' : 'none'}
          disabled={disabled}
          onValueChange={props.onConfirmPasswordChange}
        />
      </FormGroup>
    </>
  );
}
