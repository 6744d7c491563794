import type { LoginFailureCounts } from '../repositories/authFlows.js';

/**
 * The limits of the sign-in flows, as data and pure functions (the counts come from server/repositories/authFlows).
 * Many people may share one address (a proxy, a NAT, a mall's office), so no limit is kept by the address alone:
 * one of them must not lock out the others. The address is Fastify's `request.ip`, which is the socket's peer
 * unless `TRUST_PROXY` names the proxy in front (then the client it forwarded for, from X-Forwarded-For).
 *
 * Passwords: per account and address together, at most `maxPerAddressAccount` failures in `windowSeconds`; per
 * address, failures on at most `maxAccountsPerAddress` distinct usernames (with an account or not) in the window,
 * after which the address may try no further username (the ones already tried keep their own budget): a sprayer's
 * budget. Per account, no lock: after `freeFailures` failures since the account's last success (or password
 * change), from any address, each further attempt waits a delay that doubles from `firstDelaySeconds` up to
 * `maxDelaySeconds`, so a guesser gets about a hundred tries a day. A browser that signed in to the account before
 * (its device cookie) skips all of these and has a budget of its own, `maxPerDevice` failures in `windowSeconds`;
 * a password reset by e-mail ends the account's delay too.
 */
export const SIGN_IN_THROTTLE = {
  windowSeconds: 15 * 60,
  maxPerAddressAccount: 10,
  maxAccountsPerAddress: 30,
  maxPerDevice: 5,
  freeFailures: 5,
  firstDelaySeconds: 30,
  maxDelaySeconds: 15 * 60,
  /** Failures older than this no longer count towards an account's delay. */
  accountWindowSeconds: 24 * 60 * 60,
} as const;

/** One-time codes: sends per account and wrong codes per account (over every code of the window). */
export const ONE_TIME_CODE = {
  ttlSeconds: 5 * 60,
  maxSends: 3,
  sendWindowSeconds: 10 * 60,
  maxFailures: 5,
  failureWindowSeconds: 15 * 60,
} as const;

/**
 * Password-reset e-mails, an hour: 3 per e-mail address asked for and caller address together; 10 per e-mail
 * address from all callers (what may land in one mailbox); and from one caller address, at most 30 distinct e-mail
 * addresses (a sprayer's budget; the ones already asked for keep their own). Counted whether or not an account has
 * the e-mail address, so the answer reveals no account.
 */
export const RESET_MAIL = {
  windowSeconds: 60 * 60,
  maxPerAddressEmail: 3,
  maxPerEmail: 10,
  maxEmailsPerAddress: 30,
} as const;

/** How long a refused attempt must wait and what it is told; undefined when it may go ahead. */
export interface Refusal {
  seconds: number;
  message: string;
  /** Which limit refused it (for the log). */
  limit: 'device' | 'address and account' | 'address' | 'account';
}

/**
 * Whether a password attempt may be checked, given the failures counted for it, and whether the browser signed in
 * to the account before.
 */
export function signInRefusal(counts: LoginFailureCounts, knownDevice: boolean): Refusal | undefined {
  const { windowSeconds } = SIGN_IN_THROTTLE;
  const window = { seconds: windowSeconds, message: THROTTLE_MESSAGES.signIn(windowSeconds) };
  if (knownDevice) {
    return counts.byDevice >= SIGN_IN_THROTTLE.maxPerDevice ? { ...window, limit: 'device' } : undefined;
  }
  if (counts.byAddressAccount >= SIGN_IN_THROTTLE.maxPerAddressAccount)
    return { ...window, limit: 'address and account' };
  if (counts.byAddressAccount === 0 && counts.accountsFromAddress >= SIGN_IN_THROTTLE.maxAccountsPerAddress) {
    return { ...window, limit: 'address' };
  }
  const wait = accountDelaySeconds(counts.byAccount, counts.secondsSinceAccountFailure);
  return wait > 0 ? { seconds: wait, message: THROTTLE_MESSAGES.account(wait), limit: 'account' } : undefined;
}

/** The reset e-mails asked for within the window that RESET_MAIL limits. */
export interface ResetCounts {
  /** For this e-mail address from this caller address. */
  byAddressEmail: number;
  /** For this e-mail address from every caller. */
  byEmail: number;
  /** Distinct e-mail addresses asked for from this caller address. */
  emailsFromAddress: number;
}

/** Whether one more reset e-mail may be asked for. */
export function resetMailAllowed(counts: ResetCounts): boolean {
  if (counts.byAddressEmail >= RESET_MAIL.maxPerAddressEmail || counts.byEmail >= RESET_MAIL.maxPerEmail) return false;
  return counts.byAddressEmail > 0 || counts.emailsFromAddress < RESET_MAIL.maxEmailsPerAddress;
}

/** Seconds the account's next password attempt must still wait; 0 when it may go ahead. */
export function accountDelaySeconds(failures: number, secondsSinceLastFailure: number): number {
  if (failures < SIGN_IN_THROTTLE.freeFailures) return 0;
  const delay = Math.min(
    SIGN_IN_THROTTLE.maxDelaySeconds,
    SIGN_IN_THROTTLE.firstDelaySeconds * 2 ** (failures - SIGN_IN_THROTTLE.freeFailures),
  );
  return Math.max(0, Math.ceil(delay - secondsSinceLastFailure));
}

/** "1 minute", "15 minutes": a wait rounded up to whole minutes. */
export function minutesText(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

export const THROTTLE_MESSAGES = {
  signIn: (seconds: number) => `Too many sign-in attempts. Please try again in ${minutesText(seconds)}.`,
  account: (seconds: number) =>
    `Too many failed sign-ins to this account. Please try again in ${minutesText(seconds)}, sign in from a browser you have used before, or reset your password.`,
  codeSends: `Too many codes sent. Please wait ${minutesText(ONE_TIME_CODE.sendWindowSeconds)} before asking for another.`,
  codeFailures: `Too many wrong codes. Please try again in ${minutesText(ONE_TIME_CODE.failureWindowSeconds)}.`,
  resetMails: `Too many password reset requests. Please try again in ${minutesText(RESET_MAIL.windowSeconds)}.`,
} as const;
