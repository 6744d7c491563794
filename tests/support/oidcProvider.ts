import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { Provider } from 'oidc-provider';
import { listenOnLoopback } from '../../server/demo/loopback.js';

export interface OidcProviderOptions {
  /** Defaults to a free port chosen by the system. */
  port?: number;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
}

export interface RunningOidcProvider {
  /** `http://127.0.0.1:<port>`: the issuer identifier and the discovery base. */
  issuer: string;
  stop: () => Promise<void>;
}

/**
 * A real OpenID Connect provider (oidc-provider) on the loopback interface, for tests.
 *
 * Sign-in uses the provider's development pages (devInteractions): a login form that accepts any login name and any
 * password, then a consent form. The account's `sub` and `email` are the login name as typed. PKCE is required and
 * RP-initiated logout is on. As most providers do for the authorization code flow, the e-mail is served by the
 * userinfo endpoint rather than in the ID token.
 */
export async function startOidcProvider(options: OidcProviderOptions): Promise<RunningOidcProvider> {
  const server = http.createServer();
  const issuer = await listenOnLoopback(server, options.port);

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris,
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
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
  });
  server.on('request', provider.callback());

  return {
    issuer,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Cookies of one host, kept the simple way a test needs: by name, whatever their path. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const separator = pair.indexOf('=');
      if (separator < 0) continue;
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = '', raw = ''] = attribute.split('=').map((part) => part.trim());
        if (key.toLowerCase() === 'max-age') return Number(raw) <= 0;
        if (key.toLowerCase() === 'expires') return Date.parse(raw) <= Date.now();
        return false;
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

function decodeHtml(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_match, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_match, decimal: string) => String.fromCodePoint(Number(decimal)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The first form of a page: its action and its named fields with their values. */
export function parseForm(
  html: string,
  baseUrl: string,
): { action: string; fields: Record<string, string> } | undefined {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return undefined;
  const action = /\baction="([^"]*)"/i.exec(form[1] ?? '')?.[1];
  const fields: Record<string, string> = {};
  for (const input of (form[2] ?? '').matchAll(/<input\b([^>]*)>/gi)) {
    const attributes = input[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(attributes)?.[1];
    if (!name) continue;
    fields[decodeHtml(name)] = decodeHtml(/\bvalue="([^"]*)"/i.exec(attributes)?.[1] ?? '');
  }
  return { action: new URL(decodeHtml(action ?? ''), baseUrl).href, fields };
}

/**
 * Drives the provider's development sign-in pages like a browser would, with fetch and a cookie jar: from the
 * authorization URL, through the login form (any password) and the consent form, until the provider redirects to a
 * URL starting with `returnTo` (the relying party's callback), which it returns without following. With `password`,
 * the demo provider's sign-in page too (server/demo/ssoProvider.ts: a login and password form, no consent).
 */
export async function signInAtProvider(options: {
  authorizationUrl: string;
  login: string;
  returnTo: string;
  jar?: CookieJar;
  password?: string;
}): Promise<string> {
  const jar = options.jar ?? new CookieJar();
  let url = options.authorizationUrl;
  let init: RequestInit = { method: 'GET' };
  for (let step = 0; step < 20; step += 1) {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...init.headers, cookie: jar.header() },
    });
    jar.store(response);
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, url).href;
      if (next.startsWith(options.returnTo)) return next;
      url = next;
      init = { method: 'GET' };
      continue;
    }
    const html = await response.text();
    const form = response.ok ? parseForm(html, url) : undefined;
    if (!form) throw new Error(`The provider answered ${response.status} at ${url}: ${html.slice(0, 500)}`);
    const fields = { ...form.fields };
    if (fields.prompt === 'login' || (options.password !== undefined && 'login' in fields)) {
      fields.login = options.login;
      if ('password' in fields) fields.password = options.password ?? 'any-password';
    }
    url = form.action;
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    };
  }
  throw new Error('The provider did not redirect back within 20 steps.');
}
