/**
 * The limits of the sign-in flows, as data and pure functions (the counts come from server/repositories/authFlows).
 *
 * Passwords: per address, at most `maxPerAddress` failures in `windowSeconds`. Per account, no lock: after
 * `freeFailures` failures since the account's last success (or password change) each further attempt waits a delay
 * that doubles from `firstDelaySeconds` up to `maxDelaySeconds`, so a guesser gets about a hundred tries a day. A
 * browser that signed in to the account before (its device cookie) skips that delay and has a budget of its own,
 * `maxPerDevice` failures in `windowSeconds`; a password reset by e-mail ends the delay too.
 */
export const SIGN_IN_THROTTLE = {
  windowSeconds: 15 * 60,
  maxPerAddress: 30,
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

/** Password-reset e-mails: per caller address and per e-mail address asked for. */
export const RESET_MAIL = { windowSeconds: 60 * 60, maxPerAddress: 10, maxPerEmail: 3 } as const;

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
