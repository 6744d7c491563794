import type { FastifyRequest } from 'fastify';
import { normalisePaymentMethod } from '../../src/domain/paymentMethods.js';
import { MESSAGES, requireCaller } from '../auth/access.js';
import { forbidden, notFound, valueOrThrow } from '../errors.js';
import { countVisibleOutlets } from '../repositories/lookup.js';
import { localBounds } from '../repositories/receipts.js';
import type { Actor } from '../repositories/settings/actor.js';
import {
  assignSkus,
  assignSubcategories,
  skuNameOptions,
  subcategoryNameOptions,
} from '../repositories/settings/catalogueAssignments.js';
import {
  createCatalogueNode,
  deleteCatalogueNode,
  listCategories,
  listSubcategories,
} from '../repositories/settings/categories.js';
import { getEmailSubscription, saveEmailSubscription } from '../repositories/settings/emailSubscriptions.js';
import {
  createMealTiming,
  deleteMealTiming,
  listMealTimings,
  type TimingChange,
  updateMealTimings,
} from '../repositories/settings/mealTimings.js';
import { listProcessingFees, saveProcessingFees } from '../repositories/settings/processingFees.js';
import { listSalesTargets, monthOf, saveSalesTargets } from '../repositories/settings/salesTargets.js';
import { distinct, endAfter, nonBlank, outletIds, outletWindow, percent } from './rules.js';
import type { AreaHandlers, BodyOf, OperationRequest, RouteDeps } from './types.js';

/** The caller as the author of a change in `clientId` (a client the access gate has checked they see). */
function actorOf(request: FastifyRequest, clientId: number): Actor {
  return { clientId, userId: requireCaller(request).user.id };
}

function visibilityOf(request: FastifyRequest) {
  const { grants } = requireCaller(request);
  return { clientIds: grants.clientIds, outletLimits: grants.outletLimits };
}

/**
 * The fees of a save: each method normalised (as receipts store theirs) and given once, each fee a percent from
 * 0 to 100; a 400 naming the field otherwise.
 */
function feesOf(formData: BodyOf<'createProcessingFees'>['formData']): { method: string; fee: number }[] {
  const rows = formData.map((row) => ({
    method: normalisePaymentMethod(row.payment_method),
    fee: row.processing_fees,
  }));
  distinct(
    rows,
    (row) => row.method,
    (index) => `formData[${index}].payment_method`,
    (method) => method,
  );
  return rows.map((row, index) => ({
    method: row.method,
    fee: Math.round(percent(row.fee, `formData[${index}].processing_fees`) * 100) / 100,
  }));
}

/**
 * The meal timings of a save by the request's rules (each id once, a name not blank once trimmed, each timing
 * starting before it ends), names trimmed; the repository checks them against the outlet's timings.
 */
function timingChangesOf(rows: BodyOf<'updateMealTimings'>['meal_timing']): TimingChange[] {
  distinct(
    rows,
    (row) => row.id,
    (index) => `meal_timing[${index}].id`,
    (id) => `meal timing ${id}`,
  );
  return rows.map((row, index) => {
    const field = `meal_timing[${index}]`;
    const name = nonBlank(row.name, `${field}.name`);
    endAfter(row.start_time, row.end_time, `${field}.end_time`, 'start_time');
    return { id: row.id, name, start_time: row.start_time, end_time: row.end_time };
  });
}

