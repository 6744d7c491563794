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

/** A posted month as the corrections see it: what was invoiced in all, and the correction left to post, if any. */
export interface PostedRentMonth {
  /** The organisation the invoice went to: corrections go there too. */
  tenantId: string;
  currency: string;
  /** The invoice plus the posted adjustment invoices less the posted credit notes. */
  invoiced: number;
  /** The next correction's number. */
  nextSequence: number;
  /** A correction that failed: decided again on its own row. */
  pending: { sequence: number; kind: 'invoice' | 'credit_note'; amount: number } | undefined;
}

/**
 * The posted month `key`, read in the caller's transaction after claimRentInvoice found it posted (and so holds its
 * row lock): undefined when it is not posted.
 */
export async function postedRentMonth(db: Queryable, key: RentInvoiceKey): Promise<PostedRentMonth | undefined> {
  const { rows } = await db.query<PostedRentMonth & { pending: PostedRentMonth['pending'] | null }>(
    `SELECT i.tenant_id AS "tenantId", i.currency,
       (i.amount + coalesce(sum(CASE a.kind WHEN 'invoice' THEN a.amount ELSE -a.amount END)
          FILTER (WHERE a.status = 'posted'), 0))::float8 AS invoiced,
       coalesce(max(a.sequence), 0) + 1 AS "nextSequence",
       (SELECT jsonb_build_object('sequence', p.sequence, 'kind', p.kind, 'amount', p.amount::float8)
        FROM rent_invoice_adjustments p
        WHERE p.client_id = i.client_id AND p.outlet_id = i.outlet_id AND p.month = i.month AND p.status <> 'posted'
        ORDER BY p.sequence DESC LIMIT 1) AS pending
     FROM rent_invoices i
     LEFT JOIN rent_invoice_adjustments a ON a.client_id = i.client_id AND a.outlet_id = i.outlet_id AND a.month = i.month
     WHERE i.client_id = $1 AND i.outlet_id = $2 AND i.month = ($3 || '-01')::date AND i.status = 'posted'
     GROUP BY i.client_id, i.outlet_id, i.month, i.tenant_id, i.currency, i.amount`,
    [key.clientId, key.outletId, key.month],
  );
  const row = rows[0];
  return row ? { ...row, pending: row.pending ?? undefined } : undefined;
}

/**
 * Claims a posted month's correction `sequence` ('posting' until the transaction ends), a new row or the failed one
 * decided again; answers the key generation to send: a new one when the failed row's document changes (another
 * kind or amount), since Xero would answer the old document to the old key.
 */
export async function claimRentAdjustment(
  db: Queryable,
  adjustment: RentInvoiceKey & {
    sequence: number;
    kind: 'invoice' | 'credit_note';
    amount: number;
    tenantId: string;
    currency: string;
  },
): Promise<number> {
  const { rows } = await db.query<{ generation: number }>(
    `INSERT INTO rent_invoice_adjustments AS a
       (client_id, outlet_id, month, sequence, kind, tenant_id, status, amount, currency)
     VALUES ($1, $2, ($3 || '-01')::date, $4, $5, $6, 'posting', round($7::numeric, 2), $8)
     ON CONFLICT (client_id, outlet_id, month, sequence) DO UPDATE SET
       status = 'posting', tenant_id = excluded.tenant_id, currency = excluded.currency,
       key_generation = a.key_generation + CASE WHEN a.kind = excluded.kind AND a.amount = excluded.amount THEN 0 ELSE 1 END,
       kind = excluded.kind, amount = excluded.amount, attempts = a.attempts + 1, updated_at = now()
     RETURNING key_generation AS generation`,
    [
      adjustment.clientId,
      adjustment.outletId,
      adjustment.month,
      adjustment.sequence,
      adjustment.kind,
      adjustment.tenantId,
      adjustment.amount,
      adjustment.currency,
    ],
  );
  return rows[0]?.generation ?? 0;
}

/** How a claimed correction ended: posted with Xero's document, or failed (the next run decides it again). */
export type RentAdjustmentOutcome =
  | { status: 'posted'; invoiceId: string; invoiceNumber: string }
  | { status: 'failed'; message: string; newKey: boolean };

export async function finishRentAdjustment(
  db: Queryable,
  key: RentInvoiceKey & { sequence: number },
  outcome: RentAdjustmentOutcome,
) {
  const posted = outcome.status === 'posted';
  await db.query(
    `UPDATE rent_invoice_adjustments SET status = $5, document_id = $6, document_number = $7, message = $8,
       key_generation = key_generation + $9, posted_at = CASE WHEN $5 = 'posted' THEN now() END, updated_at = now()
     WHERE client_id = $1 AND outlet_id = $2 AND month = ($3 || '-01')::date AND sequence = $4`,
    [
      key.clientId,
      key.outletId,
      key.month,
      key.sequence,
      outcome.status,
      posted ? outcome.invoiceId : null,
      posted ? outcome.invoiceNumber : null,
      posted ? null : outcome.message,
      outcome.status === 'failed' && outcome.newKey ? 1 : 0,
    ],
  );
}

/**
 * The numbers of an outlet month's posted documents as SQL (the invoice, then its corrections in order, joined by
 * ', '), for the statements; NULL until the invoice is posted. The arguments are SQL expressions.
 */
export const rentDocumentNumbersSql = (client: string, outlet: string, month: string) =>
  `(SELECT concat_ws(', ', i.invoice_number, (
       SELECT string_agg(a.document_number, ', ' ORDER BY a.sequence) FROM rent_invoice_adjustments a
       WHERE a.client_id = i.client_id AND a.outlet_id = i.outlet_id AND a.month = i.month AND a.status = 'posted'))
     FROM rent_invoices i
     WHERE i.client_id = ${client} AND i.outlet_id = ${outlet} AND i.month = ${month} AND i.status = 'posted')`;

export type RentInvoice = components['schemas']['RentInvoice'];

/** The month's decided rows of the client (rows still being decided are not shown), by outlet name. */
export async function monthRentInvoices(db: Queryable, clientId: number, month: string): Promise<RentInvoice[]> {
  const { rows } = await db.query<RentInvoice>(
    `SELECT to_char(i.month, 'YYYY-MM') AS month, i.outlet_id, o.name AS outlet_name, i.lease_id, i.currency,
       i.amount::float8 AS amount, i.status, i.invoice_id, i.invoice_number, i.message,
       to_char(i.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at,
       coalesce((
         SELECT jsonb_agg(jsonb_build_object('sequence', a.sequence, 'kind', a.kind, 'amount', a.amount::float8,
           'status', a.status, 'number', a.document_number, 'message', a.message) ORDER BY a.sequence)
         FROM rent_invoice_adjustments a
         WHERE a.client_id = i.client_id AND a.outlet_id = i.outlet_id AND a.month = i.month AND a.status <> 'posting'
       ), '[]'::jsonb) AS adjustments
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
