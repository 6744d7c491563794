import type { ClientKey } from './catalog.js';

/** The password of every demo account. */
export const DEMO_PASSWORD = 'demo-password-1';

export type RoleKey =
  | 'superAdmin'
  | 'operator'
  | 'leasing'
  | 'finance'
  | 'marcom'
  | 'operations'
  | 'tenant'
  | 'tenantManager';

export interface DemoAccountSpec {
  email: string;
  displayName: string;
  description: string;
  role: RoleKey;
  clients: readonly ClientKey[];
  defaultClient: ClientKey;
  /**
   * The outlet the account is limited to (user_outlets): the first or second F&B or retail outlet of the client's
   * first mall.
   */
  outlet?: 'firstFnb' | 'firstRetail' | 'secondFnb' | 'secondRetail';
  /** Invited and not activated yet: the account has no password. */
  invited?: boolean;
  /** Deactivated: the account can neither sign in nor use an e-mailed link. */
  disabled?: boolean;
  tenantOnly?: boolean;
  hideTopBar?: boolean;
  requireMfa?: boolean;
  passwordExpired?: boolean;
  /** Void-receipt and daily-summary e-mails (email_subscriptions) for the default client. */
  subscriptions?: { void: boolean; summary: boolean };
}

/** The e-mail domain whose accounts do not see receipts. */
export const PARTNER_DOMAIN = 'partner.example';

export const DEMO_ACCOUNT_SPECS: readonly DemoAccountSpec[] = [
  {
    email: 'admin@demo.mall',
    displayName: 'Demo Admin',
    description: 'super admin: every route, both clients',
    role: 'superAdmin',
    clients: ['harbourfront', 'sunrise'],
    defaultClient: 'harbourfront',
  },
  {
    email: 'operator@demo.mall',
    displayName: 'Olivia Tan',
    description: 'mall operator of Harbourfront Malls',
    role: 'operator',
    clients: ['harbourfront'],
    defaultClient: 'harbourfront',
    subscriptions: { void: true, summary: true },
  },
  {
    email: 'operator2@demo.mall',
    displayName: 'Budi Santoso',
    description: 'mall operator of Sunrise Retail Group',
    role: 'operator',
    clients: ['sunrise'],
    defaultClient: 'sunrise',
    subscriptions: { void: false, summary: true },
  },
  {
    email: 'leasing@demo.mall',
    displayName: 'Lena Lim',
    description: 'leasing department: Leasing breakeven target',
    role: 'leasing',
    clients: ['harbourfront'],
    defaultClient: 'harbourfront',
  },
  {
    email: 'finance@demo.mall',
    displayName: 'Farid Rahman',
    description: 'finance department: Finance breakeven target',
    role: 'finance',
    clients: ['harbourfront'],
    defaultClient: 'harbourfront',
    subscriptions: { void: false, summary: true },
  },
  {
    email: 'marcom@demo.mall',
    displayName: 'Mei Ling Goh',
    description: 'marcom department: Marcom breakeven target',
    role: 'marcom',
    clients: ['harbourfront'],
    defaultClient: 'harbourfront',
  },
  {
    email: 'operations@demo.mall',
    displayName: 'Oscar Kumar',
    description: 'operations department: Operations breakeven target',
    role: 'operations',
    clients: ['harbourfront'],
    defaultClient: 'harbourfront',
  },
  {
    email: 'tenant@demo.mall',
    displayName: 'Tommy Ng',
    description: 'tenant of one F&B outlet of Harbourfront Malls',
    role: 'tenant',
    clients: ['harbourfront'],
    defaultClient: 'harbourfront',
    outlet: 'firstFnb',
    subscriptions: { void: true, summary: false },
  },
  {
    email: 'tenant-only@demo.mall',
    displayName: 'Tara Wong',
    description: 'tenant-only account of one retail outlet (lands on sales review), manages its users',
    role: 'tenantManager',
    clients: ['harbourfront'],
    defaultClient: 'harbourfront',
    outlet: 'firstRetail',
    tenantOnly: true,
  },
  {
    email: 'showcase@demo.mall',
    displayName: 'Showcase',
    description: 'mall operator without the top bar (showcase account)',
    role: 'operator',
    clients: ['harbourfront'],
    defaultClient: 'harbourfront',
    hideTopBar: true,
  },
  {
    email: `analyst@${PARTNER_DOMAIN}`,
    displayName: 'Partner Analyst',
    description: `mall operator of the partner domain ${PARTNER_DOMAIN}: receipts hidden`,
    role: 'operator',
    clients: ['harbourfront'],
    defaultClient: 'harbourfront',
  },
  {
    email: 'mfa@demo.mall',
    displayName: 'Max Chua',
    description: 'mall operator with one-time-code sign-in (MFA)',
    role: 'operator',
    clients: ['harbourfront'],
    defaultClient: 'harbourfront',
    requireMfa: true,
  },
  {
    email: 'expired@demo.mall',
    displayName: 'Eva Lee',
    description: 'mall operator whose password has expired',
    role: 'operator',
    clients: ['harbourfront'],
    defaultClient: 'harbourfront',
    passwordExpired: true,
  },
  {
    email: 'tenant-invited@demo.mall',
    displayName: 'Irene Koh',
    description: 'tenant invited to one F&B outlet, not activated yet (no password)',
    role: 'tenant',
    clients: ['harbourfront'],
    defaultClient: 'harbourfront',
    outlet: 'secondFnb',
    invited: true,
  },
  {
    email: 'tenant-former@demo.mall',
    displayName: 'Derek Lau',
    description: 'tenant of one retail outlet, deactivated (cannot sign in)',
    role: 'tenant',
    clients: ['harbourfront'],
    defaultClient: 'harbourfront',
    outlet: 'secondRetail',
    disabled: true,
  },
];

/** The demo accounts to print at start (all with DEMO_PASSWORD but the invited one, which has none yet). */
export const DEMO_ACCOUNTS: readonly { email: string; description: string }[] = DEMO_ACCOUNT_SPECS.map(
  ({ email, description }) => ({ email, description }),
);
