-- The paged receipts list (GET /outlets/transaction) reads one outlet's window of receipts, sorts it by a
-- whitelisted column and sums it. With the sort and filter columns in the index the window is read by an
-- index-only scan (no heap visit per receipt): the count and sums, the amount sort and deep pages stay within a
-- few milliseconds at tens of thousands of receipts a month per outlet. Same key as receipts_outlet_time, which it
-- replaces (range scans on (client_id, outlet_id, datetime) use it just the same).
CREATE INDEX receipts_outlet_time_list ON receipts (client_id, outlet_id, datetime)
  INCLUDE (id, total_amount, discount, void, opened_bill, closed_bill, foc_bill, redeem_bill, payment_method, receipt_id);
DROP INDEX receipts_outlet_time;
