import { leaseProblem } from '../../src/domain/leases.js';
import { requireCaller } from '../auth/access.js';
import { inTransaction } from '../db/pool.js';
import { badRequest, valueOrThrow } from '../errors.js';
import { buildRentStatementsWorkbook } from '../exports/rentStatementsWorkbook.js';
import { buildTenantRentStatementWorkbook } from '../exports/tenantRentStatementWorkbook.js';
import { rentStatementReport } from '../leases/rentStatements.js';
import { tenantRentStatementReport } from '../reports/tenantRentStatement.js';
import { createLease, type LeaseInput, listLeases, updateLease } from '../repositories/leases.js';
import type { AreaHandlers, BodyOf, RouteDeps } from './types.js';
import { replyWithWorkbook } from './workbookReply.js';

/** A lease's fields as the request gives them, after the rules between fields (400 naming the field). */
export function checkLease(body: BodyOf<'createLease'>): LeaseInput {
  const lease: LeaseInput = {
    outlet_id: body.outlet_id,
    start_date: body.start_date,
    end_date: body.end_date,
    gla_sqm: body.gla_sqm,
    base_rent: body.base_rent,
    service_charge: body.service_charge,
    turnover_rent: body.turnover_rent,
    notice_date: body.notice_date ?? null,
    renewal_date: body.renewal_date ?? null,
  };
  const problem = leaseProblem(lease);
  if (problem) throw badRequest(`${problem.field}: ${problem.message}`);
  return lease;
}

/**
 * /api/leases, /api/rentStatements and /api/tenant/rentStatement: the leases of the client's outlets (audit-logged
 * changes) and the rent they owe. The gate has checked the caller sees the client, malls and outlet the request
 * names; a lease changed by id must be of an outlet the caller sees too. The lease list is read on the primary (the
 * editor reads it right after saving); the statements are reports, read where reports are.
 */
export function leaseHandlers({ pool, reads, exportSlots }: RouteDeps) {
  return {
    async getLeases(request) {
      const { grants } = requireCaller(request);
      const { query } = request;
      return listLeases(
        pool,
        {
          clientId: query.client_id,
          visibility: { clientIds: grants.clientIds, outletLimits: grants.outletLimits },
          ...(query.mall_ids && { mallIds: [...new Set(query.mall_ids)] }),
        },
        {
          ...(query.search && { search: query.search }),
          status: query.status ?? 'all',
          ...(query.expiring_within_months !== undefined && { expiringWithinMonths: query.expiring_within_months }),
          sortColumn: query.sortColumn ?? 'outlet_name',
          order: query.orderByMethod ?? 'desc',
          page: query.page ?? 1,
          rowsPerPage: query.rowsPerPage ?? 10,
        },
      );
    },

    async createLease(request) {
      const { user } = requireCaller(request);
      const lease = checkLease(request.body);
      return valueOrThrow(
        await inTransaction(pool, (tx) =>
          createLease(tx, { clientId: request.body.client_id, userId: user.id, lease }),
        ),
      );
    },

    async updateLease(request) {
      const { user, grants } = requireCaller(request);
      const { body } = request;
      const lease = checkLease(body);
      return valueOrThrow(
        await inTransaction(pool, (tx) =>
          updateLease(tx, {
            clientId: body.client_id,
            userId: user.id,
            visibility: { clientIds: grants.clientIds, outletLimits: grants.outletLimits },
            id: body.id,
            lease,
          }),
        ),
      );
    },

    async getRentStatements(request) {
      const { grants } = requireCaller(request);
      return rentStatementReport(reads, grants, request.query);
    },

    getRentStatementsWorkbook: (request, reply) =>
      replyWithWorkbook(request, reply, exportSlots, (requester, signal) =>
        buildRentStatementsWorkbook(reads, requester, request.query, { signal }),
      ),

    async getTenantRentStatement(request) {
      const { grants } = requireCaller(request);
      return tenantRentStatementReport(reads, grants, request.query);
    },

    getTenantRentStatementWorkbook: (request, reply) =>
      replyWithWorkbook(request, reply, exportSlots, (requester, signal) =>
        buildTenantRentStatementWorkbook(reads, requester, request.query, { signal }),
      ),
  } satisfies AreaHandlers;
}
