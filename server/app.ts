import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
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
import { cancelQueries, RequestQueries, runAsRequest, trackRequestQueries } from './db/requestQueries.js';
import type { DemoSsoIssuer } from './demo/ssoIssuer.js';
import { errorBody, HttpError, isTimeout, SERVER_ERROR_MESSAGE, TIMEOUT_MESSAGE } from './errors.js';
import { ExportSlots } from './exports/exportSlots.js';
import { createPageRenderer } from './exports/pageRenderer.js';
import { WORKBOOK_MEDIA_TYPE } from './exports/workbookParts.js';
import type { ReportSubscriptionRuntime } from './jobs/reportSubscriptions.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { createMetrics, type Metrics, registerRequestMetrics } from './metrics.js';
import { listOperations, loadSpecification, OPENAPI_PATH, type Operation } from './openapi.js';
import { alertRuleHandlers } from './routes/alertRules.js';
import { appsHandlers } from './routes/apps.js';
import { auditHandlers } from './routes/audit.js';
import { authHandlers } from './routes/auth.js';
import { breakevenHandlers } from './routes/breakeven.js';
import { calendarHandlers } from './routes/calendar.js';
import { dataFeedHandlers } from './routes/dataFeeds.js';
import { deviceKeyHandlers } from './routes/deviceKeys.js';
import { gtoHandlers } from './routes/gto.js';
import { ingestHandlers } from './routes/ingest.js';
import { leaseHandlers } from './routes/leases.js';
import { lookupHandlers } from './routes/lookup.js';
import { mallEventHandlers } from './routes/mallEvents.js';
import { mallReportHandlers } from './routes/mallReports.js';
import { nonTradingDayHandlers } from './routes/nonTradingDays.js';
import { unbuiltHandlers } from './routes/notImplemented.js';
import { occupancyBandHandlers } from './routes/occupancyBands.js';
import { outletCodeHandlers } from './routes/outletCodes.js';
import { outletReportHandlers } from './routes/outletReports.js';
import { receiptHandlers } from './routes/receipts.js';
import { rentInvoiceHandlers } from './routes/rentInvoices.js';
import { reportSubscriptionHandlers } from './routes/reportSubscriptions.js';
import { checkRequestRules } from './routes/rules.js';
import { settingsHandlers } from './routes/settings.js';
import { systemHandlers } from './routes/system.js';
import { tenantManagementHandlers } from './routes/tenantManagement.js';
import type { Handlers, Lifecycle, OperationId, RouteDeps } from './routes/types.js';
import { apiDocsPolicy, registerSecurityHeaders } from './securityHeaders.js';
import { staticFileOptions } from './staticFiles.js';
import { registerBodyMediaTypes, schemaErrorFormatter, validatorCompiler } from './validation.js';

export interface AppDeps {
  pool: Pool;
  config: Config;
  logger?: FastifyServerOptions['logger'];
  /** Defaults to SMTP_URL, or the local outbox. */
  mailer?: Mailer;
  /** Set `stopping` when the server begins to stop (main.ts): /healthz/ready then answers 503. */
  lifecycle?: Lifecycle;
  /** Report reads (server/db/replicas.ts); the request pool when absent. */
  reads?: Pick<Pool, 'query'>;
  /** Where the app counts its requests and receipts (metrics.ts); a registry of its own when absent. */
  metrics?: Metrics;
  /** The demo's identity provider shared by the instances (server/demo/ssoIssuer.ts), when this server runs it. */
  demoSso?: DemoSsoIssuer;
  /**
   * Report subscriptions' renderer, export slots and job queue, shared with the jobs (main.ts); when absent, made
   * from the settings with no job queue (send now answers 503) and export slots of the app's own.
   */
  reportSubscriptions?: ReportSubscriptionRuntime;
}

/** The renderer of CHROMIUM_PATH and one set of export slots (EXPORTS_PER_USER, EXPORTS_MAX), without jobs yet. */
export function reportSubscriptionRuntime(config: Config): ReportSubscriptionRuntime {
  return {
    renderer: createPageRenderer({
      chromiumPath: config.chromiumPath,
      baseUrl: config.renderBaseUrl,
      timeoutMs: config.renderTimeoutSeconds * 1000,
    }),
    slots: new ExportSlots({ perUser: config.exportsPerUser, max: config.exportsMax }),
    boss: undefined,
  };
}

