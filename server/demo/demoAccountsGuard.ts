import type { Config } from '../config.js';
import type { Queryable } from '../db/pool.js';
import { findActiveAccounts, isDatabaseEmpty } from '../repositories/demo.js';
import { DEMO_ACCOUNT_SPECS, DEMO_PASSWORD } from './accounts.js';

/**
 * Why a server must not start: it is reached from beyond this machine (`config.exposedAt`) while its database holds
 * demo accounts that can sign in, or while DEMO_DATA=true would create them in an empty one. Their password is
 * published, the super admin's included. ALLOW_DEMO_ACCOUNTS=true runs the demo there anyway. Undefined: it may.
 */
export async function demoAccountsRefusal(
  db: Queryable,
  config: Pick<Config, 'exposedAt' | 'allowDemoAccounts' | 'demoData'>,
): Promise<string | undefined> {
  if (config.exposedAt === undefined || config.allowDemoAccounts) return undefined;
  const where = `the server is reached from beyond this machine (${config.exposedAt})`;
  const accounts = await findActiveAccounts(
    db,
    DEMO_ACCOUNT_SPECS.map((account) => account.email),
  );
  const [first] = accounts;
  if (first !== undefined) {
    const more = accounts.length > 1 ? ` and ${accounts.length - 1} more` : '';
    return (
      `Refusing to start: the database holds demo accounts (${first}${more}) whose password '${DEMO_PASSWORD}' is ` +
      `published, and ${where}. Deactivate them or use another database, or set ALLOW_DEMO_ACCOUNTS=true to run the demo there.`
    );
  }
  if (config.demoData && (await isDatabaseEmpty(db))) {
    return (
      `Refusing to start: DEMO_DATA=true would create demo accounts whose password '${DEMO_PASSWORD}' is published, ` +
      `and ${where}. Set ALLOW_DEMO_ACCOUNTS=true as well to run the demo there.`
    );
  }
  return undefined;
}
