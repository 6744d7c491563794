import { type Queryable, singleRow } from '../db/pool.js';

export interface UserRow {
  id: number;
  email: string;
  passwordHash: string | null;
  passwordExpired: boolean;
  requireMfa: boolean;
  tenantOnly: boolean;
  hideTopBar: boolean;
  defaultClientId: number | null;
  disabled: boolean;
  receiptsHidden: boolean;
}

const USER_COLUMNS = `u.id, u.email, u.password_hash AS "passwordHash", u.password_expired AS "passwordExpired",
  u.require_mfa AS "requireMfa", u.tenant_only AS "tenantOnly", u.hide_top_bar AS "hideTopBar",
  u.default_client_id AS "defaultClientId", u.disabled,
  coalesce(d.receipts_hidden, false) AS "receiptsHidden"`;

const USER_FROM = `users u LEFT JOIN email_domains d ON d.domain = split_part(u.email, '@', 2)`;

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM ${USER_FROM} WHERE u.email = $1`, [email]);
  return rows[0];
}

export async function findUserById(db: Queryable, id: number): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM ${USER_FROM} WHERE u.id = $1`, [id]);
  return rows[0];
}

export interface UserGrants {
  roles: string[];
  isSuperAdmin: boolean;
  routePermissions: { name: string; subPermissions: string[] }[];
  apiPermissions: string[];
  componentPermissions: string[];
  clientIds: number[];
  /** Outlet ids the user is limited to, by client; a client absent here is not limited. */
  outletLimits: Map<number, number[]>;
}

/** Roles, permissions and the clients and outlets a user may see, in one round trip. */
export async function loadUserGrants(db: Queryable, userId: number): Promise<UserGrants> {
  const { rows } = await db.query<{
    roles: string[];
    is_super_admin: boolean;
    routes: { name: string; subPermissions: string[] }[];
    api: string[];
    components: string[];
    clients: number[];
    outlets: { client_id: number; outlet_ids: number[] }[];
  }>(
    `SELECT
       coalesce((SELECT array_agg(r.name ORDER BY r.name) FROM user_roles ur JOIN roles r ON r.id = ur.role_id
                 WHERE ur.user_id = $1), '{}') AS roles,
       coalesce((SELECT bool_or(r.is_super_admin) FROM user_roles ur JOIN roles r ON r.id = ur.role_id
                 WHERE ur.user_id = $1), false) AS is_super_admin,
       coalesce((SELECT json_agg(json_build_object('name', rp.name, 'subPermissions', rp.sub_permissions))
                 FROM user_roles ur JOIN role_route_permissions rp ON rp.role_id = ur.role_id
                 WHERE ur.user_id = $1), '[]') AS routes,
       coalesce((SELECT array_agg(DISTINCT ap.permission) FROM user_roles ur
                 JOIN role_api_permissions ap ON ap.role_id = ur.role_id WHERE ur.user_id = $1), '{}') AS api,
       coalesce((SELECT array_agg(DISTINCT cp.component) FROM user_roles ur
                 JOIN role_component_permissions cp ON cp.role_id = ur.role_id WHERE ur.user_id = $1), '{}') AS components,
       CASE WHEN coalesce((SELECT bool_or(r.is_super_admin) FROM user_roles ur JOIN roles r ON r.id = ur.role_id
                           WHERE ur.user_id = $1), false)
            THEN coalesce((SELECT array_agg(id ORDER BY id) FROM clients), '{}')
            ELSE coalesce((SELECT array_agg(client_id ORDER BY client_id) FROM user_clients WHERE user_id = $1), '{}')
       END AS clients,
       coalesce((SELECT json_agg(json_build_object('client_id', client_id, 'outlet_ids', ids))
                 FROM (SELECT client_id, array_agg(outlet_id ORDER BY outlet_id) AS ids FROM user_outlets
                       WHERE user_id = $1 GROUP BY client_id) o), '[]') AS outlets`,
    [userId],
  );
  const row = singleRow(rows);
  return {
    roles: row.roles,
    isSuperAdmin: row.is_super_admin,
    routePermissions: mergeRoutePermissions(row.routes),
    apiPermissions: [...row.api].sort(),
    componentPermissions: [...row.components].sort(),
    clientIds: row.clients,
    outletLimits: new Map(row.outlets.map((entry) => [entry.client_id, entry.outlet_ids])),
  };
}

/** Merges the route permissions of several roles: one entry a route name, with the union of its children. */
function mergeRoutePermissions(rows: { name: string; subPermissions: string[] }[]) {
  const merged = new Map<string, Set<string>>();
  for (const row of rows) {
    const subs = merged.get(row.name) ?? new Set<string>();
    for (const sub of row.subPermissions) subs.add(sub);
    merged.set(row.name, subs);
  }
  return [...merged.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, subs]) => ({ name, subPermissions: [...subs].sort() }));
}

/**
 * The header's today for a user who sees `clientIds`: the latest calendar day at `at` among the time zones of
 * those clients' malls, `YYYY-MM-DD` (undefined without a mall). Reports, rollups and receipts count days in
 * each mall's zone, so the latest of them is the last day any of the user's malls has begun: no mall's today is
 * refused as a future day, whatever the browser's zone; a mall still on the day before simply has no figures
 * for it yet.
 */
export async function latestMallToday(
  db: Queryable,
  clientIds: readonly number[],
  at: Date,
): Promise<string | undefined> {
  if (clientIds.length === 0) return undefined;
  const { rows } = await db.query<{ today: string | null }>(
    `SELECT to_char(max(($2::timestamptz AT TIME ZONE time_zone)::date), 'YYYY-MM-DD') AS today
       FROM malls WHERE client_id = ANY($1::int[])`,
    [clientIds, at.toISOString()],
  );
  return rows[0]?.today ?? undefined;
}
