-- The outlet reports of line items and meal timings (the sales analysis page) read three more rollups, kept by
-- the one ingestion path in the receipts' transaction (server/repositories/ingestion.ts):
--
-- units_h<k> on rollup_outlet_day_hours: units sold (the quantities of the line items of receipts that are not
--   void) as running totals over the local hours of the day, like gmv_h<k> and transactions_h<k> (migration 006);
-- rollup_outlet_sku_daily: quantity and amount (cents) per outlet, local day and SKU, over receipts that are not
--   void: top SKUs and item breakdowns over any range of days read one row per day and SKU sold;
-- rollup_outlet_meal_daily: revenue (cents) and transactions per outlet, local day and meal timing, over receipts
--   that are not void whose local time of day is in [start_time, end_time) of the timing. Meal timings are set
--   to the minute, which no hour rollup can split, so each receipt is counted in its timing when it is stored;
--   a timing that is added or retimed is counted again from the outlet's receipts in the settings transaction
--   that changes it (server/repositories/settings.ts), and a removed one's rows are deleted with it there (no
--   foreign key: its check would cost every row a batch writes).
--
-- Like the other rollups (migration 006) their pages keep room for updates in place (fillfactor 60): a batch adds
-- to the rows of its days, and an update that stays on its page touches no index.

ALTER TABLE rollup_outlet_day_hours
  ADD COLUMN units_h1 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h2 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h3 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h4 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h5 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h6 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h7 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h8 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h9 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h10 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h11 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h12 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h13 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h14 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h15 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h16 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h17 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h18 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h19 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h20 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h21 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h22 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h23 int8 NOT NULL DEFAULT 0,
  ADD COLUMN units_h24 int8 NOT NULL DEFAULT 0;

CREATE TABLE rollup_outlet_sku_daily (
  client_id  integer NOT NULL,
  outlet_id  integer NOT NULL,
  local_day  date NOT NULL,
  sku_id     integer NOT NULL,
  quantity   int8 NOT NULL DEFAULT 0,
  amount     int8 NOT NULL DEFAULT 0,
  PRIMARY KEY (client_id, outlet_id, local_day, sku_id)
) WITH (fillfactor = 60);

CREATE TABLE rollup_outlet_meal_daily (
  client_id       integer NOT NULL,
  outlet_id       integer NOT NULL,
  local_day       date NOT NULL,
  meal_timing_id  integer NOT NULL,
  revenue         int8 NOT NULL DEFAULT 0,
  transactions    int8 NOT NULL DEFAULT 0,
  PRIMARY KEY (client_id, outlet_id, local_day, meal_timing_id)
) WITH (fillfactor = 60);

-- The receipts stored before: the same figures from scratch.
CREATE TEMPORARY TABLE local_items ON COMMIT DROP AS
  SELECT r.client_id, r.outlet_id, (r.datetime AT TIME ZONE m.time_zone)::date AS local_day,
    date_part('hour', r.datetime AT TIME ZONE m.time_zone)::int AS hr, i.sku_id, i.quantity, i.amount
  FROM receipts r
  JOIN outlets o ON o.client_id = r.client_id AND o.id = r.outlet_id
  JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
  JOIN receipt_items i ON i.client_id = r.client_id AND i.receipt_id = r.id
  WHERE NOT r.void;

UPDATE rollup_outlet_day_hours t SET
  units_h1 = d.units_h1,
  units_h2 = d.units_h2,
  units_h3 = d.units_h3,
  units_h4 = d.units_h4,
  units_h5 = d.units_h5,
  units_h6 = d.units_h6,
  units_h7 = d.units_h7,
  units_h8 = d.units_h8,
  units_h9 = d.units_h9,
  units_h10 = d.units_h10,
  units_h11 = d.units_h11,
  units_h12 = d.units_h12,
  units_h13 = d.units_h13,
  units_h14 = d.units_h14,
  units_h15 = d.units_h15,
  units_h16 = d.units_h16,
  units_h17 = d.units_h17,
  units_h18 = d.units_h18,
  units_h19 = d.units_h19,
  units_h20 = d.units_h20,
  units_h21 = d.units_h21,
  units_h22 = d.units_h22,
  units_h23 = d.units_h23,
  units_h24 = d.units_h24
