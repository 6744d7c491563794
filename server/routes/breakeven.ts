import type { FastifyRequest } from 'fastify';
import { type Department, departmentOfRoles } from '../../src/domain/breakeven.js';
import { MESSAGES, requireCaller } from '../auth/access.js';
import { forbidden } from '../errors.js';
import { breakevenRows, saveBreakevenTargets } from '../repositories/breakeven.js';
import { countVisibleOutlets } from '../repositories/lookup.js';
import { distinct } from './rules.js';
import type { AreaHandlers, RouteDeps } from './types.js';

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

/** Amounts of different currencies are never added: one total per currency. */
function totalsOf(rows: Awaited<ReturnType<typeof breakevenRows>>['rows']) {
  const totals = new Map<string, { gto: number; target: number; targeted: number; outlets: number }>();
  for (const row of rows) {
    const total = totals.get(row.currency) ?? { gto: 0, target: 0, targeted: 0, outlets: 0 };
    total.gto += row.gto;
    total.outlets += 1;
    if (row.breakeven_target !== null) {
      total.target += row.breakeven_target;
      total.targeted += row.gto;
    }
    totals.set(row.currency, total);
  }
  const cents = (value: number) => Math.round(value * 100) / 100;
  return [...totals.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, total]) => ({
      currency,
      gto: cents(total.gto),
      breakeven_target: cents(total.target),
      difference: cents(total.targeted - total.target),
      progress: total.target > 0 ? (total.targeted / total.target) * 100 : null,
      outlets: total.outlets,
    }));
}

export function breakevenHandlers({ pool }: RouteDeps) {
  return {
    async getBreakevenTarget(request) {
      const { query } = request;
      checkDepartment(request, query.department);
      const month = `${query.date.slice(0, 7)}-01`;
      const { rows, monthOpen } = await breakevenRows(
        pool,
        { clientId: query.client_id, mallIds: [...new Set(query.mall_ids)], visibility: visibilityOf(request) },
        { month, department: query.department, includeGst: query.include_gst ?? false },
      );
      return { data: rows, month: month.slice(0, 7), month_open: monthOpen, totals: totalsOf(rows) };
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
