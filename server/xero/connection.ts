import type { FastifyBaseLogger } from 'fastify';
import type { components } from '../../src/api/schema.js';
import type { Config, XeroSetting } from '../config.js';
import { inTransaction, type Pool } from '../db/pool.js';
import {
  deleteXeroConnection,
  findXeroConnection,
  markXeroRefreshFailed,
  saveXeroConnection,
  saveXeroOptions,
  saveXeroTokens,
  type XeroConnectionRow,
} from '../repositories/xero.js';
import { listTenantConnections, readAccounts, readOrganisation, readTaxRates } from './api.js';
import { type CachedOptions, cachedOptionsOf, NO_OPTIONS, optionsOf, publicOptionsOf } from './journal.js';
import { exchangeCode, refreshTokens, revokeToken, XeroAuthError } from './oauth.js';
import { decryptToken, encryptToken, loadTokenKey } from './tokenCrypto.js';

/**
 * A client's Xero connection: made from an authorization code, its access token kept fresh with the refresh token
 * grant (under the row's lock, since Xero rotates refresh tokens and a refresh token is good once), read for the
 * Apps page, and forgotten. Tokens are decrypted only here, to call Xero with.
 */

export type XeroLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** What every Xero operation needs: the database, Xero's endpoints and credentials, and the token key. */
export interface XeroDeps {
  pool: Pool;
  setting: XeroSetting;
  key: Buffer;
  log?: XeroLog;
}

/**
 * The deps of a configured server (XERO_* or the demo's stand-in); undefined without Xero. The token key is read
 * (or, kept in DATA_DIR, made) when first used, so a server that never meets a Xero token makes no key file.
 */
export function xeroDepsOf(pool: Pool, config: Pick<Config, 'xero' | 'dataDir'>, log?: XeroLog): XeroDeps | undefined {
  const setting = config.xero;
  if (!setting) return undefined;
  let key: Buffer | undefined;
  return {
    pool,
    setting,
    get key() {
      key ??= loadTokenKey(setting.tokenKey, config.dataDir);
      return key;
    },
    ...(log && { log }),
  };
}

/** The access token is refreshed when it expires within this. */
export const REFRESH_MARGIN_MS = 5 * 60 * 1000;
/** The organisation's accounts and tax rates are read again when older than this. */
export const OPTIONS_MAX_AGE_MS = 5 * 60 * 1000;

export type XeroAccess =
  | { status: 'ok'; accessToken: string; connection: XeroConnectionRow }
  | { status: 'none' }
  /** Xero refused the refresh token: the connection must be made again. */
  | { status: 'expired'; connection: XeroConnectionRow }
  /** The access token has expired and Xero could not be reached to refresh it. */
  | { status: 'unavailable'; connection: XeroConnectionRow };

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

function sealTokens(deps: XeroDeps, clientId: number, tokens: { accessToken: string; refreshToken: string }) {
  return {
    accessTokenEnc: encryptToken(deps.key, clientId, 'access', tokens.accessToken),
    refreshTokenEnc: encryptToken(deps.key, clientId, 'refresh', tokens.refreshToken),
  };
}

/** A stored token in clear; undefined when it does not open with this key (the key changed: connect again). */
function openToken(deps: XeroDeps, clientId: number, kind: 'access' | 'refresh', sealed: string): string | undefined {
  try {
    return decryptToken(deps.key, clientId, kind, sealed);
  } catch {
    deps.log?.warn(
      { clientId, kind },
      'A Xero token does not decrypt with the token key: the client must connect again',
    );
    return undefined;
  }
}

const expiresSoon = (connection: XeroConnectionRow, now: number) =>
  connection.accessExpiresAt.getTime() - now <= REFRESH_MARGIN_MS;

/**
 * A working access token of the client's connection: the stored one while it lasts more than five minutes, else a
 * new one from the refresh token grant. The refresh happens with the connection's row locked, so that two servers
 * or two requests never spend one refresh token twice (the second finds the new tokens).
 */
