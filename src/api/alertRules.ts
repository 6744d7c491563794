import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import { isCallAllowed } from './middleware/permissionGate';
import type { components, operations } from './schema';

/** The alert rules calls (issue 34): the client's rules, their changes and each rule's firings. */

export type AlertRule = components['schemas']['AlertRule'];
export type AlertRuleList = components['schemas']['AlertRuleList'];
export type AlertRecipient = components['schemas']['AlertRecipient'];
export type AlertRuleRequest = components['schemas']['AlertRuleRequest'];
export type AlertRuleUpdate = components['schemas']['AlertRuleUpdate'];
export type AlertFiring = components['schemas']['AlertFiring'];
export type AlertFiringsQuery = operations['getAlertFirings']['parameters']['query'];

/** GET /api/alertRules: the client's rules the caller sees, and the users a rule may mail. */
export async function getAlertRules(
  clientId: number,
  { signal, client = api }: CallOptions = {},
): Promise<AlertRuleList> {
  return dataOrThrow(await client.GET('/api/alertRules', { params: { query: { client_id: clientId } }, signal }));
}

/** POST /api/alertRules: adds a rule. */
export async function createAlertRule(
  body: AlertRuleRequest,
  { signal, client = api }: CallOptions = {},
): Promise<AlertRule> {
  return dataOrThrow(await client.POST('/api/alertRules', { body, signal }));
}

/** PUT /api/alertRules: changes a rule. */
export async function updateAlertRule(
  body: AlertRuleUpdate,
  { signal, client = api }: CallOptions = {},
): Promise<AlertRule> {
  return dataOrThrow(await client.PUT('/api/alertRules', { body, signal }));
}

/** DELETE /api/alertRules: removes a rule and its history. */
export async function deleteAlertRule(
  clientId: number,
  id: number,
  { signal, client = api }: CallOptions = {},
): Promise<{ id: number }> {
  return dataOrThrow(
    await client.DELETE('/api/alertRules', { params: { query: { client_id: clientId, id } }, signal }),
  );
}

/** GET /api/alertRules/firings: a rule's firings, the latest first. */
export async function getAlertFirings(
  query: AlertFiringsQuery,
  { signal, client = api }: CallOptions = {},
): Promise<AlertFiring[]> {
  return dataOrThrow(await client.GET('/api/alertRules/firings', { params: { query }, signal })).firings;
}

/** PUT /api/alertRules/firings/acknowledge: records the caller's acknowledgement of a firing. */
export async function acknowledgeAlertFiring(
  clientId: number,
  id: number,
  { signal, client = api }: CallOptions = {},
): Promise<AlertFiring> {
  return dataOrThrow(
    await client.PUT('/api/alertRules/firings/acknowledge', { body: { client_id: clientId, id }, signal }),
  );
}

/** Whether the session may add a rule: the permission gate sends both the rules' read (its recipients) and the add. */
export function mayCreateAlertRules(): boolean {
  return isCallAllowed('/api/alertRules', 'GET') && isCallAllowed('/api/alertRules', 'POST');
}
