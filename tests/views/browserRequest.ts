/*
 * Setup of the web test project (vitest.config.ts setupFiles), run before each test file's imports.
 *
 * jsdom runs on Node's Request, which cannot resolve the app client's same-origin relative URLs
 * ('/api/mall_report/daily?...') as a browser does; openapi-fetch takes globalThis.Request when src/api/client.ts
 * is imported. Relative URLs resolve against the page's location here, as in a browser.
 */
const NativeRequest = globalThis.Request;

class BrowserRequest extends NativeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, globalThis.location.href).href : input, init);
  }
}

if (typeof globalThis.location !== 'undefined') globalThis.Request = BrowserRequest as typeof Request;
