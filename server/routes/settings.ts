import type { FastifyRequest } from 'fastify';
import { normalisePaymentMethod } from '../../src/domain/paymentMethods.js';
import { MESSAGES, requireCaller } from '../auth/access.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { countVisibleOutlets } from '../repositories/lookup.js';
import { localBounds } from '../repositories/receipts.js';
import {
  type Actor,
  assignSkus,
  assignSubcategories,
  createCatalogueNode,
  createMealTiming,
  deleteCatalogueNode,
  deleteMealTiming,
  getEmailSubscription,
  listCategories,
  listMealTimings,
  listProcessingFees,
  listSalesTargets,
  listSubcategories,
  monthOf,
  saveEmailSubscription,
  saveProcessingFees,
  saveSalesTargets,
  skuNameOptions,
  subcategoryNameOptions,
  updateMealTimings,
} from '../repositories/settings.js';
import { outletIds, outletWindow } from './rules.js';
import type { AreaHandlers, BodyOf, OperationRequest, RouteDeps } from './types.js';

/** The caller as the author of a change in `clientId` (a client the access gate has checked they see). */
function actorOf(request: FastifyRequest, clientId: number): Actor {
  return { clientId, userId: requireCaller(request).user.id };
}

function visibilityOf(request: FastifyRequest) {
  const { grants } = requireCaller(request);
  return { clientIds: grants.clientIds, outletLimits: grants.outletLimits };
}

/** The largest fee: a percent. */
const MAX_FEE = 100;

/**
 * The fees of a save: each method normalised (as receipts store theirs) and given once, each fee a percent from
 * 0 to 100; a 400 naming the field otherwise.
 */
function feesOf(formData: BodyOf<'createProcessingFees'>['formData']): { method: string; fee: number }[] {
  const seen = new Set<string>();
  return formData.map((row, index) => {
    const method = normalisePaymentMethod(row.payment_method);
    if (seen.has(method)) throw badRequest(`formData[${index}].payment_method: ${method} is given twice.`);
    seen.add(method);
    const fee = Number(row.processing_fees);
    if (!Number.isFinite(fee) || fee < 0 || fee > MAX_FEE) {
      throw badRequest(`formData[${index}].processing_fees: must be a percent from 0 to ${MAX_FEE}.`);
    }
    return { method, fee: Math.round(fee * 100) / 100 };
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
      const seen = new Set<number>();
      body.outlet_target.forEach((row, index) => {
        if (seen.has(row.outlet_id)) {
          throw badRequest(`outlet_target[${index}].outlet_id: outlet ${row.outlet_id} is given twice.`);
        }
        seen.add(row.outlet_id);
      });
      const ids = [...seen];
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
      const name = body.name.trim();
      if (name === '') throw badRequest('name: must not be blank.');
      const kind = body.isCategory ? 'category' : 'subcategory';
      return createCatalogueNode(pool, actorOf(request, body.client_id), kind, name);
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
      return { success: true, updated: await assignSubcategories(pool, actor, body.category_id, body.subcategory_ids) };
    },
    async getSubcategoryNameOptions({ query }) {
      return subcategoryNameOptions(pool, query.client_id, query.category_id, query.searchedText, query.page ?? 1);
    },
    async getSkuNameOptions(request) {
      const { query } = request;
      const visibility = visibilityOf(request);
      return skuNameOptions(
        pool,
        visibility,
        query.client_id,
        query.subcategory_id,
        query.searchedText,
        query.page ?? 1,
      );
    },
    async assignSkus(request) {
      const { body } = request;
      const actor = actorOf(request, body.client_id);
      const updated = await assignSkus(pool, actor, visibilityOf(request), body.subcategory_id, body.sku_ids);
      return { success: true, updated };
    },

    async getMealTimings({ query }) {
      return { data: await listMealTimings(pool, query.client_id, query.outlet_id) };
    },
    async createMealTiming(request) {
      const { body } = request;
      return createMealTiming(pool, actorOf(request, body.client_id), body.outlet_id);
    },
    async updateMealTimings(request) {
      const { body } = request;
      const actor = actorOf(request, body.client_id);
      return { data: await updateMealTimings(pool, actor, body.outlet_id, body.meal_timing) };
    },
    async deleteMealTiming(request) {
      const { query } = request;
      if (!(await deleteMealTiming(pool, actorOf(request, query.client_id), query.outlet_id, query.id))) {
        throw notFound(`id: there is no meal timing ${query.id} at this outlet.`);
      }
      return { success: true };
    },
  } satisfies AreaHandlers;
}
