import { Button, FormGroup, InputGroup, NonIdealState } from '@blueprintjs/core';
import { useState } from 'react';
import { Link } from 'wouter';
import { AuthContext } from '../../../machines/authContext';
import { FullPageSpinner } from '../../common/FullPageSpinner';
import { AuthCard, AuthForm, AuthLinks } from './AuthCard';
import { NewPasswordFields } from './NewPasswordFields';

/**
 * /update-password: the password change of an expired password, reached from the login (signed
 * out: the account, the current and the new password) or after the one-time code (signed in: the
 * current and the new password). On success every session ends and the user signs in again.
 */
export function UpdatePasswordPage() {
  const authActor = AuthContext.useActorRef();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const checkingSession = AuthContext.useSelector((state) => state.hasTag('checkingSession'));
  const passwordUpdate = AuthContext.useSelector((state) => state.hasTag('passwordUpdate'));
  const canSubmit = AuthContext.useSelector((state) =>
    state.can({ type: 'password.update', currentPassword, newPassword, confirmPassword }),
  );
  const busy = AuthContext.useSelector((state) => state.hasTag('busy'));
  const signedOutFlow = AuthContext.useSelector((state) => state.matches('signedOut'));
  const errorMessage = AuthContext.useSelector((state) => state.context.errorMessage);
  const username = AuthContext.useSelector((state) => state.context.username);
  const canLogout = AuthContext.useSelector((state) => state.can({ type: 'logout' }));

  if (checkingSession) return <FullPageSpinner />;
  if (!passwordUpdate) {
    return (
      <AuthCard title="Update password">
        <NonIdealState
          icon="key"
          description="Sign in first: the password is updated after your sign-in says it has expired."
          action={<Link href="/login">Back to sign in</Link>}
        />
      </AuthCard>
    );
  }

  const updateEvent = { type: 'password.update', currentPassword, newPassword, confirmPassword } as const;

  const onSubmit = () => {
    if (canSubmit) authActor.send(updateEvent);
  };

  return (
    <AuthCard title="Update password">
      <AuthForm onSubmit={onSubmit} errorMessage={errorMessage} errorTestId="update-error">
        {signedOutFlow && username !== undefined && (
          <FormGroup label="Username" labelFor="update-username">
            <InputGroup id="update-username" data-testid="update-username" value={username} readOnly />
          </FormGroup>
        )}
        <FormGroup label="Current password" labelFor="update-current-password">
          <InputGroup
            id="update-current-password"
            name="current-password"
            type="password"
            autoComplete="current-password"
            data-testid="update-current-password"
            value={currentPassword}
            disabled={busy}
            onValueChange={setCurrentPassword}
            autoFocus
          />
        </FormGroup>
        <NewPasswordFields
          idPrefix="update"
          newPassword={newPassword}
          confirmPassword={confirmPassword}
          disabled={busy}
          onNewPasswordChange={setNewPassword}
          onConfirmPasswordChange={setConfirmPassword}
        />
        <Button
          type="submit"
          intent="primary"
          text="Update password"
          fill
          data-testid="update-submit"
          loading={busy}
          disabled={!canSubmit}
        />
      </AuthForm>
      <AuthLinks>
        {signedOutFlow ? (
          <Link href="/login" data-testid="update-back">
            Back to sign in
          </Link>
        ) : (
          <Button
            variant="minimal"
            text="Back to sign in"
            data-testid="update-back"
            disabled={!canLogout}
            onClick={() => authActor.send({ type: 'logout' })}
          />
        )}
      </AuthLinks>
    </AuthCard>
  );
}
