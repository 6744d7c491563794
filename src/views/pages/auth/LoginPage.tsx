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
  const authActor = AuthContext.useActorRef();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const inMfa = AuthContext.useSelector((state) => state.matches('mfa'));
  const passwordChangeRequired = AuthContext.useSelector((state) => state.matches('passwordChangeRequired'));
  const canLogout = AuthContext.useSelector((state) => state.can({ type: 'logout' }));
  const signedOut = AuthContext.useSelector((state) => state.matches('signedOut'));
  const canSubmit = AuthContext.useSelector((state) => state.can({ type: 'login.submit', username, password }));
  const submitting = AuthContext.useSelector((state) => state.matches({ signedOut: 'submitting' }));
  const passwordExpired = AuthContext.useSelector((state) =>
    state.matches({ signedOut: { ready: 'passwordExpired' } }),
  );
  const idle = AuthContext.useSelector((state) => state.matches({ signedOut: { ready: 'idle' } }));
  const errorMessage = AuthContext.useSelector((state) => state.context.errorMessage);

  // Back on /login in the middle of a step (the browser's back button): continue it or start over.
  const pendingStep = inMfa
    ? { href: '/mfa-validation', text: 'Enter the verification code' }
    : passwordChangeRequired
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
            disabled={!canLogout}
            onClick={() => authActor.send({ type: 'logout' })}
          />
        </AuthLinks>
      </AuthCard>
    );
  }
  if (!signedOut) return <FullPageSpinner />;

  const submitEvent = { type: 'login.submit', username, password } as const;
  const showsError = idle || passwordExpired;

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
