import type { FastifyRequest } from 'fastify';
import {
  formatsOfPage,
  type SubscribablePage,
  type SubscriptionFormat,
  type SubscriptionScope,
  scheduleProblem,
  scopeOfSubscription,
  subscribablePage,
  subscriptionFiltersOf,
} from '../../src/domain/reportSubscriptions.js';
import { requireCaller, seesIds } from '../auth/access.js';
import { inTransaction } from '../db/pool.js';
import { badRequest, forbidden, HttpError, notFound } from '../errors.js';
import { queueSendNow, sendNowJob } from '../jobs/reportSubscriptions.js';
import type { ScopeKind } from '../openapi.js';
import { writeAudit } from '../repositories/audit.js';
import { listMalls, mallOfOutlet, type Visibility } from '../repositories/lookup.js';
import { findOutboxAttachment } from '../repositories/outbox.js';
import {
  deleteSubscription,
  findSubscription,
  insertSubscription,
  listSubscriptions,
  publicSubscription,
  recipientOptions,
  type SubscriptionValues,
  updateSubscription,
} from '../repositories/reportSubscriptions.js';
import { nonBlank } from './rules.js';
import type { AreaHandlers, BodyOf, RouteDeps } from './types.js';

/**
 * Report subscriptions (issue 34, reports by e-mail): a report page and its filters, mailed on a schedule to users
 * of the client as the page's PDF (rendered by the server's browser as each recipient) and, for Mall Home, its
 * workbook. The gate has checked the client; the malls of the filters (an outlet page's outlet; a client page's
 * client alone) are checked here against the caller's visibility (403, as the gate does), and the recipients
 * against the users the caller may name. Without a browser
 * to render PDFs the list still answers, saying why, and every change or send answers 409 with that reason.
 */

export const SUBSCRIPTION_MESSAGES = {
  notFound: 'There is no such subscription.',
  filters: 'body/filters must name client_id (client=) and at least one of its malls (malls=).',
  outletFilters: 'body/filters must name client_id (client=) and one of its outlets (outlet=).',
  pairFilters:
    'body/filters must name client_id (client=), one of its outlets (outlet=) and another outlet of its mall (other=).',
  clientFilters: 'body/filters must name client_id (client=).',
  workbook: 'body/formats: this page has no workbook; choose pdf.',
  recipients: 'body/recipient_ids: each recipient must be an active user of the client you may send reports to.',
  jobsStarting: 'The server is still starting its job queue. Please try again in a minute.',
  attachmentNotFound: 'The mail has no such attachment.',
} as const;

/** The most malls a subscription keeps (report_subscriptions.mall_ids holds 1 to 100). */
const MAX_SUBSCRIPTION_MALLS = 100;

const visibilityOf = (request: FastifyRequest): Visibility => {
  const { grants } = requireCaller(request);
  return { clientIds: grants.clientIds, outletLimits: grants.outletLimits };
};

type Input = BodyOf<'createReportSubscription'>;

