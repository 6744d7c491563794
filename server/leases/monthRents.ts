import { leaseDaysInMonth, type MonthRent, monthRent } from '../../src/domain/leases.js';
import type { RentInputRow } from '../repositories/leases.js';

/**
 * The month's rent of one lease, on each of the sales it is computed on (the rule of src/domain/leases.ts); `due` is
 * the rent due, which the statements show and the turnover-rent invoices post (server/jobs/rentInvoices.ts).
 */
export function rentsOf(input: RentInputRow, month: string) {
  const { lease } = input;
  const { days, daysInMonth } = leaseDaysInMonth(lease.start_date, lease.end_date, month);
  const on = (sales: number): MonthRent =>
    monthRent({ terms: lease, sales, days, daysInMonth, gstPercent: lease.gst_percent });
  const captured = on(input.sales_captured);
  const declared = input.sales_declared === null ? undefined : on(input.sales_declared);
  const projected = input.sales_projected === null ? undefined : on(input.sales_projected);
  return {
    days,
    daysInMonth,
    captured,
    declared,
    projected,
    due: declared ?? captured,
    // The month is not over in the mall's time zone.
    partial: input.today.slice(0, 7) <= month,
  };
}
