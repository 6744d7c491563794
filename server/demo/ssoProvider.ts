import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { SSO_CALLBACK_PATH } from '../auth/sso.js';
import { isLoopback } from '../config.js';
import { escapeHtml, formOf, sendHtml } from './htmlForms.js';
import { listenOnLoopback } from './loopback.js';

/** The e-mail domain whose accounts sign in with the demo's identity provider. */
export const DEMO_SSO_DOMAIN = 'demo.mall';
export const DEMO_SSO_CLIENT_ID = 'mall-analytics-demo';

export interface DemoSsoProvider {
  /** `http://127.0.0.1:<port>`: the issuer and its discovery base. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop: () => Promise<void>;
}

export interface DemoSsoOptions {
  /** Where the app is reached (its callback and post-logout addresses). */
  publicUrl: string;
  /** The account id (its e-mail) of a login and password the provider accepts, else undefined. */
  authenticate: (login: string, password: string) => Promise<string | undefined>;
  /** Defaults to a free port. */
  port?: number;
}

function loginPage(uid: string, options: { login?: string; error?: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Demo sign-in service</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem}label{display:block;margin:.75rem 0 .25rem}
input{width:100%;padding:.5rem;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem}.error{color:#a00}</style></head>
<body><main><h1>Demo sign-in service</h1>
<p>The identity provider of <strong>${DEMO_SSO_DOMAIN}</strong> in the demo: sign in with a demo account of that domain and its password.</p>
${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : ''}
<form method="post" action="/interaction/${encodeURIComponent(uid)}/login" autocomplete="off">
<label for="login">E-mail</label><input id="login" name="login" type="email" required value="${escapeHtml(options.login ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" required>
<button type="submit">Sign in</button></form></main></body></html>`;
}

/**
 * Whether `value` is the address `path` of an app this provider serves: under `publicUrl`, or of any app on this
 * machine (plain HTTP on a loopback address), since every instance on the database signs in with the one provider
 * they agree on (server/demo/ssoIssuer.ts), each at its own address.
 */
function isAppAddress(value: string, path: string, publicUrl: string): boolean {
  if (value === `${publicUrl}${path}`) return true;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    url.protocol === 'http:' &&
    isLoopback(url.hostname.replace(/^\[|\]$/g, '')) &&
    url.pathname.endsWith(path) &&
    url.search === '' &&
    url.hash === '' &&
    url.username === '' &&
    url.password === ''
  );
}

/**
 * The demo's OpenID Connect provider (oidc-provider) on the loopback interface, so that "Sign in with SSO" completes
 * on a fresh clone: its sign-in page takes a demo account's e-mail and password (checked by `authenticate`), then
 * sends the browser back to the app (the app is the only client; no consent page). Authorization code flow with
 * PKCE, e-mail served by userinfo, RP-initiated logout. oidc-provider is loaded only when the demo provider starts.
 */
export async function startDemoSsoProvider(options: DemoSsoOptions): Promise<DemoSsoProvider> {
  const { Provider } = await import('oidc-provider');
  const server = http.createServer();
  const issuer = await listenOnLoopback(server, options.port);
  const clientSecret = randomBytes(24).toString('base64url');

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: DEMO_SSO_CLIENT_ID,
        client_secret: clientSecret,
        redirect_uris: [`${options.publicUrl}${SSO_CALLBACK_PATH}`],
        post_logout_redirect_uris: [`${options.publicUrl}/login`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, email: sub, email_verified: true }),
    }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
  });
  // The callback and the post-logout page of any instance on this machine, not only this one's.
  provider.Client.prototype.redirectUriAllowed = (value) => isAppAddress(value, SSO_CALLBACK_PATH, options.publicUrl);
  provider.Client.prototype.postLogoutRedirectUriAllowed = (value) => isAppAddress(value, '/login', options.publicUrl);
  const callback = provider.callback();

  async function interaction(request: IncomingMessage, response: ServerResponse) {
    const details = await provider.interactionDetails(request, response);
    if (request.method === 'GET') return sendHtml(response, 200, loginPage(details.uid, {}));
    const form = await formOf(request);
    const login = (form.get('login') ?? '').trim().toLowerCase();
    const accountId = await options.authenticate(login, form.get('password') ?? '');
    if (!accountId) {
      return sendHtml(response, 200, loginPage(details.uid, { login, error: 'The e-mail or password is incorrect.' }));
    }
    const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope('openid email');
    const grantId = await grant.save();
    await provider.interactionFinished(
      request,
      response,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!(request.url ?? '').startsWith('/interaction/')) return callback(request, response);
    interaction(request, response).catch(() => {
      if (!response.headersSent)
        sendHtml(response, 400, '<!doctype html><p>This sign-in has expired. Please start again.</p>');
    });
  });

  return {
    issuer,
    clientId: DEMO_SSO_CLIENT_ID,
    clientSecret,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
