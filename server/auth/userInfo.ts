import type { UserGrants, UserRow } from '../repositories/users.js';

/**
 * The user info of the session (spec §3), with the account flags that stand for the special accounts and the
 * header's today (`latestMallToday`).
 */
export function toUserInfo(user: UserRow, grants: UserGrants, today: string | undefined) {
  return {
    id: user.id,
    username: user.email,
    client_id:
      user.defaultClientId && grants.clientIds.includes(user.defaultClientId)
        ? user.defaultClientId
        : (grants.clientIds[0] ?? null),
    clients: grants.clientIds,
    roles: grants.roles,
    permissions: grants.routePermissions,
    permissionsList: grants.isSuperAdmin ? ['*::*'] : grants.apiPermissions,
    permissionsComponents: grants.componentPermissions,
    password_expired: user.passwordExpired,
    flags: {
      tenantOnly: user.tenantOnly,
      hideTopBar: user.hideTopBar,
      receiptsHidden: user.receiptsHidden,
    },
    ...(today === undefined ? {} : { today }),
  };
}
