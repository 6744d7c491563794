import { Button, Callout, FormGroup, InputGroup, NonIdealState } from '@blueprintjs/core';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { OTP_SENT_MESSAGE } from '../../../domain/messages';
import { AuthContext } from '../../../machines/authContext';
import { FullPageSpinner } from '../../common/FullPageSpinner';
import { AuthCard, AuthLinks } from './AuthCard';

/**
 * /mfa-validation (§4): the one-time code mailed when the step opens. Verify, Resend code (a new
 * code after an expired one or too many wrong tries) and Back to sign in (ends the pending session).
 */
export function MfaPage() {
  const authActor = AuthContext.useActorRef();
  const [code, setCode] = useState('');
  const checkingSession = AuthContext.useSelector((state) => state.hasTag('checkingSession'));
  const inMfa = AuthContext.useSelector((state) => state.matches('mfa'));
  const signingIn = AuthContext.useSelector(
    (state) => state.hasTag('authenticated') || state.matches('passwordChangeRequired'),
  );
  const canSubmit = AuthContext.useSelector((state) => state.can({ type: 'otp.submit', code }));
  const busy = AuthContext.useSelector((state) => state.hasTag('busy'));
  const sending = AuthContext.useSelector((state) => state.matches({ mfa: 'sendingCode' }));
  const verifying = AuthContext.useSelector(
    (state) => state.matches({ mfa: 'verifyingCode' }) || state.matches({ mfa: 'loadingUser' }),
  );
  const errorMessage = AuthContext.useSelector((state) => state.context.errorMessage);
  const otpSent = AuthContext.useSelector((state) => state.context.otpSent);
  const canResend = AuthContext.useSelector((state) => state.can({ type: 'otp.resend' }));
  const canLogout = AuthContext.useSelector((state) => state.can({ type: 'logout' }));

  if (checkingSession) return <FullPageSpinner />;
  if (!inMfa) {
    if (signingIn) return <FullPageSpinner />;
    return (
      <AuthCard title="Verification code">
        <NonIdealState
          icon="lock"
          description="Sign in first: the code is sent after your password is checked."
          action={<Link href="/login">Back to sign in</Link>}
        />
      </AuthCard>
    );
  }

  const submitEvent = { type: 'otp.submit', code } as const;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (canSubmit) authActor.send(submitEvent);
  };

  return (
    <AuthCard title="Verification code">
      <form onSubmit={onSubmit} noValidate>
        {otpSent && (
          <Callout intent="primary" className="auth-callout" data-testid="otp-sent">
            {OTP_SENT_MESSAGE}
          </Callout>
        )}
        <FormGroup label="6-digit code" labelFor="otp-code">
          <InputGroup
            id="otp-code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            data-testid="otp-code"
            value={code}
            disabled={busy}
            onValueChange={setCode}
            autoFocus
          />
        </FormGroup>
        {errorMessage !== undefined && (
          <Callout intent="danger" className="auth-callout" data-testid="otp-error">
            {errorMessage}
          </Callout>
        )}
        <Button
          type="submit"
          intent="primary"
          text="Verify"
          fill
          data-testid="otp-submit"
          loading={verifying}
          disabled={!canSubmit}
        />
      </form>
      <AuthLinks>
        <Button
          variant="minimal"
          text="Resend code"
          data-testid="otp-resend"
          loading={sending}
          disabled={!canResend}
          onClick={() => authActor.send({ type: 'otp.resend' })}
        />
        <Button
          variant="minimal"
          text="Back to sign in"
          data-testid="mfa-cancel"
          disabled={!canLogout}
          onClick={() => authActor.send({ type: 'logout' })}
        />
      </AuthLinks>
    </AuthCard>
  );
}
