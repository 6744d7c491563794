import { api, type CallOptions } from './client';
import { ApiError, dataOrThrow, serverMessageOf } from './errors';
import type { components, operations } from './schema';

/** Thin wrappers over the receipts calls (§7). Each returns the body of a 2xx answer or throws an ApiError. */

export type ReceiptRow = components['schemas']['ReceiptRow'];
export type ReceiptSummary = components['schemas']['ReceiptSummary'];
export type PaymentSummary = components['schemas']['PaymentSummary'];
export type BreakdownSeries = components['schemas']['PaymentMethodBreakdownSeries'];
export type TransactionQuery = NonNullable<operations['getTransactions']['parameters']['query']>;
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

export async function getTransactionsPdfLink(query: TransactionQuery, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.GET('/outlets/transaction/pdfLink', { params: { query }, signal }));
}

/**
 * The receipts PDF, reading the body as a stream so that `onProgress` sees the share received (0..1, or
 * undefined while the size is unknown).
 */
export async function downloadTransactionsPdf(
  query: TransactionQuery,
  onProgress: (received: number, total: number | undefined) => void,
  { signal, client = api }: CallOptions = {},
): Promise<Blob> {
  const result = await client.GET('/outlets/transaction/generatepdf', { params: { query }, parseAs: 'stream', signal });
  const { response } = result;
  if (!response.ok) {
    let message: string | undefined;
    try {
      message = serverMessageOf(await response.clone().json());
    } catch {
      message = undefined;
    }
    throw new ApiError(response.status, message);
  }
  const total = Number(response.headers.get('content-length')) || undefined;
  const body = response.body;
  if (!body) return new Blob([await response.arrayBuffer()], { type: 'application/pdf' });
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  onProgress(0, total);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress(received, total);
  }
  return new Blob(chunks as BlobPart[], { type: 'application/pdf' });
}
