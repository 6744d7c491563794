import { inTransaction, type Pool } from '../db/pool.js';
import { createInvitedUser, findRoles, isUserOfClient } from './authFlows.js';
import { ok, type Result, refuse } from './domainError.js';
import type { InvitationMail } from './tenantUsers.js';
import { findUserByEmail } from './users.js';

/** An invitation to an account of a client with any roles (the administrators' invite, `POST /api/user/invite`). */
export interface UserInvitation {
  /** Normalised (trimmed, lower case). */
  email: string;
  displayName: string;
  clientId: number;
  roleNames: readonly string[];
  /** Whether the inviter is a super admin: only a super admin may give a role that makes one. */
  inviterIsSuperAdmin: boolean;
}

/** Why the stored data refuses an invitation, in the words the invite has always answered. */
export const USER_INVITATION_REFUSALS = {
  unknownRole: (name: string) => refuse('invalid', `Unknown role: ${name}`),
  accountExists: refuse('invalid', 'An account with this e-mail already exists.'),
} as const;

/**
 * Creates the invited account with its roles and mails its link, in one transaction, so that an invitation whose
 * mail could not be sent leaves no account behind. A role that does not exist is refused, and so is a super admin
 * role given by an inviter who is not one (answered as unknown, as it always was). An address that already has an
 * account is refused only when the account belongs to the client; another client's account is answered as a new
 * invitation, nothing is created, and its owner gets a notice instead of a link.
 */
export async function inviteClientUser(
  pool: Pool,
  invite: UserInvitation,
  mail: InvitationMail,
): Promise<Result<void>> {
  return inTransaction(pool, async (tx): Promise<Result<void>> => {
    const roleNames = [...new Set(invite.roleNames)];
    const roles = await findRoles(tx, roleNames);
    const missing = roleNames.find((name) => !roles.some((role) => role.name === name));
    if (missing !== undefined) return USER_INVITATION_REFUSALS.unknownRole(missing);
    if (roles.some((role) => role.isSuperAdmin) && !invite.inviterIsSuperAdmin) {
      return USER_INVITATION_REFUSALS.unknownRole('super admin');
    }
    const existing = await findUserByEmail(tx, invite.email);
    if (existing) {
      if (await isUserOfClient(tx, existing.id, invite.clientId)) return USER_INVITATION_REFUSALS.accountExists;
      await mail.noticeExistingAccount(existing);
      return ok(undefined);
    }
    const userId = await createInvitedUser(tx, {
      email: invite.email,
      displayName: invite.displayName,
      clientId: invite.clientId,
      roles: roleNames,
    });
    await mail.mailKey(tx, { id: userId, email: invite.email }, 'activate');
    return ok(undefined);
  });
}
