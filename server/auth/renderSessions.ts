import type { Queryable } from '../db/pool.js';
import { insertSession } from '../repositories/sessions.js';
import { endStoredSession, hashSecret, newSecret, SESSION_COOKIE } from './sessions.js';

/**
 * The sessions the server opens for its own headless browser, to render a report page as its recipient sees it
 * (report subscriptions, issue 34). A render session is a row of `sessions` like any other, so whichever instance
 * the browser's requests reach knows it; it is render-only (the access gate refuses every call but a GET: it
 * cannot change anything), expires in minutes, and is ended as soon as its page is printed. Its cookie is never
 * given to anyone but the server's own browser.
 */

/** How long a render session lives at most: the render's time limit and a margin, never more than 15 minutes. */
export function renderSessionSeconds(renderTimeoutSeconds: number): number {
  return Math.min(15 * 60, renderTimeoutSeconds + 60);
}

export interface RenderSession {
  /** The session cookie's name and value, for the browser. */
  cookie: { name: string; value: string };
  /** Ends the session (its cookie opens nothing from then on). */
  end: () => Promise<void>;
}

/** Opens a render-only session of `userId` for `ttlSeconds`. */
export async function openRenderSession(db: Queryable, userId: number, ttlSeconds: number): Promise<RenderSession> {
  const token = newSecret();
  const tokenHash = hashSecret(token);
  await insertSession(db, {
    tokenHash,
    userId,
    csrfToken: newSecret(),
    mfaPending: false,
    ttlSeconds,
    renderOnly: true,
  });
  return { cookie: { name: SESSION_COOKIE, value: token }, end: () => endStoredSession(db, tokenHash) };
}