export async function xeroAccess(deps: XeroDeps, clientId: number, now: () => number = Date.now): Promise<XeroAccess> {
  const stored = await findXeroConnection(deps.pool, clientId);
  if (!stored) return { status: 'none' };
  if (stored.refreshFailedAt) return { status: 'expired', connection: stored };
  if (!expiresSoon(stored, now())) {
    const accessToken = openToken(deps, clientId, 'access', stored.accessTokenEnc);
    return accessToken === undefined
      ? { status: 'expired', connection: stored }
      : { status: 'ok', accessToken, connection: stored };
  }
  return inTransaction(deps.pool, async (tx): Promise<XeroAccess> => {
    const connection = await findXeroConnection(tx, clientId, { lock: true });
    if (!connection) return { status: 'none' };
    if (connection.refreshFailedAt) return { status: 'expired', connection };
    const current = openToken(deps, clientId, 'access', connection.accessTokenEnc);
    const refreshToken = openToken(deps, clientId, 'refresh', connection.refreshTokenEnc);
    if (current === undefined || refreshToken === undefined) return { status: 'expired', connection };
    if (!expiresSoon(connection, now())) return { status: 'ok', accessToken: current, connection };
    try {
      const tokens = await refreshTokens(deps.setting, refreshToken);
      await saveXeroTokens(tx, clientId, {
        ...sealTokens(deps, clientId, tokens),
        accessExpiresAt: tokens.expiresAt,
        scope: tokens.scope,
      });
      deps.log?.info({ clientId, expiresAt: tokens.expiresAt.toISOString() }, 'Xero access token refreshed');
      return {
        status: 'ok',
        accessToken: tokens.accessToken,
        connection: { ...connection, accessExpiresAt: tokens.expiresAt },
      };
    } catch (error) {
      if (error instanceof XeroAuthError && error.invalidGrant) {
        await markXeroRefreshFailed(tx, clientId);
        deps.log?.warn({ clientId }, 'Xero refused the refresh token: the connection must be made again');
        return { status: 'expired', connection: { ...connection, refreshFailedAt: new Date(now()) } };
      }
      deps.log?.warn({ clientId, reason: errorText(error) }, 'Xero access token refresh failed');
      if (connection.accessExpiresAt.getTime() > now()) return { status: 'ok', accessToken: current, connection };
      return { status: 'unavailable', connection };
    }
  });
}

/** The organisation's name, base currency and the options to choose from, read from Xero. */
export async function readXeroOrganisation(setting: XeroSetting, accessToken: string, tenantId: string) {
  const [organisation, accounts, taxRates] = await Promise.all([
    readOrganisation(setting, accessToken, tenantId),
    readAccounts(setting, accessToken, tenantId),
    readTaxRates(setting, accessToken, tenantId),
  ]);
  return {
    organisationName: organisation.name,
    baseCurrency: organisation.baseCurrency,
    options: optionsOf(accounts, taxRates, organisation.baseCurrency),
  };
}

/** A connection that could not be made, with the outcome the page shows. */
export class XeroConnectFailure extends Error {
  constructor(
    readonly outcome: 'refused' | 'no_organisation' | 'failed',
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'XeroConnectFailure';
  }
}

/**
 * Completes a connection: the code exchanged (with the attempt's PKCE verifier), the organisation the user just
 * authorised (the most recent of the token's connections) read, and the connection saved with its tokens sealed.
 */
