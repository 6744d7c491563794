import fs from 'node:fs/promises';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  raw: string;
}

/** Subject and plain text of a single-part RFC 822 message, undoing quoted-printable or base64. */
export function decodeMail(raw: string): { subject: string; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(unfolded)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  let text = body;
  if (encoding === 'base64') text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    text = Buffer.from(
      body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  }
  return { subject: header('Subject'), text: text.replace(/\r\n/g, '\n') };
}

export interface SmtpSink {
  port: number;
  url: string;
  mails: ReceivedMail[];
  /** Waits for the first mail to `to` received after `since` mails had arrived, matching `predicate`. */
  waitFor: (
    to: string,
    options?: { since?: number; predicate?: (mail: ReceivedMail) => boolean; timeoutMs?: number },
  ) => Promise<ReceivedMail>;
  stop: () => Promise<void>;
}

/** A real SMTP server on loopback that keeps every message (and, with `dir`, writes each as a .eml file). */
export async function startSmtpSink(options: { port?: number; dir?: string } = {}): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  if (options.dir) await fs.mkdir(options.dir, { recursive: true });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const to = session.envelope.rcptTo.map((address) => address.address.toLowerCase());
        mails.push({ to, raw, ...decodeMail(raw) });
        const written = options.dir
          ? fs.writeFile(path.join(options.dir, `${Date.now()}-${String(mails.length).padStart(5, '0')}.eml`), raw)
          : Promise.resolve();
        written.then(
          () => {
            for (const wake of waiters) wake();
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor(to, { since = 0, predicate = () => true, timeoutMs = 10_000 } = {}) {
      const find = () => mails.slice(since).find((mail) => mail.to.includes(to.toLowerCase()) && predicate(mail));
      return new Promise((resolve, reject) => {
        const found = find();
        if (found) return resolve(found);
        const wake = () => {
          const mail = find();
          if (!mail) return;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`no mail to ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(wake);
      });
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
