import { passwordProblem } from './auth/passwordPolicy.js';
import { hashPassword } from './auth/passwords.js';
import { inTransaction, type Pool } from './db/pool.js';
import { demoRoles } from './demo/roles.js';
import { findRoleNames, findSuperAdminRoleId, insertAccountWithRole } from './repositories/admins.js';
import { insertRoles } from './repositories/demo.js';
import { contractEmailPattern } from './validation.js';

export const CREATE_ADMIN_MESSAGES = {
  notAnEmail: (email: string) => `'${email}' is not an e-mail address (name@domain.tld).`,
  accountExists: 'An account with this e-mail already exists.',
} as const;

export interface CreateAdminInput {
  email: string;
  password: string;
  /** Shown in the app; the e-mail's name when absent. */
  displayName?: string | undefined;
}

export type CreateAdminOutcome =
  | { created: true; userId: number; email: string; rolesAdded: string[] }
  | { created: false; problem: string };

/** An account that exists already: the whole transaction is undone, roles included. */
class AccountExists extends Error {}

/**
 * Creates a super admin of a real install (the first one, typically): the e-mail checked by the contract's rule,
 * the password by the product's policy and hashed like every password. The product's roles (the demo's: super admin,
 * mall operator, the departments, tenant, tenant manager, their permissions derived from openapi.yaml) are added
 * where the database lacks them, so that the admin can invite tenants and operators at once; existing roles are
 * kept as they are.
 */
export async function createAdmin(pool: Pool, input: CreateAdminInput): Promise<CreateAdminOutcome> {
  const email = input.email.trim().toLowerCase();
  if (email.length > 254 || !contractEmailPattern().test(email)) {
    return { created: false, problem: CREATE_ADMIN_MESSAGES.notAnEmail(input.email) };
  }
  const problem = passwordProblem(input.password, email);
  if (problem) return { created: false, problem };
  const passwordHash = await hashPassword(input.password);
  const displayName = input.displayName?.trim() || (email.split('@')[0] ?? email);
  try {
    return await inTransaction(pool, async (tx) => {
      const existing = await findRoleNames(tx);
      const added = demoRoles().filter((role) => !existing.has(role.name));
      await insertRoles(
        tx,
        added.map((role) => ({
          name: role.name,
          is_super_admin: role.isSuperAdmin,
          routes: role.routes,
          api: role.api,
          components: role.components,
        })),
      );
      const roleId = await findSuperAdminRoleId(tx);
      if (roleId === undefined) throw new Error('The database has no super admin role and a role of that name exists');
      const userId = await insertAccountWithRole(tx, { email, displayName, passwordHash, roleId });
      if (userId === undefined) throw new AccountExists();
      return { created: true as const, userId, email, rolesAdded: added.map((role) => role.name) };
    });
  } catch (error) {
    if (error instanceof AccountExists) return { created: false, problem: CREATE_ADMIN_MESSAGES.accountExists };
    throw error;
  }
}
