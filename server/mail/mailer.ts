import nodemailer from 'nodemailer';
import type { Config } from '../config.js';
import type { Queryable } from '../db/pool.js';
import { insertOutboxMail } from '../repositories/outbox.js';

/** A file sent with a mail (a report's PDF or workbook). */
export interface MailAttachment {
  filename: string;
  mediaType: string;
  bytes: Buffer;
}

/** The most a mail's files may weigh together: what mail servers commonly accept, less the base64 growth. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The Message-ID header ('<unique@host>'); nodemailer makes one up when absent. */
  messageId?: string;
  /** Files sent as MIME attachments (SMTP), or kept with the outbox mail. */
  attachments?: readonly MailAttachment[];
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
          ...(mail.attachments?.length
            ? {
                attachments: mail.attachments.map((file) => ({
                  filename: file.filename,
                  content: file.bytes,
                  contentType: file.mediaType,
                })),
              }
            : {}),
        });
        log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      },
    };
  }
  return {
    kind: 'outbox',
    async send(mail) {
      await insertOutboxMail(db, {
        recipient: mail.to,
        subject: mail.subject,
        text: mail.text,
        attachments: mail.attachments ?? [],
      });
      // Printed in full: on a machine without SMTP this is how one-time codes and reset links reach the user.
      log.info({ to: mail.to, subject: mail.subject, text: mail.text }, 'mail kept in the local outbox');
    },
  };
}
