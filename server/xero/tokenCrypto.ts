import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Xero's tokens at rest: AES-256-GCM with a random 96-bit nonce per value, the client and the token's kind as
 * additional authenticated data (a value copied to another client's row, or from the refresh to the access column,
 * does not decrypt). Stored as `v1.<base64url(nonce | tag | ciphertext)>`.
 */

const VERSION = 'v1';
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** The key file kept in DATA_DIR when XERO_TOKEN_KEY is not given (a loopback demo only). */
export const TOKEN_KEY_FILE = 'xero-token.key';

export type TokenKind = 'access' | 'refresh';

/** What a token is bound to: its client and its kind. */
const contextOf = (clientId: number, kind: TokenKind) => Buffer.from(`xero:${clientId}:${kind}`, 'utf8');

export function parseTokenKey(base64: string): Buffer {
  const key = Buffer.from(base64.trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error('The Xero token key must be 32 bytes in base64');
  return key;
}

/**
 * The token key: XERO_TOKEN_KEY when given; otherwise the key kept in `dataDir` (made on first use, readable by
 * this user only). The configuration allows the file only to a server listening on a loopback address.
 */
export function loadTokenKey(tokenKey: string | undefined, dataDir: string): Buffer {
  if (tokenKey !== undefined) return parseTokenKey(tokenKey);
  const file = path.join(dataDir, TOKEN_KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process made it first: read theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return parseTokenKey(fs.readFileSync(file, 'utf8'));
}

export function encryptToken(key: Buffer, clientId: number, kind: TokenKind, token: string): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(contextOf(clientId, kind));
  const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return `${VERSION}.${Buffer.concat([nonce, cipher.getAuthTag(), sealed]).toString('base64url')}`;
}

/** The token, or an error (never the value) when it was not sealed with this key, client and kind. */
export function decryptToken(key: Buffer, clientId: number, kind: TokenKind, stored: string): string {
  const [version, body] = stored.split('.');
  if (version !== VERSION || body === undefined) throw new Error('Unknown token encryption format');
  const bytes = Buffer.from(body, 'base64url');
  if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new Error('Truncated encrypted token');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE_BYTES));
  decipher.setAAD(contextOf(clientId, kind));
  decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
