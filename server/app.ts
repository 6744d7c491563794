import fs from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyServerOptions,
  type RouteHandlerMethod,
} from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import { registerAccessControl } from './auth/access.js';
import { ssoHandlers } from './auth/sso.js';
import type { Config } from './config.js';
import type { Pool } from './db/pool.js';
import { errorBody, HttpError } from './errors.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { listOperations, loadSpecification, OPENAPI_PATH } from './openapi.js';
import { authHandlers } from './routes/auth.js';
import { lookupHandlers } from './routes/lookup.js';
import { mallReportHandlers } from './routes/mallReports.js';
import { unbuiltHandlers } from './routes/notImplemented.js';
import { receiptHandlers } from './routes/receipts.js';
import { systemHandlers } from './routes/system.js';
import type { Handlers, OperationId, RouteDeps } from './routes/types.js';
import { apiDocsPolicy, registerSecurityHeaders } from './securityHeaders.js';

export interface AppDeps {
  pool: Pool;
  config: Config;
  logger?: FastifyServerOptions['logger'];
  /** Defaults to SMTP_URL, or the local outbox. */
  mailer?: Mailer;
}

/** Path prefixes that belong to the API: an unknown path under them is a JSON 404, never the app's page. */
const API_PREFIXES = ['/api', '/clients', '/outlets', '/malls', '/healthz'];
export const API_DOCS_PREFIX = '/api/docs';

function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? url;
  return API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** The handlers of every operation: the built ones of each area and the listed unbuilt ones, never both. */
function allHandlers(deps: RouteDeps): Handlers {
  const built = {
    ...systemHandlers(deps),
    ...authHandlers(deps),
    ...ssoHandlers(deps),
    ...lookupHandlers(deps),
    ...receiptHandlers(deps),
    ...mallReportHandlers(deps),
  };
  const both = Object.keys(built).filter((operationId) => Object.hasOwn(unbuiltHandlers, operationId));
  if (both.length > 0) throw new Error(`Built but still listed as not implemented: ${both.join(', ')}`);
  return { ...unbuiltHandlers, ...built };
}

/**
 * The route handler of an operation. Fastify sees every handler untyped; each was typed against the operation's
 * contract, which the route validates the request against before the handler runs.
 */
function routeHandler(handlers: Handlers, operationId: string): RouteHandlerMethod {
  if (!isOperationId(handlers, operationId)) throw new Error(`openapi.yaml: no handler for ${operationId}`);
  return handlers[operationId] as RouteHandlerMethod;
}

const isOperationId = (handlers: Handlers, operationId: string): operationId is OperationId =>
  Object.hasOwn(handlers, operationId);

export async function buildApp({ pool, config, logger = false, mailer }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    trustProxy: config.trustProxy,
    ajv: {
      customOptions: {
        strict: false,
        coerceTypes: 'array',
        useDefaults: true,
        // Unknown body fields are refused with a 400 rather than dropped without a word.
        removeAdditional: false,
        allErrors: false,
      },
    },
  });

  await registerSecurityHeaders(app);
  await app.register(fastifyCookie);
  // The contract returns PDFs but takes none; saying so also tells the route generator the type is handled.
  app.addContentTypeParser('application/pdf', (_request, _payload, done) => {
    done(new HttpError(415, 'PDF request bodies are not accepted.'), undefined);
  });
  registerAccessControl(app, pool);

  const deps: RouteDeps = { pool, config, mailer: mailer ?? createMailer(config, pool, app.log) };
  const handlers = allHandlers(deps);
  const operations = new Map(listOperations().map((operation) => [operation.operationId, operation]));

  await app.register(fastifySwagger, {
    mode: 'static',
    specification: { document: loadSpecification() as never },
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: API_DOCS_PREFIX,
    uiConfig: { docExpansion: 'list', deepLinking: true, tryItOutEnabled: false },
    staticCSP: true,
    transformStaticCSP: apiDocsPolicy,
  });

  await app.register(openapiGlue, {
    specification: OPENAPI_PATH,
    operationResolver: (operationId: string, method: string, openapiPath: string) => ({
      method: method as 'GET' | 'POST' | 'PUT' | 'DELETE',
      url: openapiPath.replace(/\{(\w+)\}/g, ':$1'),
      handler: routeHandler(handlers, operationId),
      config: { operation: operations.get(operationId) },
    }),
  });

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    const validation = 'validation' in error && error.validation;
    const statusCode = validation ? 400 : (error.statusCode ?? 500);
    if (statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
      const message =
        statusCode === 501 ? error.message : 'Something went wrong on the server. Please try again later.';
      return reply.status(statusCode).send(errorBody(statusCode, message));
    }
    return reply.status(statusCode).send(errorBody(statusCode, error.message));
  });

  const indexHtml = path.join(config.staticDir, 'index.html');
  const hasApp = fs.existsSync(indexHtml);
  if (hasApp) {
    await app.register(fastifyStatic, { root: config.staticDir, wildcard: false, index: false });
  }

  app.setNotFoundHandler((request, reply) => {
    const isPageRequest = request.method === 'GET' && !isApiPath(request.url);
    if (isPageRequest && hasApp) {
      // History fallback: every browser route is the single-page app.
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    if (isPageRequest) {
      return reply
        .status(503)
        .type('text/plain')
        .send('The web app is not built yet: run `npm run build`, then reload.');
    }
    return reply.status(404).send(errorBody(404, `No such API route: ${request.method} ${request.url.split('?')[0]}`));
  });

  return app;
}
