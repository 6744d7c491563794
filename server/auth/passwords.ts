import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

const KEY_LENGTH = 64;
const SALT_LENGTH = 16;
/**
 * The cost new hashes are made with, as log2 of scrypt's N: OWASP's Password Storage Cheat Sheet asks for N=2^17,
 * r=8, p=1 at least (about 128 MiB and a few hundred milliseconds a hash). PASSWORD_HASH_COST changes it; the tests
 * lower it so that their many sign-ins stay fast.
 */
export const DEFAULT_PASSWORD_HASH_COST = 17;
/** The costs PASSWORD_HASH_COST may name: 2^18 already takes 256 MiB a hash, per thread of libuv's pool. */
export const PASSWORD_HASH_COST_RANGE = { min: 10, max: 18 } as const;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;

let currentCost: number = DEFAULT_PASSWORD_HASH_COST;

/** Sets the cost (log2 of N) of the hashes made from now on in this process (the server's PASSWORD_HASH_COST). */
export function setPasswordHashCost(cost: number): void {
  if (!Number.isInteger(cost) || cost < PASSWORD_HASH_COST_RANGE.min || cost > PASSWORD_HASH_COST_RANGE.max) {
    throw new Error(
      `The password hash cost must be a whole number from ${PASSWORD_HASH_COST_RANGE.min} to ${PASSWORD_HASH_COST_RANGE.max}, got ${cost}`,
    );
  }
  currentCost = cost;
}

export function passwordHashCost(): number {
  return currentCost;
}

interface ScryptParameters {
  N: number;
  r: number;
  p: number;
}

/** scrypt needs 128·N·r bytes (and 128·r·p more); Node refuses above 32 MiB unless maxmem says more. */
const optionsOf = ({ N, r, p }: ScryptParameters): ScryptOptions => ({
  N,
  r,
  p,
  maxmem: 128 * N * r * 2 + 128 * r * p,
});

function derive(password: string, salt: Buffer, parameters: ScryptParameters): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, optionsOf(parameters), (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

const parametersOfCost = (cost: number): ScryptParameters => ({ N: 2 ** cost, r: BLOCK_SIZE, p: PARALLELISM });

const format = ({ N, r, p }: ScryptParameters, salt: Buffer, key: Buffer) =>
  ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');

interface StoredHash extends ScryptParameters {
  salt: Buffer;
  key: Buffer;
}

const wholeNumber = (text: string | undefined) => (text !== undefined && /^\d{1,8}$/.test(text) ? Number(text) : NaN);

/**
 * A stored hash, `scrypt$N$r$p$salt$hash`, with its parameters within what this server would ever make (N a power of
 * two up to the largest cost, small r and p), or undefined: such a value verifies no password.
 */
function parse(stored: string | null): StoredHash | undefined {
  if (!stored) return undefined;
  const [kind, n, r, p, salt, hash, ...rest] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash || rest.length > 0) return undefined;
  const parameters = { N: wholeNumber(n), r: wholeNumber(r), p: wholeNumber(p) };
  const powerOfTwo = parameters.N >= 2 && (parameters.N & (parameters.N - 1)) === 0;
  if (!powerOfTwo || parameters.N > 2 ** PASSWORD_HASH_COST_RANGE.max) return undefined;
  if (!(parameters.r >= 1 && parameters.r <= 32 && parameters.p >= 1 && parameters.p <= 16)) return undefined;
  return { ...parameters, salt: Buffer.from(salt, 'base64'), key: Buffer.from(hash, 'base64') };
}

/**
 * Hashes a password with scrypt at the current cost (or the one given); the result carries its parameters and salt,
 * `scrypt$N$r$p$salt$hash`, so a hash made at an older cost still verifies.
 */
export async function hashPassword(password: string, cost: number = currentCost): Promise<string> {
  const parameters = parametersOfCost(cost);
  const salt = randomBytes(SALT_LENGTH);
  return format(parameters, salt, await derive(password, salt, parameters));
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const hash = parse(stored);
  if (!hash) return false;
  const key = await derive(password, hash.salt, hash);
  return key.length === hash.key.length && timingSafeEqual(key, hash.key);
}

/**
 * Whether a stored hash is weaker than the current cost (or of other r and p): the password, just verified, is hashed
 * again at sign-in. A stronger hash is kept.
 */
export function needsRehash(stored: string | null): stored is string {
  const hash = parse(stored);
  return hash !== undefined && (hash.N < 2 ** currentCost || hash.r !== BLOCK_SIZE || hash.p !== PARALLELISM);
}

/**
 * A hash no password matches, at the current cost: checked when the username is unknown, so that the answer takes
 * as long as for a known one.
 */
export function dummyPasswordHash(): string {
  return format(parametersOfCost(currentCost), Buffer.alloc(SALT_LENGTH), Buffer.alloc(KEY_LENGTH));
}
