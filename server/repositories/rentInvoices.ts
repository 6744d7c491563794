import type { components } from '../../src/api/schema.js';
import type { Queryable } from '../db/pool.js';

/** The SQL of the turnover-rent invoices (rent_invoices, migration 032): the claim, the outcome and the month's log. */

export interface RentInvoiceKey {
  clientId: number;
  outletId: number;
  /** YYYY-MM. */
  month: string;
}

/**
 * Decides an outlet's month, in the caller's transaction: claims its row ('posting', locked until the transaction
 * ends) unless it is posted. A second run waits on the lock, then finds it posted and gets undefined. Answers the
 * key generation to send.
 */
export async function claimRentInvoice(
  db: Queryable,
  invoice: RentInvoiceKey & { leaseId: number; tenantId: string; amount: number; currency: string },
): Promise<{ generation: number } | undefined> {
  const { rows } = await db.query<{ generation: number }>(
    `INSERT INTO rent_invoices AS i (client_id, outlet_id, month, lease_id, tenant_id, status, amount, currency)
     VALUES ($1, $2, ($3 || '-01')::date, $4, $5, 'posting', round($6::numeric, 2), $7)
     ON CONFLICT (client_id, outlet_id, month) DO UPDATE SET
       status = 'posting', lease_id = excluded.lease_id, tenant_id = excluded.tenant_id, amount = excluded.amount,
       currency = excluded.currency, attempts = i.attempts + 1, updated_at = now()
     WHERE i.status <> 'posted'
     RETURNING key_generation AS generation`,
    [
      invoice.clientId,
      invoice.outletId,
      invoice.month,
      invoice.leaseId,
      invoice.tenantId,
      invoice.amount,
      invoice.currency,
    ],
  );
  return rows[0];
}

/** How a claimed month ended: posted with Xero's invoice, failed (the next run tries again), or skipped with why. */
export type RentInvoiceOutcome =
  | { status: 'posted'; invoiceId: string; invoiceNumber: string }
  | { status: 'failed'; message: string; newKey: boolean }
  | { status: 'skipped'; message: string };

export async function finishRentInvoice(db: Queryable, key: RentInvoiceKey, outcome: RentInvoiceOutcome) {
  const posted = outcome.status === 'posted';
  await db.query(
    `UPDATE rent_invoices SET status = $4, invoice_id = $5, invoice_number = $6, message = $7,
       key_generation = key_generation + $8, posted_at = CASE WHEN $4 = 'posted' THEN now() END, updated_at = now()
     WHERE client_id = $1 AND outlet_id = $2 AND month = ($3 || '-01')::date`,
    [
      key.clientId,
      key.outletId,
      key.month,
      outcome.status,
      posted ? outcome.invoiceId : null,
      posted ? outcome.invoiceNumber : null,
      posted ? null : outcome.message,
      outcome.status === 'failed' && outcome.newKey ? 1 : 0,
    ],
  );
}

export type RentInvoice = components['schemas']['RentInvoice'];

/** The month's decided rows of the client (rows still being decided are not shown), by outlet name. */
export async function monthRentInvoices(db: Queryable, clientId: number, month: string): Promise<RentInvoice[]> {
  const { rows } = await db.query<RentInvoice>(
    `SELECT to_char(i.month, 'YYYY-MM') AS month, i.outlet_id, o.name AS outlet_name, i.lease_id, i.currency,
       i.amount::float8 AS amount, i.status, i.invoice_id, i.invoice_number, i.message,
       to_char(i.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at
     FROM rent_invoices i JOIN outlets o ON o.client_id = i.client_id AND o.id = i.outlet_id
     WHERE i.client_id = $1 AND i.month = ($2 || '-01')::date AND i.status <> 'posting'
     ORDER BY lower(o.name), i.outlet_id`,
    [clientId, month],
  );
  return rows;
}

/**
 * The clients whose Xero connection works and has its sales account and tax rate chosen, with the earliest local
 * today among their malls and their GTO due day: the monthly run's candidates.
 */
export async function rentInvoiceClients(
  db: Queryable,
): Promise<{ clientId: number; today: string; dueDay: number }[]> {
  const { rows } = await db.query<{ clientId: number; today: string; dueDay: number }>(
    `SELECT x.client_id AS "clientId", t.today, c.gto_due_day AS "dueDay"
     FROM xero_connections x
     JOIN clients c ON c.id = x.client_id
     CROSS JOIN LATERAL (
       SELECT min((now() AT TIME ZONE m.time_zone)::date)::text AS today FROM malls m WHERE m.client_id = x.client_id
     ) t
     WHERE x.refresh_failed_at IS NULL AND x.sales_account IS NOT NULL AND x.tax_type IS NOT NULL
       AND t.today IS NOT NULL
     ORDER BY x.client_id`,
  );
  return rows;
}
