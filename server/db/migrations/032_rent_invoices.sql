-- Issue 33: each outlet's monthly turnover-rent invoice, posted to the client's Xero organisation once.
--
-- rent_invoices: one row per client, outlet and month (its first day), written in the transaction that decides it
-- (server/jobs/rentInvoices.ts), as xero_postings is for the daily journals: 'posting' only inside that
-- transaction (the row lock keeps a second run waiting, and it then finds the month posted), then 'posted' with
-- Xero's InvoiceID and InvoiceNumber (the rent statements show the number), 'failed' with Xero's reason (the next
-- run tries again) or 'skipped' with why (no turnover rent due, or the outlet's currency is not one the
-- organisation invoices in; decided again by the next run). lease_id is the lease the outlet's month is invoiced
-- under (the latest, when two cover the month; no foreign key: the record of what Xero was sent outlives a lease
-- row); amount the turnover rent due (on the declared GTO, else on the captured sales) in the outlet's currency;
-- tenant_id the Xero organisation. key_generation is part of the Idempotency-Key sent to Xero: the same key again
-- after an answer that may have created the invoice (a timeout, a crash), a new one only after Xero refused it.
CREATE TABLE rent_invoices (
  client_id        integer NOT NULL,
  outlet_id        integer NOT NULL,
  month            date NOT NULL CHECK (extract(day FROM month) = 1),
  lease_id         integer NOT NULL,
  tenant_id        text NOT NULL,
  status           text NOT NULL CHECK (status IN ('posting', 'posted', 'failed', 'skipped')),
  amount           numeric(16,2) NOT NULL,
  currency         text NOT NULL,
  invoice_id       text,
  invoice_number   text,
  message          text,
  key_generation   integer NOT NULL DEFAULT 0,
  attempts         integer NOT NULL DEFAULT 1,
  posted_at        timestamptz,
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, outlet_id, month),
  FOREIGN KEY (client_id, outlet_id) REFERENCES outlets (client_id, id) ON DELETE CASCADE
);

-- Whoever reads the rent statements may post a month's invoices now (the roles of an install; the demo roles take
-- it from the contract's 'leases' tag).
INSERT INTO role_api_permissions (role_id, permission)
SELECT DISTINCT r.role_id, '/api/rentStatements/invoices::Create'
FROM role_api_permissions r
WHERE r.permission = '/api/rentStatements::Read'
ON CONFLICT DO NOTHING;
