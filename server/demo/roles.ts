import { routePermissionNames } from '../../src/domain/routeTable.js';
import { listOperations, type Operation, permissionFor } from '../openapi.js';
import { TENANT_ROLE } from '../repositories/tenantUsers.js';
import type { RoleKey } from './accounts.js';

export interface RoleDefinition {
  key: RoleKey;
  name: string;
  isSuperAdmin: boolean;
  routes: { name: string; subPermissions: string[] }[];
  api: string[];
  components: string[];
}

const OPERATOR_TAGS = [
  'lookup',
  'outlet-reports',
  'tenant',
  'mall-reports',
  'gto',
  'settings',
  'apps',
  'audit',
  'tenant-management',
  'non-trading-days',
  'sales-review',
  'calendar',
  'mall-events',
  'leases',
  'data-feeds',
  'alerts',
  'report-subscriptions',
];
/** The Shopper Connect pages of the calendar and the malls' events: every staff role keeps them. */
const CALENDAR_PAGES = ['calendar', 'events'];
const DATE_LIMIT = 'datetime-picker-limitation';

function permissions(operations: readonly Operation[], keep: (operation: Operation) => boolean): string[] {
  return [...new Set(operations.filter((op) => op.access === 'permission' && keep(op)).map(permissionFor))].sort();
}

const tagged = (operation: Operation, ...tags: string[]) => operation.tags.some((tag) => tags.includes(tag));

/** Every route permission of the browser's route table with all its sub-permissions. */
const allRoutes = () => routePermissionNames().map(({ name, children }) => ({ name, subPermissions: children }));

/**
 * The demo roles. API permissions are derived from openapi.yaml when called (x-access 'permission' operations
 * by tag), so they follow the contract as it grows; no operation path is written here.
 */
export function demoRoles(operations: readonly Operation[] = listOperations()): RoleDefinition[] {
  const lookup = permissions(operations, (op) => tagged(op, 'lookup'));
  const department = permissions(
    operations,
    (op) =>
      tagged(op, 'lookup') ||
      (tagged(op, 'mall-reports') && /breakeven/i.test(op.path)) ||
      (tagged(op, 'gto') && /\/(summary|settings)$/i.test(op.path)),
  );
  // Leasing and finance keep the outlets' non-trading days (the mall's list, declare and remove) and the leases
  // with their rent statements, and read the receipts a flagged GTO month is checked against.
  const reviewer = [
    ...new Set([
      ...department,
      ...permissions(operations, (op) => tagged(op, 'non-trading-days', 'outlet-reports', 'leases')),
    ]),
  ].sort();
  // The client's staff keep the calendar and the malls' events; whoever sees a mall's reports reads them.
  const calendarAll = permissions(operations, (op) => tagged(op, 'calendar', 'mall-events'));
  const calendarRead = permissions(operations, (op) => tagged(op, 'calendar', 'mall-events') && op.method === 'GET');
  const withCalendar = (api: string[]) => [...new Set([...api, ...calendarAll])].sort();
  const departmentRole = (key: 'leasing' | 'finance' | 'marcom' | 'operations', name: string): RoleDefinition => ({
    key,
    name,
    isSuperAdmin: false,
    // Leasing and finance review the tenants' monthly GTO; every department sees its breakeven page.
    routes:
      key === 'marcom'
        ? [{ name: 'shopper-connect', subPermissions: ['breakeven-target/marcom', ...CALENDAR_PAGES] }]
        : key === 'operations'
          ? [
              { name: 'shopper-connect', subPermissions: CALENDAR_PAGES },
              { name: 'tenant-connect', subPermissions: ['breakeven-target'] },
            ]
          : [
              { name: 'shopper-connect', subPermissions: CALENDAR_PAGES },
              {
                name: 'tenant-connect',
                subPermissions: ['gto-review', 'non-trading-days', 'breakeven-target', 'leases', 'rent-statements'],
              },
              { name: 'receipts', subPermissions: [] },
            ],
    api: withCalendar(key === 'leasing' || key === 'finance' ? reviewer : department),
    // Marcom and operations see yesterday and today only; the GTO reviewers need the months before.
    components: key === 'leasing' || key === 'finance' ? [] : [DATE_LIMIT],
  });
  const tenantApi = [
    ...new Set([
      ...lookup,
      ...calendarRead,
      ...permissions(
        operations,
        (op) =>
          tagged(op, 'outlet-reports', 'tenant', 'sales-review') ||
          (tagged(op, 'gto') && /submissionData|outletMonths/i.test(op.path)),
      ),
    ]),
  ].sort();
  return [
    { key: 'superAdmin', name: 'super admin', isSuperAdmin: true, routes: allRoutes(), api: [], components: [] },
    {
      key: 'operator',
      name: 'mall operator',
      isSuperAdmin: false,
      routes: allRoutes(),
      api: permissions(operations, (op) => tagged(op, ...OPERATOR_TAGS)),
      components: [],
    },
    departmentRole('leasing', 'leasing'),
    departmentRole('finance', 'finance'),
    departmentRole('marcom', 'marcom'),
    departmentRole('operations', 'operations'),
    {
      key: 'tenant',
      name: TENANT_ROLE,
      isSuperAdmin: false,
      routes: [
        { name: 'tenant-connect', subPermissions: ['sales-review', 'sales-analysis'] },
        {
          name: 'tenants',
          subPermissions: ['tenant-receipt-data', 'gross-turnover', 'gto_submission', 'rent-statement'],
        },
        { name: 'receipts', subPermissions: [] },
      ],
      api: tenantApi,
      components: [],
    },
    {
      // The tenant-only account (§6): a tenant that also manages its outlets' users and reads their audit log.
      key: 'tenantManager',
      name: 'tenant manager',
      isSuperAdmin: false,
      routes: [
        {
          name: 'tenant-connect',
          subPermissions: ['sales-review', 'sales-analysis', 'tenant-management', 'audit-logs'],
        },
      ],
      api: [
        ...new Set([...tenantApi, ...permissions(operations, (op) => tagged(op, 'tenant-management', 'audit'))]),
      ].sort(),
      components: [],
    },
  ];
}
