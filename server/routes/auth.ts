import type { operations } from '../../src/api/schema.js';
import { requireCaller } from '../auth/access.js';
import { verifyPassword } from '../auth/passwords.js';
import { endSession, startSession, type SessionOptions } from '../auth/sessions.js';
import { toUserInfo } from '../auth/userInfo.js';
import { unauthorized } from '../errors.js';
import { findUserByEmail, loadUserGrants } from '../repositories/users.js';
import type { Handlers, RouteDeps } from './types.js';

type LoginBody = operations['login']['requestBody']['content']['application/json'];

export const LOGIN_FAILED = 'username or password is incorrect';
/** Compared against when the username is unknown, so that both answers take as long. */
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$' + Buffer.alloc(64).toString('base64');

export function authHandlers({ pool, config }: RouteDeps): Handlers {
  const sessionOptions: SessionOptions = { ttlHours: config.sessionTtlHours, secureCookies: config.secureCookies };

  return {
    async getCsrfToken(request, reply) {
      const session = request.session ?? (await startSession(pool, reply, sessionOptions, null, { userId: null, mfaPending: false }));
      return { csrfToken: session.csrfToken };
    },

    async login(request, reply) {
      const body = request.body as LoginBody;
      const username = body.username.trim().toLowerCase();
      const user = await findUserByEmail(pool, username);
      const valid = await verifyPassword(body.password, user?.passwordHash ?? DUMMY_HASH);
      if (!user || !valid || user.disabled) {
        request.log.info({ username }, 'login refused');
        throw unauthorized(LOGIN_FAILED);
      }
      const session = await startSession(pool, reply, sessionOptions, request.session, {
        userId: user.id,
        mfaPending: user.requireMfa,
      });
      const grants = await loadUserGrants(pool, user.id);
      request.log.info({ userId: user.id, mfa: user.requireMfa }, 'signed in');
      return {
        user: toUserInfo(user, grants),
        session: { expiresAt: session.expiresAt.toISOString(), mfaPending: session.mfaPending },
        require_mfa: user.requireMfa,
        csrfToken: session.csrfToken,
      };
    },

    async getCredential(request) {
      const caller = requireCaller(request);
      return { user: toUserInfo(caller.user, caller.grants), csrfToken: caller.session.csrfToken };
    },

    async logout(request, reply) {
      const caller = requireCaller(request);
      await endSession(pool, reply, sessionOptions, caller.session);
      return caller.session.ssoLogoutUrl
        ? { success: true, redirectUrl: caller.session.ssoLogoutUrl }
        : { success: true };
    },
  };
}
