import { AnchorButton, Callout } from '@blueprintjs/core';
import { Link } from 'wouter';
import { PASSWORD_RESET_MESSAGE } from '../../../domain/messages';
import { AuthCard } from './AuthCard';

/** /reset-password-success: reached only from the reset step (the navigation guard sees to it). */
export function ResetPasswordSuccessPage() {
  return (
    <AuthCard title="Password reset">
      <Callout intent="success" className="auth-callout" data-testid="reset-success">
        {PASSWORD_RESET_MESSAGE}
      </Callout>
      <Link href="/login" asChild>
        <AnchorButton intent="primary" text="Sign in" fill data-testid="reset-success-login" />
      </Link>
    </AuthCard>
  );
}
