import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { DEFAULT_PASSWORD_HASH_COST, PASSWORD_HASH_COST_RANGE } from './auth/passwords.js';
import { isCronInterval } from './jobs/periodic.js';

export interface Config {
  host: string;
  port: number;
  /** A PostgreSQL URL; when absent an embedded PostgreSQL is started under dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  embeddedPgPort: number;
  /**
   * PostgreSQL hot standbys for the report reads (DATABASE_READ_URL, comma-separated; none by default): see
   * server/db/replicas.ts.
   */
  databaseReadUrls: string[];
  /** A replica further behind the primary than this is skipped (REPLICA_MAX_LAG_SECONDS, default 5). */
  replicaMaxLagSeconds: number;
  /** Connections the server keeps to each replica (DATABASE_READ_POOL_SIZE, default 10). */
  databaseReadPoolSize: number;
  /** Connections of the pool that serves requests (DATABASE_POOL_SIZE, default 20). */
  databasePoolSize: number;
  /**
   * Prepared statements each connection of the request and replica pools keeps (DATABASE_STATEMENT_CACHE, default
   * 50; 0 for none, e.g. behind a pooler in transaction mode): server/db/statementCache.ts.
   */
  databaseStatementCache: number;
  /**
   * Connections of the pool for the server's own work: migrations, the demo data, the sweeps and the jobs' queries
   * (DATABASE_BACKGROUND_POOL_SIZE, default 4; the void alert listener holds one of them).
   */
  databaseBackgroundPoolSize: number;
  /** Connections of pg-boss's pool, which takes, schedules and records the jobs (JOBS_POOL_SIZE, default 4). */
  jobsPoolSize: number;
  /** Where the built single-page app lives. */
  staticDir: string;
  sessionTtlHours: number;
  /** Secure cookies unless the server only listens on the loopback interface (a request over TLS always gets them). */
  secureCookies: boolean;
  /**
   * Which proxies' X-Forwarded-For and X-Forwarded-Proto to believe (Fastify's trustProxy): none by default, any
   * (`true`), or those of a list of addresses and CIDR ranges.
   */
  trustProxy: boolean | string;
  logLevel: string;
  /**
   * The port of the Prometheus metrics listener (METRICS_PORT; 0, the default: none), apart from the app's port so
   * that the public side never reaches it, on `metricsHost` (METRICS_HOST, default 127.0.0.1).
   */
  metricsPort: number;
  metricsHost: string;
  demoReceipts: number | undefined;
  demoSeed: number;
  /** Outlets in every demo mall instead of the catalogue's numbers (the readability fixture: 300). */
  demoOutletsPerMall: number | undefined;
  /** Demo outlet, category and payment method names written out to 60 characters (the readability fixture). */
  demoLongNames: boolean;
  /** The address users reach the app at, for links in e-mails and the single sign-on callback. */
  publicUrl: string;
  /** An SMTP server URL (smtp://user:pass@host:port); without it mail goes to the local outbox. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /**
   * Signs download links (receipts PDF): DOWNLOAD_SECRET, the same on every instance, required when the server listens
   * beyond loopback. On loopback without it: a random secret per process here, which `npm start` replaces with one
   * kept in DATA_DIR (server/keptSecret.ts), so links survive a restart.
   */
  downloadSecret: string;
  /** Whether DOWNLOAD_SECRET was given (else main.ts keeps a secret in DATA_DIR). */
  downloadSecretGiven: boolean;
  /** The longest a request may take before it answers 503 (REQUEST_TIMEOUT_MS, default 10 s). */
  requestTimeoutMs: number;
  /**
   * How long a stop (SIGTERM, SIGINT) may take to finish the requests in flight and release the jobs
   * (SHUTDOWN_TIMEOUT_SECONDS, default 20: more than a request's timeout).
   */
  shutdownTimeoutSeconds: number;
  /** PostgreSQL's statement_timeout for every pooled connection (STATEMENT_TIMEOUT_MS, default 10 s). */
  statementTimeoutMs: number;
  /** Long exports (the receipts PDF) one user may run at once in this process (EXPORTS_PER_USER, default 2). */
  exportsPerUser: number;
  /** Long exports this process runs at once, each in a worker thread of its own (EXPORTS_MAX, default 4). */
  exportsMax: number;
  /**
   * Where the server can be reached from beyond this machine: HOST when it is not a loopback address, else PUBLIC_URL
   * when its host is not (a server behind a proxy); undefined for a server only this machine reaches.
   */
  exposedAt: string | undefined;
  /**
   * The demo: its data generated into an empty database (with accounts whose password is published) and its
   * stand-ins for the identity provider and Xero. DEMO_DATA=true or false; by default on only when the server is
   * not exposed (`npm start` on loopback).
   */
  demoData: boolean;
  /**
   * Whether an exposed server may start with demo accounts in its database (ALLOW_DEMO_ACCOUNTS=true); else it
   * refuses (server/demo/demoAccountsGuard.ts).
   */
  allowDemoAccounts: boolean;
  /** The cost of new password hashes, log2 of scrypt's N (PASSWORD_HASH_COST, default 17: OWASP's N=2^17). */
  passwordHashCost: number;
  /** The identity provider of an e-mail domain (SSO_DOMAIN, SSO_ISSUER, SSO_CLIENT_ID, SSO_CLIENT_SECRET). */
  sso: SsoSetting | undefined;
  /**
   * Whether `npm start` runs the demo's own identity provider for the demo accounts' domain: with the demo
   * (`demoData`) when no SSO_ISSUER is given, unless SSO_DEMO=false.
   */
  ssoDemo: boolean;
  /** Xero's endpoints and the app's credentials there (XERO_*); undefined without XERO_CLIENT_ID. */
  xero: XeroSetting | undefined;
  /**
   * Whether `npm start` runs a local stand-in for Xero (an authorization server and the accounting API) with the
   * demo (`demoData`) when no XERO_CLIENT_ID is given, unless XERO_DEMO=false.
   */
  xeroDemo: boolean;
  /**
   * How many months of receipts are kept (RECEIPTS_RETENTION_MONTHS, this month included; 0, the default, keeps
   * every month). Older months are dropped whole; the reports' figures stay.
   */
  receiptsRetentionMonths: number;
  /** How often the GTO reminders are sent (GTO_REMINDERS_EVERY_MINUTES, default 60; 0 sends none). */
  gtoRemindersEveryMinutes: number;
  /**
   * How often each outlet's projection of an open month is kept for its today (MONTH_PROJECTIONS_EVERY_MINUTES,
   * default 1; 0 keeps none and the reports read every open month from its days).
   */
  monthProjectionsEveryMinutes: number;
  /** How often void receipts are alerted to their subscribers (VOID_ALERTS_EVERY_MINUTES, default 1; 0 sends none). */
  voidAlertsEveryMinutes: number;
  /** Void receipts made longer ago than this when the job sees them get no alert (VOID_ALERT_MAX_AGE_HOURS, 24). */
  voidAlertMaxAgeHours: number;
  /** How often malls are checked for a daily summary due (DAILY_SUMMARY_EVERY_MINUTES, default 5; 0 sends none). */
  dailySummaryEveryMinutes: number;
  /** How often the outlets' feeds are checked for silences (FEED_CHECK_EVERY_MINUTES, default 5; 0 checks none). */
  feedCheckEveryMinutes: number;
  /** How often the alert rules whose period has closed are judged (ALERT_CHECK_EVERY_MINUTES, default 5; 0 judges none). */
  alertCheckEveryMinutes: number;
  /**
   * The Chromium that prints report pages to PDF for report subscriptions (CHROMIUM_PATH, default
   * /usr/bin/chromium); without an executable there, subscriptions are off with a message saying so.
   */
  chromiumPath: string;
  /**
   * The app's own address as the server's browser reaches it (RENDER_BASE_URL; by default this server on
   * loopback, http://127.0.0.1:PORT, or HOST when it listens on one address only).
   */
  renderBaseUrl: string;
  /** The longest one report page may take to render to PDF (RENDER_TIMEOUT_SECONDS, default 60). */
  renderTimeoutSeconds: number;
  /** How often report subscriptions are checked for a period due (SUBSCRIPTION_CHECK_EVERY_MINUTES, 5; 0 none). */
  subscriptionCheckEveryMinutes: number;
}

