import type { FastifyRequest } from 'fastify';
import { type Department, departmentOfRoles } from '../../src/domain/breakeven.js';
import { MESSAGES, requireCaller } from '../auth/access.js';
import { forbidden } from '../errors.js';
import { buildBreakevenWorkbook } from '../exports/breakevenWorkbook.js';
import { breakevenReport } from '../reports/breakevenReport.js';
import { saveBreakevenTargets } from '../repositories/breakeven.js';
import { countVisibleOutlets } from '../repositories/lookup.js';
import { distinct } from './rules.js';
import type { AreaHandlers, RouteDeps } from './types.js';
import { replyWithWorkbook } from './workbookReply.js';

export const OTHER_DEPARTMENT_MESSAGE = 'You can only see and set the breakeven targets of your own department.';

/** A caller whose roles name a department reads and sets that department's targets only. */
function checkDepartment(request: FastifyRequest, department: Department): void {
  const own = departmentOfRoles(requireCaller(request).grants.roles);
  if (own !== undefined && own !== department) throw forbidden(OTHER_DEPARTMENT_MESSAGE);
}

const visibilityOf = (request: FastifyRequest) => {
  const { grants } = requireCaller(request);
  return { clientIds: grants.clientIds, outletLimits: grants.outletLimits };
};

export function breakevenHandlers({ pool, exportSlots }: RouteDeps) {
  return {
    getBreakevenTarget(request) {
      const { query } = request;
      checkDepartment(request, query.department);
      // The page reads it right after its targets are saved: from the primary.
      return breakevenReport(pool, visibilityOf(request), {
        client_id: query.client_id,
        mall_ids: query.mall_ids,
        month: query.date.slice(0, 7),
        department: query.department,
        include_gst: query.include_gst ?? false,
      });
    },

    getBreakevenWorkbook(request, reply) {
      const { query } = request;
      checkDepartment(request, query.department);
      return replyWithWorkbook(request, reply, exportSlots, (requester, signal) =>
        buildBreakevenWorkbook(pool, requester, query, { signal }),
      );
    },

    async updateBreakevenTargets(request) {
      const { body } = request;
      checkDepartment(request, body.department);
      const ids = distinct(
        body.targets,
        (row) => row.outlet_id,
        (index) => `targets[${index}].outlet_id`,
        (id) => `outlet ${id}`,
      );
      if ((await countVisibleOutlets(pool, visibilityOf(request), ids, body.client_id)) !== ids.length) {
        throw forbidden(MESSAGES.scope);
      }
      await saveBreakevenTargets(
        pool,
        { clientId: body.client_id, userId: requireCaller(request).user.id },
        { department: body.department, month: `${body.month}-01`, targets: body.targets },
      );
      return { success: true };
    },
  } satisfies AreaHandlers;
}
