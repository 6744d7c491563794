import fs from 'node:fs/promises';
import { startSmtpSink } from '../support/smtpSink.js';

export const E2E_MAIL_DIR = '.tmp/e2e-mail';

/** A real SMTP server for the app under test: every mail it sends lands as a .eml file in .tmp/e2e-mail. */
export default async function globalSetup() {
  await fs.rm(E2E_MAIL_DIR, { recursive: true, force: true });
  const sink = await startSmtpSink({ port: Number(process.env.E2E_SMTP_PORT), dir: E2E_MAIL_DIR });
  return async () => {
    await sink.stop();
  };
}
