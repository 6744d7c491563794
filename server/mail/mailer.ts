import nodemailer from 'nodemailer';
import type { Config } from '../config.js';
import type { Queryable } from '../db/pool.js';
import { insertOutboxMail } from '../repositories/outbox.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The Message-ID header ('<unique@host>'); nodemailer makes one up when absent. */
  messageId?: string;
}

export interface Mailer {
  send: (mail: Mail) => Promise<void>;
  /** 'smtp' when mail leaves through SMTP_URL, 'outbox' when it is kept in the database for the super admin. */
  kind: 'smtp' | 'outbox';
}

type Log = { info: (object: object, message: string) => void };

/** Mail through SMTP_URL, or, without it, into the local outbox (logged, and readable in the app by the super admin). */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>, db: Queryable, log: Log): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      kind: 'smtp',
      async send(mail) {
        await transport.sendMail({
          from: config.mailFrom,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          ...(mail.messageId ? { messageId: mail.messageId } : {}),
        });
        log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      },
    };
  }
  return {
    kind: 'outbox',
    async send(mail) {
      await insertOutboxMail(db, { recipient: mail.to, subject: mail.subject, text: mail.text });
      // Printed in full: on a machine without SMTP this is how one-time codes and reset links reach the user.
      log.info({ to: mail.to, subject: mail.subject, text: mail.text }, 'mail kept in the local outbox');
    },
  };
}
