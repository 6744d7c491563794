import { api, type CallOptions } from './client';
import { dataOrThrow } from './errors';
import type { components, operations } from './schema';

export type TenantUser = components['schemas']['TenantUser'];
export type TenantUserStatus = components['schemas']['TenantUserStatus'];
export type TenantUsersQuery = NonNullable<operations['getTenantUsers']['parameters']['query']>;
export type TenantUsersPage = operations['getTenantUsers']['responses']['200']['content']['application/json'];
export type TenantUserSortColumn = NonNullable<TenantUsersQuery['sortColumn']>;
export type InviteTenantUserBody = operations['inviteTenantUser']['requestBody']['content']['application/json'];

/** GET /api/tenantManagement/users: one page of the client's tenant users, and how many match. */
export async function getTenantUsers(query: TenantUsersQuery, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.GET('/api/tenantManagement/users', { params: { query }, signal }));
}

/** POST /api/tenantManagement/users: invites a tenant user to outlets of the client; answers the new user. */
export async function inviteTenantUser(body: InviteTenantUserBody, { signal, client = api }: CallOptions = {}) {
  return dataOrThrow(await client.POST('/api/tenantManagement/users', { body, signal }));
}

/** POST /api/tenantManagement/users/invitation: sends a user's invitation again. */
export async function resendTenantInvitation(
  body: { client_id: number; user_id: number },
  { signal, client = api }: CallOptions = {},
) {
  return dataOrThrow(await client.POST('/api/tenantManagement/users/invitation', { body, signal }));
}

/** PUT /api/tenantManagement/users/status: deactivates (`active` false) or reactivates a user. */
export async function setTenantUserStatus(
  body: { client_id: number; user_id: number; active: boolean },
  { signal, client = api }: CallOptions = {},
) {
  return dataOrThrow(await client.PUT('/api/tenantManagement/users/status', { body, signal }));
}
