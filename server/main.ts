import { pino } from 'pino';
import { buildApp, reportSubscriptionRuntime } from './app.js';
import { listenForCallerChanges } from './auth/cacheInvalidation.js';
import { setPasswordHashCost } from './auth/passwords.js';
import { type Config, loadConfig } from './config.js';
import { connectionsPerInstance, openDatabase, requestPoolLimits } from './db/database.js';
import { migrate } from './db/migrate.js';
import { createPool } from './db/pool.js';
import { createReadPool } from './db/replicas.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo/accounts.js';
import { demoAccountsRefusal } from './demo/demoAccountsGuard.js';
import { fillDemoDataOnce } from './demo/fillDemoData.js';
import { createDemoSsoIssuer, type DemoSsoIssuer, type DemoSsoStanding } from './demo/ssoIssuer.js';
import { type DemoXero, startDemoXero } from './demo/xeroFake.js';
import { keepReceiptMonths, maintenanceJobs, sweepSessions } from './jobs/maintenance.js';
import { type JobContext, startJobs } from './jobs/queue.js';
import { registerRentInvoiceJobs } from './jobs/rentInvoices.js';
import { reportSubscriptionJobs } from './jobs/reportSubscriptions.js';
import { registerXeroJobs } from './jobs/xeroPosting.js';
import { DOWNLOAD_SECRET_FILE, keptSecret } from './keptSecret.js';
import { createMailer } from './mail/mailer.js';
import { createMetrics, jobsPoolOf, type MetricsServer, startMetricsServer } from './metrics.js';
import { isDatabaseEmpty } from './repositories/demo.js';
import { saveSsoDomain } from './repositories/sso.js';
import { xeroDepsOf } from './xero/connection.js';

/**
 * A start that cannot go on: one plain line on stderr saying why, and exit code 1. It is the process's answer to
 * whoever started it (a terminal, a supervisor's status), not a log record: a refusal of the settings comes before
 * there is a logger. Once there is one, the refusal is also a `fatal` record for the logs.
 */
function refuse(message: string, logger?: { fatal: (object: object, message: string) => void }): never {
  logger?.fatal({ reason: message }, 'refusing to start');
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  refuse(`Cannot start: ${error instanceof Error ? error.message : String(error)}.`);
}
// The server's own records (starting, ready, stopping) as JSON lines on stdout, like the app's (LOG_LEVEL): one
// format for a log collector, a field each for what a person reads (the address, the demo accounts).
const log = pino({ level: config.logLevel });
setPasswordHashCost(config.passwordHashCost);
// Without DOWNLOAD_SECRET (loopback only): a secret kept in DATA_DIR, so download links survive a restart.
if (!config.downloadSecretGiven) config.downloadSecret = keptSecret(config.dataDir, DOWNLOAD_SECRET_FILE);

const started = Date.now();
if (config.databaseUrl) log.info('connecting to DATABASE_URL');
else log.info({ dataDir: config.dataDir }, 'starting the embedded PostgreSQL');
const database = await openDatabase(config, () => {});
const applied = await migrate(database.pool);
if (applied.length > 0) log.info({ migrations: applied }, 'migrations applied');

// Demo accounts have a published password: a server reached from beyond this machine refuses them (or DEMO_DATA=true
// about to make them) unless ALLOW_DEMO_ACCOUNTS=true.
const refusal = await demoAccountsRefusal(database.pool, config);
if (refusal) {
  await database.close().catch(() => {});
  refuse(refusal, log);
}
if (config.demoData) {
  // Once, under an advisory lock: servers starting together on an empty database do not race to fill it.
  const result = await fillDemoDataOnce(database.pool, {
    seed: config.demoSeed,
    receipts: config.demoReceipts,
    world: { outletsPerMall: config.demoOutletsPerMall, longNames: config.demoLongNames },
    log: (message) => log.info(message),
  });
  if (result) log.info({ receipts: result.receipts }, 'demo data ready');
} else if (await isDatabaseEmpty(database.pool)) {
  log.warn(
    { command: 'npm run admin -- create-admin --email you@example.com' },
    'the database has no account yet: create the first super admin',
  );
}
// Before listening, once: expired sessions swept, and this month's and the next month's receipt partitions made
// (storing a receipt never creates one). Then on pg-boss schedules, once a tick across instances (jobs/maintenance.ts).
await sweepSessions(database.pool);
const dropped = await keepReceiptMonths(database.pool, config.receiptsRetentionMonths);
if (dropped.length > 0) log.info({ months: dropped }, 'receipts dropped (RECEIPTS_RETENTION_MONTHS)');

