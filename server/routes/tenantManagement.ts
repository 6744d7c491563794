import type { FastifyRequest } from 'fastify';
import { parseIds, requireCaller } from '../auth/access.js';
import { forgetUser } from '../auth/callerCache.js';
import { existingAccountNotifier, validationKeyMailer } from '../auth/validationMail.js';
import { valueOrThrow } from '../errors.js';
import {
  inviteTenantUser,
  listTenantUsers,
  resendTenantInvitation,
  setTenantUserActive,
  type TenantActor,
} from '../repositories/tenantUsers.js';
import { normaliseEmail } from './auth.js';
import { nonBlank } from './rules.js';
import type { AreaHandlers, RouteDeps } from './types.js';

/** The caller as the author of a change in `clientId` (a client the access gate has checked they see). */
function actorOf(request: FastifyRequest, clientId: number): TenantActor {
  const { user, grants } = requireCaller(request);
  return {
    clientId,
    userId: user.id,
    visibility: { clientIds: grants.clientIds, outletLimits: grants.outletLimits },
  };
}

export function tenantManagementHandlers({ pool, config, mailer }: RouteDeps) {
  const mailKey = validationKeyMailer({ config, mailer });
  const invitationMail = { mailKey, noticeExistingAccount: existingAccountNotifier({ config, mailer }) };

  return {
    async getTenantUsers(request) {
      const { query } = request;
      const status = query.status ?? 'all';
      return listTenantUsers(pool, actorOf(request, query.client_id).visibility, {
        clientId: query.client_id,
        page: query.page ?? 1,
        rowsPerPage: query.rowsPerPage ?? 20,
        sortColumn: query.sortColumn ?? 'name',
        order: query.orderByMethod ?? 'asc',
        status: status === 'all' ? undefined : status,
        search: query.search || undefined,
      });
    },

    async inviteTenantUser(request) {
      const { body } = request;
      const name = nonBlank(body.name, 'name');
      // The access gate has found every outlet the client's and visible to the caller.
      return valueOrThrow(
        await inviteTenantUser(
          pool,
          actorOf(request, body.client_id),
          { email: normaliseEmail(body.email), name, outletIds: parseIds(body.outlet_ids) },
          invitationMail,
        ),
      );
    },

    async resendTenantInvitation(request) {
      const { body } = request;
      return valueOrThrow(await resendTenantInvitation(pool, actorOf(request, body.client_id), body.user_id, mailKey));
    },

    async setTenantUserStatus(request) {
      const { body } = request;
      const { user, changed } = valueOrThrow(
        await setTenantUserActive(pool, actorOf(request, body.client_id), body.user_id, body.active),
      );
      // After the commit: the user's cached sessions go, so their next call reads the user again (401 once disabled).
      if (changed) forgetUser(user.id);
      return user;
    },
  } satisfies AreaHandlers;
}
