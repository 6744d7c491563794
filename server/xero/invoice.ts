import { createHash } from 'node:crypto';
import { addDays, firstDayOfNextMonth } from '../../src/domain/reports.js';
import type { SalesCreditNote, SalesInvoice } from './api.js';

/** Pure rules of the turnover-rent invoices: an outlet's month as a sales invoice, and its Idempotency-Key. */

/** The turnover rent of one lease covering the month. */
export interface LeaseTurnoverRent {
  readonly leaseId: number;
  readonly startDate: string;
  readonly endDate: string;
  /** The turnover rent due (on the declared GTO, else on the captured sales), in the outlet's currency. */
  readonly turnoverRent: number;
}

/** What an outlet's month is invoiced from: the outlet and the turnover rent of each lease covering the month. */
export interface OutletMonthRent {
  readonly outletId: number;
  readonly outletName: string;
  readonly outletCode: string | null;
  readonly currency: string;
  /** YYYY-MM. */
  readonly month: string;
  /** Oldest first; the last is the lease the month is recorded under. */
  readonly leases: readonly LeaseTurnoverRent[];
  /** The sum of the leases' turnover rent. */
  readonly amount: number;
}

export interface InvoiceAccounts {
  readonly salesAccount: string;
  readonly taxType: string;
}

/** Days from an invoice's date to its due date. */
export const RENT_INVOICE_TERMS_DAYS = 14;

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** 'September 2026' of '2026-09'. */
export function monthName(month: string): string {
  return `${MONTH_NAMES[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;
}

const cents = (amount: number) => Math.round(amount * 100) / 100;

/**
 * An outlet's month as one sales invoice to its tenant's contact (the outlet's name), approved: dated the first day
 * of the next month, due RENT_INVOICE_TERMS_DAYS later, in the outlet's currency, exclusive of tax (Xero adds the
 * tax of the chosen tax rate), one line 'Turnover rent <Month YYYY>, <outlet code>' of the turnover rent due on the
 * chosen sales account (a line a lease when two leases cover the month, each naming its start), and the reference
 * 'GTO <YYYY-MM> <outlet code>'. The outlet's name stands for a missing code.
 */
export function rentInvoice(rent: OutletMonthRent, accounts: InvoiceAccounts): SalesInvoice {
  const date = firstDayOfNextMonth(rent.month);
  const outlet = rent.outletCode || rent.outletName;
  const due = rent.leases.filter((lease) => lease.turnoverRent > 0);
  const description = `Turnover rent ${monthName(rent.month)}, ${outlet}`;
  return {
    Type: 'ACCREC',
    Contact: { Name: rent.outletName },
    Date: date,
    DueDate: addDays(date, RENT_INVOICE_TERMS_DAYS),
    LineAmountTypes: 'Exclusive',
    LineItems: due.map((lease) => ({
      Description: due.length > 1 ? `${description} (lease from ${lease.startDate})` : description,
      Quantity: 1,
      UnitAmount: cents(lease.turnoverRent),
      AccountCode: accounts.salesAccount,
      TaxType: accounts.taxType,
    })),
    CurrencyCode: rent.currency,
    Reference: `GTO ${rent.month} ${outlet}`,
    Status: 'AUTHORISED',
  };
}

/** A correction of a posted month: the difference between the rent now due and what was invoiced, above zero. */
export interface RentAdjustment {
  /** 'invoice' when more is due than was invoiced, 'credit_note' when less. */
  readonly kind: 'invoice' | 'credit_note';
  /** The difference, in the outlet's currency, before tax. */
  readonly amount: number;
  /** From 1: the month's corrections in order. */
  readonly sequence: number;
  /** What was invoiced before it, and what is due now. */
  readonly invoiced: number;
  readonly due: number;
  /** The day it is made (YYYY-MM-DD): its date. */
  readonly date: string;
}

/**
 * A posted month's correction as one document to the tenant's contact, approved, dated the day it is made: an
 * adjustment invoice (due RENT_INVOICE_TERMS_DAYS later) or a credit note, one line 'Turnover rent adjustment
 * <Month YYYY>, <outlet>: <due> due, <invoiced> invoiced' of the difference on the sales account, and the reference
 * 'GTO <YYYY-MM> <outlet> adjustment <n>'.
 */
export function rentAdjustmentDocument(
  rent: OutletMonthRent,
  adjustment: RentAdjustment,
  accounts: InvoiceAccounts,
): { kind: 'invoice'; invoice: SalesInvoice } | { kind: 'credit_note'; creditNote: SalesCreditNote } {
  const outlet = rent.outletCode || rent.outletName;
  const amounts = `${adjustment.due.toFixed(2)} due, ${adjustment.invoiced.toFixed(2)} invoiced`;
  const common = {
    Contact: { Name: rent.outletName },
    Date: adjustment.date,
    LineAmountTypes: 'Exclusive' as const,
    LineItems: [
      {
        Description: `Turnover rent adjustment ${monthName(rent.month)}, ${outlet}: ${amounts}`,
        Quantity: 1,
        UnitAmount: cents(adjustment.amount),
        AccountCode: accounts.salesAccount,
        TaxType: accounts.taxType,
      },
    ],
    CurrencyCode: rent.currency,
    Reference: `GTO ${rent.month} ${outlet} adjustment ${adjustment.sequence}`,
    Status: 'AUTHORISED' as const,
  };
  if (adjustment.kind === 'credit_note')
    return { kind: 'credit_note', creditNote: { Type: 'ACCRECCREDIT', ...common } };
  return {
    kind: 'invoice',
    invoice: { Type: 'ACCREC', ...common, DueDate: addDays(adjustment.date, RENT_INVOICE_TERMS_DAYS) },
  };
}

/**
 * The Idempotency-Key of an outlet's month in an organisation: the same for every attempt of one generation, so an
 * invoice sent again after a lost answer or a crash is not created twice; a new generation only after Xero refused
 * the invoice. At most 128 characters, as Xero allows.
 */
export function rentInvoiceKeyOf(
  clientId: number,
  outletId: number,
  month: string,
  tenantId: string,
  generation: number,
): string {
  const tenant = createHash('sha256').update(tenantId).digest('base64url').slice(0, 16);
  return `mall-analytics-rent-${clientId}-${outletId}-${month}-${tenant}-${generation}`;
}

/** The Idempotency-Key of a month's correction `sequence`: as the invoice's, with the correction's number. */
export const rentAdjustmentKeyOf = (
  clientId: number,
  outletId: number,
  month: string,
  tenantId: string,
  sequence: number,
  generation: number,
) => `${rentInvoiceKeyOf(clientId, outletId, month, tenantId, generation)}-adjustment-${sequence}`;
