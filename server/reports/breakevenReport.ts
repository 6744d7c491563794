import type { components } from '../../src/api/schema.js';
import type { Department } from '../../src/domain/breakeven.js';
import type { Queryable } from '../db/pool.js';
import { type BreakevenRow, breakevenRows } from '../repositories/breakeven.js';
import type { Visibility } from '../repositories/lookup.js';

/**
 * A department's breakeven targets of a month as GET /api/mall_report/breakeven_target answers them: the outlets'
 * rows (repositories/breakeven.ts) and one total per currency (amounts of different currencies are never added).
 * The route and the page's workbook (server/exports/breakevenWorkbook.ts) share it, so the workbook's cells are the
 * page's figures.
 */

export type BreakevenReport = components['schemas']['BreakevenReport'];

export interface BreakevenQuery {
  client_id: number;
  mall_ids: readonly number[];
  /** 'YYYY-MM'. */
  month: string;
  department: Department;
  include_gst: boolean;
}

function totalsOf(rows: readonly BreakevenRow[]): BreakevenReport['totals'] {
  const totals = new Map<string, { gto: number; target: number; targeted: number; outlets: number }>();
  for (const row of rows) {
    const total = totals.get(row.currency) ?? { gto: 0, target: 0, targeted: 0, outlets: 0 };
    total.gto += row.gto;
    total.outlets += 1;
    if (row.breakeven_target !== null) {
      total.target += row.breakeven_target;
      total.targeted += row.gto;
    }
    totals.set(row.currency, total);
  }
  const cents = (value: number) => Math.round(value * 100) / 100;
  return [...totals.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, total]) => ({
      currency,
      gto: cents(total.gto),
      breakeven_target: cents(total.target),
      difference: cents(total.targeted - total.target),
      progress: total.target > 0 ? (total.targeted / total.target) * 100 : null,
      outlets: total.outlets,
    }));
}

/** The month's rows of the malls the caller sees (`visibility`), with their totals. */
export async function breakevenReport(
  db: Queryable,
  visibility: Visibility,
  query: BreakevenQuery,
): Promise<BreakevenReport> {
  const { rows, monthOpen } = await breakevenRows(
    db,
    { clientId: query.client_id, mallIds: [...new Set(query.mall_ids)], visibility },
    { month: `${query.month}-01`, department: query.department, includeGst: query.include_gst },
  );
  return { data: rows, month: query.month, month_open: monthOpen, totals: totalsOf(rows) };
}
