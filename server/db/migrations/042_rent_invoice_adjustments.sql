-- Issue 33: a turnover-rent invoice corrected after it was posted. When the rent due of a posted outlet month
-- changes (a tenant declares late, or corrects its declaration), the next run posts the difference once: an
-- adjustment invoice when more is due, a credit note when less. The posted invoice is never changed; what was
-- invoiced is the invoice plus the adjustment invoices less the credit notes, all posted.
--
-- rent_invoice_adjustments: one row per correction of an outlet month, numbered from 1 (sequence), decided in the
-- transaction that holds the month's rent_invoices row lock (server/jobs/rentInvoices.ts): 'posting' only inside
-- it, then 'posted' with Xero's document id and number, or 'failed' with Xero's reason (the next run decides the
-- difference again, on the same row). amount is the difference, above zero, in the outlet's currency before tax;
-- key_generation is part of the Idempotency-Key, as for the invoices.
CREATE TABLE rent_invoice_adjustments (
  client_id        integer NOT NULL,
  outlet_id        integer NOT NULL,
  month            date NOT NULL,
  sequence         integer NOT NULL CHECK (sequence >= 1),
  kind             text NOT NULL CHECK (kind IN ('invoice', 'credit_note')),
  tenant_id        text NOT NULL,
  status           text NOT NULL CHECK (status IN ('posting', 'posted', 'failed')),
  amount           numeric(16,2) NOT NULL CHECK (amount > 0),
  currency         text NOT NULL,
  document_id      text,
  document_number  text,
  message          text,
  key_generation   integer NOT NULL DEFAULT 0,
  attempts         integer NOT NULL DEFAULT 1,
  posted_at        timestamptz,
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, outlet_id, month, sequence),
  FOREIGN KEY (client_id, outlet_id, month) REFERENCES rent_invoices (client_id, outlet_id, month) ON DELETE CASCADE
);