FROM (
  SELECT client_id, outlet_id, local_day,
    coalesce(sum(quantity) FILTER (WHERE hr < 1), 0)::int8 AS units_h1,
    coalesce(sum(quantity) FILTER (WHERE hr < 2), 0)::int8 AS units_h2,
    coalesce(sum(quantity) FILTER (WHERE hr < 3), 0)::int8 AS units_h3,
    coalesce(sum(quantity) FILTER (WHERE hr < 4), 0)::int8 AS units_h4,
    coalesce(sum(quantity) FILTER (WHERE hr < 5), 0)::int8 AS units_h5,
    coalesce(sum(quantity) FILTER (WHERE hr < 6), 0)::int8 AS units_h6,
    coalesce(sum(quantity) FILTER (WHERE hr < 7), 0)::int8 AS units_h7,
    coalesce(sum(quantity) FILTER (WHERE hr < 8), 0)::int8 AS units_h8,
    coalesce(sum(quantity) FILTER (WHERE hr < 9), 0)::int8 AS units_h9,
    coalesce(sum(quantity) FILTER (WHERE hr < 10), 0)::int8 AS units_h10,
    coalesce(sum(quantity) FILTER (WHERE hr < 11), 0)::int8 AS units_h11,
    coalesce(sum(quantity) FILTER (WHERE hr < 12), 0)::int8 AS units_h12,
    coalesce(sum(quantity) FILTER (WHERE hr < 13), 0)::int8 AS units_h13,
    coalesce(sum(quantity) FILTER (WHERE hr < 14), 0)::int8 AS units_h14,
    coalesce(sum(quantity) FILTER (WHERE hr < 15), 0)::int8 AS units_h15,
    coalesce(sum(quantity) FILTER (WHERE hr < 16), 0)::int8 AS units_h16,
    coalesce(sum(quantity) FILTER (WHERE hr < 17), 0)::int8 AS units_h17,
    coalesce(sum(quantity) FILTER (WHERE hr < 18), 0)::int8 AS units_h18,
    coalesce(sum(quantity) FILTER (WHERE hr < 19), 0)::int8 AS units_h19,
    coalesce(sum(quantity) FILTER (WHERE hr < 20), 0)::int8 AS units_h20,
    coalesce(sum(quantity) FILTER (WHERE hr < 21), 0)::int8 AS units_h21,
    coalesce(sum(quantity) FILTER (WHERE hr < 22), 0)::int8 AS units_h22,
    coalesce(sum(quantity) FILTER (WHERE hr < 23), 0)::int8 AS units_h23,
    coalesce(sum(quantity) FILTER (WHERE hr < 24), 0)::int8 AS units_h24
  FROM local_items GROUP BY 1, 2, 3
) d
WHERE t.client_id = d.client_id AND t.outlet_id = d.outlet_id AND t.local_day = d.local_day;

INSERT INTO rollup_outlet_sku_daily (client_id, outlet_id, local_day, sku_id, quantity, amount)
SELECT client_id, outlet_id, local_day, sku_id, sum(quantity), sum((amount * 100)::int8)
FROM local_items GROUP BY 1, 2, 3, 4;

INSERT INTO rollup_outlet_meal_daily (client_id, outlet_id, local_day, meal_timing_id, revenue, transactions)
SELECT r.client_id, r.outlet_id, (r.datetime AT TIME ZONE m.time_zone)::date, t.id,
  sum((r.total_amount * 100)::int8), count(*)
FROM receipts r
JOIN outlets o ON o.client_id = r.client_id AND o.id = r.outlet_id
JOIN malls m ON m.client_id = o.client_id AND m.id = o.mall_id
JOIN meal_timings t ON t.client_id = r.client_id AND t.outlet_id = r.outlet_id
  AND (r.datetime AT TIME ZONE m.time_zone)::time >= t.start_time
  AND (r.datetime AT TIME ZONE m.time_zone)::time < t.end_time
WHERE NOT r.void
GROUP BY 1, 2, 3, 4;
