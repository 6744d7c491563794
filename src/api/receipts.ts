import { api, type CallOptions } from './client';
import { readStreamedFile } from './download';
import { dataOrThrow } from './errors';
import type { components, operations } from './schema';

/** Thin wrappers over the receipts calls (§7). Each returns the body of a 2xx answer or throws an ApiError. */

export type ReceiptRow = components['schemas']['ReceiptRow'];
export type ReceiptSummary = components['schemas']['ReceiptSummary'];
export type PaymentSummary = components['schemas']['PaymentSummary'];
export type BreakdownSeries = components['schemas']['PaymentMethodBreakdownSeries'];
export type TransactionQuery = NonNullable<operations['getTransactions']['parameters']['query']>;
/** The query of the receipts PDF and of its link: the list's filters and sort, without paging. */
export type PdfQuery = NonNullable<operations['generateTransactionsPdf']['parameters']['query']>;
export type WindowQuery = NonNullable<operations['getPaymentAndSum']['parameters']['query']>;
export type OutletQuery = { client_id: number; id: string };

export async function getTransactions(query: TransactionQuery, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.GET('/outlets/transaction', { params: { query }, signal }));
}

export async function getReceiptTypeOptions(
  query: OutletQuery,
  { signal, client = api }: CallOptions = {},
): Promise<string[]> {
  return dataOrThrow(await client.GET('/outlets/transaction/receiptTypeOptions', { params: { query }, signal }))
    .typeOptions;
}

export async function getFocReasons(query: OutletQuery, { signal, client = api }: CallOptions = {}): Promise<string[]> {
  return dataOrThrow(await client.GET('/outlets/transaction/focReason', { params: { query }, signal })).options;
}

export async function getPaymentMethodNames(
  query: OutletQuery,
  { signal, client = api }: CallOptions = {},
): Promise<string[]> {
  return dataOrThrow(await client.GET('/outlets/paymentMethodNameOption', { params: { query }, signal })).options;
}

export async function getPaymentAndSum(
  query: WindowQuery,
  { signal, client = api }: CallOptions = {},
): Promise<PaymentSummary[]> {
  return dataOrThrow(await client.GET('/outlets/getPaymentAndSum', { params: { query }, signal })).data;
}

export async function getPaymentMethodBreakdown(
  query: WindowQuery,
  { signal, client = api }: CallOptions = {},
): Promise<BreakdownSeries[]> {
  return dataOrThrow(await client.GET('/outlets/paymentMethodBreakdown', { params: { query }, signal })).data;
}

/** The receipt's image as a data: URL of its PNG. */
export async function getReceiptImage(
  query: OutletQuery & { aimbox_id: string },
  { signal, client = api }: CallOptions = {},
): Promise<string> {
  const { imageBuf } = dataOrThrow(await client.GET('/api/tenant/receiptImage', { params: { query }, signal }));
  return `data:image/png;base64,${imageBuf}`;
}

export async function getTransactionsPdfLink(query: PdfQuery, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.GET('/outlets/transaction/pdfLink', { params: { query }, signal }));
}

/** How far the PDF download has come: bytes received, its size when the server says it, the receipts in it. */
export interface PdfDownloadProgress {
  received: number;
  size: number | undefined;
  count: number | undefined;
}

/**
 * The receipts PDF, reading the body as a stream so that `onProgress` sees the bytes received as they arrive, the
 * size when the answer has a Content-Length (a streamed one has none) and the number of receipts in the PDF
 * (X-Receipt-Count).
 */
export async function downloadTransactionsPdf(
  query: PdfQuery,
  onProgress: (progress: PdfDownloadProgress) => void,
  { signal, client = api }: CallOptions = {},
): Promise<Blob> {
  const result = await client.GET('/outlets/transaction/generatepdf', { params: { query }, parseAs: 'stream', signal });
  const countHeader = Number(result.response.headers.get('x-receipt-count') ?? Number.NaN);
  const count = Number.isInteger(countHeader) && countHeader >= 0 ? countHeader : undefined;
  return readStreamedFile(result, 'application/pdf', (progress) => onProgress({ ...progress, count }));
}
