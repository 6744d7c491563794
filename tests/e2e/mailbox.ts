import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The e2e server's SMTP sink writes every mail it receives to `.tmp/e2e-mail/` as one raw RFC 822
 * message per file, named `<timestamp>-<n>.eml`. These helpers wait for the newest mail to an
 * address and read its text and its files.
 */

export const MAIL_DIR = path.resolve(process.cwd(), '.tmp/e2e-mail');

/** A file sent with a mail (a MIME part with a file name), its bytes decoded. */
export interface MailAttachment {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Buffer;
}

export interface Mail {
  readonly file: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly attachments: readonly MailAttachment[];
}

function headerBlockAndBody(raw: string): { head: string; body: string } {
  const split = raw.search(/\r?\n\r?\n/);
  if (split === -1) return { head: raw, body: '' };
  return { head: raw.slice(0, split), body: raw.slice(split).replace(/^\r?\n\r?\n/, '') };
}

function headerOf(head: string, name: string): string {
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(unfolded)?.[1]?.trim() ?? '';
}

/** Undoes `=?utf-8?Q?...?=` / `=?utf-8?B?...?=` words of a header. */
function decodeHeader(value: string): string {
  return value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, encoding: string, text: string) =>
    encoding.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function decodeBody(head: string, body: string): string {
  const contentType = headerOf(head, 'Content-Type');
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (/^multipart\//i.test(contentType) && boundary) {
    const parts = body.split(`--${boundary}`).slice(1, -1);
    const decoded = parts.map((part) => {
      const { head: partHead, body: partBody } = headerBlockAndBody(part.replace(/^\r?\n/, ''));
      return { type: headerOf(partHead, 'Content-Type'), text: decodeBody(partHead, partBody) };
    });
    return (decoded.find((part) => /^text\/plain/i.test(part.type)) ?? decoded[0])?.text ?? '';
  }
  const encoding = headerOf(head, 'Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(body)
        : body;
  return text.replace(/\r\n/g, '\n');
}

/** The file name of a part (Content-Disposition's filename, else Content-Type's name), if it has one. */
function fileNameOf(head: string): string | undefined {
  const disposition = headerOf(head, 'Content-Disposition');
  const named =
    /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? /\bname="?([^";]+)"?/i.exec(headerOf(head, 'Content-Type'))?.[1];
  return named === undefined ? undefined : decodeHeader(named.trim());
}

/** The files of a message: every part with a file name, in any nested multipart, its bytes decoded. */
function attachmentsOf(head: string, body: string): MailAttachment[] {
  const contentType = headerOf(head, 'Content-Type');
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (/^multipart\//i.test(contentType) && boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1, -1)
      .flatMap((part) => {
        const { head: partHead, body: partBody } = headerBlockAndBody(part.replace(/^\r?\n/, ''));
        return attachmentsOf(partHead, partBody);
      });
  }
  const filename = fileNameOf(head);
  if (filename === undefined) return [];
  const encoding = headerOf(head, 'Content-Transfer-Encoding').toLowerCase();
  const content =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? Buffer.from(decodeQuotedPrintable(body), 'utf8')
        : Buffer.from(body, 'latin1');
  return [{ filename, contentType: contentType.split(';')[0]?.trim() ?? '', content }];
}

export function parseMail(file: string, raw: string): Mail {
  const { head, body } = headerBlockAndBody(raw);
  return {
    file,
    to: decodeHeader(headerOf(head, 'To')).toLowerCase(),
    subject: decodeHeader(headerOf(head, 'Subject')),
    text: decodeBody(head, body),
    attachments: attachmentsOf(head, body),
  };
}

/** Every mail to `to` written at or after `since` (a `Date.now()` taken before the action), oldest first. */
export async function mailsTo(to: string, since: number): Promise<Mail[]> {
  const address = to.toLowerCase();
  const mails: Mail[] = [];
  for (const file of await mailFiles()) {
    if (writtenAt(file) < since - 1_000) break;
    const mail = parseMail(file, await readFile(path.join(MAIL_DIR, file), 'utf8'));
    if (mail.to.includes(address)) mails.push(mail);
  }
  return mails.reverse();
}

/** When the file was written (its name starts with the sink's `Date.now()`). */
function writtenAt(file: string): number {
  return Number.parseInt(file.split('-')[0] ?? '', 10);
}

async function mailFiles(): Promise<string[]> {
  try {
    return (await readdir(MAIL_DIR))
      .filter((file) => file.endsWith('.eml'))
      .sort()
      .reverse();
  } catch {
    return []; // no mail yet
  }
}

/**
 * Waits for the newest mail to `to` written at or after `since` (a `Date.now()` taken before the
 * action that sends it) and, with `matching`, whose text or subject matches.
 */
export async function waitForMail(
  to: string,
  options: { since: number; matching?: RegExp; timeoutMs?: number },
): Promise<Mail> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  const address = to.toLowerCase();
  // The sink's clock is this machine's, but allow for the name being taken a moment before the write.
  const since = options.since - 1_000;
  for (;;) {
    for (const file of await mailFiles()) {
      if (writtenAt(file) < since) break;
      const mail = parseMail(file, await readFile(path.join(MAIL_DIR, file), 'utf8'));
      if (!mail.to.includes(address)) continue;
      if (options.matching && !options.matching.test(`${mail.subject}\n${mail.text}`)) continue;
      return mail;
    }
    if (Date.now() > deadline)
      throw new Error(`no mail to ${to} in ${MAIL_DIR} since ${new Date(options.since).toISOString()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The 6-digit one-time code of a sign-in code mail. */
export function oneTimeCodeIn(mail: Mail): string {
  const code = /\b(\d{6})\b/.exec(mail.subject)?.[1] ?? /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no 6-digit code in the mail "${mail.subject}"`);
  return code;
}

/** The app path of the first link to `pagePath` in a mail (the key in its query), e.g. /reset-password?validationKey=… */
export function appLinkIn(mail: Mail, pagePath: string): string {
  const escaped = pagePath.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const match = new RegExp(`${escaped}\\?validationKey=([A-Za-z0-9_\\-.~%]+)`).exec(mail.text);
  if (!match?.[1]) throw new Error(`no ${pagePath} link in the mail "${mail.subject}"`);
  return `${pagePath}?validationKey=${match[1]}`;
}
