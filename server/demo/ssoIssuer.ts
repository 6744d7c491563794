import { verifyPassword } from '../auth/passwords.js';
import type { Pool, Queryable } from '../db/pool.js';
import { whileHoldingDemoSsoLock } from '../repositories/demo.js';
import { findSsoDomain, saveSsoDomain } from '../repositories/sso.js';
import { findUserByEmail } from '../repositories/users.js';
import { DEMO_SSO_DOMAIN, type DemoSsoProvider, startDemoSsoProvider } from './ssoProvider.js';

/** How long a stored issuer has to answer before an instance takes its place. */
export const ISSUER_ANSWER_TIMEOUT_MS = 2000;

/**
 * Whether `issuer` answers as that issuer: its OpenID discovery document answers 200 within `timeoutMs` and names
 * it. A provider that has stopped, or another server that took its port, does not.
 */
export async function issuerAnswers(issuer: string, timeoutMs = ISSUER_ANSWER_TIMEOUT_MS): Promise<boolean> {
  try {
    const response = await fetch(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`, {
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      return false;
    }
    const document = (await response.json()) as { issuer?: unknown };
    return document.issuer === issuer;
  } catch {
    return false;
  }
}

/** The demo domain's issuer as an instance found it: the stored one, and whether it is this instance's provider. */
export interface DemoSsoStanding {
  issuer: string;
  own: boolean;
}

/**
 * The demo's identity provider as one instance of several on a database sees it. They agree on one: the issuer
 * stored for the demo's domain while it answers; when it does not (its instance has stopped), the first instance
 * to look starts its own provider and stores it in its place.
 */
export interface DemoSsoIssuer {
  /** The demo accounts' e-mail domain. */
  readonly domain: string;
  /** The issuer of this instance's provider while it runs, else undefined (another instance's serves the domain). */
  readonly ownIssuer: string | undefined;
  /**
   * Makes the stored issuer one that answers: adopts the stored one when it answers (stopping this instance's
   * provider if another's replaced it), else starts this instance's provider (when not running) and stores it.
   * The check and the store run under an advisory lock, so instances settling together store one provider.
   */
  settle: () => Promise<DemoSsoStanding>;
  /** Stops this instance's provider, if it runs; no settling starts one afterwards. */
  stop: () => Promise<void>;
}

export interface DemoSsoIssuerOptions {
  /** Where this instance is reached (its callback and post-logout addresses). */
  publicUrl: string;
  /** Whether an issuer answers; `issuerAnswers` unless given. */
  answers?: (issuer: string) => Promise<boolean>;
}

/**
 * The demo's identity provider shared by the instances on `pool`'s database (see DemoSsoIssuer). The provider
 * knows the demo accounts of its domain, with their passwords. It is started only when this instance takes over:
 * an instance that adopts another's runs no listener of its own.
 */
export function createDemoSsoIssuer(pool: Pool, options: DemoSsoIssuerOptions): DemoSsoIssuer {
  const answers = options.answers ?? issuerAnswers;
  let own: DemoSsoProvider | undefined;
  let stopped = false;
  let settling: Promise<DemoSsoStanding> | undefined;

  async function authenticate(login: string, password: string): Promise<string | undefined> {
    if (!login.endsWith(`@${DEMO_SSO_DOMAIN}`)) return undefined;
    const user = await findUserByEmail(pool, login);
    return user && !user.disabled && (await verifyPassword(password, user.passwordHash)) ? user.email : undefined;
  }

  /** The stored issuer when it is this instance's or answers, else undefined. */
  async function storedStanding(db: Queryable): Promise<DemoSsoStanding | undefined> {
    const stored = await findSsoDomain(db, DEMO_SSO_DOMAIN);
    if (!stored) return undefined;
    if (own && stored.issuer === own.issuer) return { issuer: own.issuer, own: true };
    if (!(await answers(stored.issuer))) return undefined;
    if (own) {
      // Another instance took over (this one's did not answer it in time): this one's serves nobody now.
      const superseded = own;
      own = undefined;
      await superseded.stop().catch(() => {});
    }
    return { issuer: stored.issuer, own: false };
  }

  async function settleOnce(): Promise<DemoSsoStanding> {
    // Most calls find the stored issuer answering; only a take-over waits for the lock.
    const found = await storedStanding(pool);
    if (found) return found;
    return whileHoldingDemoSsoLock(pool, async (session) => {
      const standing = await storedStanding(session);
      if (standing) return standing;
      if (stopped) throw new Error("the demo's identity provider of this instance has stopped");
      own ??= await startDemoSsoProvider({ publicUrl: options.publicUrl, authenticate });
      await saveSsoDomain(session, {
        domain: DEMO_SSO_DOMAIN,
        issuer: own.issuer,
        clientId: own.clientId,
        clientSecret: own.clientSecret,
      });
      return { issuer: own.issuer, own: true };
    });
  }

  return {
    domain: DEMO_SSO_DOMAIN,
    get ownIssuer() {
      return own?.issuer;
    },
    settle() {
      // One settling at a time in this instance: calls meanwhile share its answer.
      settling ??= settleOnce().finally(() => {
        settling = undefined;
      });
      return settling;
    },
    async stop() {
      stopped = true;
      await settling?.catch(() => {});
      const running = own;
      own = undefined;
      await running?.stop();
    },
  };
}
