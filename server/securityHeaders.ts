import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The Content-Security-Policy of the app and the API. The built app loads its scripts from files of its own origin
 * (rsbuild writes no inline script), so scripts come from 'self' only. Blueprint and Highcharts position and
 * colour elements with style attributes, hence 'unsafe-inline' for styles (never for scripts).
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
} as const;

export const HSTS_HEADER = 'max-age=31536000; includeSubDomains';

/** Whether the request reached us over TLS (X-Forwarded-Proto counts only when TRUST_PROXY trusts the proxy). */
export const cameOverTls = (request: FastifyRequest) => request.protocol === 'https';

/**
 * The API reference's own policy (swagger-ui's static CSP) with the app's rules: never framed, and inline styles
 * (swagger-ui adds a style element) but no inline script. Its `upgrade-insecure-requests` is dropped, as the app's
 * policy has none: plain HTTP is a loopback demo.
 */
export function apiDocsPolicy(header: string): string {
  return header
    .replace(/frame-ancestors [^;]*;/, "frame-ancestors 'none';")
    .replace(/style-src ([^;]*);/, (_match, sources: string) => `style-src ${sources.trim()} 'unsafe-inline';`)
    .replace(/\s*upgrade-insecure-requests;?/, '')
    .trim();
}

/**
 * Security headers on every response: the CSP above, X-Content-Type-Options: nosniff, Referrer-Policy, framing
 * refused (X-Frame-Options with the CSP's frame-ancestors), and Strict-Transport-Security only when the request
 * came over TLS (a loopback demo over plain HTTP must not pin the browser to HTTPS).
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: { ...CONTENT_SECURITY_POLICY } },
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    // The machine inspector (`?inspect=stately`) talks to the window it opens.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  });
  app.addHook('onRequest', async (request, reply) => {
    if (cameOverTls(request)) reply.header('strict-transport-security', HSTS_HEADER);
  });
}