/** A request id from a proxy's X-Request-Id: letters, digits and `._:-`, at most 128; else a new random one. */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && /^[\w.:-]{1,128}$/.test(header) ? header : randomUUID();
}

/**
 * Path prefixes that belong to the API: an unknown path under them is a JSON 404, never the app's page. /metrics
 * among them: the metrics have a listener of their own (METRICS_PORT, metrics.ts), and a scraper pointed at the
 * public port by mistake gets a 404, not the app's page.
 */
const API_PREFIXES = ['/api', '/clients', '/outlets', '/malls', '/healthz', '/metrics'];
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
    ...outletReportHandlers(deps),
    ...mallReportHandlers(deps),
    ...outletCodeHandlers(deps),
    ...settingsHandlers(deps),
    ...deviceKeyHandlers(deps),
    ...gtoHandlers(deps),
    ...breakevenHandlers(deps),
    ...auditHandlers(deps),
    ...nonTradingDayHandlers(deps),
    ...calendarHandlers(deps),
    ...mallEventHandlers(deps),
    ...leaseHandlers(deps),
    ...occupancyBandHandlers(deps),
    ...dataFeedHandlers(deps),
    ...alertRuleHandlers(deps),
    ...rentInvoiceHandlers(deps),
    ...tenantManagementHandlers(deps),
    ...appsHandlers(deps),
    ...ingestHandlers(deps),
    ...reportSubscriptionHandlers(deps),
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

/** The methods of each path of the contract, for the Allow header of a 405. */
function methodsByPath(): { pattern: RegExp; methods: string[] }[] {
  const byPath = new Map<string, string[]>();
  for (const operation of listOperations()) {
    byPath.set(operation.path, [...(byPath.get(operation.path) ?? []), operation.method]);
  }
  return [...byPath].map(([route, methods]) => ({
    pattern: new RegExp(`^${route.replace(/\{\w+\}/g, '[^/]+')}$`),
    methods: methods.includes('GET') ? [...methods, 'HEAD'] : methods,
  }));
}

const bodyLimitOf = (operation: Operation | undefined) =>
  operation?.bodyLimit === undefined ? {} : { bodyLimit: operation.bodyLimit };

/** A status an error may answer with: its own when it is an HTTP error status, else 500. */
function statusOf(error: FastifyError | HttpError): number {
  const status = error.statusCode;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599 ? status : 500;
}

