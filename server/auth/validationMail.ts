import type { Config } from '../config.js';
import type { Queryable } from '../db/pool.js';
import type { Mailer } from '../mail/mailer.js';
import { insertValidationKey, type KeyPurpose } from '../repositories/authFlows.js';
import { hashSecret, newSecret } from './sessions.js';

/** How long an e-mailed key works: a password reset an hour, an invitation a week. */
export const KEY_TTL_SECONDS: Record<KeyPurpose, number> = { reset: 60 * 60, activate: 7 * 24 * 60 * 60 };

export type MailKey = (db: Queryable, user: { id: number; email: string }, purpose: KeyPurpose) => Promise<void>;

/**
 * The one way a single-use key reaches a user: the password-reset link, or the invitation's account-creation link.
 * Only the key's hash is stored, through `db`, so that a transaction keeps the key with the change that needed it
 * (a mail that cannot be sent undoes an invitation).
 */
export function validationKeyMailer({
  config,
  mailer,
}: {
  config: Pick<Config, 'publicUrl'>;
  mailer: Mailer;
}): MailKey {
  return async (db, user, purpose) => {
    const key = newSecret();
    await insertValidationKey(db, {
      keyHash: hashSecret(key),
      userId: user.id,
      purpose,
      ttlSeconds: KEY_TTL_SECONDS[purpose],
    });
    const link =
      purpose === 'reset'
        ? `${config.publicUrl}/reset-password?validationKey=${key}`
        : `${config.publicUrl}/account-creation?validationKey=${key}`;
    await mailer.send(
      purpose === 'reset'
        ? {
            to: user.email,
            subject: 'Reset your Mall Analytics password',
            text: `Someone asked to reset the password of ${user.email}.\n\nTo choose a new password, open this link within an hour:\n${link}\n\nIf it was not you, ignore this e-mail: your password stays as it is.\n`,
          }
        : {
            to: user.email,
            subject: 'You are invited to Mall Analytics',
            text: `An account has been created for ${user.email}.\n\nTo choose your password and sign in, open this link within 7 days:\n${link}\n`,
          },
    );
  };
}

export type NoticeExistingAccount = (user: { email: string; disabled: boolean }) => Promise<void>;

/**
 * What an invitation sends to an address that already has an account of another client: the inviter is answered
 * as for a new address (an invitation must not reveal the accounts of other clients), and the owner of the address
 * is told, with no link, so that they can sign in with the account they have. A deactivated account is sent nothing.
 */
export function existingAccountNotifier({
  config,
  mailer,
}: {
  config: Pick<Config, 'publicUrl'>;
  mailer: Mailer;
}): NoticeExistingAccount {
  return async (user) => {
    if (user.disabled) return;
    await mailer.send({
      to: user.email,
      subject: 'You are invited to Mall Analytics',
      text: `Someone invited ${user.email} to Mall Analytics. This address already has an account, so no new account was created and yours is unchanged.\n\nSign in with it at ${config.publicUrl}/login, where you can also reset your password. If you did not expect this, ignore this e-mail.\n`,
    });
  };
}
