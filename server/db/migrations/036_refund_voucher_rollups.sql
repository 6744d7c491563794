-- Issues 31 and 32: the refund and voucher reports compare a range with the days before it, per day and per outlet.
-- From rollup_outlet_daily they read every outlet's day twice; these two rollups of its amounts answer the days by
-- mall (rollup_mall_daily: one row a mall and day) and the outlets by month (rollup_outlet_monthly: one row an
-- outlet and calendar month, dated its first day). Kept in step by statement triggers on rollup_outlet_daily (with
-- transition tables), whoever writes it, in the same transaction; rollupMismatches checks both against the receipts.
CREATE TABLE rollup_mall_daily (
  client_id       integer NOT NULL,
  mall_id         integer NOT NULL,
  local_day       date NOT NULL,
  gmv             numeric(18,2) NOT NULL DEFAULT 0,
  transactions    bigint NOT NULL DEFAULT 0,
  refund_amount   numeric(18,2) NOT NULL DEFAULT 0,
  refund_count    bigint NOT NULL DEFAULT 0,
  voucher_amount  numeric(18,2) NOT NULL DEFAULT 0,
  voucher_count   bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (client_id, mall_id, local_day)
);

CREATE TABLE rollup_outlet_monthly (
  client_id       integer NOT NULL,
  outlet_id       integer NOT NULL,
  month           date NOT NULL CHECK (extract(day FROM month) = 1),
  gmv             numeric(18,2) NOT NULL DEFAULT 0,
  transactions    bigint NOT NULL DEFAULT 0,
  refund_amount   numeric(18,2) NOT NULL DEFAULT 0,
  refund_count    bigint NOT NULL DEFAULT 0,
  voucher_amount  numeric(18,2) NOT NULL DEFAULT 0,
  voucher_count   bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (client_id, outlet_id, month)
);

INSERT INTO rollup_mall_daily
SELECT d.client_id, o.mall_id, d.local_day, sum(d.gmv), sum(d.transactions), sum(d.refund_amount),
  sum(d.refund_count), sum(d.voucher_amount), sum(d.voucher_count)
FROM rollup_outlet_daily d JOIN outlets o ON o.client_id = d.client_id AND o.id = d.outlet_id
GROUP BY 1, 2, 3;

INSERT INTO rollup_outlet_monthly
SELECT client_id, outlet_id, date_trunc('month', local_day)::date, sum(gmv), sum(transactions), sum(refund_amount),
  sum(refund_count), sum(voucher_amount), sum(voucher_count)
FROM rollup_outlet_daily GROUP BY 1, 2, 3;

