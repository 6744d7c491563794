import { CookieJar } from './oidcProvider.js';

/**
 * A browser at the demo's stand-in for Xero's sign-in (server/demo/xeroIdentity.ts): follows an authorization URL
 * through its page (sign-in and the organisation) and its redirects until one leads to the app's callback, which it
 * answers without following.
 */
export async function authorizeAtXero(
  authorizationUrl: string,
  callbackUrl: string,
  choice: { tenantId: string; action?: 'allow' | 'cancel' },
): Promise<string> {
  const jar = new CookieJar();
  let url = authorizationUrl;
  let init: RequestInit = { method: 'GET' };
  for (let step = 0; step < 12; step += 1) {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...init.headers, cookie: jar.header() },
    });
    jar.store(response);
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, url).href;
      if (next.startsWith(callbackUrl)) return next;
      url = next;
      init = { method: 'GET' };
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!response.ok || !action) throw new Error(`Xero (demo) answered ${response.status}: ${html.slice(0, 300)}`);
    url = new URL(
      action.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))),
      url,
    ).href;
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        login: 'accounts@fixture.test',
        tenant: choice.tenantId,
        action: choice.action ?? 'allow',
      }).toString(),
    };
  }
  throw new Error('Xero (demo) did not send the browser back');
}
