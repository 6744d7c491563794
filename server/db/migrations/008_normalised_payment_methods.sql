-- Payment methods are stored normalised from now on: ingestion (server/repositories/ingestion.ts) writes every
-- method through normalisePaymentMethod (src/domain/paymentMethods.ts): trimmed and upper-cased, so ' visa ' and
-- 'VISA' are one method, and an empty method or NONE becomes OTHERS. Rows written before keep the method as it was
-- captured; this migration rewrites them by the same rule (norm below is that rule in SQL, for this migration
-- only), so that filters, option lists and reports can compare stored methods as they are.
--
-- The payment rollups are keyed by method: rows whose keys meet after normalisation are merged by summing their
-- measures (amount, payments and the running totals amount_h1..amount_h24), never by breaking the primary key.
-- Processing fees are keyed by method too: of fees that meet, the highest stays (the fee the summary already
-- showed, it took the highest of the methods that matched upper-cased).

CREATE FUNCTION pg_temp.norm(method text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN upper(btrim(method)) IN ('', 'NONE') THEN 'OTHERS' ELSE upper(btrim(method)) END
$$;

UPDATE receipts SET payment_method = pg_temp.norm(payment_method)
WHERE payment_method <> pg_temp.norm(payment_method);

UPDATE receipt_payments SET payment_method = pg_temp.norm(payment_method)
WHERE payment_method <> pg_temp.norm(payment_method);

WITH moved AS (
  DELETE FROM rollup_outlet_payment_daily WHERE payment_method <> pg_temp.norm(payment_method) RETURNING *
)
INSERT INTO rollup_outlet_payment_daily AS t (client_id, outlet_id, local_day, payment_method, amount, payments,
  amount_h1, amount_h2, amount_h3, amount_h4, amount_h5, amount_h6, amount_h7, amount_h8, amount_h9, amount_h10,
  amount_h11, amount_h12, amount_h13, amount_h14, amount_h15, amount_h16, amount_h17, amount_h18, amount_h19,
  amount_h20, amount_h21, amount_h22, amount_h23, amount_h24)
SELECT client_id, outlet_id, local_day, pg_temp.norm(payment_method), sum(amount), sum(payments),
  sum(amount_h1), sum(amount_h2), sum(amount_h3), sum(amount_h4), sum(amount_h5), sum(amount_h6), sum(amount_h7),
  sum(amount_h8), sum(amount_h9), sum(amount_h10), sum(amount_h11), sum(amount_h12), sum(amount_h13),
  sum(amount_h14), sum(amount_h15), sum(amount_h16), sum(amount_h17), sum(amount_h18), sum(amount_h19),
  sum(amount_h20), sum(amount_h21), sum(amount_h22), sum(amount_h23), sum(amount_h24)
FROM moved GROUP BY client_id, outlet_id, local_day, pg_temp.norm(payment_method)
ON CONFLICT (client_id, outlet_id, local_day, payment_method) DO UPDATE SET
  amount = t.amount + excluded.amount, payments = t.payments + excluded.payments,
  amount_h1 = t.amount_h1 + excluded.amount_h1, amount_h2 = t.amount_h2 + excluded.amount_h2,
  amount_h3 = t.amount_h3 + excluded.amount_h3, amount_h4 = t.amount_h4 + excluded.amount_h4,
  amount_h5 = t.amount_h5 + excluded.amount_h5, amount_h6 = t.amount_h6 + excluded.amount_h6,
  amount_h7 = t.amount_h7 + excluded.amount_h7, amount_h8 = t.amount_h8 + excluded.amount_h8,
  amount_h9 = t.amount_h9 + excluded.amount_h9, amount_h10 = t.amount_h10 + excluded.amount_h10,
  amount_h11 = t.amount_h11 + excluded.amount_h11, amount_h12 = t.amount_h12 + excluded.amount_h12,
  amount_h13 = t.amount_h13 + excluded.amount_h13, amount_h14 = t.amount_h14 + excluded.amount_h14,
  amount_h15 = t.amount_h15 + excluded.amount_h15, amount_h16 = t.amount_h16 + excluded.amount_h16,
  amount_h17 = t.amount_h17 + excluded.amount_h17, amount_h18 = t.amount_h18 + excluded.amount_h18,
  amount_h19 = t.amount_h19 + excluded.amount_h19, amount_h20 = t.amount_h20 + excluded.amount_h20,
  amount_h21 = t.amount_h21 + excluded.amount_h21, amount_h22 = t.amount_h22 + excluded.amount_h22,
  amount_h23 = t.amount_h23 + excluded.amount_h23, amount_h24 = t.amount_h24 + excluded.amount_h24;

WITH moved AS (
  DELETE FROM rollup_mall_payment_day_hours WHERE payment_method <> pg_temp.norm(payment_method) RETURNING *
)
INSERT INTO rollup_mall_payment_day_hours AS t (client_id, mall_id, local_day, payment_method,
  amount_h1, amount_h2, amount_h3, amount_h4, amount_h5, amount_h6, amount_h7, amount_h8, amount_h9, amount_h10,
  amount_h11, amount_h12, amount_h13, amount_h14, amount_h15, amount_h16, amount_h17, amount_h18, amount_h19,
  amount_h20, amount_h21, amount_h22, amount_h23, amount_h24)
SELECT client_id, mall_id, local_day, pg_temp.norm(payment_method),
  sum(amount_h1), sum(amount_h2), sum(amount_h3), sum(amount_h4), sum(amount_h5), sum(amount_h6), sum(amount_h7),
  sum(amount_h8), sum(amount_h9), sum(amount_h10), sum(amount_h11), sum(amount_h12), sum(amount_h13),
  sum(amount_h14), sum(amount_h15), sum(amount_h16), sum(amount_h17), sum(amount_h18), sum(amount_h19),
  sum(amount_h20), sum(amount_h21), sum(amount_h22), sum(amount_h23), sum(amount_h24)
FROM moved GROUP BY client_id, mall_id, local_day, pg_temp.norm(payment_method)
ON CONFLICT (client_id, mall_id, local_day, payment_method) DO UPDATE SET
  amount_h1 = t.amount_h1 + excluded.amount_h1, amount_h2 = t.amount_h2 + excluded.amount_h2,
  amount_h3 = t.amount_h3 + excluded.amount_h3, amount_h4 = t.amount_h4 + excluded.amount_h4,
  amount_h5 = t.amount_h5 + excluded.amount_h5, amount_h6 = t.amount_h6 + excluded.amount_h6,
  amount_h7 = t.amount_h7 + excluded.amount_h7, amount_h8 = t.amount_h8 + excluded.amount_h8,
  amount_h9 = t.amount_h9 + excluded.amount_h9, amount_h10 = t.amount_h10 + excluded.amount_h10,
  amount_h11 = t.amount_h11 + excluded.amount_h11, amount_h12 = t.amount_h12 + excluded.amount_h12,
  amount_h13 = t.amount_h13 + excluded.amount_h13, amount_h14 = t.amount_h14 + excluded.amount_h14,
  amount_h15 = t.amount_h15 + excluded.amount_h15, amount_h16 = t.amount_h16 + excluded.amount_h16,
  amount_h17 = t.amount_h17 + excluded.amount_h17, amount_h18 = t.amount_h18 + excluded.amount_h18,
  amount_h19 = t.amount_h19 + excluded.amount_h19, amount_h20 = t.amount_h20 + excluded.amount_h20,
  amount_h21 = t.amount_h21 + excluded.amount_h21, amount_h22 = t.amount_h22 + excluded.amount_h22,
  amount_h23 = t.amount_h23 + excluded.amount_h23, amount_h24 = t.amount_h24 + excluded.amount_h24;

WITH moved AS (
  DELETE FROM processing_fees WHERE payment_method <> pg_temp.norm(payment_method) RETURNING *
)
INSERT INTO processing_fees AS t (client_id, outlet_id, payment_method, processing_fees)
SELECT client_id, outlet_id, pg_temp.norm(payment_method), max(processing_fees)
FROM moved GROUP BY client_id, outlet_id, pg_temp.norm(payment_method)
ON CONFLICT (client_id, outlet_id, payment_method) DO UPDATE SET
  processing_fees = greatest(t.processing_fees, excluded.processing_fees);

DROP FUNCTION pg_temp.norm(text);
