import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  allowInsecureRequests,
  authorizationCodeGrant,
  buildAuthorizationUrl,
  buildEndSessionUrl,
  type ClientAuth,
  ClientSecretBasic,
  ClientSecretPost,
  type Configuration,
  calculatePKCECodeChallenge,
  discovery,
  fetchUserInfo,
  None,
  randomNonce,
  randomPKCECodeVerifier,
  randomState,
} from 'openid-client';
import { type SsoErrorCode, ssoErrorPath } from '../../src/domain/ssoErrors.js';
import { isLoopback } from '../config.js';
import { HttpError } from '../errors.js';
import {
  findSsoDomain,
  type SsoDomainRow,
  saveSsoPending,
  saveSsoSignIn,
  takeSsoPending,
} from '../repositories/sso.js';
import { findUserByEmail } from '../repositories/users.js';
import type { AreaHandlers, OperationRequest, RouteDeps } from '../routes/types.js';
import { forgetSession } from './callerCache.js';
import {
  endStoredSession,
  hashSecret,
  newSecret,
  type SessionOptions,
  secureCookieFor,
  startSession,
} from './sessions.js';

/**
 * The cookie that ties the provider's answer to the browser that started the sign-on. SameSite=Lax, unlike the
 * session cookie: the callback is a top-level navigation coming from the provider's site, which a browser does not
 * send SameSite=Strict cookies with.
 */
export const SSO_COOKIE = 'sid_sso';
export const SSO_CALLBACK_PATH = '/api/login/callback';
/** How long the user has at the provider before the attempt expires. */
const PENDING_TTL_SECONDS = 15 * 60;
/** Discovered provider configurations are kept this long. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;

/**
 * What a call to start single sign-on is answered (a JSON error) when it cannot start. A navigation is sent to the
 * /sso page with a code instead (src/domain/ssoErrors.ts), whose fixed message the page shows.
 */
export const SSO_MESSAGES = {
  notSetUp: (domain: string) => `Single sign-on is not set up for ${domain}.`,
  unreachable: (domain: string) => `The sign-in service of ${domain} could not be reached. Please try again later.`,
} as const;

/** The app's /sso page after a successful sign-on. */
export const SSO_SUCCESS_PAGE = '/sso?status=success';

/** A failure that ends the sign-on with the user sent to /sso with its code; `reason` and `detail` are logged. */
class SsoFailure extends Error {
  constructor(
    readonly code: SsoErrorCode,
    readonly reason: string,
    readonly detail?: unknown,
  ) {
    super(reason);
  }
}

/** Client authentication at the token endpoint: Basic (the OpenID default) unless the provider only takes POST. */
function clientAuthentication(clientSecret: string | null): ClientAuth {
  if (!clientSecret) return None();
  const basic = ClientSecretBasic(clientSecret);
  const post = ClientSecretPost(clientSecret);
  return (server, client, body, headers) => {
    const supported = server.token_endpoint_auth_methods_supported;
    const onlyPost =
      supported !== undefined && !supported.includes('client_secret_basic') && supported.includes('client_secret_post');
    (onlyPost ? post : basic)(server, client, body, headers);
  };
}

/** Plain HTTP is only allowed for a provider on this machine (development and tests). */
function isLoopbackHttp(issuer: URL): boolean {
  return issuer.protocol === 'http:' && isLoopback(issuer.hostname.replace(/^\[|\]$/g, ''));
}

/** Discovered provider configurations, by issuer and client, kept in memory for an hour. */
function createDiscoveryCache() {
  const entries = new Map<string, { expiresAt: number; configuration: Promise<Configuration> }>();
  return (provider: SsoDomainRow): Promise<Configuration> => {
    const key = JSON.stringify([provider.issuer, provider.clientId, provider.clientSecret]);
    const cached = entries.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.configuration;
    const issuer = new URL(provider.issuer);
    const configuration = discovery(issuer, provider.clientId, undefined, clientAuthentication(provider.clientSecret), {
      execute: isLoopbackHttp(issuer) ? [allowInsecureRequests] : [],
      timeout: 10,
    });
    entries.set(key, { expiresAt: Date.now() + DISCOVERY_TTL_MS, configuration });
    // A failed discovery is tried again on the next sign-on rather than remembered.
    configuration.catch(() => {
      if (entries.get(key)?.configuration === configuration) entries.delete(key);
    });
    return configuration;
  };
}

const wantsPage = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/html');

function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1);
}

