import pg from 'pg';
import { forgetAllCallers, forgetDomain, forgetSession, forgetSuperAdmins, forgetUser } from './callerCache.js';

/**
 * The channel on which every change to what the caller cache holds is announced when it commits (migration 030's
 * triggers): a session ended or changed, a user's columns, roles, clients or outlets, a role's permissions, an
 * e-mail domain's receipts rule, a client made or removed.
 */
export const CALLER_CACHE_CHANNEL = 'caller_cache';

/** How long to wait before connecting again after the listener's connection was lost or refused. */
const RELISTEN_MS = 2000;

export interface CacheListenerLog {
  info: (object: object, message: string) => void;
  error: (object: object, message: string) => void;
}

export interface CacheListener {
  /** Whether the listener holds its connection now (else the cache's time to live bounds what it misses). */
  readonly listening: boolean;
  stop: () => Promise<void>;
}

/** Forgets what a notification names; a payload it does not know forgets everything, to be safe. */
export function forgetNotified(payload: string): void {
  const colon = payload.indexOf(':');
  const kind = colon < 0 ? payload : payload.slice(0, colon);
  const id = colon < 0 ? '' : payload.slice(colon + 1);
  const number = /^\d+$/.test(id) ? Number(id) : undefined;
  if (kind === 'session' && id) forgetSession(id);
  else if (kind === 'user' && number !== undefined) forgetUser(number);
  else if (kind === 'domain' && id) forgetDomain(id);
  else if (kind === 'clients') forgetSuperAdmins();
  // A role's holders are not kept by role: its change (rare) forgets every caller.
  else forgetAllCallers();
}

/**
 * LISTEN caller_cache on a connection of its own (not one of a pool's: it is held for the process's life), and
 * forget what each notification names. A lost connection is opened again after `retryMs`; once listening again the
 * whole cache is forgotten, since what was announced meanwhile is lost. Until then the cache's time to live
 * (CALLER_CACHE_TTL_MS) bounds how long another instance's change goes unseen.
 */
export async function listenForCallerChanges(options: {
  connectionString: string;
  log: CacheListenerLog;
  retryMs?: number;
}): Promise<CacheListener> {
  const retryMs = options.retryMs ?? RELISTEN_MS;
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let lost = false;

  const relisten = () => {
    if (!stopped && !retry) retry = setTimeout(() => void listen(), retryMs);
  };
  const listen = async (): Promise<void> => {
    retry = undefined;
    if (stopped) return;
    const connection = new pg.Client({
      connectionString: options.connectionString,
      application_name: 'mall-analytics-cache-listener',
      keepAlive: true,
    });
    connection.on('notification', (message) => {
      if (message.channel === CALLER_CACHE_CHANNEL) forgetNotified(message.payload ?? '');
    });
    // 'error' comes first when the connection breaks; 'end' whenever it closes, broken or stopped.
    connection.on('error', (error) => {
      if (client === connection) options.log.error({ err: error }, 'the caller cache listener lost its connection');
    });
    connection.on('end', () => {
      if (client !== connection) return;
      client = undefined;
      lost = true;
      relisten();
    });
    try {
      await connection.connect();
      await connection.query(`LISTEN ${CALLER_CACHE_CHANNEL}`);
    } catch (error) {
      options.log.error({ err: error }, 'the caller cache listener could not listen');
      await connection.end().catch(() => {});
      lost = true;
      relisten();
      return;
    }
    if (stopped) {
      await connection.end().catch(() => {});
      return;
    }
    client = connection;
    // What was announced while nobody listened is lost: nothing cached before now is trusted.
    forgetAllCallers();
    if (lost) options.log.info({}, 'the caller cache listener listens again');
    lost = false;
  };

  await listen();
  return {
    get listening() {
      return client !== undefined;
    },
    stop: async () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      retry = undefined;
      const held = client;
      client = undefined;
      await held?.end().catch(() => {});
    },
  };
}
