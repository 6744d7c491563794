import { requireCaller } from '../auth/access.js';
import { inTransaction } from '../db/pool.js';
import { badRequest, HttpError, notFound } from '../errors.js';
import { buildGrossTurnoverWorkbook } from '../exports/grossTurnoverWorkbook.js';
import { buildGtoReviewWorkbook } from '../exports/gtoReviewWorkbook.js';
import { gtoOutletMonthsReport } from '../reports/gtoOutletMonths.js';
import { gtoReviewSummary } from '../reports/gtoReview.js';
import {
  createSubmission,
  getSubmission,
  gtoMallOptions,
  gtoOutletOptions,
  type OutletMonth,
  outletMonth,
  type SubmissionInput,
  updateSubmission,
} from '../repositories/gto.js';
import { getGtoSettings, updateGtoSettings } from '../repositories/gtoRules.js';
import { dayOfMonth, distinct } from './rules.js';
import type { AreaHandlers, BodyOf, RouteDeps } from './types.js';
import { replyWithWorkbook } from './workbookReply.js';

export const MONTH_CLOSED_MESSAGE =
  'searchedMonth is closed: a month can be submitted or corrected from its first day to the end of the following month.';
export const ALREADY_SUBMITTED_MESSAGE = 'This month is submitted already: correct it instead.';
export const NOT_SUBMITTED_MESSAGE = 'This month has not been submitted yet.';

/** The field of the `index`th day of a submission. */
const dayField = (index: number) => `gtoSubmissionData/${index}/date`;

/**
 * The rules of a submission the schema cannot say: the month is open, and every day is a day of the month no later
 * than the outlet's today, each at most once (rules.ts has the rules of the request alone).
 */
function checkSubmission(body: BodyOf<'createGtoSubmission'>, state: OutletMonth): void {
  if (!state.open) throw badRequest(MONTH_CLOSED_MESSAGE);
  for (const [index, day] of body.gtoSubmissionData.entries()) {
    dayOfMonth(day.date, body.searchedMonth, dayField(index));
    if (day.date > state.today) throw badRequest(`${dayField(index)} must not be after today (${state.today}).`);
  }
  distinct(body.gtoSubmissionData, (day) => day.date, dayField);
}

export function gtoHandlers({ pool, exportSlots }: RouteDeps) {
  /** The outlet's month, or 404 (the access gate has checked that the caller sees the outlet). */
  async function stateOf(clientId: number, outletId: number, month: string): Promise<OutletMonth> {
    const state = await outletMonth(pool, clientId, outletId, month);
    if (!state) throw notFound('No such outlet.');
    return state;
  }

  async function save(
    request: { body: BodyOf<'createGtoSubmission'> } & Parameters<typeof requireCaller>[0],
    write: typeof createSubmission,
    refusal: HttpError,
  ) {
    const { body } = request;
    const caller = requireCaller(request);
    const state = await stateOf(body.client_id, body.outlet_id, body.searchedMonth);
    checkSubmission(body, state);
    const input: SubmissionInput = {
      clientId: body.client_id,
      outletId: body.outlet_id,
      month: body.searchedMonth,
      days: [...body.gtoSubmissionData].sort((a, b) => a.date.localeCompare(b.date)),
      remarks: body.remarks?.trim() ? body.remarks.trim() : null,
      userId: caller.user.id,
    };
    const written = await inTransaction(pool, (tx) => write(tx, input));
    if (!written) throw refusal;
    return getSubmission(pool, body.client_id, body.outlet_id, body.searchedMonth, state);
  }

  return {
    async getGtoSubmission({ query }) {
      const state = await stateOf(query.client_id, query.outlet_id, query.searchedMonth);
      return getSubmission(pool, query.client_id, query.outlet_id, query.searchedMonth, state);
    },

    async createGtoSubmission(request) {
      return save(request, createSubmission, new HttpError(409, ALREADY_SUBMITTED_MESSAGE));
    },

    async updateGtoSubmission(request) {
      return save(request, updateSubmission, notFound(NOT_SUBMITTED_MESSAGE));
    },

    getGtoOutletMonths({ query }) {
      return gtoOutletMonthsReport(pool, query);
    },

    getGtoOutletMonthsWorkbook: (request, reply) =>
      replyWithWorkbook(request, reply, exportSlots, (requester, signal) =>
        buildGrossTurnoverWorkbook(pool, requester, request.query, { signal }),
      ),

    getGtoSummary(request) {
      const { grants } = requireCaller(request);
      return gtoReviewSummary(pool, grants, request.query);
    },

    getGtoSummaryWorkbook(request, reply) {
      const { query } = request;
      return replyWithWorkbook(request, reply, exportSlots, (requester, signal) =>
        buildGtoReviewWorkbook(
          pool,
          requester,
          {
            client_id: query.client_id,
            month: query.date.slice(0, 7),
            mall_ids: query.mall_ids,
            outlet_id: query.outlet_id,
            filterOption: query.filterOption,
          },
          { signal },
        ),
      );
    },

    async getGtoMallNameOptions(request) {
      const { grants } = requireCaller(request);
      const visibility = { clientIds: grants.clientIds, outletLimits: grants.outletLimits };
      const { query } = request;
      return {
        data: await gtoMallOptions(pool, visibility, query.client_id, {
          search: query.searchedText,
          page: query.page ?? 1,
        }),
      };
    },

    async getGtoOutletNameOptions(request) {
      const { grants } = requireCaller(request);
      const visibility = { clientIds: grants.clientIds, outletLimits: grants.outletLimits };
      const { query } = request;
      return {
        data: await gtoOutletOptions(pool, visibility, query.client_id, query.mall_ids, {
          search: query.searchedText,
          page: query.page ?? 1,
        }),
      };
    },

    async getGtoSettings({ query }) {
      const settings = await getGtoSettings(pool, query.client_id);
      if (!settings) throw notFound('No such client.');
      return settings;
    },

    async updateGtoSettings(request) {
      const { body } = request;
      const caller = requireCaller(request);
      const saved = await updateGtoSettings(
        pool,
        { clientId: body.client_id, userId: caller.user.id },
        { variance_threshold: body.variance_threshold, due_day: body.due_day, reminders: body.reminders },
      );
      if (!saved) throw notFound('No such client.');
      return saved;
    },
  } satisfies AreaHandlers;
}