-- Each statement's change (its new rows less its old ones) added to both, in key order (ORDER BY), so that two
-- transactions adding to the same rows lock them in the same order.
CREATE FUNCTION rollup_outlet_daily_amounts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH changes AS (SELECT client_id, outlet_id, local_day, gmv, transactions, refund_amount, refund_count, voucher_amount, voucher_count FROM new_rows),
    months AS (
      INSERT INTO rollup_outlet_monthly AS t (client_id, outlet_id, month, gmv, transactions, refund_amount, refund_count, voucher_amount, voucher_count)
      SELECT c.client_id, c.outlet_id, date_trunc('month', c.local_day)::date, sum(c.gmv), sum(c.transactions), sum(c.refund_amount), sum(c.refund_count), sum(c.voucher_amount), sum(c.voucher_count)
      FROM changes c GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (client_id, outlet_id, month) DO UPDATE SET
        gmv = t.gmv + excluded.gmv,
        transactions = t.transactions + excluded.transactions,
        refund_amount = t.refund_amount + excluded.refund_amount,
        refund_count = t.refund_count + excluded.refund_count,
        voucher_amount = t.voucher_amount + excluded.voucher_amount,
        voucher_count = t.voucher_count + excluded.voucher_count
    )
    INSERT INTO rollup_mall_daily AS t (client_id, mall_id, local_day, gmv, transactions, refund_amount, refund_count, voucher_amount, voucher_count)
    SELECT c.client_id, o.mall_id, c.local_day, sum(c.gmv), sum(c.transactions), sum(c.refund_amount), sum(c.refund_count), sum(c.voucher_amount), sum(c.voucher_count)
    FROM changes c JOIN outlets o ON o.client_id = c.client_id AND o.id = c.outlet_id
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (client_id, mall_id, local_day) DO UPDATE SET
      gmv = t.gmv + excluded.gmv,
      transactions = t.transactions + excluded.transactions,
      refund_amount = t.refund_amount + excluded.refund_amount,
      refund_count = t.refund_count + excluded.refund_count,
      voucher_amount = t.voucher_amount + excluded.voucher_amount,
      voucher_count = t.voucher_count + excluded.voucher_count;
  ELSIF TG_OP = 'UPDATE' THEN
    WITH changes AS (SELECT client_id, outlet_id, local_day, gmv, transactions, refund_amount, refund_count, voucher_amount, voucher_count FROM new_rows UNION ALL SELECT client_id, outlet_id, local_day, -gmv, -transactions, -refund_amount, -refund_count, -voucher_amount, -voucher_count FROM old_rows),
    months AS (
      INSERT INTO rollup_outlet_monthly AS t (client_id, outlet_id, month, gmv, transactions, refund_amount, refund_count, voucher_amount, voucher_count)
      SELECT c.client_id, c.outlet_id, date_trunc('month', c.local_day)::date, sum(c.gmv), sum(c.transactions), sum(c.refund_amount), sum(c.refund_count), sum(c.voucher_amount), sum(c.voucher_count)
      FROM changes c GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (client_id, outlet_id, month) DO UPDATE SET
        gmv = t.gmv + excluded.gmv,
        transactions = t.transactions + excluded.transactions,
        refund_amount = t.refund_amount + excluded.refund_amount,
        refund_count = t.refund_count + excluded.refund_count,
        voucher_amount = t.voucher_amount + excluded.voucher_amount,
        voucher_count = t.voucher_count + excluded.voucher_count
    )
    INSERT INTO rollup_mall_daily AS t (client_id, mall_id, local_day, gmv, transactions, refund_amount, refund_count, voucher_amount, voucher_count)
    SELECT c.client_id, o.mall_id, c.local_day, sum(c.gmv), sum(c.transactions), sum(c.refund_amount), sum(c.refund_count), sum(c.voucher_amount), sum(c.voucher_count)
    FROM changes c JOIN outlets o ON o.client_id = c.client_id AND o.id = c.outlet_id
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (client_id, mall_id, local_day) DO UPDATE SET
      gmv = t.gmv + excluded.gmv,
      transactions = t.transactions + excluded.transactions,
      refund_amount = t.refund_amount + excluded.refund_amount,
      refund_count = t.refund_count + excluded.refund_count,
      voucher_amount = t.voucher_amount + excluded.voucher_amount,
      voucher_count = t.voucher_count + excluded.voucher_count;
  ELSE
    WITH changes AS (SELECT client_id, outlet_id, local_day, -gmv, -transactions, -refund_amount, -refund_count, -voucher_amount, -voucher_count FROM old_rows),
    months AS (
      INSERT INTO rollup_outlet_monthly AS t (client_id, outlet_id, month, gmv, transactions, refund_amount, refund_count, voucher_amount, voucher_count)
      SELECT c.client_id, c.outlet_id, date_trunc('month', c.local_day)::date, sum(c.gmv), sum(c.transactions), sum(c.refund_amount), sum(c.refund_count), sum(c.voucher_amount), sum(c.voucher_count)
      FROM changes c GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (client_id, outlet_id, month) DO UPDATE SET
        gmv = t.gmv + excluded.gmv,
        transactions = t.transactions + excluded.transactions,
        refund_amount = t.refund_amount + excluded.refund_amount,
        refund_count = t.refund_count + excluded.refund_count,
        voucher_amount = t.voucher_amount + excluded.voucher_amount,
        voucher_count = t.voucher_count + excluded.voucher_count
    )
    INSERT INTO rollup_mall_daily AS t (client_id, mall_id, local_day, gmv, transactions, refund_amount, refund_count, voucher_amount, voucher_count)
    SELECT c.client_id, o.mall_id, c.local_day, sum(c.gmv), sum(c.transactions), sum(c.refund_amount), sum(c.refund_count), sum(c.voucher_amount), sum(c.voucher_count)
    FROM changes c JOIN outlets o ON o.client_id = c.client_id AND o.id = c.outlet_id
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (client_id, mall_id, local_day) DO UPDATE SET
      gmv = t.gmv + excluded.gmv,
      transactions = t.transactions + excluded.transactions,
      refund_amount = t.refund_amount + excluded.refund_amount,
      refund_count = t.refund_count + excluded.refund_count,
      voucher_amount = t.voucher_amount + excluded.voucher_amount,
      voucher_count = t.voucher_count + excluded.voucher_count;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER rollup_outlet_daily_amounts_insert AFTER INSERT ON rollup_outlet_daily
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_outlet_daily_amounts_add();
CREATE TRIGGER rollup_outlet_daily_amounts_update AFTER UPDATE ON rollup_outlet_daily
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_outlet_daily_amounts_add();
CREATE TRIGGER rollup_outlet_daily_amounts_delete AFTER DELETE ON rollup_outlet_daily
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rollup_outlet_daily_amounts_add();
