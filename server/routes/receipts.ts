import type { FastifyReply } from 'fastify';
import { cleanRawReceipt, RECEIPTS_PDF_CAP, receiptsPdfCountLine } from '../../src/domain/receipts.js';
import { requireCaller } from '../auth/access.js';
import { openDownloadLink, signDownloadLink } from '../auth/downloadLinks.js';
import type { Queryable } from '../db/pool.js';
import { notFound } from '../errors.js';
import { exportOwner } from '../exports/exportSlots.js';
import { renderReceiptPng } from '../receipts/image.js';
import type { PdfReceipt } from '../receipts/pdf.js';
import { PDF_UNREAD_LIMIT, PdfRender } from '../receipts/pdfRender.js';
import { DOWNLOAD_LINK_TTL_SECONDS } from '../receipts/signedLink.js';
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

/**
 * How a receipts PDF is made: the most receipts it holds, how many are read at a time, compression, and the
 * bytes a reader may leave unread before the next batch waits.
 */
export interface PdfLimits {
  cap: number;
  batchSize: number;
  compress: boolean;
  unreadLimit: number;
}

export const PDF_LIMITS: PdfLimits = {
  cap: RECEIPTS_PDF_CAP,
  batchSize: PDF_BATCH_SIZE,
  compress: true,
  unreadLimit: PDF_UNREAD_LIMIT,
};

/** A receipt for the PDF's worker: its text as stored (the worker cleans it by §9 and bounds it). */
function pdfReceiptOf(row: PdfReceiptRow): PdfReceipt {
  return {
    receipt_id: row.receipt_id,
    outlet_name: row.outlet_name,
    datetime: row.datetime,
    payment_method: row.payment_method,
    total_amount: row.total_amount,
    receipt_status: row.receipt_status,
    raw_receipt: row.raw_receipt,
    receipt_code: row.receipt_code,
  };
}

/**
 * Reads the receipts a batch at a time and hands each to the PDF's worker, reading the next one once the worker
 * has written it and the reader has caught up, then ends the PDF. A client that went away destroys the stream,
 * which stops the reading; a failure once the answer has begun can only cut the stream (the client sees an
 * incomplete download).
 */
async function feedReceipts(
  db: Queryable,
  reply: FastifyReply,
  render: PdfRender,
  clientId: number,
  ids: readonly number[],
  batchSize: number,
): Promise<void> {
  try {
    for await (const rows of readPdfReceipts(db, clientId, ids, batchSize)) {
      if (render.closed) return;
      await render.write(rows.map(pdfReceiptOf));
      if (render.closed) return;
    }
    render.end(ids.length);
  } catch (error) {
    reply.log.error({ err: error }, 'the receipts PDF stopped');
    render.fail(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * Answers the PDF of every receipt the filters select, up to `limits.cap`, in the list's order: the count and
 * the ids are read and a worker thread has begun the PDF before the answer begins (a failure there is an ordinary
 * error answer), then the PDF streams as the worker writes it (pdfRender.ts), its receipts read in batches, so
 * memory stays bounded whatever the selection and this thread stays free for other requests.
 */
export async function sendReceiptsPdf(
  db: Queryable,
  reply: FastifyReply,
  filters: PdfFilters,
  limits: PdfLimits = PDF_LIMITS,
): Promise<FastifyReply> {
  const { total, ids } = await selectPdfReceipts(db, filters, limits.cap);
  const render = new PdfRender(
    {
      title: 'Receipts',
      subtitle: `${filters.startTime} to ${filters.endTime}`,
      countLine: receiptsPdfCountLine(ids.length, total),
      compress: limits.compress,
    },
    limits.unreadLimit,
  );
  // The answer begins with the PDF's first bytes: a worker that cannot start is an ordinary error answer.
  await render.ready;
  if (reply.sent || reply.raw.headersSent) {
    // Answered meanwhile (the request timed out): the PDF goes nowhere.
    render.fail(new Error('the request was answered before its PDF began'));
    return reply;
  }
  const day = filters.startTime.slice(0, 10);
  const last = filters.endTime.slice(0, 10);
  reply
    .type('application/pdf')
    .header('content-disposition', `attachment; filename="receipts_${day}_${last}.pdf"`)
    .header('cache-control', 'no-store')
    .header('x-receipt-count', String(ids.length))
    .send(render.stream);
  void feedReceipts(db, reply, render, filters.clientId, ids, limits.batchSize);
  return reply;
}

export function receiptHandlers({ pool, config, exportSlots }: RouteDeps) {
  /** The PDF in one of the owner's export slots, or a 429 when none is free. */
  async function sendPdfInSlot(owner: string, reply: FastifyReply, filters: PdfFilters): Promise<FastifyReply> {
    const release = exportSlots.take(owner, reply);
    try {
      return await sendReceiptsPdf(pool, reply, filters);
    } catch (error) {
      release();
      throw error;
    }
  }
  return {
    async getTransactions(request) {
      return listTransactions(pool, transactionFilters(request.query));
    },
    async generateTransactionsPdf(request, reply) {
      return sendPdfInSlot(exportOwner(requireCaller(request).user.id), reply, pdfFilters(request.query));
    },
    async createTransactionsPdfLink(request) {
      const filters = pdfFilters(request.query);
      const expiresAt = new Date(Date.now() + DOWNLOAD_LINK_TTL_SECONDS * 1000);
      // The link carries its creator, checked again at each use (server/auth/downloadLinks.ts).
      const token = await signDownloadLink(pool, config.downloadSecret, requireCaller(request), filters, expiresAt);
      return { url: `${DOWNLOAD_PDF_PATH}?token=${token}`, expires_at: expiresAt.toISOString() };
    },
    async downloadReceiptsPdf(request, reply) {
      const link = await openDownloadLink(pool, config.downloadSecret, request.query.token);
      if (!link.ok) throw link.error;
      // The link's PDF counts among its creator's exports.
      return sendPdfInSlot(exportOwner(link.creatorId), reply, link.filters);
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
