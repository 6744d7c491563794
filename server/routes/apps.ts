import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { addDays, XERO_POST_MAX_DAYS_BACK, type XeroOutcome, xeroReturnPath } from '../../src/domain/apps.js';
import { hasPermission } from '../../src/domain/permissions.js';
import { type Caller, requireCaller } from '../auth/access.js';
import { cachedUserOf } from '../auth/callerCache.js';
import { hashSecret, newSecret, type SessionOptions, secureCookieFor } from '../auth/sessions.js';
import { XERO_CALLBACK_PATH } from '../config.js';
import { badRequest, forbidden, HttpError } from '../errors.js';
import { postDailySales } from '../jobs/xeroPosting.js';
import { findLiveSession } from '../repositories/sessions.js';
import {
  dayXeroPostings,
  deleteOldXeroAuthorizations,
  deleteXeroConnection,
  earliestMallToday,
  findXeroConnection,
  listXeroPostings,
  saveXeroAccounts,
  saveXeroAuthorization,
  takeXeroAuthorization,
} from '../repositories/xero.js';
import {
  completeXeroConnection,
  disconnectXero,
  infoOf,
  NOT_CONNECTED,
  readXeroInfo,
  XeroConnectFailure,
  type XeroDeps,
  xeroDepsOf,
} from '../xero/connection.js';
import { cachedOptionsOf } from '../xero/journal.js';
import { authorizationUrl, randomState, randomVerifier } from '../xero/oauth.js';
import type { AreaHandlers, OperationRequest, RouteDeps } from './types.js';

/**
 * The Apps area: the client's Xero connection (OAuth 2.0 authorization code with PKCE, the callback bound to the
 * session that started it), the accounts of the daily sales journals, disconnecting, and the posting log with a
 * "post this day now". Connecting, choosing accounts, posting and disconnecting act for the whole client: a caller
 * limited to some of its outlets may only read.
 */

/** The cookie that ties Xero's answer to the browser that started the connection (SameSite=Lax: see sso.ts). */
export const XERO_COOKIE = 'sid_xero';
/** How long the user has at Xero before the attempt expires. */
export const XERO_ATTEMPT_TTL_SECONDS = 10 * 60;

/** The answers of a Xero operation that cannot go on (the turnover-rent invoices' too: routes/rentInvoices.ts). */
export const NOT_SET_UP = 'Xero is not set up on this server.';
export const NOT_CONNECTED_MESSAGE = 'The client is not connected to Xero.';
export const EXPIRED_MESSAGE = "The client's Xero connection has expired: connect it again.";
export const UNAVAILABLE_MESSAGE = 'Xero could not be reached. Please try again later.';
const NO_ACCOUNTS_MESSAGE = 'Choose the sales account, the tax rate and the clearing account first.';
const WHOLE_CLIENT_MESSAGE = 'Only a user who sees every outlet of the client can change its Xero connection.';

/** A callback that does not complete, with the outcome the page shows and the reason the log keeps. */
class CallbackFailure extends Error {
  constructor(
    readonly outcome: XeroOutcome,
    readonly reason: string,
  ) {
    super(reason);
  }
}

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** The outlets of the client a caller is limited to; undefined when they see all of them (or are the super admin). */
function outletLimitOf(caller: Caller, clientId: number): readonly number[] | undefined {
  return caller.grants.isSuperAdmin ? undefined : caller.grants.outletLimits.get(clientId);
}

function requireWholeClient(request: FastifyRequest, clientId: number): Caller {
  const caller = requireCaller(request);
  if (outletLimitOf(caller, clientId) !== undefined) throw forbidden(WHOLE_CLIENT_MESSAGE);
  return caller;
}

/** Each choice of the accounts, the options it must be one of, and what it is (for the 400). */
const OPTION_FIELDS = [
  { field: 'sales_account', list: 'salesAccounts', what: 'a sales account' },
  { field: 'tax_account', list: 'taxAccounts', what: 'a tax rate for revenue' },
  { field: 'clearing_account', list: 'clearingAccounts', what: 'a bank or current asset account' },
] as const;

