import type { Queryable } from '../db/pool.js';

/**
 * The SQL of the admin command (server/admin.ts): the roles a database defines and the first super admin's account.
 * The roles themselves are inserted by the demo's insertRoles (server/repositories/demo.ts).
 */

/** The names of the roles the database defines. */
export async function findRoleNames(db: Queryable): Promise<Set<string>> {
  const { rows } = await db.query<{ name: string }>('SELECT name FROM roles');
  return new Set(rows.map((row) => row.name));
}

/** The id of the first role that makes its users super admins, if any. */
export async function findSuperAdminRoleId(db: Queryable): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM roles WHERE is_super_admin ORDER BY id LIMIT 1');
  return rows[0]?.id;
}

/**
 * An account with a password and one role, with no client of its own (a super admin sees every client); undefined
 * when an account has this e-mail already.
 */
export async function insertAccountWithRole(
  db: Queryable,
  account: { email: string; displayName: string; passwordHash: string; roleId: number },
): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>(
    `WITH account AS (
       INSERT INTO users (email, display_name, password_hash) VALUES ($1, $2, $3)
       ON CONFLICT (email) DO NOTHING RETURNING id)
     INSERT INTO user_roles (user_id, role_id) SELECT id, $4 FROM account RETURNING user_id AS id`,
    [account.email, account.displayName, account.passwordHash, account.roleId],
  );
  return rows[0]?.id;
}
