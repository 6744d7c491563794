import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import { isCallAllowed } from './middleware/permissionGate';
import type { components, operations } from './schema';

/**
 * The rent statement calls (issue 33): the month's rent of the leased outlets of the selected malls, and an
 * outlet's statement for its tenant. Each returns the body of a 2xx answer or throws an ApiError.
 */

export type RentStatementReport = components['schemas']['RentStatementReport'];
export type RentStatementRow = components['schemas']['RentStatementRow'];
export type RentStatementGroup = components['schemas']['RentStatementGroup'];
export type RentStatementsQuery = operations['getRentStatements']['parameters']['query'];
export type TenantRentStatement = components['schemas']['TenantRentStatement'];
export type TenantRentStatementQuery = operations['getTenantRentStatement']['parameters']['query'];
export type RentInvoiceResult = components['schemas']['RentInvoiceResult'];

/** GET /api/rentStatements: a row per lease of the selected malls covering part of the month. */
export async function getRentStatements(
  query: RentStatementsQuery,
  { signal, client = api }: CallOptions = {},
): Promise<RentStatementReport> {
  return dataOrThrow(await client.GET('/api/rentStatements', { params: { query }, signal }));
}

/** GET /api/tenant/rentStatement: the outlet's lease covering the month and the month's rent, line by line. */
export async function getTenantRentStatement(
  query: TenantRentStatementQuery,
  { signal, client = api }: CallOptions = {},
): Promise<TenantRentStatement> {
  return dataOrThrow(await client.GET('/api/tenant/rentStatement', { params: { query }, signal }));
}

/**
 * POST /api/rentStatements/invoices: posts the month's turnover-rent invoice of each outlet to the client's Xero
 * organisation, once (an outlet's month posted before is not posted again).
 */
export async function postRentInvoices(
  body: { client_id: number; month: string },
  { signal, client = api }: CallOptions = {},
): Promise<RentInvoiceResult> {
  return dataOrThrow(await client.POST('/api/rentStatements/invoices', { body, signal }));
}

/** Whether the session may post the month's invoices (the permission gate sends the call). */
export function mayPostRentInvoices(): boolean {
  return isCallAllowed('/api/rentStatements/invoices', 'POST');
}
