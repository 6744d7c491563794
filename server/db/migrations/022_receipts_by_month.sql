-- What a receipt costs to keep. Receipts are partitioned by month of their instant (UTC), so that a retention
-- setting drops an old month in one statement (DROP TABLE of its partition), and each receipt is one row:
--
-- * its tenders and line items move into it as arrays (payment_methods and payment_amounts in order; items as
--   rows of [sku_id, quantity, unit_price, amount]), instead of a row each in receipt_payments and receipt_items
--   with their own headers and primary key indexes;
-- * the printed text is kept as bytes: empty for none, else a format byte and the text, 0x00 plain UTF-8 (receipts
--   stored before this migration), 0x01 raw DEFLATE with the dictionary of server/receipts/rawText.ts (the server
--   compresses what it stores: PostgreSQL compresses only values of rows over about 2 kB, and this build has no
--   lz4);
-- * the columns are ordered so that no byte is lost to alignment (8-byte, then 4-, 2- and 1-byte, then variable).
--
-- Ids come from the sequence receipt_ids. A receipt is found by id through receipts_id (an id is unique: the
-- sequence hands each out once), and by its identity (outlet, receipt id, instant) through receipts_identity,
-- which the receipts list also reads.

ALTER TABLE receipts RENAME TO receipts_unpartitioned;
ALTER INDEX receipts_pkey RENAME TO receipts_unpartitioned_pkey;
ALTER INDEX receipts_identity RENAME TO receipts_unpartitioned_identity;

CREATE SEQUENCE receipt_ids AS bigint;
SELECT setval('receipt_ids', coalesce((SELECT max(id) FROM receipts_unpartitioned), 0) + 1, false);

CREATE TABLE receipts (
  id               bigint NOT NULL DEFAULT nextval('receipt_ids'),
  datetime         timestamptz NOT NULL,
  dine_out_time    timestamptz,
  client_id        integer NOT NULL,
  outlet_id        integer NOT NULL,
  receipt_code     smallint,
  is_member        boolean NOT NULL DEFAULT false,
  take_away        boolean NOT NULL DEFAULT false,
  opened_bill      boolean NOT NULL DEFAULT false,
  void             boolean NOT NULL DEFAULT false,
  closed_bill      boolean NOT NULL DEFAULT true,
  foc_bill         boolean NOT NULL DEFAULT false,
  redeem_bill      boolean NOT NULL DEFAULT false,
  total_amount     numeric(14,2) NOT NULL,
  discount         numeric(14,2) NOT NULL DEFAULT 0,
  voucher_amount   numeric(14,2) NOT NULL DEFAULT 0,
  refund_amount    numeric(14,2) NOT NULL DEFAULT 0,
  receipt_id       text NOT NULL,
  payment_method   text NOT NULL DEFAULT '',
  member_id        text,
  name_reason      text,
  table_no         text,
  delivery_info    text,
  foc_reason       text,
  payment_methods  text[] NOT NULL DEFAULT '{}',
  payment_amounts  numeric(14,2)[] NOT NULL DEFAULT '{}',
  items            numeric(14,2)[] NOT NULL DEFAULT '{}',
  raw_receipt      bytea NOT NULL DEFAULT ''
) PARTITION BY RANGE (datetime);
ALTER SEQUENCE receipt_ids OWNED BY receipts.id;

-- The partition of the month (UTC) that holds `day`, created when missing: ingestion asks for the months of a
-- batch before storing it. Answers the partition's name.
CREATE FUNCTION receipts_month_partition(day date) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  first date := date_trunc('month', day)::date;
  name text := format('receipts_%s', to_char(first, 'YYYY_MM'));
BEGIN
  IF to_regclass(name) IS NULL THEN
    PERFORM pg_advisory_xact_lock(hashtext('receipts_month_partition'));
    IF to_regclass(name) IS NULL THEN
      EXECUTE format(
        'CREATE TABLE %I PARTITION OF receipts FOR VALUES FROM (%L) TO (%L)',
        name,
        (first::timestamp AT TIME ZONE 'UTC'),
        ((first + interval '1 month')::timestamp AT TIME ZONE 'UTC')
      );
    END IF;
  END IF;
  RETURN name;
