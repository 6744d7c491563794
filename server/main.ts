import { buildApp } from './app.js';
import { listenForCallerChanges } from './auth/cacheInvalidation.js';
import { setPasswordHashCost, verifyPassword } from './auth/passwords.js';
import { type Config, loadConfig } from './config.js';
import { connectionsPerInstance, openDatabase, requestPoolLimits } from './db/database.js';
import { migrate } from './db/migrate.js';
import { createPool } from './db/pool.js';
import { createReadPool } from './db/replicas.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo/accounts.js';
import { demoAccountsRefusal } from './demo/demoAccountsGuard.js';
import { fillDemoDataOnce } from './demo/fillDemoData.js';
import { DEMO_SSO_DOMAIN, type DemoSsoProvider, startDemoSsoProvider } from './demo/ssoProvider.js';
import { type DemoXero, startDemoXero } from './demo/xeroFake.js';
import { keepReceiptMonths, maintenanceJobs, sweepSessions } from './jobs/maintenance.js';
import { type JobContext, startJobs } from './jobs/queue.js';
import { registerXeroJobs } from './jobs/xeroPosting.js';
import { DOWNLOAD_SECRET_FILE, keptSecret } from './keptSecret.js';
import { createMailer } from './mail/mailer.js';
import { isDatabaseEmpty } from './repositories/demo.js';
import { saveSsoDomain } from './repositories/sso.js';
import { findUserByEmail } from './repositories/users.js';
import { xeroDepsOf } from './xero/connection.js';

const say = (message: string) => process.stdout.write(`${message}\n`);
/** A start that cannot go on: one line saying why, and exit code 1. */
function refuse(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  refuse(`Cannot start: ${error instanceof Error ? error.message : String(error)}.`);
}
setPasswordHashCost(config.passwordHashCost);
// Without DOWNLOAD_SECRET (loopback only): a secret kept in DATA_DIR, so download links survive a restart.
if (!config.downloadSecretGiven) config.downloadSecret = keptSecret(config.dataDir, DOWNLOAD_SECRET_FILE);

const started = Date.now();
say(config.databaseUrl ? 'Connecting to DATABASE_URL…' : `Starting the embedded PostgreSQL under ${config.dataDir}…`);
const database = await openDatabase(config, () => {});
const applied = await migrate(database.pool);
if (applied.length > 0) say(`Applied migrations: ${applied.join(', ')}`);

// Demo accounts have a published password: a server reached from beyond this machine refuses them (or DEMO_DATA=true
// about to make them) unless ALLOW_DEMO_ACCOUNTS=true.
const refusal = await demoAccountsRefusal(database.pool, config);
if (refusal) {
  await database.close().catch(() => {});
  refuse(refusal);
}
if (config.demoData) {
  // Once, under an advisory lock: servers starting together on an empty database do not race to fill it.
  const result = await fillDemoDataOnce(database.pool, {
    seed: config.demoSeed,
    receipts: config.demoReceipts,
    outletsPerMall: config.demoOutletsPerMall,
    longNames: config.demoLongNames,
    log: say,
  });
  if (result) say(`Demo data ready: ${result.receipts.toLocaleString('en-US')} receipts.`);
} else if (await isDatabaseEmpty(database.pool)) {
  say('The database has no account yet: create the first super admin with');
  say('  npm run admin -- create-admin --email you@example.com');
}
// Before listening, once: expired sessions swept, and this month's and the next month's receipt partitions made
// (storing a receipt never creates one). Then on pg-boss schedules, once a tick across instances (jobs/maintenance.ts).
await sweepSessions(database.pool);
const dropped = await keepReceiptMonths(database.pool, config.receiptsRetentionMonths);
if (dropped.length > 0) say(`Receipts of ${dropped.join(', ')} dropped (RECEIPTS_RETENTION_MONTHS).`);

const requestPool = createPool(database.url, config.databasePoolSize, requestPoolLimits(config));
say(connectionsPerInstance(config).text);

