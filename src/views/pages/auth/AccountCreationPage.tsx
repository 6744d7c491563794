import { Button, Callout, NonIdealState } from '@blueprintjs/core';
import { useState } from 'react';
import { Link, useSearch } from 'wouter';
import { INVITATION_INVALID_MESSAGE, SIGN_OUT_FIRST_MESSAGE } from '../../../domain/messages';
import { AuthContext } from '../../../machines/authContext';
import { FullPageSpinner } from '../../common/FullPageSpinner';
import { useSendOnce } from '../../common/useSendOnce';
import { AuthCard, AuthForm, AuthLinks, EmailField } from './AuthCard';
import { NewPasswordFields } from './NewPasswordFields';

/**
 * /account-creation?validationKey= (the invitation link): the invited e-mail (checked against the
 * invitation) and the new password; then the user signs in.
 */
export function AccountCreationPage() {
  const validationKey = new URLSearchParams(useSearch()).get('validationKey') ?? '';
  const authActor = AuthContext.useActorRef();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  useSendOnce(validationKey === '' ? undefined : { type: 'account.open', validationKey });
  const authenticated = AuthContext.useSelector((state) => state.hasTag('authenticated'));
  const editing = AuthContext.useSelector((state) => state.matches({ signedOut: { ready: 'accountForm' } }));
  const creating = AuthContext.useSelector((state) => state.matches({ signedOut: 'creatingAccount' }));
  const canSubmit = AuthContext.useSelector((state) =>
    state.can({ type: 'account.submit', email, password, confirmPassword }),
  );
  const errorMessage = AuthContext.useSelector((state) => state.context.errorMessage);

  if (validationKey === '') {
    return (
      <AuthCard title="Create your account">
        <Callout intent="danger" data-testid="account-invalid">
          {INVITATION_INVALID_MESSAGE}
        </Callout>
        <AuthLinks>
          <Link href="/login">Back to sign in</Link>
        </AuthLinks>
      </AuthCard>
    );
  }
  if (authenticated) {
    return (
      <AuthCard title="Create your account">
        <NonIdealState icon="lock" description={SIGN_OUT_FIRST_MESSAGE} />
      </AuthCard>
    );
  }
  if (!editing && !creating) return <FullPageSpinner />;

  const submitEvent = { type: 'account.submit', email, password, confirmPassword } as const;

  const onSubmit = () => {
    if (canSubmit) authActor.send(submitEvent);
  };

  return (
    <AuthCard title="Create your account">
      <AuthForm onSubmit={onSubmit} errorMessage={errorMessage} errorTestId="account-error">
        <EmailField
          idPrefix="account"
          label="E-mail"
          helperText="The address the invitation was sent to."
          value={email}
          disabled={creating}
          onChange={setEmail}
        />
        <NewPasswordFields
          idPrefix="account"
          newPassword={password}
          confirmPassword={confirmPassword}
          disabled={creating}
          onNewPasswordChange={setPassword}
          onConfirmPasswordChange={setConfirmPassword}
        />
        <Button
          type="submit"
          intent="primary"
          text="Create account"
          fill
          data-testid="account-submit"
          loading={creating}
          disabled={!canSubmit}
        />
      </AuthForm>
      <AuthLinks>
        <Link href="/login">Back to sign in</Link>
      </AuthLinks>
    </AuthCard>
  );
}
