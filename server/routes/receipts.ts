import type { FastifyReply } from 'fastify';
import {
  cleanRawReceipt,
  displayReceiptId,
  RECEIPTS_PDF_CAP,
  receiptsPdfCountLine,
} from '../../src/domain/receipts.js';
import type { Queryable } from '../db/pool.js';
import { forbidden, notFound } from '../errors.js';
import { renderReceiptPng } from '../receipts/image.js';
import {
  endReceiptsPdf,
  type PdfReceipt,
  type ReceiptsPdf,
  startReceiptsPdf,
  untilRead,
  writeReceipt,
} from '../receipts/pdf.js';
import { createSignedToken, DOWNLOAD_LINK_TTL_SECONDS, verifySignedToken } from '../receipts/signedLink.js';
import {
  findReceipt,
  focReasons,
  listTenantReceipts,
  listTransactions,
  PDF_BATCH_SIZE,
  type PdfFilters,
  type PdfReceiptRow,
  paymentBreakdown,
  paymentMethodNames,
  paymentSummary,
  readPdfReceipts,
  receiptTypeFlags,
  selectPdfReceipts,
  type TransactionFilters,
} from '../repositories/receipts.js';
import { outletIds, outletWindow } from './rules.js';
import type { AreaHandlers, QueryOf, RouteDeps } from './types.js';

export const DOWNLOAD_PDF_PATH = '/download/receipts/pdf';
export const DOWNLOAD_LINK_INVALID = 'This download link is invalid.';
export const DOWNLOAD_LINK_EXPIRED = 'This download link has expired.';

/** The filters of the receipts PDF and its link: the list's query parameters without paging. */
function pdfFilters(
  query: QueryOf<'getTransactions' | 'generateTransactionsPdf' | 'createTransactionsPdfLink'>,
): PdfFilters {
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
  };
}

/** The filters of the receipts list: the PDF's, and the page. */
function transactionFilters(query: QueryOf<'getTransactions'>): TransactionFilters {
  return { ...pdfFilters(query), page: query.page, rowsPerPage: query.rowsPerPage };
}

/** How a receipts PDF is made: the most receipts it holds, how many are read at a time, and compression. */
export interface PdfLimits {
  cap: number;
  batchSize: number;
  compress: boolean;
}

export const PDF_LIMITS: PdfLimits = { cap: RECEIPTS_PDF_CAP, batchSize: PDF_BATCH_SIZE, compress: true };

function pdfReceiptOf(row: PdfReceiptRow): PdfReceipt {
  return {
    receipt_id: displayReceiptId(row.receipt_id),
    outlet_name: row.outlet_name,
    datetime: row.datetime,
    payment_method: row.payment_method,
    total_amount: row.total_amount,
    receipt_status: row.receipt_status,
    text: cleanRawReceipt(row.raw_receipt, row.receipt_code),
  };
}

/**
 * Writes the receipts into the PDF a batch at a time, waiting for the reader between batches, and ends it. A
 * client that went away destroys the stream, which stops the reading; a failure once the answer has begun can
 * only cut the stream (the client sees an incomplete download).
 */
async function writeReceipts(
  db: Queryable,
  reply: FastifyReply,
  doc: ReceiptsPdf,
  clientId: number,
  ids: readonly number[],
  batchSize: number,
): Promise<void> {
  try {
    for await (const rows of readPdfReceipts(db, clientId, ids, batchSize)) {
      if (doc.destroyed) return;
      for (const row of rows) writeReceipt(doc, pdfReceiptOf(row));
      await untilRead(doc);
      if (doc.destroyed) return;
    }
    endReceiptsPdf(doc, ids.length);
  } catch (error) {
    reply.log.error({ err: error }, 'the receipts PDF stopped');
    doc.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * Answers the PDF of every receipt the filters select, up to `limits.cap`, in the list's order: the count and
 * the ids are read before the answer begins (a failure there is an ordinary error answer), then the PDF streams
 * as it is written, its receipts read in batches, so memory stays bounded whatever the selection.
 */
export async function sendReceiptsPdf(
  db: Queryable,
  reply: FastifyReply,
  filters: PdfFilters,
  limits: PdfLimits = PDF_LIMITS,
): Promise<FastifyReply> {
  const { total, ids } = await selectPdfReceipts(db, filters, limits.cap);
  const doc = startReceiptsPdf({
    title: 'Receipts',
    subtitle: `${filters.startTime} to ${filters.endTime}`,
    countLine: receiptsPdfCountLine(ids.length, total),
    compress: limits.compress,
  });
  const day = filters.startTime.slice(0, 10);
  const last = filters.endTime.slice(0, 10);
  reply
    .type('application/pdf')
    .header('content-disposition', `attachment; filename="receipts_${day}_${last}.pdf"`)
    .header('cache-control', 'no-store')
    .header('x-receipt-count', String(ids.length))
    .send(doc);
  void writeReceipts(db, reply, doc, filters.clientId, ids, limits.batchSize);
  return reply;
}

/** The filters a download link carries (the caller's checked ids and the list filters). */
interface LinkPayload {
  f: PdfFilters;
  exp: number;
}

export function receiptHandlers({ pool, config }: RouteDeps) {
  return {
    async getTransactions(request) {
      return listTransactions(pool, transactionFilters(request.query));
    },
    async generateTransactionsPdf(request, reply) {
      return sendReceiptsPdf(pool, reply, pdfFilters(request.query));
    },
    async createTransactionsPdfLink(request) {
      const filters = pdfFilters(request.query);
      const expiresAt = new Date(Date.now() + DOWNLOAD_LINK_TTL_SECONDS * 1000);
      const token = createSignedToken(config.downloadSecret, { f: filters }, expiresAt);
      return { url: `${DOWNLOAD_PDF_PATH}?token=${token}`, expires_at: expiresAt.toISOString() };
    },
    async downloadReceiptsPdf(request, reply) {
      const check = verifySignedToken<LinkPayload>(config.downloadSecret, request.query.token);
      if (!check.ok) throw forbidden(check.reason === 'expired' ? DOWNLOAD_LINK_EXPIRED : DOWNLOAD_LINK_INVALID);
      return sendReceiptsPdf(pool, reply, check.payload.f);
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