const requestPool = createPool(database.url, config.databasePoolSize, requestPoolLimits(config));
{
  const { text, ...connections } = connectionsPerInstance(config);
  log.info({ connections }, text);
}

let demoSso: DemoSsoIssuer | undefined;
let demoSsoStanding: DemoSsoStanding | undefined;
if (config.sso) {
  await saveSsoDomain(database.pool, config.sso);
  log.info({ domain: config.sso.domain, issuer: config.sso.issuer }, 'single sign-on');
} else if (config.ssoDemo) {
  // The demo's identity provider, one for every instance on the database: the stored one while it answers, else
  // this instance's, started and stored; a sign-on of the demo's domain checks again (server/demo/ssoIssuer.ts).
  demoSso = createDemoSsoIssuer(database.pool, { publicUrl: config.publicUrl });
  demoSsoStanding = await demoSso.settle();
}
// Xero: its endpoints and the app's credentials from XERO_*; without them, on a loopback address, the demo's
// stand-in for Xero (an authorization server and the accounting API on this machine), the token key kept in DATA_DIR.
let demoXero: DemoXero | undefined;
if (!config.xero && config.xeroDemo) {
  demoXero = await startDemoXero({ publicUrl: config.publicUrl });
  config.xero = { ...demoXero.setting, tokenKey: undefined };
}
const lifecycle = { stopping: false };
// Report reads on the replicas of DATABASE_READ_URL, when given (server/db/replicas.ts).
const reads =
  config.databaseReadUrls.length > 0
    ? createReadPool({
        primary: requestPool,
        replicaUrls: config.databaseReadUrls,
        maxLagMs: config.replicaMaxLagSeconds * 1000,
        poolSize: config.databaseReadPoolSize,
        limits: requestPoolLimits(config),
        log,
      })
    : undefined;
// Prometheus metrics (metrics.ts), served on their own listener when METRICS_PORT is set.
const metrics = createMetrics({ defaultMetrics: true });
metrics.watchPool('requests', requestPool);
metrics.watchPool('main', database.pool);
if (reads) metrics.watchReplicas(reads.status, reads.primaryReads);
// Report subscriptions: the browser that prints their PDFs, the export slots, and (once started) the job queue.
const reportSubscriptions = reportSubscriptionRuntime(config);
const app = await buildApp({
  pool: requestPool,
  reportSubscriptions,
  config,
  logger: { level: config.logLevel },
  lifecycle,
  ...(reads ? { reads } : {}),
  ...(demoSso ? { demoSso } : {}),
  metrics,
});
// Before the first request: a caller changed on any instance is forgotten here at once (server/auth/cacheInvalidation.ts).
const cacheListener = await listenForCallerChanges({ connectionString: database.url, log: app.log });
await app.listen({ host: config.host, port: config.port });