END
$$;

SELECT receipts_month_partition(month::date)
FROM generate_series(
  date_trunc('month', coalesce((SELECT min(datetime) FROM receipts_unpartitioned), now()) AT TIME ZONE 'UTC'),
  date_trunc('month', greatest(coalesce((SELECT max(datetime) FROM receipts_unpartitioned), now()), now()) AT TIME ZONE 'UTC'),
  interval '1 month'
) AS month;

INSERT INTO receipts (id, datetime, dine_out_time, client_id, outlet_id, receipt_code, is_member, take_away,
  opened_bill, void, closed_bill, foc_bill, redeem_bill, total_amount, discount, voucher_amount, refund_amount,
  receipt_id, payment_method, member_id, name_reason, table_no, delivery_info, foc_reason, payment_methods,
  payment_amounts, items, raw_receipt)
SELECT r.id, r.datetime, r.dine_out_time, r.client_id, r.outlet_id, r.receipt_code, r.is_member, r.take_away,
  r.opened_bill, r.void, r.closed_bill, r.foc_bill, r.redeem_bill, r.total_amount, r.discount, r.voucher_amount,
  r.refund_amount, r.receipt_id, r.payment_method, r.member_id, r.name_reason, r.table_no, r.delivery_info,
  r.foc_reason, coalesce(p.methods, '{}'), coalesce(p.amounts, '{}'), coalesce(i.items, '{}'),
  CASE WHEN r.raw_receipt = '' THEN ''::bytea ELSE '\x00'::bytea || convert_to(r.raw_receipt, 'UTF8') END
FROM receipts_unpartitioned r
LEFT JOIN (
  SELECT client_id, receipt_id, array_agg(payment_method ORDER BY seq) AS methods,
    array_agg(amount ORDER BY seq) AS amounts
  FROM receipt_payments GROUP BY client_id, receipt_id
) p ON p.client_id = r.client_id AND p.receipt_id = r.id
LEFT JOIN (
  SELECT client_id, receipt_id,
    array_agg(ARRAY[sku_id, quantity, unit_price, amount]::numeric(14,2)[] ORDER BY seq) AS items
  FROM receipt_items GROUP BY client_id, receipt_id
) i ON i.client_id = r.client_id AND i.receipt_id = r.id;

DROP TABLE receipts_unpartitioned;
DROP TABLE receipt_payments;
DROP TABLE receipt_items;

CREATE UNIQUE INDEX receipts_identity ON receipts (client_id, outlet_id, datetime, receipt_id)
  INCLUDE (id, total_amount, discount, void, opened_bill, closed_bill, foc_bill, redeem_bill, payment_method);
CREATE INDEX receipts_id ON receipts (id);

CREATE TRIGGER receipts_void_alert
  AFTER INSERT ON receipts
  FOR EACH ROW WHEN (NEW.void)
  EXECUTE FUNCTION queue_void_alert();

-- The tenders and line items as rows, for reading (ad-hoc queries, checks): views over the receipts' arrays.
CREATE VIEW receipt_payments AS
  SELECT r.client_id, r.id AS receipt_id, t.seq::smallint AS seq, t.payment_method, t.amount
  FROM receipts r
  CROSS JOIN LATERAL unnest(r.payment_methods, r.payment_amounts) WITH ORDINALITY AS t(payment_method, amount, seq);
CREATE VIEW receipt_items AS
  SELECT r.client_id, r.id AS receipt_id, k::smallint AS seq, r.items[k][1]::integer AS sku_id,
    r.items[k][2]::integer AS quantity, r.items[k][3] AS unit_price, r.items[k][4] AS amount
  FROM receipts r CROSS JOIN LATERAL generate_subscripts(r.items, 1) AS k;
