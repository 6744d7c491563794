-- What an outlet's local day may hold (issue 29). A device once stored 201 receipts of 50 payments of
-- 9,999,999,999 each: the payment rollup (numeric(16,2)) overflowed, and every later batch with that day's method
-- answered 500. Ingestion now refuses the one receipt that would take a rollup row past its bound
-- (server/repositories/ingestion.ts, DAY_BOUNDS) and stores the rest of its batch. Each bound is on a sum of
-- absolute values, kept here beside the row it bounds, so that every signed figure derived from it (gmv, member,
-- void and meal revenue, member spend, the hour totals, the mall rows) is bounded too:
-- - rollup_outlet_daily: total_amount, discount, voucher_amount and refund_amount over all the day's receipts,
--   void ones included (the receipts themselves are counted by transactions + void_count);
-- - rollup_outlet_payment_daily: the tenders of the method over the day's receipts that are not void;
-- - rollup_outlet_sku_daily: the line items of the SKU over the day's receipts that are not void.
-- Unbounded numeric: sums of receipts stored before the bounds can never fail here, they only refuse more.
ALTER TABLE rollup_outlet_daily
  ADD COLUMN total_volume numeric NOT NULL DEFAULT 0,
  ADD COLUMN discount_volume numeric NOT NULL DEFAULT 0,
  ADD COLUMN voucher_volume numeric NOT NULL DEFAULT 0,
  ADD COLUMN refund_volume numeric NOT NULL DEFAULT 0;
ALTER TABLE rollup_outlet_payment_daily ADD COLUMN volume numeric NOT NULL DEFAULT 0;
ALTER TABLE rollup_outlet_sku_daily ADD COLUMN volume numeric NOT NULL DEFAULT 0;

-- The receipts stored before: every row these sums belong to exists already.
CREATE TEMPORARY TABLE local_receipts ON COMMIT DROP AS
  SELECT r.client_id, r.outlet_id, (r.datetime AT TIME ZONE m.time_zone)::date AS local_day, r.void, r.total_amount,
    r.discount, r.voucher_amount, r.refund_amount, r.payment_method, r.payment_methods, r.payment_amounts, r.items
  FROM receipts r
  JOIN outlets o ON o.client_id = r.client_id AND o.id = r.outlet_id
  JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id;

UPDATE rollup_outlet_daily d SET total_volume = v.total_volume, discount_volume = v.discount_volume,
  voucher_volume = v.voucher_volume, refund_volume = v.refund_volume
FROM (
  SELECT client_id, outlet_id, local_day, sum(abs(total_amount)) AS total_volume, sum(abs(discount)) AS discount_volume,
    sum(abs(voucher_amount)) AS voucher_volume, sum(abs(refund_amount)) AS refund_volume
  FROM local_receipts GROUP BY 1, 2, 3
) v
WHERE d.client_id = v.client_id AND d.outlet_id = v.outlet_id AND d.local_day = v.local_day;

UPDATE rollup_outlet_payment_daily d SET volume = v.volume
FROM (
  SELECT r.client_id, r.outlet_id, r.local_day, t.payment_method, sum(abs(t.amount)) AS volume
  FROM local_receipts r
  CROSS JOIN LATERAL unnest(coalesce(r.payment_methods, ARRAY[r.payment_method]),
    coalesce(r.payment_amounts, ARRAY[r.total_amount])) AS t(payment_method, amount)
  WHERE NOT r.void
  GROUP BY 1, 2, 3, 4
) v
WHERE d.client_id = v.client_id AND d.outlet_id = v.outlet_id AND d.local_day = v.local_day
  AND d.payment_method = v.payment_method;

UPDATE rollup_outlet_sku_daily d SET volume = v.volume
FROM (
  SELECT r.client_id, r.outlet_id, r.local_day, i.sku_id, sum(abs(i.amount)) AS volume
  FROM local_receipts r CROSS JOIN LATERAL receipt_line_items(r.items) AS i
  WHERE NOT r.void
  GROUP BY 1, 2, 3, 4
) v
WHERE d.client_id = v.client_id AND d.outlet_id = v.outlet_id AND d.local_day = v.local_day AND d.sku_id = v.sku_id;