export function reportSubscriptionHandlers({ pool, reportSubscriptions: runtime }: RouteDeps) {
  const requireRendering = () => {
    if (!runtime.renderer.state.available) throw new HttpError(409, runtime.renderer.state.message);
  };

  /**
   * The malls a subscription keeps, whose first's time zone its schedule follows: its filters' malls; an outlet
   * page's its outlet's (seen, so the client's); a client page's the client's malls the caller sees (by name, at most
   * MAX_SUBSCRIPTION_MALLS; none seen is 403: the caller would subscribe to nothing).
   */
  const subscriptionMalls = async (
    kind: SubscribablePage['scope'],
    scope: SubscriptionScope,
    visibility: Visibility,
  ): Promise<number[]> => {
    if (kind === 'client') {
      const malls = await listMalls(pool, visibility, scope.clientId);
      if (malls.length === 0) throw forbidden();
      return malls.slice(0, MAX_SUBSCRIPTION_MALLS).map((mall) => mall.id);
    }
    const outletMall =
      scope.outletId === undefined ? undefined : await mallOfOutlet(pool, scope.clientId, scope.outletId);
    return outletMall === undefined ? scope.mallIds : [outletMall];
  };

  /** The body checked against the rules a schema cannot state, as the stored values. */
  const valuesOf = async (request: FastifyRequest, body: Input): Promise<SubscriptionValues> => {
    const name = nonBlank(body.name, 'body/name');
    // The contract's enum admits only the pages of the list.
    const page = subscribablePage(body.page_path);
    if (!page) throw badRequest('body/page_path must be a report page a subscription may name.');
    const scope = scopeOfSubscription(body.page_path, body.filters);
    if (!scope || scope.clientId !== body.client_id) {
      throw badRequest(
        page.pairedOutletKey !== undefined
          ? SUBSCRIPTION_MESSAGES.pairFilters
          : page.scope === 'outlet'
            ? SUBSCRIPTION_MESSAGES.outletFilters
            : page.scope === 'client'
              ? SUBSCRIPTION_MESSAGES.clientFilters
              : SUBSCRIPTION_MESSAGES.filters,
      );
    }
    const visibility = visibilityOf(request);
    const seen = new Map<ScopeKind, number[]>([['client', [scope.clientId]]]);
    // A client page's figures are of the client's outlets each recipient sees: the client alone is checked.
    if (page.scope !== 'client') {
      if (scope.outletId === undefined) seen.set('malls', scope.mallIds);
      else seen.set('outlet', [scope.outletId, ...(scope.pairedOutletId === undefined ? [] : [scope.pairedOutletId])]);
    }
    if (!(await seesIds(pool, visibility, seen))) throw forbidden();
    const mallIds = await subscriptionMalls(page.scope, scope, visibility);
    // A pair's outlets are of one mall, as its page compares them.
    if (
      scope.pairedOutletId !== undefined &&
      (await mallOfOutlet(pool, scope.clientId, scope.pairedOutletId)) !== mallIds[0]
    ) {
      throw badRequest(SUBSCRIPTION_MESSAGES.pairFilters);
    }
    const offered = formatsOfPage(body.page_path);
    if (!body.formats.every((format) => offered.includes(format))) throw badRequest(SUBSCRIPTION_MESSAGES.workbook);
    const problem = scheduleProblem({
      frequency: body.frequency,
      hour: body.hour,
      weekday: body.weekday,
      monthDay: body.month_day,
    });
    if (problem) throw badRequest(`body/${problem} must be given for a ${body.frequency} schedule only.`);
    const allowed = new Set((await recipientOptions(pool, body.client_id, visibility)).map((user) => user.id));
    if (!body.recipient_ids.every((id) => allowed.has(id))) throw badRequest(SUBSCRIPTION_MESSAGES.recipients);
    return {
      clientId: body.client_id,
      name,
      pagePath: body.page_path,
      // A client page's without the header's malls and outlet, which are not its.
      filters: subscriptionFiltersOf(body.page_path, body.filters),
      mallIds,
      formats: [...new Set(body.formats)].sort() as SubscriptionFormat[],
      frequency: body.frequency,
      weekday: body.weekday ?? null,
      monthDay: body.month_day ?? null,
      hour: body.hour,
      recipientIds: [...new Set(body.recipient_ids)],
      active: body.active,
    };
  };

  return {
    async getReportSubscriptions(request) {
      const subscriptions = await listSubscriptions(pool, request.query.client_id);
      return { data: subscriptions.map(publicSubscription), rendering: runtime.renderer.state };
    },

    async createReportSubscription(request) {
      requireRendering();
      const values = await valuesOf(request, request.body);
      const userId = requireCaller(request).user.id;
      return inTransaction(pool, async (tx) => {
        const created = publicSubscription(await insertSubscription(tx, values, userId));
        await writeAudit(tx, [
          {
            clientId: values.clientId,
            userId,
            action: 'create',
            entity: 'report_subscription',
            entityId: created.id,
            before: null,
            after: created,
          },
        ]);
        return created;
      });
    },

    async updateReportSubscription(request) {
      requireRendering();
      const values = await valuesOf(request, request.body);
      const userId = requireCaller(request).user.id;
      const { id } = request.query;
      return inTransaction(pool, async (tx) => {
        const before = await findSubscription(tx, values.clientId, id, { lock: true });
        if (!before) throw notFound(SUBSCRIPTION_MESSAGES.notFound);
        await updateSubscription(tx, id, values);
        const after = await findSubscription(tx, values.clientId, id);
        if (!after) throw notFound(SUBSCRIPTION_MESSAGES.notFound);
        await writeAudit(tx, [
          {
            clientId: values.clientId,
            userId,
            action: 'update',
            entity: 'report_subscription',
            entityId: id,
            before: publicSubscription(before),
            after: publicSubscription(after),
          },
        ]);
        return publicSubscription(after);
      });
    },

    async deleteReportSubscription(request) {
      const { client_id: clientId, id } = request.query;
      const userId = requireCaller(request).user.id;
      return inTransaction(pool, async (tx) => {
        const before = await findSubscription(tx, clientId, id, { lock: true });
        if (!before) throw notFound(SUBSCRIPTION_MESSAGES.notFound);
        await deleteSubscription(tx, clientId, id);
        await writeAudit(tx, [
          {
            clientId,
            userId,
            action: 'delete',
            entity: 'report_subscription',
            entityId: id,
            before: publicSubscription(before),
            after: null,
          },
        ]);
        return publicSubscription(before);
      });
    },

    async sendReportSubscription(request) {
      requireRendering();
      const { client_id: clientId, id } = request.body;
      const subscription = await findSubscription(pool, clientId, id);
      if (!subscription) throw notFound(SUBSCRIPTION_MESSAGES.notFound);
      if (!runtime.boss) throw new HttpError(503, SUBSCRIPTION_MESSAGES.jobsStarting);
      const job = sendNowJob(subscription, new Date());
      await queueSendNow(runtime.boss, job);
      return { period_key: job.periodKey };
    },

    async getReportSubscriptionRecipients(request) {
      const { client_id: clientId } = request.query;
      return { data: await recipientOptions(pool, clientId, visibilityOf(request)) };
    },

    async downloadOutboxAttachment(request, reply) {
      const file = await findOutboxAttachment(pool, request.query.id, request.query.position);
      if (!file) throw notFound(SUBSCRIPTION_MESSAGES.attachmentNotFound);
      const safeName = file.filename.replace(/[^\w.-]/g, '_');
      return reply
        .type(file.mediaType)
        .header('content-disposition', `attachment; filename="${safeName}"`)
        .header('cache-control', 'no-store')
        .send(file.bytes);
    },
  } satisfies AreaHandlers;
}
