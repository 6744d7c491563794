import { randomBytes, randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { escapeHtml, formOf, sendHtml } from './htmlForms.js';
import { listenOnLoopback } from './loopback.js';

/**
 * The demo's stand-in for Xero's identity service (identity.xero.com), an OAuth 2.0 authorization server run with
 * oidc-provider on the loopback interface: the authorization code flow with PKCE required, client_secret_basic at
 * the token endpoint, refresh tokens that rotate on every use (as Xero's do), revocation, and opaque access tokens
 * for the accounting API (the resource `XERO_DEMO_RESOURCE`). Its one page signs a user in and asks which
 * organisation to connect; each grant remembers the organisations it was given, as Xero's /connections tells.
 * oidc-provider is loaded only when it starts.
 */

export const XERO_DEMO_RESOURCE = 'https://api.xero.com';
export const XERO_DEMO_CLIENT_ID = 'mall-analytics-xero-demo';
/** The scopes of the accounting API that its tokens may carry. */
export const XERO_RESOURCE_SCOPES = ['accounting.transactions', 'accounting.settings'] as const;
const OIDC_SCOPES = ['openid', 'profile', 'email', 'offline_access'];
export const ACCESS_TOKEN_TTL_SECONDS = 30 * 60;
const REFRESH_TOKEN_TTL_SECONDS = 60 * 24 * 60 * 60;

export interface DemoOrganisationRef {
  tenantId: string;
  name: string;
}

/** One of Xero's connections: an organisation a grant may use (GET /connections). */
export interface XeroConnectionEntry {
  id: string;
  authEventId: string;
  tenantId: string;
  tenantType: 'ORGANISATION';
  tenantName: string;
  createdDateUtc: string;
  updatedDateUtc: string;
}

export interface VerifiedToken {
  grantId: string;
  scopes: ReadonlySet<string>;
}

export interface XeroIdentity {
  /** `http://127.0.0.1:<port>`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  /** The grant and scopes of an access token for the accounting API that has not expired; undefined otherwise. */
  verifyAccessToken: (token: string) => Promise<VerifiedToken | undefined>;
  /** The organisations a grant may use. */
  connectionsOf: (grantId: string) => readonly XeroConnectionEntry[];
  /** Token grants answered by the token endpoint, by grant type (tests count the refreshes). */
  grantsIssued: Readonly<Record<string, number>>;
  stop: () => Promise<void>;
}

export interface XeroIdentityOptions {
  /** The app's callback addresses. */
  redirectUris: string[];
  organisations: readonly DemoOrganisationRef[];
  /** Defaults to a free port. */
  port?: number;
  /** Defaults to 30 minutes, as Xero's. */
  accessTokenTtlSeconds?: number;
}

function consentPage(uid: string, organisations: readonly DemoOrganisationRef[], error?: string): string {
  const choices = organisations
    .map(
      (organisation, index) =>
        `<label class="choice"><input type="radio" name="tenant" value="${escapeHtml(organisation.tenantId)}"${
          index === 0 ? ' checked' : ''
        }> ${escapeHtml(organisation.name)}</label>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Xero (demo): connect an organisation</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem}label{display:block;margin:.75rem 0 .25rem}
input[type=email]{width:100%;padding:.5rem;box-sizing:border-box}fieldset{margin:1rem 0}.choice{margin:.5rem 0}
button{margin:1rem .5rem 0 0;padding:.5rem 1rem}.error{color:#a00}</style></head>
<body><main><h1>Xero (demo): connect an organisation</h1>
<p>The demo's stand-in for Xero's sign-in. <strong>Mall Analytics</strong> asks to post journals and invoices to your organisation and to read its accounts and tax rates.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${encodeURIComponent(uid)}/confirm" autocomplete="off">
<label for="login">E-mail</label><input id="login" name="login" type="email" required value="accounts@demo.mall">
<fieldset><legend>Organisation</legend>
${choices}
</fieldset>
<button type="submit" name="action" value="allow">Allow access</button>
<button type="submit" name="action" value="cancel" formnovalidate>Cancel</button>
</form></main></body></html>`;
}

export async function startXeroIdentity(options: XeroIdentityOptions): Promise<XeroIdentity> {
  const { Provider, errors } = await import('oidc-provider');
  const server = http.createServer();
  const issuer = await listenOnLoopback(server, options.port);
  const clientSecret = randomBytes(24).toString('base64url');
  const accessTokenTtl = options.accessTokenTtlSeconds ?? ACCESS_TOKEN_TTL_SECONDS;
  const connections = new Map<string, XeroConnectionEntry[]>();
  const grantsIssued: Record<string, number> = {};

  // Access tokens are for the accounting API (one resource), opaque, with its scopes.
  const resourceIndicators = {
    enabled: true,
    defaultResource: () => XERO_DEMO_RESOURCE,
    useGrantedResource: () => true,
    getResourceServerInfo: (_ctx: unknown, resource: string) => {
      if (resource !== XERO_DEMO_RESOURCE) throw new errors.InvalidTarget();
      return {
        scope: XERO_RESOURCE_SCOPES.join(' '),
        audience: XERO_DEMO_RESOURCE,
        accessTokenFormat: 'opaque',
        accessTokenTTL: accessTokenTtl,
      };
    },
  };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: XERO_DEMO_CLIENT_ID,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, email: sub }) }),
    claims: { openid: ['sub'], email: ['email'] },
    scopes: OIDC_SCOPES,
    cookies: { keys: [randomBytes(16).toString('hex')] },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      resourceIndicators,
    },
    routes: {
      authorization: '/connect/authorize',
      token: '/connect/token',
      revocation: '/connect/revocation',
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    // Xero gives a refresh token to a client that asks for offline_access; oidc-provider keeps that scope only
    // with prompt=consent, which Xero does not need: the app's client always gets one.
    issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed: (type: string) => boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: () => true,
    ttl: {
      AccessToken: accessTokenTtl,
      AuthorizationCode: 60,
      Grant: REFRESH_TOKEN_TTL_SECONDS,
      Interaction: 600,
      Session: 3600,
      RefreshToken: REFRESH_TOKEN_TTL_SECONDS,
    },
  });
  provider.on('grant.revoked', (_ctx, grantId) => {
    if (typeof grantId === 'string') connections.delete(grantId);
  });
  provider.on('grant.success', (ctx) => {
    const grantType = (ctx as { oidc?: { params?: { grant_type?: unknown } } }).oidc?.params?.grant_type;
    if (typeof grantType === 'string') grantsIssued[grantType] = (grantsIssued[grantType] ?? 0) + 1;
  });
  const callback = provider.callback();

  async function interaction(request: IncomingMessage, response: ServerResponse) {
    const details = await provider.interactionDetails(request, response);
    if (request.method === 'GET') return sendHtml(response, 200, consentPage(details.uid, options.organisations));
    const form = await formOf(request);
    if (form.get('action') !== 'allow') {
      return provider.interactionFinished(
        request,
        response,
        { error: 'access_denied', error_description: 'The user cancelled the connection.' },
        { mergeWithLastSubmission: false },
      );
    }
    const login = (form.get('login') ?? '').trim().toLowerCase();
    const organisation = options.organisations.find((candidate) => candidate.tenantId === form.get('tenant'));
    if (!login.includes('@') || !organisation) {
      return sendHtml(
        response,
        200,
        consentPage(details.uid, options.organisations, 'Enter an e-mail address and choose an organisation.'),
      );
    }
    const requested = String(details.params.scope ?? '').split(' ');
    const grant = new provider.Grant({ accountId: login, clientId: String(details.params.client_id) });
    grant.addOIDCScope(requested.filter((scope) => OIDC_SCOPES.includes(scope)).join(' '));
    grant.addResourceScope(
      XERO_DEMO_RESOURCE,
      requested.filter((scope) => (XERO_RESOURCE_SCOPES as readonly string[]).includes(scope)).join(' '),
    );
    const grantId = await grant.save();
    const now = new Date().toISOString();
    connections.set(grantId, [
      {
        id: randomUUID(),
        authEventId: randomUUID(),
        tenantId: organisation.tenantId,
        tenantType: 'ORGANISATION',
        tenantName: organisation.name,
        createdDateUtc: now,
        updatedDateUtc: now,
      },
    ]);
    await provider.interactionFinished(
      request,
      response,
      { login: { accountId: login }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!(request.url ?? '').startsWith('/interaction/')) return callback(request, response);
    interaction(request, response).catch(() => {
      if (!response.headersSent) {
        sendHtml(response, 400, '<!doctype html><p>This connection attempt has expired. Please start again.</p>');
      }
    });
  });

  return {
    issuer,
    clientId: XERO_DEMO_CLIENT_ID,
    clientSecret,
    authorizeUrl: `${issuer}/connect/authorize`,
    tokenUrl: `${issuer}/connect/token`,
    revokeUrl: `${issuer}/connect/revocation`,
    verifyAccessToken: async (token) => {
      const found = await provider.AccessToken.find(token).catch(() => undefined);
      if (!found || found.isExpired || !found.grantId) return undefined;
      const audience = Array.isArray(found.aud) ? found.aud : [found.aud];
      if (!audience.includes(XERO_DEMO_RESOURCE)) return undefined;
      return { grantId: found.grantId, scopes: new Set((found.scope ?? '').split(' ').filter(Boolean)) };
    },
    connectionsOf: (grantId) => connections.get(grantId) ?? [],
    grantsIssued,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
