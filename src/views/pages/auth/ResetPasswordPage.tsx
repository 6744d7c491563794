import { Button, Callout, NonIdealState } from '@blueprintjs/core';
import { type FormEvent, useState } from 'react';
import { Link, useSearch } from 'wouter';
import { RESET_EMAIL_SENT_MESSAGE, RESET_LINK_INVALID_MESSAGE, SIGN_OUT_FIRST_MESSAGE } from '../../../domain/messages';
import { AuthContext } from '../../../machines/authContext';
import { FullPageSpinner } from '../../common/FullPageSpinner';
import { useSendOnce } from '../../common/useSendOnce';
import { AuthCard, AuthForm, AuthLinks, EmailField } from './AuthCard';
import { NewPasswordFields } from './NewPasswordFields';

/**
 * /reset-password: without a key, the request for a reset e-mail (answered neutrally, whether or
 * not the account exists); with `?validationKey=` (the mailed link), the new password.
 */
export function ResetPasswordPage() {
  const validationKey = new URLSearchParams(useSearch()).get('validationKey') ?? '';
  return validationKey === '' ? <ResetRequestForm /> : <ResetWithKeyForm validationKey={validationKey} />;
}

function ResetRequestForm() {
  const authActor = AuthContext.useActorRef();
  const [email, setEmail] = useState('');
  const checkingSession = AuthContext.useSelector((state) => state.hasTag('checkingSession'));
  const canSubmit = AuthContext.useSelector((state) => state.can({ type: 'reset.request', email }));
  const requesting = AuthContext.useSelector((state) => state.matches({ signedOut: 'requestingReset' }));
  const requested = AuthContext.useSelector((state) => state.matches({ signedOut: { ready: 'resetRequested' } }));

  if (checkingSession) return <FullPageSpinner />;

  const requestEvent = { type: 'reset.request', email } as const;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (canSubmit) authActor.send(requestEvent);
  };

  return (
    <AuthCard title="Reset password">
      {requested && (
        <Callout intent="success" className="auth-callout" data-testid="reset-requested">
          {RESET_EMAIL_SENT_MESSAGE}
        </Callout>
      )}
      <form onSubmit={onSubmit} noValidate>
        <EmailField
          idPrefix="reset"
          label="E-mail"
          helperText="We will e-mail you a link to choose a new password."
          value={email}
          disabled={requesting}
          onChange={setEmail}
        />
        <Button
          type="submit"
          intent="primary"
          text={requested ? 'Send again' : 'Send reset link'}
          fill
          data-testid="reset-request-submit"
          loading={requesting}
          disabled={!canSubmit}
        />
      </form>
      <AuthLinks>
        <Link href="/login" data-testid="reset-back">
          Back to sign in
        </Link>
      </AuthLinks>
    </AuthCard>
  );
}

function ResetWithKeyForm({ validationKey }: { validationKey: string }) {
  const authActor = AuthContext.useActorRef();
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  useSendOnce({ type: 'reset.open', validationKey });
  const authenticated = AuthContext.useSelector((state) => state.hasTag('authenticated'));
  const keyInvalid = AuthContext.useSelector((state) => state.matches({ signedOut: { ready: 'resetKeyInvalid' } }));
  const editing = AuthContext.useSelector((state) => state.matches({ signedOut: { ready: 'resetKeyValid' } }));
  const resetting = AuthContext.useSelector((state) => state.matches({ signedOut: 'resettingPassword' }));
  const canSubmit = AuthContext.useSelector((state) =>
    state.can({ type: 'password.update', newPassword, confirmPassword }),
  );
  const errorMessage = AuthContext.useSelector((state) => state.context.errorMessage);

  if (authenticated) {
    return (
      <AuthCard title="Reset password">
        <NonIdealState icon="lock" description={SIGN_OUT_FIRST_MESSAGE} />
      </AuthCard>
    );
  }
  if (keyInvalid) {
    return (
      <AuthCard title="Reset password">
        <Callout intent="danger" className="auth-callout" data-testid="reset-invalid">
          {RESET_LINK_INVALID_MESSAGE}
        </Callout>
        <AuthLinks>
          <Link href="/reset-password" data-testid="reset-request-new">
            Request a new link
          </Link>
          <Link href="/login">Back to sign in</Link>
        </AuthLinks>
      </AuthCard>
    );
  }
  if (!editing && !resetting) return <FullPageSpinner />;

  const updateEvent = { type: 'password.update', newPassword, confirmPassword } as const;

  const onSubmit = () => {
    if (canSubmit) authActor.send(updateEvent);
  };

  return (
    <AuthCard title="Choose a new password">
      <AuthForm onSubmit={onSubmit} errorMessage={errorMessage} errorTestId="reset-error">
        <NewPasswordFields
          idPrefix="reset"
          newPassword={newPassword}
          confirmPassword={confirmPassword}
          disabled={resetting}
          onNewPasswordChange={setNewPassword}
          onConfirmPasswordChange={setConfirmPassword}
        />
        <Button
          type="submit"
          intent="primary"
          text="Set new password"
          fill
          data-testid="reset-submit"
          loading={resetting}
          disabled={!canSubmit}
        />
      </AuthForm>
      <AuthLinks>
        <Link href="/login">Back to sign in</Link>
      </AuthLinks>
    </AuthCard>
  );
}
