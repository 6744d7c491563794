import type { FastifyReply } from 'fastify';
import { cleanRawReceipt, displayReceiptId } from '../../src/domain/receipts.js';
import type { Queryable } from '../db/pool.js';
import { forbidden, notFound } from '../errors.js';
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
import { outletIds, outletWindow } from './rules.js';
import type { AreaHandlers, QueryOf, RouteDeps } from './types.js';

export const DOWNLOAD_PDF_PATH = '/download/receipts/pdf';
export const DOWNLOAD_LINK_INVALID = 'This download link is invalid.';
export const DOWNLOAD_LINK_EXPIRED = 'This download link has expired.';

/** The filters of the receipts list, its PDF and its PDF link (the same query parameters). */
function transactionFilters(
  query: QueryOf<'getTransactions' | 'generateTransactionsPdf' | 'createTransactionsPdfLink'>,
): TransactionFilters {
  return {
    clientId: query.client_id,
    outletIds: outletIds(query.id),
    ...outletWindow(query),
    outletType: query.outletType,
    receiptType: query.receiptType,
    focReason: query.focReason,
    paymentMethod: query.paymentMethod,
    receiptId: query.receiptId,
    sortColumn: query.sortColumn,
    orderByMethod: query.orderByMethod,
    page: query.page,
    rowsPerPage: query.rowsPerPage,
  };
}

async function sendPdf(
  db: Queryable,
  reply: FastifyReply,
  filters: TransactionFilters,
  compress: boolean,
): Promise<FastifyReply> {
  const rows = await listTransactionsWithText(db, filters);
  const pdf = await renderReceiptsPdf(
    rows.map((row) => ({
      receipt_id: displayReceiptId(row.receipt_id),
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

export function receiptHandlers({ pool, config }: RouteDeps) {
  const compress = true;
  return {
    async getTransactions(request) {
      return listTransactions(pool, transactionFilters(request.query));
    },
    async generateTransactionsPdf(request, reply) {
      return sendPdf(pool, reply, transactionFilters(request.query), compress);
    },
    async createTransactionsPdfLink(request) {
      const filters = transactionFilters(request.query);
      const expiresAt = new Date(Date.now() + DOWNLOAD_LINK_TTL_SECONDS * 1000);
      const token = createSignedToken(config.downloadSecret, { f: filters }, expiresAt);
      return { url: `${DOWNLOAD_PDF_PATH}?token=${token}`, expires_at: expiresAt.toISOString() };
    },
    async downloadReceiptsPdf(request, reply) {
      const check = verifySignedToken<LinkPayload>(config.downloadSecret, request.query.token);
      if (!check.ok) throw forbidden(check.reason === 'expired' ? DOWNLOAD_LINK_EXPIRED : DOWNLOAD_LINK_INVALID);
      return sendPdf(pool, reply, check.payload.f, compress);
    },
    async getReceiptTypeOptions({ query }) {
      return { typeOptions: await receiptTypeFlags(pool, query.client_id, outletIds(query.id)) };
    },
    async getFocReasons({ query }) {
      return { options: await focReasons(pool, query.client_id, outletIds(query.id)) };
    },
    async getPaymentMethodNameOptions({ query }) {
      return { options: await paymentMethodNames(pool, query.client_id, outletIds(query.id)) };
    },
    async getPaymentAndSum({ query }) {
      const window = outletWindow(query);
      return { data: await paymentSummary(pool, query.client_id, outletIds(query.id), window, query.paymentMethod) };
    },
    async getPaymentMethodBreakdown({ query }) {
      const window = outletWindow(query);
      return { data: await paymentBreakdown(pool, query.client_id, outletIds(query.id), window, query.paymentMethod) };
    },
    async getReceiptImage({ query }) {
      const receipt = await findReceipt(pool, query.client_id, outletIds(query.id), query.aimbox_id);
      if (!receipt) throw notFound('No such receipt.');
      const png = renderReceiptPng(cleanRawReceipt(receipt.raw_receipt, receipt.receipt_code));
      return { imageBuf: png.toString('base64') };
    },
    async getTenantReceiptData({ query }) {
      return listTenantReceipts(pool, {
        clientId: query.client_id,
        outletIds: outletIds(query.id),
        ...outletWindow(query),
        sortColumn: query.sortColumn,
        orderByMethod: query.orderByMethod,
        page: query.page,
        rowsPerPage: query.rowsPerPage,
      });
    },
  } satisfies AreaHandlers;
}
