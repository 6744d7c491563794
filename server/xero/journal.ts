import { createHash } from 'node:crypto';
import type { components } from '../../src/api/schema.js';
import type { ManualJournal, XeroAccount, XeroTaxRate } from './api.js';

/** Pure rules of the integration: the options offered, and the journal of an outlet's day. */

export type XeroOptions = components['schemas']['XeroOptions'];

/** The options cached with a connection: the choices, and each account's default tax type. */
export interface CachedOptions extends XeroOptions {
  /** The default TaxType of each clearing account, by code. */
  readonly clearingTaxTypes: Readonly<Record<string, string>>;
}

export const NO_OPTIONS: CachedOptions = {
  salesAccounts: [],
  taxAccounts: [],
  clearingAccounts: [],
  currency: [],
  clearingTaxTypes: {},
};

const SALES_TYPES = new Set(['REVENUE', 'SALES']);
const CLEARING_TYPES = new Set(['BANK', 'CURRENT']);

const byCode = (a: { code: string }, b: { code: string }) => a.code.localeCompare(b.code);

/**
 * What the user chooses from: active REVENUE and SALES accounts; active tax rates that apply to revenue; active bank
 * and current asset accounts with a code that are not system accounts (a manual journal may not use those); and the
 * organisation's base currency, the only one a manual journal is in.
 */
export function optionsOf(
  accounts: readonly XeroAccount[],
  taxRates: readonly XeroTaxRate[],
  baseCurrency: string | null,
): CachedOptions {
  const active = accounts.filter(
    (account): account is XeroAccount & { code: string } => account.status === 'ACTIVE' && !!account.code,
  );
  const clearing = active.filter((account) => CLEARING_TYPES.has(account.type) && !account.systemAccount);
  return {
    salesAccounts: active
      .filter((account) => SALES_TYPES.has(account.type))
      .map((account) => ({ code: account.code, name: account.name }))
      .sort(byCode),
    taxAccounts: taxRates
      .filter((rate) => rate.status === 'ACTIVE' && rate.canApplyToRevenue && rate.taxType !== '')
      .map((rate) => ({
        code: rate.taxType,
        name: rate.effectiveRate === undefined ? rate.name : `${rate.name} (${rate.effectiveRate}%)`,
      }))
      .sort(byCode),
    clearingAccounts: clearing.map((account) => ({ code: account.code, name: account.name })).sort(byCode),
    currency: baseCurrency ? [baseCurrency] : [],
    clearingTaxTypes: Object.fromEntries(
      clearing.flatMap((account) => (account.taxType ? [[account.code, account.taxType]] : [])),
    ),
  };
}

/** Options as stored (jsonb), with anything missing or malformed read as none. */
export function cachedOptionsOf(stored: unknown): CachedOptions {
  if (typeof stored !== 'object' || stored === null) return NO_OPTIONS;
  const value = stored as Partial<CachedOptions>;
  const list = (items: unknown) =>
    Array.isArray(items)
      ? items.filter(
          (item): item is { code: string; name: string } =>
            typeof item?.code === 'string' && typeof item?.name === 'string',
        )
      : [];
  return {
    salesAccounts: list(value.salesAccounts),
    taxAccounts: list(value.taxAccounts),
    clearingAccounts: list(value.clearingAccounts),
    currency: Array.isArray(value.currency) ? value.currency.filter((item) => typeof item === 'string') : [],
    clearingTaxTypes:
      typeof value.clearingTaxTypes === 'object' && value.clearingTaxTypes !== null ? value.clearingTaxTypes : {},
  };
}

/** The options as the API answers them (without the tax types of the clearing accounts). */
export function publicOptionsOf(options: CachedOptions): XeroOptions {
  return {
    salesAccounts: options.salesAccounts,
    taxAccounts: options.taxAccounts,
    clearingAccounts: options.clearingAccounts,
    currency: options.currency,
  };
}

export interface OutletDaySales {
  readonly outletId: number;
  readonly outletName: string;
  readonly outletCode: string | null;
  readonly mallName: string;
  readonly currency: string;
  readonly day: string;
  /** The day's sales (GMV: non-void receipts, tax included), in the outlet's currency. */
  readonly amount: number;
}

export interface JournalAccounts {
  readonly salesAccount: string;
  readonly taxType: string;
  readonly clearingAccount: string;
  /** The clearing account's default tax type, when Xero gave one. */
  readonly clearingTaxType: string | undefined;
}

const cents = (amount: number) => Math.round(amount * 100) / 100;

/**
 * One outlet's day as a manual journal in the organisation's base currency (the outlet's): the day's takings debited
 * to the clearing account, the same amount credited to the sales account with the chosen tax rate, tax included
 * (Xero splits the tax out). Two lines that sum to zero.
 */
export function dailySalesJournal(sales: OutletDaySales, accounts: JournalAccounts): ManualJournal {
  const amount = cents(sales.amount);
  const outlet = sales.outletCode ? `${sales.outletName} (${sales.outletCode})` : sales.outletName;
  return {
    Narration: `Daily sales of ${outlet}, ${sales.mallName}, on ${sales.day} (${sales.currency})`,
    Date: sales.day,
    Status: 'POSTED',
    LineAmountTypes: 'Inclusive',
    JournalLines: [
      {
        LineAmount: amount,
        AccountCode: accounts.clearingAccount,
        Description: `Takings of ${outlet} on ${sales.day}`,
        ...(accounts.clearingTaxType ? { TaxType: accounts.clearingTaxType } : {}),
      },
      {
        LineAmount: -amount,
        AccountCode: accounts.salesAccount,
        Description: `Sales of ${outlet} on ${sales.day}`,
        TaxType: accounts.taxType,
      },
    ],
  };
}

/**
 * The Idempotency-Key of an outlet's day in an organisation: the same for every attempt of one generation, so a
 * journal sent again after a lost answer or a crash is not created twice; a new generation only after Xero refused
 * the journal. At most 128 characters, as Xero allows.
 */
export function idempotencyKeyOf(
  clientId: number,
  outletId: number,
  day: string,
  tenantId: string,
  generation: number,
): string {
  const tenant = createHash('sha256').update(tenantId).digest('base64url').slice(0, 16);
  return `mall-analytics-${clientId}-${outletId}-${day}-${tenant}-${generation}`;
}