let demoSso: DemoSsoProvider | undefined;
if (config.sso) {
  await saveSsoDomain(database.pool, config.sso);
  say(`Single sign-on for ${config.sso.domain}: ${config.sso.issuer}`);
} else if (config.ssoDemo) {
  // The demo's identity provider knows the demo accounts of its domain, with their passwords.
  demoSso = await startDemoSsoProvider({
    publicUrl: config.publicUrl,
    authenticate: async (login, password) => {
      if (!login.endsWith(`@${DEMO_SSO_DOMAIN}`)) return undefined;
      const user = await findUserByEmail(database.pool, login);
      return user && !user.disabled && (await verifyPassword(password, user.passwordHash)) ? user.email : undefined;
    },
  });
  await saveSsoDomain(database.pool, {
    domain: DEMO_SSO_DOMAIN,
    issuer: demoSso.issuer,
    clientId: demoSso.clientId,
    clientSecret: demoSso.clientSecret,
  });
}
// Xero: its endpoints and the app's credentials from XERO_*; without them, on a loopback address, the demo's
// stand-in for Xero (an authorization server and the accounting API on this machine), the token key kept in DATA_DIR.
let demoXero: DemoXero | undefined;
if (!config.xero && config.xeroDemo) {
  demoXero = await startDemoXero({ publicUrl: config.publicUrl });
  config.xero = { ...demoXero.setting, tokenKey: undefined };
}
const lifecycle = { stopping: false };
// Report reads on the replicas of DATABASE_READ_URL, when given (server/db/replicas.ts); they log through the app's
// logger once it exists.
let appLog:
  | { warn: (object: object, message: string) => void; info: (object: object, message: string) => void }
  | undefined;
const replicaLog = {
  warn: (object: object, message: string) => appLog?.warn(object, message),
  info: (object: object, message: string) => appLog?.info(object, message),
};
const reads =
  config.databaseReadUrls.length > 0
    ? createReadPool({
        primary: requestPool,
        replicaUrls: config.databaseReadUrls,
        maxLagMs: config.replicaMaxLagSeconds * 1000,
        poolSize: config.databaseReadPoolSize,
        limits: requestPoolLimits(config),
        log: replicaLog,
      })
    : undefined;
const app = await buildApp({
  pool: requestPool,
  config,
  logger: { level: config.logLevel },
  lifecycle,
  ...(reads ? { reads } : {}),
});
appLog = app.log;
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
  poolSize: config.jobsPoolSize,
  // Each outlet's day of sales posted to Xero once connected (server/jobs/xeroPosting.ts).
  registrations: [
    maintenanceJobs({
      receiptsRetentionMonths: config.receiptsRetentionMonths,
      gtoRemindersEveryMinutes: config.gtoRemindersEveryMinutes,
    }),
    ...(xeroJobs ? [({ boss }: JobContext) => registerXeroJobs(boss, xeroJobs)] : []),
  ],
});

const address = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
say('');
say(`Mall analytics is ready at ${address} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
say(`API reference: ${address}/api/docs`);
if (demoSso) say(`Sign in with SSO: any ${DEMO_SSO_DOMAIN} account, at the demo identity provider ${demoSso.issuer}`);
if (demoXero)
  say(`Xero: the demo's stand-in, sign-in at ${demoXero.identity.issuer}, accounting API at ${demoXero.api.url}`);
if (config.demoData) {
  say(`Demo accounts (password ${DEMO_PASSWORD}):`);
  for (const account of DEMO_ACCOUNTS) say(`  ${account.email.padEnd(26)} ${account.description}`);
}
say('Press Ctrl-C to stop.');

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
  say(`\n${signal}: stopping…`);
  const deadline = Date.now() + config.shutdownTimeoutSeconds * 1000;
  const within = (work: Promise<unknown>) =>
    Promise.race([
      work.catch(() => {}),
      new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())).unref()),
    ]);
  await within(app.close());
  await within(jobs.stop(Math.max(0, deadline - Date.now())));
  await reads?.end().catch(() => {});
  await cacheListener.stop();
  await requestPool.end().catch(() => {});
  await demoSso?.stop().catch(() => {});
  await demoXero?.stop().catch(() => {});
  await database.close().catch(() => {});
  say(database.embedded ? 'Stopped the server and PostgreSQL.' : 'Stopped the server.');
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
