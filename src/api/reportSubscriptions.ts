import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import { isCallAllowed } from './middleware/permissionGate';
import type { components, operations } from './schema';

/**
 * The report subscription calls (issue 34, reports by e-mail): a report page and its filters mailed on a schedule
 * as the page's PDF and, for Mall Home, its workbook. Each returns the body of a 2xx answer or throws an ApiError;
 * a change or a send answers 409 with the reason when the server has no browser to render PDFs.
 */

export type ReportSubscription = components['schemas']['ReportSubscription'];
export type ReportSubscriptionInput = components['schemas']['ReportSubscriptionInput'];
export type RenderingState = components['schemas']['RenderingState'];
export type ReportSubscriptionList =
  operations['getReportSubscriptions']['responses']['200']['content']['application/json'];
export type SubscriptionRecipient =
  operations['getReportSubscriptionRecipients']['responses']['200']['content']['application/json']['data'][number];

/** GET /api/reportSubscriptions: the client's subscriptions (newest first) and whether PDFs can be rendered. */
export async function getReportSubscriptions(
  clientId: number,
  { signal, client = api }: CallOptions = {},
): Promise<ReportSubscriptionList> {
  return dataOrThrow(
    await client.GET('/api/reportSubscriptions', { params: { query: { client_id: clientId } }, signal }),
  );
}

/** POST /api/reportSubscriptions: a new subscription (audit-logged), as the list shows it. */
export async function createReportSubscription(
  body: ReportSubscriptionInput,
  { signal, client = api }: CallOptions = {},
): Promise<ReportSubscription> {
  return dataOrThrow(await client.POST('/api/reportSubscriptions', { body, signal }));
}

/** PUT /api/reportSubscriptions?id=: the subscription changed to `body` (audit-logged). */
export async function updateReportSubscription(
  id: number,
  body: ReportSubscriptionInput,
  { signal, client = api }: CallOptions = {},
): Promise<ReportSubscription> {
  return dataOrThrow(await client.PUT('/api/reportSubscriptions', { params: { query: { id } }, body, signal }));
}

/** DELETE /api/reportSubscriptions?client_id=&id=: the subscription removed; answers it as it was. */
export async function deleteReportSubscription(
  clientId: number,
  id: number,
  { signal, client = api }: CallOptions = {},
): Promise<ReportSubscription> {
  return dataOrThrow(
    await client.DELETE('/api/reportSubscriptions', { params: { query: { client_id: clientId, id } }, signal }),
  );
}

/** POST /api/reportSubscriptions/send: a delivery queued now, outside the schedule; answers its period key. */
export async function sendReportSubscription(
  clientId: number,
  id: number,
  { signal, client = api }: CallOptions = {},
): Promise<string> {
  return dataOrThrow(await client.POST('/api/reportSubscriptions/send', { body: { client_id: clientId, id }, signal }))
    .period_key;
}

/** GET /api/reportSubscriptions/recipients: the users of the client the caller may send reports to. */
export async function getSubscriptionRecipients(
  clientId: number,
  { signal, client = api }: CallOptions = {},
): Promise<SubscriptionRecipient[]> {
  return dataOrThrow(
    await client.GET('/api/reportSubscriptions/recipients', { params: { query: { client_id: clientId } }, signal }),
  ).data;
}

/** Whether the session may make a subscription: the dialog reads the recipients and the list, and creates. */
export function mayCreateReportSubscriptions(): boolean {
  return (
    isCallAllowed('/api/reportSubscriptions', 'POST') &&
    isCallAllowed('/api/reportSubscriptions', 'GET') &&
    isCallAllowed('/api/reportSubscriptions/recipients', 'GET')
  );
}
