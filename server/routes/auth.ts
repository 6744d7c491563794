import { randomInt, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requireCaller } from '../auth/access.js';
import { forgetSession, forgetUser } from '../auth/callerCache.js';
import { deviceHashOf, isKnownDeviceOf, rememberDeviceOf } from '../auth/devices.js';
import { passwordProblem } from '../auth/passwordPolicy.js';
import { dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from '../auth/passwords.js';
import { endSession, hashSecret, readSession, type SessionOptions, startSession } from '../auth/sessions.js';
import {
  ONE_TIME_CODE,
  RESET_MAIL,
  resetMailAllowed,
  SIGN_IN_THROTTLE,
  signInRefusal,
  THROTTLE_MESSAGES,
} from '../auth/throttle.js';
import { toUserInfo } from '../auth/userInfo.js';
import { existingAccountNotifier, validationKeyMailer } from '../auth/validationMail.js';
import { badRequest, HttpError, notFound, unauthorized, valueOrThrow } from '../errors.js';
import {
  completeMfa,
  consumeValidationKey,
  countAuthEvents,
  countLoginFailures,
  findLiveValidationKey,
  recordAuthEvent,
  recordLoginAttempt,
  saveOneTimeCode,
  setPassword,
  takeOneTimeCodeTry,
} from '../repositories/authFlows.js';
import { upgradePasswordHash } from '../repositories/passwordHashes.js';
import { inviteClientUser } from '../repositories/userInvitations.js';
import { findUserByEmail, findUserById, latestMallToday, loadUserGrants, type UserRow } from '../repositories/users.js';
import type { AreaHandlers, RouteDeps } from './types.js';

export const AUTH_MESSAGES = {
  loginFailed: 'username or password is incorrect',
  passwordExpired: 'Password expired.',
  invalidCode: 'Invalid or expired code.',
  currentPasswordWrong: 'The current password is incorrect.',
  samePassword: 'The new password must differ from the current one.',
  passwordChangeNeedsProof: 'Give the current password, or use the link from the password-reset e-mail.',
  invalidKey: 'This link is invalid or has expired. Please ask for a new one.',
} as const;

/** Tries of one code; the account's wrong codes over every code are limited too (ONE_TIME_CODE). */
const TRIES_PER_CODE = 5;

export const normaliseEmail = (value: string) => value.trim().toLowerCase();
const codeHash = (sessionHash: string, code: string) => hashSecret(`${sessionHash}:${code}`);

export function authHandlers({ pool, config, mailer }: RouteDeps) {
  const sessionOptions: SessionOptions = { ttlHours: config.sessionTtlHours, secureCookies: config.secureCookies };

  /** Refuses with 429 and a Retry-After header. */
  function tooMany(reply: FastifyReply, seconds: number, message: string): HttpError {
    reply.header('retry-after', String(Math.max(1, Math.ceil(seconds))));
    return new HttpError(429, message);
  }

  /**
   * The user behind a username and password, counted against the sign-in throttles (server/auth/throttle.ts): the
   * failures of the account from the address, the accounts tried from the address, then the account's backoff,
   * all of which a browser that signed in to the account before skips (with a budget of its own). A refused
   * attempt checks no password.
   */
  async function checkPassword(
    request: FastifyRequest,
    reply: FastifyReply,
    username: string,
    password: string,
  ): Promise<UserRow> {
    const address = request.ip;
    const deviceHash = deviceHashOf(request);
    const user = await findUserByEmail(pool, username);
    const knownDevice = user ? await isKnownDeviceOf(pool, deviceHash, user.id) : false;
    const failures = await countLoginFailures(
      pool,
      { username, address, deviceHash: knownDevice ? deviceHash : null },
      SIGN_IN_THROTTLE,
    );
    const refusal = signInRefusal(failures, knownDevice);
    if (refusal) {
      request.log.warn({ username, address, failures: failures.byAccount }, `sign-in throttled: ${refusal.limit}`);
      throw tooMany(reply, refusal.seconds, refusal.message);
    }
    // An unknown username is checked against a hash at the current cost, so that both answers take as long.
    const valid = await verifyPassword(password, user?.passwordHash ?? dummyPasswordHash());
    const succeeded = Boolean(user && valid && !user.disabled);
    await recordLoginAttempt(pool, { username, address, deviceHash, succeeded });
    if (!succeeded || !user) {
      request.log.info({ username }, 'sign-in refused');
      throw unauthorized(AUTH_MESSAGES.loginFailed);
    }
    // A hash made at an older, lower cost is made again at the current one (server/auth/passwords.ts).
    if (needsRehash(user.passwordHash))
      await upgradePasswordHash(pool, user.id, user.passwordHash, await hashPassword(password));
    await rememberDeviceOf(pool, request, reply, sessionOptions, user.id);
    return user;
  }

  const mailKey = validationKeyMailer({ config, mailer });
  const invitationMail = { mailKey, noticeExistingAccount: existingAccountNotifier({ config, mailer }) };

  /** Refuses a new password that breaks the policy or repeats the current one. */
  async function checkNewPassword(user: { email: string; passwordHash: string | null }, newPassword: string) {
    const problem = passwordProblem(newPassword, user.email);
    if (problem) throw badRequest(problem);
    if (await verifyPassword(newPassword, user.passwordHash)) throw badRequest(AUTH_MESSAGES.samePassword);
  }

  /** A key is spent only once the new password has passed the checks; it works once even in a race. */
  async function spendKey(keyHash: string) {
    if (!(await consumeValidationKey(pool, keyHash))) throw badRequest(AUTH_MESSAGES.invalidKey);
  }

  return {
    async getCsrfToken(request, reply) {
      const session =
        request.session ?? (await startSession(pool, reply, sessionOptions, null, { userId: null, mfaPending: false }));
      return { csrfToken: session.csrfToken };
    },

    async login(request, reply) {
      const { body } = request;
      const user = await checkPassword(request, reply, normaliseEmail(body.username), body.password);
      if (user.passwordExpired && !user.requireMfa) throw unauthorized(AUTH_MESSAGES.passwordExpired);
      const session = await startSession(pool, reply, sessionOptions, request.session, {
        userId: user.id,
        mfaPending: user.requireMfa,
      });
      const grants = await loadUserGrants(pool, user.id);
      request.log.info({ userId: user.id, mfa: user.requireMfa }, 'signed in');
      return {
        user: toUserInfo(user, grants, await latestMallToday(pool, grants.clientIds, new Date())),
        session: { expiresAt: session.expiresAt.toISOString(), mfaPending: session.mfaPending },
        require_mfa: user.requireMfa,
        csrfToken: session.csrfToken,
      };
    },

    async getCredential(request) {
      const caller = requireCaller(request);
      const today = await latestMallToday(pool, caller.grants.clientIds, new Date());
      return { user: toUserInfo(caller.user, caller.grants, today), csrfToken: caller.session.csrfToken };
    },

    async logout(request, reply) {
      const caller = requireCaller(request);
      await endSession(pool, reply, sessionOptions, caller.session);
      return caller.session.ssoLogoutUrl
        ? { success: true, redirectUrl: caller.session.ssoLogoutUrl }
        : { success: true };
    },

    async sendOtp(request, reply) {
      const { session, user } = requireCaller(request);
      if (!session.mfaPending) return { success: false };
      const sent = await countAuthEvents(pool, {
        kind: 'otp_sent',
        subject: String(user.id),
        address: request.ip,
        windowSeconds: ONE_TIME_CODE.sendWindowSeconds,
      });
      if (sent.bySubject >= ONE_TIME_CODE.maxSends) {
        request.log.warn({ userId: user.id }, 'one-time code throttled: sends');
        throw tooMany(reply, ONE_TIME_CODE.sendWindowSeconds, THROTTLE_MESSAGES.codeSends);
      }
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await saveOneTimeCode(pool, session.tokenHash, codeHash(session.tokenHash, code), ONE_TIME_CODE.ttlSeconds);
      await recordAuthEvent(pool, { kind: 'otp_sent', subject: String(user.id), address: request.ip });
      await mailer.send({
        to: user.email,
        subject: `Your Mall Analytics sign-in code: ${code}`,
        text: `Your one-time sign-in code is ${code}.\n\nIt expires in 5 minutes. If you did not try to sign in, change your password.\n`,
      });
      return { success: true };
    },

    async verifyOtp(request, reply) {
      const { session, user } = requireCaller(request);
      const { code } = request.body;
      if (!session.mfaPending) throw badRequest(AUTH_MESSAGES.invalidCode);
      const subject = String(user.id);
      const failures = await countAuthEvents(pool, {
        kind: 'otp_failed',
        subject,
        address: request.ip,
        windowSeconds: ONE_TIME_CODE.failureWindowSeconds,
        since: 'otp_verified',
      });
      if (failures.bySubject >= ONE_TIME_CODE.maxFailures) {
        request.log.warn({ userId: user.id }, 'one-time code throttled: wrong codes');
        throw tooMany(reply, ONE_TIME_CODE.failureWindowSeconds, THROTTLE_MESSAGES.codeFailures);
      }
      const stored = await takeOneTimeCodeTry(pool, session.tokenHash, TRIES_PER_CODE);
      if (!stored) throw badRequest(AUTH_MESSAGES.invalidCode);
      const given = Buffer.from(codeHash(session.tokenHash, code));
      const expected = Buffer.from(stored.codeHash);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        await recordAuthEvent(pool, { kind: 'otp_failed', subject, address: request.ip });
        throw badRequest(AUTH_MESSAGES.invalidCode);
      }
      await completeMfa(pool, session.tokenHash);
      forgetSession(session.tokenHash);
      await recordAuthEvent(pool, { kind: 'otp_verified', subject, address: request.ip });
      request.log.info({ userId: session.userId }, 'one-time code verified');
      return { success: true };
    },

    async sendResetPasswordEmail(request, reply) {
      const email = normaliseEmail(request.body.email);
      const asked = await countAuthEvents(pool, {
        kind: 'reset_requested',
        subject: email,
        address: request.ip,
        windowSeconds: RESET_MAIL.windowSeconds,
      });
      // Counted by the address asked for, whether or not an account has it: the answer tells nothing about accounts.
      const allowed = resetMailAllowed({
        byAddressEmail: asked.bySubjectFromAddress,
        byEmail: asked.bySubject,
        emailsFromAddress: asked.subjectsFromAddress,
      });
      if (!allowed) {
        request.log.warn({ address: request.ip }, 'password reset throttled');
        throw tooMany(reply, RESET_MAIL.windowSeconds, THROTTLE_MESSAGES.resetMails);
      }
      await recordAuthEvent(pool, { kind: 'reset_requested', subject: email, address: request.ip });
      const user = await findUserByEmail(pool, email);
      if (user && !user.disabled) await mailKey(pool, user, 'reset');
      return { success: true };
    },

    async checkResetPasswordKey(request) {
      const { validationKey } = request.query;
      return { success: Boolean(await findLiveValidationKey(pool, hashSecret(validationKey))) };
    },

    async verifyUserEmail(request) {
      const { email, validationKey } = request.body;
      const key = await findLiveValidationKey(pool, hashSecret(validationKey));
      return { success: Boolean(key && key.email === normaliseEmail(email)) };
    },

    async activateUser(request) {
      const { validationKey, password } = request.body;
      const keyHash = hashSecret(validationKey);
      const key = await findLiveValidationKey(pool, keyHash);
      const user = key?.purpose === 'activate' ? await findUserById(pool, key.userId) : undefined;
      if (!user) throw notFound(AUTH_MESSAGES.invalidKey);
      await checkNewPassword(user, password);
      await spendKey(keyHash);
      await setPassword(pool, user.id, await hashPassword(password));
      forgetUser(user.id);
      return { success: true };
    },

    async updatePassword(request, reply) {
      const { body } = request;
      let user: UserRow | undefined;
      if (body.validationKey) {
        const keyHash = hashSecret(body.validationKey);
        const key = await findLiveValidationKey(pool, keyHash);
        user = key ? await findUserById(pool, key.userId) : undefined;
        if (!user) throw badRequest(AUTH_MESSAGES.invalidKey);
        await checkNewPassword(user, body.newPassword);
        await spendKey(keyHash);
      } else if (body.currentPassword && body.username) {
        user = await checkPassword(request, reply, normaliseEmail(body.username), body.currentPassword).catch(
          (error: unknown) => {
            // A wrong current password is a mistake in this form, not a lost session.
            throw error instanceof HttpError && error.statusCode === 401
              ? badRequest(AUTH_MESSAGES.currentPasswordWrong)
              : error;
          },
        );
        await checkNewPassword(user, body.newPassword);
      } else if (body.currentPassword) {
        const session = await readSession(pool, request);
        user = session?.userId && !session.mfaPending ? await findUserById(pool, session.userId) : undefined;
        if (!user) throw unauthorized();
        if (!(await verifyPassword(body.currentPassword, user.passwordHash))) {
          throw badRequest(AUTH_MESSAGES.currentPasswordWrong);
        }
        await checkNewPassword(user, body.newPassword);
      } else {
        throw badRequest(AUTH_MESSAGES.passwordChangeNeedsProof);
      }
      await setPassword(pool, user.id, await hashPassword(body.newPassword));
      forgetUser(user.id);
      // Every session of the user has ended; so has this browser's.
      await endSession(pool, reply, sessionOptions, null);
      return { success: true };
    },

    async inviteUser(request) {
      const caller = requireCaller(request);
      const { body } = request;
      valueOrThrow(
        await inviteClientUser(
          pool,
          {
            email: normaliseEmail(body.email),
            displayName: body.username ?? '',
            clientId: body.client_id,
            roleNames: body.roles ?? [],
            inviterIsSuperAdmin: caller.grants.isSuperAdmin,
          },
          invitationMail,
        ),
      );
      return { success: true };
    },
  } satisfies AreaHandlers;
}