/** The server's own address for its browser: loopback unless it listens on one other address only. */
function renderBaseUrlOf(env: NodeJS.ProcessEnv, host: string, port: number): string {
  if (env.RENDER_BASE_URL) return urlFrom(env, 'RENDER_BASE_URL', '');
  const wildcard = host === '0.0.0.0' || host === '::' || isLoopback(host);
  const address = wildcard ? '127.0.0.1' : host;
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
}

export interface SsoSetting {
  domain: string;
  issuer: string;
  clientId: string;
  clientSecret: string | null;
}

function ssoFrom(env: NodeJS.ProcessEnv): SsoSetting | undefined {
  const domain = (env.SSO_DOMAIN ?? '').trim().toLowerCase();
  const issuer = (env.SSO_ISSUER ?? '').trim();
  const clientId = (env.SSO_CLIENT_ID ?? '').trim();
  if (!domain && !issuer && !clientId) return undefined;
  if (!domain || !issuer || !clientId) {
    throw new Error(
      'Single sign-on needs SSO_DOMAIN, SSO_ISSUER and SSO_CLIENT_ID together (SSO_CLIENT_SECRET too, unless a public client)',
    );
  }
  if (!/^https?:\/\//.test(issuer)) throw new Error(`SSO_ISSUER must start with https:// or http://, got '${issuer}'`);
  return { domain, issuer, clientId, clientSecret: env.SSO_CLIENT_SECRET || null };
}

/** How the server reaches Xero: OAuth 2.0 endpoints, the accounting API and the app's credentials. */
export interface XeroSetting {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  connectionsUrl: string;
  /** The accounting API's base, `https://api.xero.com/api.xro/2.0`. */
  apiUrl: string;
  /** Where Xero sends the browser back: `${PUBLIC_URL}/api/apps/xero/callback` unless XERO_REDIRECT_URI. */
  redirectUri: string;
  scopes: string;
  /**
   * The key the tokens are encrypted with (XERO_TOKEN_KEY, base64 of 32 bytes). Absent: a key kept in DATA_DIR,
   * made on first use, which only a loopback server may use.
   */
  tokenKey: string | undefined;
}

export const XERO_CALLBACK_PATH = '/api/apps/xero/callback';
export const XERO_DEFAULT_SCOPES = 'offline_access accounting.transactions accounting.settings';

function urlFrom(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = (env[name] ?? '').trim() || fallback;
  if (!/^https?:\/\//.test(value)) throw new Error(`${name} must start with https:// or http://, got '${value}'`);
  return value.replace(/\/+$/, '');
}

function xeroFrom(env: NodeJS.ProcessEnv, publicUrl: string, host: string): XeroSetting | undefined {
  const clientId = (env.XERO_CLIENT_ID ?? '').trim();
  if (!clientId) return undefined;
  const clientSecret = (env.XERO_CLIENT_SECRET ?? '').trim();
  if (!clientSecret) throw new Error('XERO_CLIENT_ID needs XERO_CLIENT_SECRET');
  const tokenKey = (env.XERO_TOKEN_KEY ?? '').trim() || undefined;
  if (tokenKey !== undefined && Buffer.from(tokenKey, 'base64').length !== 32) {
    throw new Error('XERO_TOKEN_KEY must be 32 bytes in base64 (openssl rand -base64 32)');
  }
  if (tokenKey === undefined && !isLoopback(host)) {
    throw new Error('XERO_TOKEN_KEY is required (32 bytes in base64) when the server listens beyond this machine');
  }
  return {
    clientId,
    clientSecret,
    authorizeUrl: urlFrom(env, 'XERO_AUTHORIZE_URL', 'https://login.xero.com/identity/connect/authorize'),
    tokenUrl: urlFrom(env, 'XERO_TOKEN_URL', 'https://identity.xero.com/connect/token'),
    revokeUrl: urlFrom(env, 'XERO_REVOKE_URL', 'https://identity.xero.com/connect/revocation'),
    connectionsUrl: urlFrom(env, 'XERO_CONNECTIONS_URL', 'https://api.xero.com/connections'),
    apiUrl: urlFrom(env, 'XERO_API_URL', 'https://api.xero.com/api.xro/2.0'),
    redirectUri: urlFrom(env, 'XERO_REDIRECT_URI', `${publicUrl}${XERO_CALLBACK_PATH}`),
    scopes: (env.XERO_SCOPES ?? '').trim() || XERO_DEFAULT_SCOPES,
    tokenKey,
  };
}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got '${raw}'`);
  }
  return value;
}

/** DATABASE_READ_URL: PostgreSQL URLs separated by commas; each must be a postgres:// or postgresql:// URL. */
function readUrlsFrom(env: NodeJS.ProcessEnv): string[] {
  const urls = (env.DATABASE_READ_URL ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
  for (const url of urls) {
    if (!/^postgres(ql)?:\/\//.test(url)) {
      throw new Error('DATABASE_READ_URL must be postgres:// URLs separated by commas');
    }
  }
  return urls;
}

/** Minutes between runs of a schedule: 0 (never), 1 to 60, or whole hours that divide a day (a cron expression). */
function scheduleMinutesFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = intFrom(env, name, fallback, 0, 24 * 60);
  if (value !== 0 && !isCronInterval(value)) {
    throw new Error(
      `${name} must be 0, 1 to 60, or whole hours that divide a day (120, 180, 240, 360, 480, 720, 1440), got '${value}'`,
    );
  }
  return value;
}

/** The download-link secret when DOWNLOAD_SECRET is unset on loopback, until main.ts sets the one kept in DATA_DIR. */
const PROCESS_DOWNLOAD_SECRET = randomBytes(32).toString('base64url');
/** The shortest DOWNLOAD_SECRET an exposed server accepts (`openssl rand -base64 32` gives 44 characters). */
const DOWNLOAD_SECRET_MIN_LENGTH = 32;

function downloadSecretFrom(env: NodeJS.ProcessEnv, host: string): string {
  const given = env.DOWNLOAD_SECRET ?? '';
  if (isLoopback(host)) return given || PROCESS_DOWNLOAD_SECRET;
  if (given.length < DOWNLOAD_SECRET_MIN_LENGTH) {
    throw new Error(
      `DOWNLOAD_SECRET is required (${DOWNLOAD_SECRET_MIN_LENGTH} characters or more, the same on every instance: openssl rand -base64 32) when the server listens beyond this machine`,
    );
  }
  return given;
}

function booleanFrom(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const raw = (env[name] ?? '').trim();
  if (raw === '') return undefined;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new Error(`${name} must be true or false, got '${raw}'`);
}

/** Where beyond this machine the server is reached (see Config.exposedAt), or undefined. */
function exposedAtOf(host: string, publicUrlGiven: string | undefined): string | undefined {
  if (!isLoopback(host)) return `HOST ${host}`;
  if (publicUrlGiven === undefined) return undefined;
  const hostname = new URL(publicUrlGiven).hostname.replace(/^\[|\]$/g, '');
  return isLoopback(hostname) ? undefined : `PUBLIC_URL ${publicUrlGiven}`;
}

function trustProxyFrom(env: NodeJS.ProcessEnv): boolean | string {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (!/^[\da-fA-F.:/,\s]+$/.test(raw)) {
    throw new Error(`TRUST_PROXY must be true, false or addresses and CIDR ranges separated by commas, got '${raw}'`);
  }
  return raw;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const host = env.HOST ?? '127.0.0.1';
  const root = process.cwd();
  const demoReceiptsRaw = env.DEMO_RECEIPTS;
  const port = intFrom(env, 'PORT', 8080, 0, 65535);
  const publicUrl = (env.PUBLIC_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\//.test(publicUrl))
    throw new Error(`PUBLIC_URL must start with http:// or https://, got '${publicUrl}'`);
  const exposedAt = exposedAtOf(host, env.PUBLIC_URL ? publicUrl : undefined);
  const metricsPort = intFrom(env, 'METRICS_PORT', 0, 0, 65535);
  if (metricsPort !== 0 && metricsPort === port) {
    throw new Error(`METRICS_PORT must differ from PORT (${port}): the metrics are never served on the app's port`);
  }
  const demoData = booleanFrom(env, 'DEMO_DATA') ?? exposedAt === undefined;
  return {
    host,
    port,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(root, env.DATA_DIR ?? 'data'),
    embeddedPgPort: intFrom(env, 'EMBEDDED_PG_PORT', 54329, 1024, 65535),
    databasePoolSize: intFrom(env, 'DATABASE_POOL_SIZE', 20, 1, 500),
    databaseStatementCache: intFrom(env, 'DATABASE_STATEMENT_CACHE', 50, 0, 10_000),
    databaseReadUrls: readUrlsFrom(env),
    replicaMaxLagSeconds: intFrom(env, 'REPLICA_MAX_LAG_SECONDS', 5, 1, 3600),
    databaseReadPoolSize: intFrom(env, 'DATABASE_READ_POOL_SIZE', 10, 1, 500),
    databaseBackgroundPoolSize: intFrom(env, 'DATABASE_BACKGROUND_POOL_SIZE', 4, 2, 100),
    jobsPoolSize: intFrom(env, 'JOBS_POOL_SIZE', 4, 2, 100),
    staticDir: path.resolve(root, env.STATIC_DIR ?? 'dist'),
    sessionTtlHours: intFrom(env, 'SESSION_TTL_HOURS', 12, 1, 24 * 30),
    secureCookies: env.COOKIE_SECURE ? env.COOKIE_SECURE === 'true' : !isLoopback(host),
    trustProxy: trustProxyFrom(env),
    logLevel: env.LOG_LEVEL ?? 'info',
    metricsPort,
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    demoReceipts: demoReceiptsRaw ? intFrom(env, 'DEMO_RECEIPTS', 0, 0, 100_000_000) : undefined,
    demoSeed: intFrom(env, 'DEMO_SEED', 20261121, 0, 2 ** 31 - 1),
    demoOutletsPerMall: env.DEMO_OUTLETS_PER_MALL ? intFrom(env, 'DEMO_OUTLETS_PER_MALL', 0, 1, 2000) : undefined,
    demoLongNames: booleanFrom(env, 'DEMO_LONG_NAMES') ?? false,
    publicUrl,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Mall Analytics <no-reply@mall-analytics.local>',
    downloadSecret: downloadSecretFrom(env, host),
    downloadSecretGiven: Boolean(env.DOWNLOAD_SECRET),
    exposedAt,
    demoData,
    allowDemoAccounts: booleanFrom(env, 'ALLOW_DEMO_ACCOUNTS') ?? false,
    passwordHashCost: intFrom(
      env,
      'PASSWORD_HASH_COST',
      DEFAULT_PASSWORD_HASH_COST,
      PASSWORD_HASH_COST_RANGE.min,
      PASSWORD_HASH_COST_RANGE.max,
    ),
    requestTimeoutMs: intFrom(env, 'REQUEST_TIMEOUT_MS', 10_000, 1, 600_000),
    shutdownTimeoutSeconds: intFrom(env, 'SHUTDOWN_TIMEOUT_SECONDS', 20, 1, 600),
    statementTimeoutMs: intFrom(env, 'STATEMENT_TIMEOUT_MS', 10_000, 1, 600_000),
    exportsPerUser: intFrom(env, 'EXPORTS_PER_USER', 2, 1, 100),
    exportsMax: intFrom(env, 'EXPORTS_MAX', 4, 1, 64),
    sso: ssoFrom(env),
    ssoDemo: env.SSO_DEMO !== 'false' && !env.SSO_ISSUER && demoData,
    xero: xeroFrom(env, publicUrl, host),
    xeroDemo: env.XERO_DEMO !== 'false' && !env.XERO_CLIENT_ID && demoData,
    receiptsRetentionMonths: intFrom(env, 'RECEIPTS_RETENTION_MONTHS', 0, 0, 1200),
    gtoRemindersEveryMinutes: scheduleMinutesFrom(env, 'GTO_REMINDERS_EVERY_MINUTES', 60),
    monthProjectionsEveryMinutes: intFrom(env, 'MONTH_PROJECTIONS_EVERY_MINUTES', 1, 0, 60),
    voidAlertsEveryMinutes: intFrom(env, 'VOID_ALERTS_EVERY_MINUTES', 1, 0, 60),
    voidAlertMaxAgeHours: intFrom(env, 'VOID_ALERT_MAX_AGE_HOURS', 24, 1, 24 * 30),
    dailySummaryEveryMinutes: intFrom(env, 'DAILY_SUMMARY_EVERY_MINUTES', 5, 0, 60),
    feedCheckEveryMinutes: intFrom(env, 'FEED_CHECK_EVERY_MINUTES', 5, 0, 60),
    alertCheckEveryMinutes: intFrom(env, 'ALERT_CHECK_EVERY_MINUTES', 5, 0, 60),
    chromiumPath: env.CHROMIUM_PATH || '/usr/bin/chromium',
    renderBaseUrl: renderBaseUrlOf(env, host, port),
    renderTimeoutSeconds: intFrom(env, 'RENDER_TIMEOUT_SECONDS', 60, 5, 600),
    subscriptionCheckEveryMinutes: intFrom(env, 'SUBSCRIPTION_CHECK_EVERY_MINUTES', 5, 0, 60),
  };
}
