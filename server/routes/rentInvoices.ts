import { requireCaller } from '../auth/access.js';
import { badRequest, forbidden, HttpError } from '../errors.js';
import { monthBefore, postRentInvoices, RENT_INVOICE_MAX_MONTHS_BACK } from '../jobs/rentInvoices.js';
import { monthRentInvoices } from '../repositories/rentInvoices.js';
import { earliestMallToday } from '../repositories/xero.js';
import { xeroDepsOf } from '../xero/connection.js';
import { EXPIRED_MESSAGE, NOT_CONNECTED_MESSAGE, NOT_SET_UP, UNAVAILABLE_MESSAGE } from './apps.js';
import type { AreaHandlers, RouteDeps } from './types.js';

/**
 * POST /api/rentStatements/invoices: a month's turnover-rent invoices posted to the client's Xero organisation now
 * (server/jobs/rentInvoices.ts; the daily job posts the last month by itself once the GTO due day has passed). It
 * acts for the whole client: a caller limited to some of its outlets may not.
 */

const NO_ACCOUNTS_MESSAGE = 'Choose the sales account and the tax rate of the Xero connection first.';
const WHOLE_CLIENT_MESSAGE = 'Only a user who sees every outlet of the client can post its rent invoices.';

export function rentInvoiceHandlers({ pool, config }: RouteDeps) {
  const base = xeroDepsOf(pool, config);

  return {
    async postRentInvoices(request) {
      const { client_id: clientId, month } = request.body;
      const { grants } = requireCaller(request);
      if (!grants.isSuperAdmin && grants.outletLimits.has(clientId)) throw forbidden(WHOLE_CLIENT_MESSAGE);
      if (!base) throw new HttpError(409, NOT_SET_UP);
      const today = await earliestMallToday(pool, clientId);
      const current = today?.slice(0, 7);
      if (current === undefined || month >= current) {
        throw badRequest(
          current === undefined
            ? 'body/month cannot be invoiced: the client has no malls'
            : `body/month must be a month that has ended in every mall of the client (before ${current})`,
        );
      }
      let earliest = current;
      for (let back = 0; back < RENT_INVOICE_MAX_MONTHS_BACK; back += 1) earliest = monthBefore(earliest);
      if (month < earliest)
        throw badRequest(`body/month must be within the last ${RENT_INVOICE_MAX_MONTHS_BACK} months`);
      const result = await postRentInvoices({ ...base, log: request.log }, { clientId, month });
      if (result.status === 'notConnected') throw new HttpError(409, NOT_CONNECTED_MESSAGE);
      if (result.status === 'expired') throw new HttpError(409, EXPIRED_MESSAGE);
      if (result.status === 'noAccounts') throw new HttpError(409, NO_ACCOUNTS_MESSAGE);
      if (result.status === 'unavailable' && result.posted + result.failed + result.skipped === 0) {
        throw new HttpError(502, UNAVAILABLE_MESSAGE);
      }
      request.log.info({ clientId, month, ...result }, 'Turnover-rent invoices posted on request');
      return { month, postedNow: result.posted, rows: await monthRentInvoices(pool, clientId, month) };
    },
  } satisfies AreaHandlers;
}
