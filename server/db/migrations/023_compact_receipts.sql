-- What a receipt costs to keep, continued from migration 022.
--
-- * Line items are stored as bytes (server/receipts/lineItems.ts): per item the SKU id, the quantity, the unit
--   price and the amount in cents as variable-length integers, 6 to 9 bytes an item instead of four numeric array
--   elements of 12. receipt_line_items(items) reads them as rows, for the view receipt_items and checks.
-- * A receipt paid with one tender of its own method for its total, as most are, keeps no tender arrays:
--   payment_methods and payment_amounts are NULL and mean ARRAY[payment_method] and ARRAY[total_amount]. An empty
--   array still means a receipt given without tenders.
-- * receipts_identity keeps in its leaves only what the receipts list reads for every receipt of its window (the
--   amount, the discount and the void flag: its sort, sums and counts); the list reads the other columns of the
--   rows of its page from the table.
-- * The rollups pack their pages (fillfactor 100). The room kept on every page for updates in place stayed empty
--   once a day was over, and made every day cost nearly twice its size for good.

CREATE FUNCTION pg_temp.varint(v int8) RETURNS bytea LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  bytes bytea := '';
BEGIN
  WHILE v >= 128 LOOP
    bytes := bytes || set_byte('\x00'::bytea, 0, ((v & 127) | 128)::int);
    v := v >> 7;
  END LOOP;
  RETURN bytes || set_byte('\x00'::bytea, 0, v::int);
END
$$;

CREATE FUNCTION pg_temp.zigzag(v int8) RETURNS int8 LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT CASE WHEN v >= 0 THEN v * 2 ELSE -v * 2 - 1 END
$$;

CREATE FUNCTION pg_temp.line_item_bytes(items numeric[]) RETURNS bytea LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  bytes bytea := '';
BEGIN
  FOR k IN 1 .. coalesce(array_length(items, 1), 0) LOOP
    bytes := bytes || pg_temp.varint(items[k][1]::int8) || pg_temp.varint(pg_temp.zigzag(items[k][2]::int8))
      || pg_temp.varint(pg_temp.zigzag((items[k][3] * 100)::int8))
      || pg_temp.varint(pg_temp.zigzag((items[k][4] * 100)::int8));
  END LOOP;
  RETURN bytes;
END
$$;

-- The line items of a receipt's items bytes, in order.
CREATE FUNCTION receipt_line_items(items bytea)
RETURNS TABLE (seq smallint, sku_id integer, quantity integer, unit_price numeric(14,2), amount numeric(14,2))
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  position int := 0;
  size int := length(items);
  field int8[] := '{0,0,0,0}';
  value int8;
  shift int;
  byte int;
BEGIN
  seq := 0;
  WHILE position < size LOOP
    FOR f IN 1 .. 4 LOOP
      value := 0;
      shift := 0;
      LOOP
        byte := get_byte(items, position);
        position := position + 1;
        value := value | ((byte & 127)::int8 << shift);
        EXIT WHEN byte < 128;
        shift := shift + 7;
      END LOOP;
      -- zigzag back to signed, but the SKU id
      field[f] := CASE WHEN f = 1 THEN value ELSE (value >> 1) # (-(value & 1)) END;
    END LOOP;
    seq := seq + 1;
    sku_id := field[1];
    quantity := field[2];
    unit_price := field[3] / 100.0;
    amount := field[4] / 100.0;
    RETURN NEXT;
  END LOOP;
END
$$;

DROP VIEW receipt_items;
DROP VIEW receipt_payments;

ALTER TABLE receipts
  ALTER COLUMN items DROP DEFAULT,
  ALTER COLUMN items TYPE bytea USING pg_temp.line_item_bytes(items),
  ALTER COLUMN items SET DEFAULT '',
  ALTER COLUMN payment_methods DROP NOT NULL,
  ALTER COLUMN payment_amounts DROP NOT NULL;

UPDATE receipts SET payment_methods = NULL, payment_amounts = NULL
WHERE payment_methods = ARRAY[payment_method] AND payment_amounts = ARRAY[total_amount];

ALTER TABLE receipts ADD CONSTRAINT receipts_tenders_paired
  CHECK ((payment_methods IS NULL) = (payment_amounts IS NULL));

DROP INDEX receipts_identity;
CREATE UNIQUE INDEX receipts_identity ON receipts (client_id, outlet_id, datetime, receipt_id)
  INCLUDE (total_amount, discount, void);

CREATE VIEW receipt_payments AS
  SELECT r.client_id, r.id AS receipt_id, t.seq::smallint AS seq, t.payment_method, t.amount
  FROM receipts r
  CROSS JOIN LATERAL unnest(coalesce(r.payment_methods, ARRAY[r.payment_method]),
    coalesce(r.payment_amounts, ARRAY[r.total_amount])) WITH ORDINALITY AS t(payment_method, amount, seq);
CREATE VIEW receipt_items AS
  SELECT r.client_id, r.id AS receipt_id, i.seq, i.sku_id, i.quantity, i.unit_price, i.amount
  FROM receipts r CROSS JOIN LATERAL receipt_line_items(r.items) AS i;

ALTER TABLE rollup_outlet_daily RESET (fillfactor);
ALTER TABLE rollup_outlet_day_hours RESET (fillfactor);
ALTER TABLE rollup_mall_day_hours RESET (fillfactor);
ALTER TABLE rollup_outlet_payment_daily RESET (fillfactor);
ALTER TABLE rollup_mall_payment_day_hours RESET (fillfactor);
ALTER TABLE rollup_outlet_sku_daily RESET (fillfactor);
ALTER TABLE rollup_outlet_meal_daily RESET (fillfactor);
ALTER TABLE rollup_member_outlet_daily RESET (fillfactor);
