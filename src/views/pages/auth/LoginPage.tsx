import { AnchorButton, Button, Callout, FormGroup, InputGroup } from '@blueprintjs/core';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { AuthContext } from '../../../machines/authContext';
import { FullPageSpinner } from '../../common/FullPageSpinner';
import { AuthCard, AuthLinks } from './AuthCard';

/**
 * /login (§4): username and password. The machine decides whether the form can be sent
 * (`state.can`), sends the request and holds the error; this view only renders it. Where a
 * signed-in user goes next is the navigation guard's business.
 */
export function LoginPage() {
  const state = AuthContext.useSelector((snapshot) => snapshot);
  const authActor = AuthContext.useActorRef();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');

  // Back on /login in the middle of a step (the browser's back button): continue it or start over.
  const pendingStep = state.matches('mfa')
    ? { href: '/mfa-validation', text: 'Enter the verification code' }
    : state.matches('passwordChangeRequired')
      ? { href: '/update-password', text: 'Update password' }
      : undefined;
  if (pendingStep) {
    return (
      <AuthCard>
        <Link href={pendingStep.href} asChild>
          <AnchorButton intent="primary" text={pendingStep.text} fill data-testid="login-continue" />
        </Link>
        <AuthLinks>
          <Button
            variant="minimal"
            text="Sign in again"
            data-testid="login-restart"
            disabled={!state.can({ type: 'logout' })}
            onClick={() => authActor.send({ type: 'logout' })}
          />
        </AuthLinks>
      </AuthCard>
    );
  }
  if (!state.matches('signedOut')) return <FullPageSpinner />;

  const submitEvent = { type: 'login.submit', username, password } as const;
  const canSubmit = state.can(submitEvent);
  const submitting = state.matches({ signedOut: 'submitting' });
  const passwordExpired = state.matches({ signedOut: { ready: 'passwordExpired' } });
  const showsError = state.matches({ signedOut: { ready: 'idle' } }) || passwordExpired;
  const { errorMessage } = state.context;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (canSubmit) authActor.send(submitEvent);
  };

  return (
    <AuthCard>
      <form onSubmit={onSubmit} noValidate>
        <FormGroup label="Username" labelFor="login-username">
          <InputGroup
            id="login-username"
            name="username"
            autoComplete="username"
            data-testid="login-username"
            value={username}
            disabled={submitting}
            onValueChange={setUsername}
            autoFocus
          />
        </FormGroup>
        <FormGroup label="Password" labelFor="login-password">
          <InputGroup
            id="login-password"
            name="password"
            type="password"
            autoComplete="current-password"
            data-testid="login-password"
            value={password}
            disabled={submitting}
            onValueChange={setPassword}
          />
        </FormGroup>
        {showsError && errorMessage !== undefined && (
          <Callout intent="danger" className="auth-callout" data-testid="login-error">
            {errorMessage}
          </Callout>
        )}
        {passwordExpired && (
          <Link href="/update-password" asChild>
            <AnchorButton
              intent="warning"
              text="Update password"
              fill
              data-testid="login-update-password"
              className="auth-callout"
            />
          </Link>
        )}
        <Button
          type="submit"
          intent="primary"
          text="Sign in"
          fill
          data-testid="login-submit"
          loading={submitting}
          disabled={!canSubmit}
        />
      </form>
      <AuthLinks>
        <Link href="/reset-password" data-testid="login-forgot-password">
          Forgot password?
        </Link>
        <Link href="/sso" data-testid="login-sso">
          Sign in with SSO
        </Link>
      </AuthLinks>
    </AuthCard>
  );
}
