import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The file in DATA_DIR that keeps the download-link secret of a loopback server without DOWNLOAD_SECRET. */
export const DOWNLOAD_SECRET_FILE = 'download-secret.key';

/**
 * A random secret kept in `dataDir/fileName`: made on first use (readable by this user only) and read on every
 * start after, so what it signs survives a restart. Only for a server on loopback: instances on other machines
 * would each make their own, which is why an exposed server must be given its secrets.
 */
export function keptSecret(dataDir: string, fileName: string): string {
  const file = path.join(dataDir, fileName);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    // Written whole under a name of its own, then linked into place: another process never reads half a secret.
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(draft, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(draft, file);
    } catch (error) {
      // Another process made it first: read theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.unlinkSync(draft);
    }
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new Error(`${file} holds no secret: delete it to have a new one made`);
  return secret;
}
