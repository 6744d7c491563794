import { Button } from '@blueprintjs/core';
import { useState } from 'react';
import { Link, useSearch } from 'wouter';
import { ssoErrorMessage } from '../../../domain/ssoErrors';
import { AuthContext } from '../../../machines/authContext';
import type { AuthEvent } from '../../../machines/authMachine';
import { FullPageSpinner } from '../../common/FullPageSpinner';
import { useSendOnce } from '../../common/useSendOnce';
import { AuthCard, AuthForm, AuthLinks, EmailField } from './AuthCard';

/**
 * The identity provider's answer in the /sso query: `status=success` or `error=<code>`, whose fixed message is
 * shown (`ssoErrorMessage`: never the link's own text).
 */
function ssoAnswerOf(search: string): AuthEvent | undefined {
  const query = new URLSearchParams(search);
  const error = query.get('error') ?? '';
  const status = query.get('status') ?? '';
  if (error !== '') return { type: 'sso.complete', error: ssoErrorMessage(error) };
  if (status !== '') return { type: 'sso.complete', status };
  return undefined;
}

/**
 * /sso: the work e-mail picks the identity provider (the browser leaves for /api/login?domain=);
 * back from it, the page checks the session again (`status=success`) or shows the error.
 */
export function SsoPage() {
  const search = useSearch();
  const authActor = AuthContext.useActorRef();
  const [email, setEmail] = useState('');
  useSendOnce(ssoAnswerOf(search));
  const waiting = AuthContext.useSelector(
    (state) => state.hasTag('checkingSession') || state.hasTag('authenticated') || !state.matches('signedOut'),
  );
  const canSubmit = AuthContext.useSelector((state) => state.can({ type: 'sso.start', email }));
  const redirecting = AuthContext.useSelector((state) => state.matches({ signedOut: { ready: 'redirectingToSso' } }));
  const failed = AuthContext.useSelector((state) => state.matches({ signedOut: { ready: 'ssoFailed' } }));
  const errorMessage = AuthContext.useSelector((state) => state.context.errorMessage);

  if (waiting) {
    return <FullPageSpinner />;
  }

  const startEvent = { type: 'sso.start', email } as const;

  const onSubmit = () => {
    if (canSubmit) authActor.send(startEvent);
  };

  return (
    <AuthCard title="Sign in with SSO">
      <AuthForm onSubmit={onSubmit} errorMessage={failed ? errorMessage : undefined} errorTestId="sso-error">
        <EmailField idPrefix="sso" label="Work e-mail" value={email} disabled={redirecting} onChange={setEmail} />
        <Button
          type="submit"
          intent="primary"
          text="Continue"
          fill
          data-testid="sso-submit"
          loading={redirecting}
          disabled={!canSubmit}
        />
      </AuthForm>
      <AuthLinks>
        <Link href="/login" data-testid="sso-back">
          Sign in with a password
        </Link>
      </AuthLinks>
    </AuthCard>
  );
}
