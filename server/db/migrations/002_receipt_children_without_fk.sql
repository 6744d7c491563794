-- receipt_payments and receipt_items are written only by the ingestion path
-- (server/repositories/ingestion.ts), in the same statement as their receipt, with receipt ids taken from
-- the receipts identity sequence. The per-row foreign-key checks on these two tables (a lookup and a row lock
-- on receipts for every payment and item) took about a third of ingestion time, so they go: integrity is the
-- ingestion path's job, as it is for the rollups. Deleting receipts (nothing does today) must delete their
-- payments and items too, and take their figures out of the rollups.
ALTER TABLE receipt_payments DROP CONSTRAINT receipt_payments_client_id_receipt_id_fkey;
ALTER TABLE receipt_items DROP CONSTRAINT receipt_items_client_id_receipt_id_fkey;