/** OAuth answers in a callback's query (authorization codes, states): written to the log as `[redacted]`. */
const SECRET_QUERY_PARAMETERS = /([?&](?:code|state)=)[^&#]*/g;

/** The logger's options with request URLs written without the secrets of SECRET_QUERY_PARAMETERS. */
function withRedactedUrls(logger: AppDeps['logger']): AppDeps['logger'] {
  if (logger === undefined || logger === false) return logger;
  const options = logger === true ? {} : logger;
  return {
    ...options,
    serializers: {
      req: (request: {
        method: string;
        url: string;
        host?: string;
        ip?: string;
        socket?: { remotePort?: number };
      }) => ({
        method: request.method,
        url: request.url.replace(SECRET_QUERY_PARAMETERS, '$1[redacted]'),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
      ...options.serializers,
    },
  };
}

export async function buildApp({
  pool,
  config,
  logger = false,
  mailer,
  lifecycle,
  reads,
  metrics = createMetrics(),
  demoSso,
  reportSubscriptions,
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: withRedactedUrls(logger),
    schemaErrorFormatter,
    trustProxy: config.trustProxy,
    // Request ids unique across instances: the proxy's X-Request-Id when it is a plain token, else a random UUID
    // (never a per-process counter, which repeats across instances and restarts).
    requestIdHeader: false,
    genReqId: (request) => requestIdOf(request.headers['x-request-id']),
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  registerRequestMetrics(app, metrics);
  // Query strings are read with coercion ('7' -> 7), JSON bodies without it (true is never 1).
  app.setValidatorCompiler(validatorCompiler);

  // Set before any route is registered, so that it answers for errors thrown by every route and hook: a 400 names
  // the field; a database or unexpected error is logged with the request id and answered with a generic message
  // and that id, never the driver's text or code; a timeout is a 503.
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if ('validation' in error && error.validation) return reply.status(400).send(errorBody(400, error.message));
    if (isTimeout(error)) {
      request.log.warn({ err: error }, 'request timed out');
      return reply.status(503).send(errorBody(503, TIMEOUT_MESSAGE, request.id));
    }
    const statusCode = statusOf(error);
    // Our own 501 and 503 say why (not built; not ready), never an unexpected error's text.
    if ((statusCode === 501 || statusCode === 503) && error instanceof HttpError) {
      return reply.status(statusCode).send(errorBody(statusCode, error.message));
    }
    if (statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(statusCode).send(errorBody(statusCode, SERVER_ERROR_MESSAGE, request.id));
    }
    const details = error instanceof HttpError ? error.details : undefined;
    return reply.status(statusCode).send({ ...errorBody(statusCode, error.message), ...details });
  });

  // Each request's database work is tracked (requestQueries.ts). A request that has not answered within the
  // request timeout answers 503: its running statements are cancelled and its next queries refused first, so
  // nothing it started goes on holding a connection, and the process serves the other requests meanwhile.
  trackRequestQueries(pool);
  const work = new WeakMap<object, { queries: RequestQueries; scope: AsyncResource; timer: NodeJS.Timeout }>();
  app.addHook('onRequest', (request, reply, done) => {
    const queries = new RequestQueries();
    // An answer that has begun (its headers sent, as a streamed PDF's) is answered: it goes on to its end.
    const answered = () => reply.sent || reply.raw.headersSent;
    const timer = setTimeout(async () => {
      if (answered()) return;
      request.log.warn('request timed out');
      await cancelQueries(queries.stop());
      if (!answered()) reply.status(503).send(errorBody(503, TIMEOUT_MESSAGE, request.id));
    }, config.requestTimeoutMs);
    runAsRequest(queries, () => {
      work.set(request, { queries, timer, scope: new AsyncResource('request') });
      done();
    });
  });
  // A request body is read outside the request's scope; the handler runs inside it again.
  app.addHook('preValidation', (request, _reply, done) => {
    const scope = work.get(request)?.scope;
    if (scope) scope.runInAsyncScope(done);
    else done();
  });
  const finish = async (request: object) => clearTimeout(work.get(request)?.timer);
  app.addHook('onResponse', finish);
  app.addHook('onRequestAbort', finish);

  await registerSecurityHeaders(app);
  await app.register(fastifyCookie);
  // The contract returns PDFs and workbooks but takes none; saying so also tells the route generator the type is
  // handled.
  app.addContentTypeParser('application/pdf', (_request, _payload, done) => {
    done(new HttpError(415, 'PDF request bodies are not accepted.'), undefined);
  });
  app.addContentTypeParser(WORKBOOK_MEDIA_TYPE, (_request, _payload, done) => {
    done(new HttpError(415, 'Workbook request bodies are not accepted.'), undefined);
  });
  // After validation and before the access check: the rules a schema cannot state (start before end, the longest
  // range), for every operation by the parameters it takes, built or not.
  app.addHook('preHandler', async (request) => {
    if (request.routeOptions.config.operation) checkRequestRules(request.query);
  });
  // First of our checks: a body of a media type its operation does not declare is a 415 before anything reads it.
  registerBodyMediaTypes(app);
  registerAccessControl(app, pool);

  const subscriptions = reportSubscriptions ?? reportSubscriptionRuntime(config);
  const deps: RouteDeps = {
    pool,
    config,
    mailer: mailer ?? createMailer(config, pool, app.log),
    lifecycle: lifecycle ?? { stopping: false },
    reads: reads ?? pool,
    metrics,
    exportSlots: subscriptions.slots,
    reportSubscriptions: subscriptions,
    ...(demoSso ? { demoSso } : {}),
  };
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
      ...bodyLimitOf(operations.get(operationId)),
    }),
  });

  const indexHtml = path.join(config.staticDir, 'index.html');
  const hasApp = fs.existsSync(indexHtml);
  if (hasApp) {
    await app.register(fastifyStatic, staticFileOptions(config.staticDir));
  }

  const pathMethods = methodsByPath();
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? request.url;
    const allowed = pathMethods.find(({ pattern }) => pattern.test(pathname))?.methods;
    if (allowed && !allowed.includes(request.method)) {
      return reply
        .status(405)
        .header('allow', allowed.join(', '))
        .send(errorBody(405, `${request.method} is not supported on ${pathname}; use ${allowed.join(', ')}.`));
    }
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
