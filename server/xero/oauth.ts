import { createHash, randomBytes } from 'node:crypto';
import type { XeroSetting } from '../config.js';

/**
 * Xero's OAuth 2.0 endpoints: the authorization code flow with PKCE (S256), the refresh token grant and revocation.
 * The client authenticates with HTTP Basic (client id and secret). Errors carry the status and the OAuth error code
 * only: never a token, a code or the answer's body.
 */

/** How long a call to Xero may take. */
export const XERO_TIMEOUT_MS = 15_000;

export interface XeroTokens {
  accessToken: string;
  refreshToken: string;
  /** When the access token expires. */
  expiresAt: Date;
  scope: string;
}

/** A refusal or failure of the token endpoint. `invalidGrant`: the code or refresh token is no longer good. */
export class XeroAuthError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly oauthError: string | undefined,
  ) {
    super(message);
    this.name = 'XeroAuthError';
  }

  get invalidGrant(): boolean {
    return this.oauthError === 'invalid_grant';
  }
}

/** A PKCE verifier (43 characters of base64url, 256 bits) and a state of the same strength. */
export const randomVerifier = () => randomBytes(32).toString('base64url');
export const randomState = () => randomBytes(32).toString('base64url');
export const codeChallengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** Xero's sign-in and consent page for this attempt. */
export function authorizationUrl(setting: XeroSetting, attempt: { state: string; codeVerifier: string }): string {
  const url = new URL(setting.authorizeUrl);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: setting.clientId,
    redirect_uri: setting.redirectUri,
    scope: setting.scopes,
    state: attempt.state,
    code_challenge: codeChallengeOf(attempt.codeVerifier),
    code_challenge_method: 'S256',
  }).toString();
  return url.href;
}

const formEncode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');

function basicAuth(setting: XeroSetting): string {
  const pair = `${formEncode(setting.clientId)}:${formEncode(setting.clientSecret)}`;
  return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
}

async function postForm(setting: XeroSetting, url: string, form: Record<string, string>): Promise<Response> {
  try {
    return await fetch(url, {
      method: 'POST',
      headers: {
        authorization: basicAuth(setting),
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(XERO_TIMEOUT_MS),
      redirect: 'error',
    });
  } catch (error) {
    throw new XeroAuthError(
      `Xero's identity service could not be reached (${(error as Error).name})`,
      undefined,
      undefined,
    );
  }
}

/** The OAuth error code of a refusal, when it has one of the standard form. */
async function oauthErrorOf(response: Response): Promise<string | undefined> {
  const body = (await response.json().catch(() => undefined)) as { error?: unknown } | undefined;
  return typeof body?.error === 'string' && /^[a-z_]{1,64}$/.test(body.error) ? body.error : undefined;
}

async function tokensOf(response: Response, previousRefreshToken?: string): Promise<XeroTokens> {
  if (!response.ok) {
    const oauthError = await oauthErrorOf(response);
    throw new XeroAuthError(
      `Xero's token endpoint answered ${response.status}${oauthError ? ` (${oauthError})` : ''}`,
      response.status,
      oauthError,
    );
  }
  const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  const accessToken = body?.access_token;
  const refreshToken = body?.refresh_token ?? previousRefreshToken;
  const expiresIn = body?.expires_in;
  if (typeof accessToken !== 'string' || typeof refreshToken !== 'string' || typeof expiresIn !== 'number') {
    throw new XeroAuthError(
      "Xero's token endpoint answered without an access token, refresh token or expiry",
      response.status,
      undefined,
    );
  }
  return {
    accessToken,
    refreshToken,
    expiresAt: new Date(Date.now() + expiresIn * 1000),
    scope: typeof body?.scope === 'string' ? body.scope : '',
  };
}

/** The authorization code grant, with the attempt's PKCE verifier. */
export async function exchangeCode(
  setting: XeroSetting,
  grant: { code: string; codeVerifier: string },
): Promise<XeroTokens> {
  const response = await postForm(setting, setting.tokenUrl, {
    grant_type: 'authorization_code',
    code: grant.code,
    redirect_uri: setting.redirectUri,
    code_verifier: grant.codeVerifier,
  });
  return tokensOf(response);
}

/** The refresh token grant. Xero rotates refresh tokens: the answer's replaces the one sent. */
export async function refreshTokens(setting: XeroSetting, refreshToken: string): Promise<XeroTokens> {
  const response = await postForm(setting, setting.tokenUrl, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
  });
  return tokensOf(response, refreshToken);
}

/** Revokes a refresh token (and with it the connection's access). */
export async function revokeToken(setting: XeroSetting, refreshToken: string): Promise<void> {
  const response = await postForm(setting, setting.revokeUrl, {
    token: refreshToken,
    token_type_hint: 'refresh_token',
  });
  if (!response.ok) {
    throw new XeroAuthError(`Xero's revocation endpoint answered ${response.status}`, response.status, undefined);
  }
}
