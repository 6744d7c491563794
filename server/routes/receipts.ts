import type { FastifyReply } from 'fastify';
import type { operations } from '../../src/api/schema.js';
import { cleanRawReceipt } from '../../src/domain/receipts.js';
import { parseIds } from '../auth/access.js';
import type { Queryable } from '../db/pool.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { renderReceiptPng } from '../receipts/image.js';
import { renderReceiptsPdf } from '../receipts/pdf.js';
import { createSignedToken, DOWNLOAD_LINK_TTL_SECONDS, verifySignedToken } from '../receipts/signedLink.js';
import {
  findReceipt,
  focReasons,
  listTenantReceipts,
  listTransactions,
  listTransactionsWithText,
  paymentBreakdown,
  paymentMethodNames,
  paymentSummary,
  receiptTypeFlags,
  type TransactionFilters,
} from '../repositories/receipts.js';
import type { Handlers, RouteDeps } from './types.js';

type TransactionQuery = NonNullable<operations['getTransactions']['parameters']['query']>;
type WindowQuery = NonNullable<operations['getPaymentAndSum']['parameters']['query']>;
type OptionsQuery = NonNullable<operations['getFocReasons']['parameters']['query']>;
type ImageQuery = NonNullable<operations['getReceiptImage']['parameters']['query']>;
type TenantQuery = NonNullable<operations['getTenantReceiptData']['parameters']['query']>;
type DownloadQuery = NonNullable<operations['downloadReceiptsPdf']['parameters']['query']>;

export const DOWNLOAD_PDF_PATH = '/download/receipts/pdf';
export const DOWNLOAD_LINK_INVALID = 'This download link is invalid.';
export const DOWNLOAD_LINK_EXPIRED = 'This download link has expired.';

function outletIdsOf(value: string): number[] {
  const ids = parseIds(value);
  if (ids.length === 0) throw badRequest('id must be outlet ids');
  return ids;
}

function transactionFilters(query: TransactionQuery): TransactionFilters {
  const paymentMethod = query.paymentMethod === undefined ? undefined : ([] as string[]).concat(query.paymentMethod);
  return {
    clientId: query.client_id,
    outletIds: outletIdsOf(query.id),
    startTime: query.startTime,
    endTime: query.endTime,
    timeType: query.timeType,
    outletType: query.outletType,
    receiptType: query.receiptType,
    focReason: query.focReason,
    paymentMethod,
    receiptId: query.receiptId,
    sortColumn: query.sortColumn,
    orderByMethod: query.orderByMethod,
    page: query.page,
    rowsPerPage: query.rowsPerPage,
  };
}

async function sendPdf(db: Queryable, reply: FastifyReply, filters: TransactionFilters, compress: boolean) {
  const rows = await listTransactionsWithText(db, filters);
  const pdf = await renderReceiptsPdf(
    rows.map((row) => ({
      receipt_id: row.receipt_id,
      outlet_name: row.outlet_name,
      datetime: row.datetime,
      payment_method: row.payment_method,
      total_amount: row.total_amount,
      receipt_status: row.receipt_status,
      text: cleanRawReceipt(row.raw_receipt, row.receipt_code),
    })),
    {
      title: 'Receipts',
      subtitle: `${filters.startTime} to ${filters.endTime} (page ${filters.page ?? 1}, ${rows.length} receipts)`,
      compress,
    },
  );
  const day = filters.startTime.slice(0, 10);
  const last = filters.endTime.slice(0, 10);
  return reply
    .type('application/pdf')
    .header('content-disposition', `attachment; filename="receipts_${day}_${last}.pdf"`)
    .header('cache-control', 'no-store')
    .send(pdf);
}

/** The filters a download link carries (the caller's checked ids and the list filters). */
interface LinkPayload {
  f: TransactionFilters;
  exp: number;
}

export function receiptHandlers({ pool, config }: RouteDeps): Handlers {
  const compress = true;
  return {
    async getTransactions(request) {
      return listTransactions(pool, transactionFilters(request.query as TransactionQuery));
    },
    async generateTransactionsPdf(request, reply) {
      return sendPdf(pool, reply, transactionFilters(request.query as TransactionQuery), compress);
    },
    async createTransactionsPdfLink(request) {
      const filters = transactionFilters(request.query as TransactionQuery);
      const expiresAt = new Date(Date.now() + DOWNLOAD_LINK_TTL_SECONDS * 1000);
      const token = createSignedToken(config.downloadSecret, { f: filters }, expiresAt);
      return { url: `${DOWNLOAD_PDF_PATH}?token=${token}`, expires_at: expiresAt.toISOString() };
    },
    async downloadReceiptsPdf(request, reply) {
      const { token } = request.query as DownloadQuery;
      const check = verifySignedToken<LinkPayload>(config.downloadSecret, token);
      if (!check.ok) throw forbidden(check.reason === 'expired' ? DOWNLOAD_LINK_EXPIRED : DOWNLOAD_LINK_INVALID);
      return sendPdf(pool, reply, check.payload.f, compress);
    },
    async getReceiptTypeOptions(request) {
      const query = request.query as OptionsQuery;
      return { typeOptions: await receiptTypeFlags(pool, query.client_id, outletIdsOf(query.id)) };
    },
    async getFocReasons(request) {
      const query = request.query as OptionsQuery;
      return { options: await focReasons(pool, query.client_id, outletIdsOf(query.id)) };
    },
    async getPaymentMethodNameOptions(request) {
      const query = request.query as OptionsQuery;
      return { options: await paymentMethodNames(pool, query.client_id, outletIdsOf(query.id)) };
    },
    async getPaymentAndSum(request) {
      const query = request.query as WindowQuery;
      return { data: await paymentSummary(pool, query.client_id, outletIdsOf(query.id), query) };
    },
    async getPaymentMethodBreakdown(request) {
      const query = request.query as WindowQuery;
      return { data: await paymentBreakdown(pool, query.client_id, outletIdsOf(query.id), query) };
    },
    async getReceiptImage(request) {
      const query = request.query as ImageQuery;
      const receipt = await findReceipt(pool, query.client_id, outletIdsOf(query.id), query.aimbox_id);
      if (!receipt) throw notFound('No such receipt.');
      const png = renderReceiptPng(cleanRawReceipt(receipt.raw_receipt, receipt.receipt_code));
      return { imageBuf: png.toString('base64') };
    },
    async getTenantReceiptData(request) {
      const query = request.query as TenantQuery;
      return listTenantReceipts(pool, {
        clientId: query.client_id,
        outletIds: outletIdsOf(query.id),
        startTime: query.startTime,
        endTime: query.endTime,
        timeType: query.timeType,
        sortColumn: query.sortColumn,
        orderByMethod: query.orderByMethod,
        page: query.page,
        rowsPerPage: query.rowsPerPage,
      });
    },
  };
}