// Void alerts, daily summaries, GTO reminders and the maintenance above: pg-boss jobs kept in PostgreSQL (schema
// pgboss), see server/jobs/queue.ts and server/jobs/maintenance.ts.
const xeroJobs = xeroDepsOf(database.pool, config, app.log);
const jobs = await startJobs({
  databaseUrl: database.url,
  pool: database.pool,
  mailer: createMailer(config, database.pool, app.log),
  publicUrl: config.publicUrl,
  log: app.log,
  voidAlertsEveryMinutes: config.voidAlertsEveryMinutes,
  voidAlertMaxAgeHours: config.voidAlertMaxAgeHours,
  dailySummaryEveryMinutes: config.dailySummaryEveryMinutes,
  feedCheckEveryMinutes: config.feedCheckEveryMinutes,
  alertCheckEveryMinutes: config.alertCheckEveryMinutes,
  poolSize: config.jobsPoolSize,
  // Each outlet's day of sales posted to Xero once connected (server/jobs/xeroPosting.ts), and each leased outlet's
  // month of turnover rent invoiced (server/jobs/rentInvoices.ts).
  registrations: [
    maintenanceJobs({
      receiptsRetentionMonths: config.receiptsRetentionMonths,
      gtoRemindersEveryMinutes: config.gtoRemindersEveryMinutes,
      monthProjectionsEveryMinutes: config.monthProjectionsEveryMinutes,
    }),
    // Report pages mailed on a schedule as their PDF and workbook (server/jobs/reportSubscriptions.ts).
    reportSubscriptionJobs(reportSubscriptions, {
      everyMinutes: config.subscriptionCheckEveryMinutes,
      renderTimeoutMs: config.renderTimeoutSeconds * 1000,
    }),
    ...(xeroJobs
      ? [
          ({ boss }: JobContext) => registerXeroJobs(boss, xeroJobs),
          ({ boss }: JobContext) => registerRentInvoiceJobs(boss, xeroJobs),
        ]
      : []),
  ],
});
metrics.watchJobs(jobs.boss, log);
if (!reportSubscriptions.renderer.state.available) log.warn({}, reportSubscriptions.renderer.state.message);
const jobsPool = jobsPoolOf(jobs.boss);
if (jobsPool) metrics.watchPool('jobs', jobsPool);
let metricsServer: MetricsServer | undefined;
if (config.metricsPort !== 0) {
  metricsServer = await startMetricsServer(metrics.registry, { host: config.metricsHost, port: config.metricsPort });
}

const urlOf = (host: string, port: number) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
const address = urlOf(config.host, config.port);
log.info(
  {
    address,
    apiReference: `${address}/api/docs`,
    ...(metricsServer ? { metrics: `${urlOf(config.metricsHost, metricsServer.port)}/metrics` } : {}),
    seconds: Math.round((Date.now() - started) / 100) / 10,
  },
  'ready',
);
if (demoSso && demoSsoStanding) {
  log.info(
    { domain: demoSso.domain, issuer: demoSsoStanding.issuer },
    demoSsoStanding.own
      ? "single sign-on: the demo's identity provider"
      : "single sign-on: the demo's identity provider of another instance",
  );
}
if (demoXero) {
  log.info({ signIn: demoXero.identity.issuer, api: demoXero.api.url }, "Xero: the demo's stand-in");
}
if (config.demoData) {
  log.info({ password: DEMO_PASSWORD, accounts: DEMO_ACCOUNTS }, 'demo accounts');
}

/**
 * A graceful stop, within SHUTDOWN_TIMEOUT_SECONDS: /healthz/ready answers 503 at once (a proxy stops choosing this
 * instance); the server takes no new connection and finishes the requests in flight; the pg-boss workers finish
 * their jobs and release them; then the pools and the embedded PostgreSQL close. Whatever is still running when the
 * time is up is cut (a request answered by nobody is retried by the proxy; a job left active is taken again by
 * another instance once it expires).
 */
async function stop(signal: string) {
  if (lifecycle.stopping) return;
  lifecycle.stopping = true;
  log.info({ signal }, 'stopping');
  const deadline = Date.now() + config.shutdownTimeoutSeconds * 1000;
  const within = (work: Promise<unknown>) =>
    Promise.race([
      work.catch(() => {}),
      new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())).unref()),
    ]);
  await within(app.close());
  await within(metricsServer?.close() ?? Promise.resolve());
  await within(jobs.stop(Math.max(0, deadline - Date.now())));
  await within(reportSubscriptions.renderer.close());
  await reads?.end().catch(() => {});
  await cacheListener.stop();
  await requestPool.end().catch(() => {});
  await demoSso?.stop().catch(() => {});
  await demoXero?.stop().catch(() => {});
  await database.close().catch(() => {});
  log.info({ embeddedPostgres: database.embedded }, 'stopped');
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