export async function completeXeroConnection(
  deps: XeroDeps,
  attempt: { clientId: number; userId: number; code: string; codeVerifier: string },
): Promise<{ tenantId: string; organisationName: string }> {
  const tokens = await exchangeCode(deps.setting, { code: attempt.code, codeVerifier: attempt.codeVerifier }).catch(
    (error: unknown) => {
      throw new XeroConnectFailure(
        error instanceof XeroAuthError && error.status !== undefined ? 'refused' : 'failed',
        `code exchange: ${errorText(error)}`,
      );
    },
  );
  const connections = await listTenantConnections(deps.setting, tokens.accessToken).catch((error: unknown) => {
    throw new XeroConnectFailure('failed', `connections: ${errorText(error)}`);
  });
  const tenant = connections[0];
  if (!tenant) throw new XeroConnectFailure('no_organisation', 'the token has no organisation');
  const read = await readXeroOrganisation(deps.setting, tokens.accessToken, tenant.tenantId).catch((error: unknown) => {
    throw new XeroConnectFailure('failed', `organisation: ${errorText(error)}`);
  });
  await saveXeroConnection(deps.pool, {
    clientId: attempt.clientId,
    tenantId: tenant.tenantId,
    organisationName: read.organisationName || tenant.tenantName,
    baseCurrency: read.baseCurrency,
    ...sealTokens(deps, attempt.clientId, tokens),
    accessExpiresAt: tokens.expiresAt,
    scope: tokens.scope,
    connectedBy: attempt.userId,
    options: read.options,
  });
  return { tenantId: tenant.tenantId, organisationName: read.organisationName || tenant.tenantName };
}

/** Forgets the client's connection, then revokes its refresh token at Xero (a failure there is only logged). */
export async function disconnectXero(deps: XeroDeps, clientId: number): Promise<void> {
  const refreshTokenEnc = await deleteXeroConnection(deps.pool, clientId);
  const refreshToken =
    refreshTokenEnc === undefined ? undefined : openToken(deps, clientId, 'refresh', refreshTokenEnc);
  if (refreshToken === undefined) return;
  try {
    await revokeToken(deps.setting, refreshToken);
  } catch (error) {
    deps.log?.warn({ clientId, reason: errorText(error) }, 'Xero token revocation failed; the tokens are forgotten');
  }
}

export type XeroInfoResponse = components['schemas']['XeroInfoResponse'];

export const NOT_CONNECTED: XeroInfoResponse = {
  xeroInfo: null,
  isTokenExpired: false,
  xeroOptions: publicOptionsOf(NO_OPTIONS),
};

export function infoOf(connection: XeroConnectionRow, isTokenExpired: boolean, options: CachedOptions) {
  return {
    xeroInfo: {
      tenant_id: connection.tenantId,
      organisation_name: connection.organisationName,
      sales_account: connection.salesAccount,
      tax_account: connection.taxType,
      clearing_account: connection.clearingAccount,
      currency: connection.baseCurrency,
      connected_at: connection.connectedAt.toISOString(),
      connected_by: connection.connectedBy,
    },
    isTokenExpired,
    xeroOptions: publicOptionsOf(options),
  } satisfies XeroInfoResponse;
}

/**
 * The Apps page's view of the client's connection: the token refreshed first when it expires soon, and the
 * organisation's accounts and tax rates read again when older than five minutes (the stored ones when Xero cannot
 * be reached). Never a token.
 */
export async function readXeroInfo(
  deps: XeroDeps,
  clientId: number,
  now: () => number = Date.now,
): Promise<XeroInfoResponse> {
  const access = await xeroAccess(deps, clientId, now);
  if (access.status === 'none') return NOT_CONNECTED;
  let connection = access.connection;
  let options = cachedOptionsOf(connection.options);
  const stale = connection.optionsReadAt === null || now() - connection.optionsReadAt.getTime() > OPTIONS_MAX_AGE_MS;
  if (access.status === 'ok' && stale) {
    try {
      const read = await readXeroOrganisation(deps.setting, access.accessToken, connection.tenantId);
      await saveXeroOptions(deps.pool, clientId, read);
      options = read.options;
      connection = { ...connection, organisationName: read.organisationName, baseCurrency: read.baseCurrency };
    } catch (error) {
      deps.log?.warn(
        { clientId, reason: errorText(error) },
        'Xero accounts could not be read; the stored ones are shown',
      );
    }
  }
  return infoOf(connection, access.status === 'expired' || access.status === 'unavailable', options);
}
