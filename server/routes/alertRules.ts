import { alertRuleProblem } from '../../src/domain/alertRules.js';
import { parseIds, requireCaller } from '../auth/access.js';
import { inTransaction, type Queryable } from '../db/pool.js';
import { badRequest, notFound } from '../errors.js';
import {
  type AlertRuleInput,
  acknowledgeAlertFiring,
  alertCategories,
  alertRecipients,
  createAlertRule,
  deleteAlertRule,
  listAlertFirings,
  listAlertRules,
  scopeFacts,
  updateAlertRule,
  visibleAlertRule,
} from '../repositories/alertRules.js';
import type { Visibility } from '../repositories/lookup.js';
import type { AreaHandlers, BodyOf, RouteDeps } from './types.js';

export const NO_SUCH_RULE = 'No such alert rule.';
export const NO_SUCH_FIRING = 'No such firing.';

/** The most outlets a rule names (the migration's bound). */
const MAX_OUTLETS = 200;

/** The firings a history shows unless asked for another number. */
const DEFAULT_FIRINGS = 50;

/**
 * The rules of a rule the schema cannot say, each a 400 naming its field: those between its fields
 * (alertRuleProblem, shared with the editor), the outlets named by a caller limited to some, then those on the
 * client's data: its malls in one zone and
 * currency, its category and outlets in its malls, a scope that holds an outlet, its recipients users of the
 * client.
 */
export async function checkAlertRule(
  db: Queryable,
  body: BodyOf<'createAlertRule'>,
  visibility: Visibility,
): Promise<AlertRuleInput> {
  const rule: AlertRuleInput = {
    name: body.name.trim(),
    metric: body.metric,
    mall_ids: [...new Set(body.mall_ids)],
    category: body.category ?? null,
    outlet_ids: body.outlet_ids === undefined ? [] : parseIds(body.outlet_ids),
    condition_kind: body.condition_kind,
    condition_value: Math.round(body.condition_value * 100) / 100,
    weeks: body.weeks,
    schedule_kind: body.schedule_kind,
    schedule_time: body.schedule_time,
    recipient_ids: [...new Set(body.recipient_ids)],
    active: body.active,
  };
  if (rule.outlet_ids.length > MAX_OUTLETS) throw badRequest(`outlet_ids: at most ${MAX_OUTLETS} outlets.`);
  const problem = alertRuleProblem(rule);
  if (problem) throw badRequest(`${problem.field}: ${problem.message}`);
  // A caller limited to some outlets sees a rule only on outlets it names (the gate checked they are its own).
  if (visibility.outletLimits.has(body.client_id) && rule.outlet_ids.length === 0) {
    throw badRequest('outlet_ids: name the outlets of the rule (your account sees some outlets of the client).');
  }
  const facts = await scopeFacts(db, body.client_id, rule);
  if (facts.mallCount !== rule.mall_ids.length) throw badRequest('mall_ids: a mall is not of the client.');
  if (facts.timeZones.length > 1 || facts.currencies.length > 1) {
    throw badRequest('mall_ids: the malls of a rule must share one time zone and one currency.');
  }
  if (!facts.categoryKnown) throw badRequest('category: no outlet of the malls is of this category.');
  if (facts.outletsInScope !== rule.outlet_ids.length) {
    throw badRequest('outlet_ids: each outlet must be of the malls (and of the category when one is given).');
  }
  if (facts.scopeOutlets === 0) throw badRequest('mall_ids: the scope holds no outlet.');
  if (facts.recipientsOfClient !== rule.recipient_ids.length) {
    throw badRequest('recipient_ids: each recipient must be a user of the client.');
  }
  return rule;
}

const visibilityOf = (grants: Visibility): Visibility => ({
  clientIds: grants.clientIds,
  outletLimits: grants.outletLimits,
});

/**
 * /api/alertRules: the client's alert rules the caller sees, their changes (audit-logged) and their history with
 * its acknowledgements. The gate has checked the caller sees the client and every mall and outlet a request names;
 * a rule changed, removed or read by id must be one the caller sees too (404 otherwise).
 */
export function alertRuleHandlers({ pool }: RouteDeps) {
  return {
    async getAlertRules(request) {
      const { grants } = requireCaller(request);
      const clientId = request.query.client_id;
      const [rules, recipients, categories] = await Promise.all([
        listAlertRules(pool, visibilityOf(grants), clientId),
        alertRecipients(pool, clientId),
        alertCategories(pool, visibilityOf(grants), clientId),
      ]);
      return { rules, recipients, categories };
    },

    async createAlertRule(request) {
      const { user, grants } = requireCaller(request);
      const { body } = request;
      const rule = await checkAlertRule(pool, body, visibilityOf(grants));
      return inTransaction(pool, (tx) => createAlertRule(tx, { clientId: body.client_id, userId: user.id, rule }));
    },

    async updateAlertRule(request) {
      const { user, grants } = requireCaller(request);
      const { body } = request;
      // A rule the caller does not see is not found, whatever the request holds.
      if (!(await visibleAlertRule(pool, visibilityOf(grants), body.client_id, body.id))) throw notFound(NO_SUCH_RULE);
      const rule = await checkAlertRule(pool, body, visibilityOf(grants));
      const updated = await inTransaction(pool, (tx) =>
        updateAlertRule(tx, {
          clientId: body.client_id,
          userId: user.id,
          visibility: visibilityOf(grants),
          id: body.id,
          rule,
        }),
      );
      if (!updated) throw notFound(NO_SUCH_RULE);
      return updated;
    },

    async deleteAlertRule(request) {
      const { user, grants } = requireCaller(request);
      const { query } = request;
      const deleted = await inTransaction(pool, (tx) =>
        deleteAlertRule(tx, {
          clientId: query.client_id,
          userId: user.id,
          visibility: visibilityOf(grants),
          id: query.id,
        }),
      );
      if (!deleted) throw notFound(NO_SUCH_RULE);
      return { id: deleted.id };
    },

    async getAlertFirings(request) {
      const { grants } = requireCaller(request);
      const { query } = request;
      const rule = await visibleAlertRule(pool, visibilityOf(grants), query.client_id, query.rule_id);
      if (!rule) throw notFound(NO_SUCH_RULE);
      return { firings: await listAlertFirings(pool, query.client_id, rule.id, query.limit ?? DEFAULT_FIRINGS) };
    },

    async acknowledgeAlertFiring(request) {
      const { user, grants } = requireCaller(request);
      const { body } = request;
      const firing = await inTransaction(pool, (tx) =>
        acknowledgeAlertFiring(tx, {
          clientId: body.client_id,
          userId: user.id,
          visibility: visibilityOf(grants),
          id: body.id,
          now: new Date(),
        }),
      );
      if (!firing) throw notFound(NO_SUCH_FIRING);
      return firing;
    },
  } satisfies AreaHandlers;
}
