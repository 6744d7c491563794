import { requireCaller } from '../auth/access.js';
import { listAuditLog } from '../repositories/audit.js';
import type { AreaHandlers, RouteDeps } from './types.js';

export function auditHandlers({ pool }: RouteDeps) {
  return {
    async getAuditLogs(request) {
      const { query } = request;
      const { user, grants } = requireCaller(request);
      // A caller limited to some outlets of the client sees only the changes they made.
      const limited = !grants.isSuperAdmin && grants.outletLimits.has(query.client_id);
      return listAuditLog(pool, {
        clientId: query.client_id,
        ...(limited ? { onlyUserId: user.id } : {}),
        page: query.page ?? 1,
        rowsPerPage: query.rowsPerPage ?? 20,
        sortColumn: query.sortColumn ?? 'created_at',
        order: query.orderByMethod ?? 'desc',
        ...(query.entity ? { entity: query.entity } : {}),
        ...(query.search ? { search: query.search } : {}),
        ...(query.from ? { from: query.from } : {}),
        ...(query.to ? { to: query.to } : {}),
      });
    },
  } satisfies AreaHandlers;
}