export function settingsHandlers({ pool }: RouteDeps) {
  const saveFees = async (request: OperationRequest<'createProcessingFees' | 'updateProcessingFees'>) => {
    const { body } = request;
    const fees = feesOf(body.formData);
    await saveProcessingFees(pool, actorOf(request, body.client_id), outletIds(body.id), fees);
    return { success: true };
  };

  return {
    async getEmailSubscriptions(request) {
      const { user } = requireCaller(request);
      return { list: [await getEmailSubscription(pool, request.query.client_id, user.id, user.email)] };
    },
    async updateEmailSubscriptions(request) {
      const { query } = request;
      return saveEmailSubscription(pool, actorOf(request, query.client_id), requireCaller(request).user.email, {
        email_subscribe: query.void_email,
        summary_email_subscribe: query.summary_email,
      });
    },

    async getProcessingFees({ query }) {
      const { start, end } = localBounds(outletWindow(query));
      return {
        data: await listProcessingFees(
          pool,
          query.client_id,
          outletIds(query.id),
          start.slice(0, 10),
          end.slice(0, 10),
        ),
      };
    },
    createProcessingFees: saveFees,
    updateProcessingFees: saveFees,

    async getSalesTargets(request) {
      const { query } = request;
      return { data: await listSalesTargets(pool, visibilityOf(request), query.client_id, monthOf(query.date)) };
    },
    async saveSalesTargets(request) {
      const { body } = request;
      const ids = distinct(
        body.outlet_target,
        (row) => row.outlet_id,
        (index) => `outlet_target[${index}].outlet_id`,
        (id) => `outlet ${id}`,
      );
      if ((await countVisibleOutlets(pool, visibilityOf(request), ids, body.client_id)) !== ids.length) {
        throw forbidden(MESSAGES.scope);
      }
      await saveSalesTargets(pool, actorOf(request, body.client_id), monthOf(body.date), body.outlet_target);
      return { success: true };
    },

    async getCategories({ query }) {
      return listCategories(pool, query.client_id, { page: query.page ?? 1, rowsPerPage: query.rowsPerPage ?? 10 });
    },
    async getSubcategories({ query }) {
      return listSubcategories(pool, query.client_id, { page: query.page ?? 1, rowsPerPage: query.rowsPerPage ?? 10 });
    },
    async createCategory(request) {
      const { body } = request;
      const name = nonBlank(body.name, 'name');
      const kind = body.isCategory ? 'category' : 'subcategory';
      return valueOrThrow(await createCatalogueNode(pool, actorOf(request, body.client_id), kind, name));
    },
    async deleteCategory(request) {
      const { body } = request;
      const kind = body.isCategory === false ? 'subcategory' : 'category';
      if (!(await deleteCatalogueNode(pool, actorOf(request, body.client_id), kind, body.category_id))) {
        throw notFound(`category_id: there is no ${kind} ${body.category_id} in this client.`);
      }
      return { success: true };
    },
    async assignSubcategories(request) {
      const { body } = request;
      const actor = actorOf(request, body.client_id);
      const updated = valueOrThrow(await assignSubcategories(pool, actor, body.category_id, body.subcategory_ids));
      return { success: true, updated };
    },
    async getSubcategoryNameOptions({ query }) {
      return valueOrThrow(
        await subcategoryNameOptions(pool, query.client_id, query.category_id, query.searchedText, query.page ?? 1),
      );
    },
    async getSkuNameOptions(request) {
      const { query } = request;
      const visibility = visibilityOf(request);
      return valueOrThrow(
        await skuNameOptions(
          pool,
          visibility,
          query.client_id,
          query.subcategory_id,
          query.searchedText,
          query.page ?? 1,
        ),
      );
    },
    async assignSkus(request) {
      const { body } = request;
      const actor = actorOf(request, body.client_id);
      const updated = valueOrThrow(
        await assignSkus(pool, actor, visibilityOf(request), body.subcategory_id, body.sku_ids),
      );
      return { success: true, updated };
    },

    async getMealTimings({ query }) {
      return { data: await listMealTimings(pool, query.client_id, query.outlet_id) };
    },
    async createMealTiming(request) {
      const { body } = request;
      return valueOrThrow(await createMealTiming(pool, actorOf(request, body.client_id), body.outlet_id));
    },
    async updateMealTimings(request) {
      const { body } = request;
      const actor = actorOf(request, body.client_id);
      const changes = timingChangesOf(body.meal_timing);
      return { data: valueOrThrow(await updateMealTimings(pool, actor, body.outlet_id, changes)) };
    },
    async deleteMealTiming(request) {
      const { query } = request;
      const actor = actorOf(request, query.client_id);
      if (!valueOrThrow(await deleteMealTiming(pool, actor, query.outlet_id, query.id))) {
        throw notFound(`id: there is no meal timing ${query.id} at this outlet.`);
      }
      return { success: true };
    },
  } satisfies AreaHandlers;
}