export function appsHandlers({ pool, config }: RouteDeps) {
  const base = xeroDepsOf(pool, config);
  const sessionOptions: SessionOptions = { ttlHours: config.sessionTtlHours, secureCookies: config.secureCookies };
  const cookieOptions = (reply: FastifyReply) => ({
    path: XERO_CALLBACK_PATH,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: secureCookieFor(reply, sessionOptions),
  });

  /** The Xero deps of a request (its logger), or 409 when Xero is not set up. */
  function xeroFor(request: FastifyRequest): XeroDeps {
    if (!base) throw new HttpError(409, NOT_SET_UP);
    return { ...base, log: request.log };
  }

  /** Whether the user of the session that started the attempt may still connect the client. */
  async function mayStillConnect(sessionTokenHash: string, userId: number, clientId: number): Promise<XeroOutcome> {
    const session = await findLiveSession(pool, sessionTokenHash);
    if (!session || session.userId !== userId || session.mfaPending) return 'signed_out';
    const known = await cachedUserOf(pool, session);
    if (!known || known.user.passwordExpired) return 'signed_out';
    const { grants } = known;
    const allowed =
      grants.isSuperAdmin ||
      (hasPermission(grants.apiPermissions, '/api/apps/xero/connect', 'POST') &&
        grants.clientIds.includes(clientId) &&
        !grants.outletLimits.has(clientId));
    return allowed ? 'connected' : 'not_allowed';
  }

  async function finish(request: OperationRequest<'finishXeroConnect'>, reply: FastifyReply): Promise<void> {
    const { query } = request;
    const binding = request.cookies[XERO_COOKIE];
    if (!binding || binding.length > 100) throw new CallbackFailure('expired', 'no callback cookie');
    reply.clearCookie(XERO_COOKIE, cookieOptions(reply));
    const attempt = await takeXeroAuthorization(pool, hashSecret(binding));
    if (!attempt) throw new CallbackFailure('expired', 'no attempt under way');
    if (Date.now() - attempt.startedAt.getTime() > XERO_ATTEMPT_TTL_SECONDS * 1000) {
      throw new CallbackFailure('expired', 'attempt too old');
    }
    if (query.error) {
      throw new CallbackFailure(
        query.error === 'access_denied' ? 'cancelled' : 'refused',
        `Xero answered ${/^[a-z_]{1,64}$/.test(query.error) ? query.error : 'an error'}`,
      );
    }
    if (!query.state || !sameText(query.state, attempt.state)) throw new CallbackFailure('mismatch', 'state mismatch');
    if (!query.code) throw new CallbackFailure('failed', 'no code');
    const standing = await mayStillConnect(attempt.sessionTokenHash, attempt.userId, attempt.clientId);
    if (standing !== 'connected') throw new CallbackFailure(standing, 'the session may no longer connect');
    if (!base) throw new CallbackFailure('not_set_up', 'Xero is not set up');
    try {
      const connected = await completeXeroConnection(
        { ...base, log: request.log },
        { clientId: attempt.clientId, userId: attempt.userId, code: query.code, codeVerifier: attempt.codeVerifier },
      );
      request.log.info(
        { clientId: attempt.clientId, userId: attempt.userId, tenantId: connected.tenantId },
        'Xero connected',
      );
    } catch (error) {
      if (error instanceof XeroConnectFailure) throw new CallbackFailure(error.outcome, error.reason);
      throw error;
    }
  }

  return {
    async getXeroInfo(request) {
      if (!base) return NOT_CONNECTED;
      return readXeroInfo({ ...base, log: request.log }, request.query.client_id);
    },

    async startXeroConnect(request, reply) {
      const clientId = request.body.client_id;
      const caller = requireWholeClient(request, clientId);
      const xero = xeroFor(request);
      await deleteOldXeroAuthorizations(pool, XERO_ATTEMPT_TTL_SECONDS);
      const binding = newSecret();
      const attempt = { state: randomState(), codeVerifier: randomVerifier() };
      await saveXeroAuthorization(pool, {
        bindingHash: hashSecret(binding),
        sessionTokenHash: caller.session.tokenHash,
        userId: caller.user.id,
        clientId,
        ...attempt,
      });
      reply.setCookie(XERO_COOKIE, binding, { ...cookieOptions(reply), maxAge: XERO_ATTEMPT_TTL_SECONDS });
      return { authorizationUrl: authorizationUrl(xero.setting, attempt) };
    },

    async finishXeroConnect(request, reply) {
      try {
        await finish(request, reply);
        return reply.redirect(xeroReturnPath('connected'));
      } catch (error) {
        if (error instanceof CallbackFailure) {
          request.log.warn({ outcome: error.outcome, reason: error.reason }, 'Xero connection not made');
          return reply.redirect(xeroReturnPath(error.outcome));
        }
        request.log.error({ err: error }, 'Xero connection failed');
        return reply.redirect(xeroReturnPath('failed'));
      }
    },

    async updateXeroSettings(request) {
      const { client_id: clientId, ...chosen } = request.body;
      requireWholeClient(request, clientId);
      const xero = xeroFor(request);
      const connection = await findXeroConnection(pool, clientId);
      if (!connection) throw new HttpError(409, NOT_CONNECTED_MESSAGE);
      const options = cachedOptionsOf(connection.options);
      for (const { field, list, what } of OPTION_FIELDS) {
        if (!options[list].some((option) => option.code === chosen[field])) {
          throw badRequest(`body/${field} must be ${what} of ${connection.organisationName}`);
        }
      }
      await saveXeroAccounts(pool, clientId, {
        salesAccount: chosen.sales_account,
        taxType: chosen.tax_account,
        clearingAccount: chosen.clearing_account,
      });
      request.log.info({ clientId, ...chosen }, 'Xero accounts chosen');
      return readXeroInfo(xero, clientId).catch(() =>
        infoOf(
          {
            ...connection,
            salesAccount: chosen.sales_account,
            taxType: chosen.tax_account,
            clearingAccount: chosen.clearing_account,
          },
          connection.refreshFailedAt !== null,
          options,
        ),
      );
    },

    async disconnectXero(request) {
      const clientId = request.query.client_id;
      requireWholeClient(request, clientId);
      if (base) await disconnectXero({ ...base, log: request.log }, clientId);
      else await deleteXeroConnection(pool, clientId);
      request.log.info({ clientId }, 'Xero disconnected');
      return NOT_CONNECTED;
    },

    async getXeroPostings(request) {
      const { client_id: clientId, page, rowsPerPage, sortColumn, order } = request.query;
      const caller = requireCaller(request);
      return listXeroPostings(pool, {
        clientId,
        outletIds: outletLimitOf(caller, clientId),
        page: page ?? 1,
        rowsPerPage: rowsPerPage ?? 10,
        sortColumn: sortColumn ?? 'day',
        order: order ?? 'desc',
      });
    },

    async postXeroDay(request) {
      const { client_id: clientId, day } = request.body;
      requireWholeClient(request, clientId);
      const xero = xeroFor(request);
      const today = await earliestMallToday(pool, clientId);
      if (today === undefined || day >= today) {
        throw badRequest(
          today === undefined
            ? 'body/day cannot be posted: the client has no malls'
            : `body/day must be a day that has ended in every mall of the client (before ${today})`,
        );
      }
      if (day < addDays(today, -XERO_POST_MAX_DAYS_BACK)) {
        throw badRequest(`body/day must be within the last ${XERO_POST_MAX_DAYS_BACK} days`);
      }
      const result = await postDailySales(xero, { clientId, day });
      if (result.status === 'notConnected') throw new HttpError(409, NOT_CONNECTED_MESSAGE);
      if (result.status === 'expired') throw new HttpError(409, EXPIRED_MESSAGE);
      if (result.status === 'noAccounts') throw new HttpError(409, NO_ACCOUNTS_MESSAGE);
      if (result.status === 'unavailable' && result.posted + result.failed + result.skipped === 0) {
        throw new HttpError(502, UNAVAILABLE_MESSAGE);
      }
      request.log.info({ clientId, day, ...result }, 'Xero day posted on request');
      return { day, postedNow: result.posted, rows: await dayXeroPostings(pool, clientId, day, undefined) };
    },
  } satisfies AreaHandlers;
}