/** Single sign-on with the OpenID Connect provider of the user's e-mail domain (authorization code flow, PKCE). */
export function ssoHandlers({ pool, config, demoSso }: RouteDeps) {
  const sessionOptions: SessionOptions = { ttlHours: config.sessionTtlHours, secureCookies: config.secureCookies };
  const redirectUri = `${config.publicUrl}${SSO_CALLBACK_PATH}`;
  const discover = createDiscoveryCache();
  const cookieOptions = (reply: FastifyReply) => ({
    path: SSO_CALLBACK_PATH,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: secureCookieFor(reply, sessionOptions),
  });

  /** The answer to a navigation is the /sso page with the message; to a call, a JSON error. */
  function refuseStart(
    request: FastifyRequest,
    reply: FastifyReply,
    statusCode: number,
    code: SsoErrorCode,
    message: string,
  ): FastifyReply {
    if (wantsPage(request)) return reply.redirect(ssoErrorPath(code));
    throw new HttpError(statusCode, message);
  }

  async function finish(request: OperationRequest<'finishSso'>, reply: FastifyReply): Promise<string> {
    const { query } = request;
    const binding = request.cookies[SSO_COOKIE];
    if (!binding || binding.length > 100) throw new SsoFailure('expired', 'no sign-on cookie');
    reply.clearCookie(SSO_COOKIE, cookieOptions(reply));
    const taken = await takeSsoPending(pool, hashSecret(binding));
    if (!taken) throw new SsoFailure('expired', 'no pending sign-on');
    const { pending } = taken;
    if (Date.now() - pending.startedAt > PENDING_TTL_SECONDS * 1000) {
      throw new SsoFailure('expired', 'pending sign-on too old');
    }
    if (query.error) {
      // The provider's code is logged, never shown: the page shows a fixed message.
      throw new SsoFailure(query.error === 'access_denied' ? 'cancelled' : 'refused', 'provider error', query.error);
    }
    if (query.state !== pending.state) throw new SsoFailure('mismatch', 'state mismatch');
    if (!query.code) throw new SsoFailure('failed', 'no code');

    const provider = await findSsoDomain(pool, pending.domain);
    if (!provider) throw new SsoFailure('not_set_up', 'provider removed', pending.domain);
    const configuration = await discover(provider).catch((error: unknown) => {
      throw new SsoFailure('unreachable', 'discovery failed', error);
    });

    // The URL the provider sent the browser to: the registered redirect URI with the answer's query.
    const currentUrl = new URL(redirectUri);
    currentUrl.search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const tokens = await authorizationCodeGrant(configuration, currentUrl, {
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      pkceCodeVerifier: pending.codeVerifier,
    }).catch((error: unknown) => {
      throw new SsoFailure('failed', 'code exchange failed', error);
    });
    const claims = tokens.claims();
    if (!claims) throw new SsoFailure('failed', 'no ID token');

    let identity: Record<string, unknown> = claims;
    if (typeof claims.email !== 'string' && configuration.serverMetadata().userinfo_endpoint) {
      identity = await fetchUserInfo(configuration, tokens.access_token, claims.sub).catch((error: unknown) => {
        throw new SsoFailure('failed', 'userinfo failed', error);
      });
    }
    if (typeof identity.email !== 'string' || !identity.email.includes('@')) {
      throw new SsoFailure('no_email', 'no email claim');
    }
    const email = identity.email.trim().toLowerCase();
    if (identity.email_verified === false) throw new SsoFailure('unverified', 'email not verified', email);
    if (emailDomain(email) !== pending.domain) {
      throw new SsoFailure('wrong_domain', 'email of another domain', { email, domain: pending.domain });
    }
    const user = await findUserByEmail(pool, email);
    if (!user || user.disabled) throw new SsoFailure('no_account', 'no such account', email);

    // The provider did the authentication: no one-time code here.
    if (request.session && request.session.tokenHash !== taken.session.tokenHash) {
      await endStoredSession(pool, request.session.tokenHash);
    }
    const session = await startSession(pool, reply, sessionOptions, taken.session, {
      userId: user.id,
      mfaPending: false,
    });
    const idToken = tokens.id_token ?? null;
    const logoutUrl =
      idToken && configuration.serverMetadata().end_session_endpoint
        ? buildEndSessionUrl(configuration, {
            id_token_hint: idToken,
            post_logout_redirect_uri: `${config.publicUrl}/login`,
          }).href
        : null;
    await saveSsoSignIn(pool, session.tokenHash, { logoutUrl, idToken });
    forgetSession(session.tokenHash);
    request.log.info({ userId: user.id, domain: pending.domain }, 'signed in with single sign-on');
    return SSO_SUCCESS_PAGE;
  }

  return {
    async startSso(request, reply) {
      const domain = request.query.domain.toLowerCase();
      if (demoSso && domain === demoSso.domain) {
        // The demo's provider may be another instance's that has stopped: then this instance takes over.
        await demoSso.settle().catch((error: unknown) => {
          request.log.error({ err: error, domain }, "the demo's identity provider could not be settled");
        });
      }
      const provider = await findSsoDomain(pool, domain);
      if (!provider) return refuseStart(request, reply, 404, 'not_set_up', SSO_MESSAGES.notSetUp(domain));
      let configuration: Configuration;
      try {
        configuration = await discover(provider);
      } catch (error) {
        request.log.error({ err: error, domain, issuer: provider.issuer }, 'single sign-on discovery failed');
        return refuseStart(request, reply, 502, 'unreachable', SSO_MESSAGES.unreachable(domain));
      }

      const session =
        request.session ?? (await startSession(pool, reply, sessionOptions, null, { userId: null, mfaPending: false }));
      const binding = newSecret();
      const codeVerifier = randomPKCECodeVerifier();
      const state = randomState();
      const nonce = randomNonce();
      await saveSsoPending(pool, session.tokenHash, {
        state,
        nonce,
        codeVerifier,
        domain,
        bindingHash: hashSecret(binding),
        startedAt: Date.now(),
      });
      reply.setCookie(SSO_COOKIE, binding, { ...cookieOptions(reply), maxAge: PENDING_TTL_SECONDS });
      const authorizationUrl = buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope: 'openid email',
        code_challenge: await calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return reply.redirect(authorizationUrl.href);
    },

    async finishSso(request, reply) {
      try {
        return reply.redirect(await finish(request, reply));
      } catch (error) {
        if (error instanceof SsoFailure) {
          request.log.warn({ reason: error.reason, err: error.detail }, 'single sign-on failed');
          return reply.redirect(ssoErrorPath(error.code));
        }
        request.log.error({ err: error }, 'single sign-on failed');
        return reply.redirect(ssoErrorPath('failed'));
      }
    },
  } satisfies AreaHandlers;
}
