-- Issues 31 and 32: like-for-like keeps the outlets trading through the whole of both periods (comparisons.ts,
-- likeForLikeOutlets): a first sale before both, and no run of more than 7 days without a sale in either. Read from
-- the days, that is every outlet's days of both periods; read from runs, one row or two an outlet. A run is a
-- maximal stretch of an outlet's trading days (a day of rollup_outlet_daily with transactions) in which no two
-- trading days in a row are more than 7 days without a sale apart (the 7 is LIKE_FOR_LIKE_SILENCE_DAYS).
CREATE TABLE outlet_trading_runs (
  client_id  integer NOT NULL,
  outlet_id  integer NOT NULL,
  start_day  date NOT NULL,
  end_day    date NOT NULL CHECK (end_day >= start_day),
  PRIMARY KEY (client_id, outlet_id, start_day)
);

INSERT INTO outlet_trading_runs (client_id, outlet_id, start_day, end_day)
SELECT client_id, outlet_id, min(local_day), max(local_day)
FROM (
  SELECT client_id, outlet_id, local_day, sum(brk) OVER (PARTITION BY client_id, outlet_id ORDER BY local_day) AS run
  FROM (
    SELECT client_id, outlet_id, local_day,
      CASE WHEN local_day - lag(local_day) OVER (PARTITION BY client_id, outlet_id ORDER BY local_day) - 1 <= 7
           THEN 0 ELSE 1 END AS brk
    FROM rollup_outlet_daily WHERE transactions > 0
  ) d
) r
GROUP BY client_id, outlet_id, run;

-- The runs of the outlets whose trading days changed between `los` and `his` (a day either way), made again from
-- their days: the runs that touch a changed day's 8 days either side are replaced by the runs of the days they and
-- those windows cover. Runs further away are more than 7 days apart from every changed day, so they stay as they
-- are. Ingestion holds the outlet's row lock while it writes its days, so two never redo one outlet's runs at once.
CREATE FUNCTION outlet_trading_runs_redo(clients integer[], outlets integer[], los date[], his date[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  w_clients integer[];
  w_outlets integer[];
  w_los date[];
  w_his date[];
BEGIN
  SELECT array_agg(client_id), array_agg(outlet_id), array_agg(lo), array_agg(hi)
  INTO w_clients, w_outlets, w_los, w_his
  FROM (
    SELECT c.client_id, c.outlet_id, least(c.lo, min(r.start_day)) AS lo, greatest(c.hi, max(r.end_day)) AS hi
    FROM (
      SELECT client_id, outlet_id, min(lo) - 8 AS lo, max(hi) + 8 AS hi
      FROM unnest(clients, outlets, los, his) AS u(client_id, outlet_id, lo, hi) GROUP BY 1, 2
    ) c
    LEFT JOIN outlet_trading_runs r ON r.client_id = c.client_id AND r.outlet_id = c.outlet_id
      AND r.start_day <= c.hi AND r.end_day >= c.lo
    GROUP BY c.client_id, c.outlet_id, c.lo, c.hi
    ORDER BY 1, 2
  ) w;
  IF w_clients IS NULL THEN
    RETURN;
  END IF;
  DELETE FROM outlet_trading_runs r
  USING unnest(w_clients, w_outlets, w_los, w_his) AS w(client_id, outlet_id, lo, hi)
  WHERE r.client_id = w.client_id AND r.outlet_id = w.outlet_id AND r.start_day >= w.lo AND r.end_day <= w.hi;
  INSERT INTO outlet_trading_runs (client_id, outlet_id, start_day, end_day)
  SELECT client_id, outlet_id, min(local_day), max(local_day)
  FROM (
    SELECT client_id, outlet_id, local_day, sum(brk) OVER (PARTITION BY client_id, outlet_id ORDER BY local_day) AS run
    FROM (
      SELECT d.client_id, d.outlet_id, d.local_day,
        CASE WHEN d.local_day - lag(d.local_day) OVER (PARTITION BY d.client_id, d.outlet_id ORDER BY d.local_day) - 1
                  <= 7 THEN 0 ELSE 1 END AS brk
      FROM unnest(w_clients, w_outlets, w_los, w_his) AS w(client_id, outlet_id, lo, hi)
      JOIN rollup_outlet_daily d ON d.client_id = w.client_id AND d.outlet_id = w.outlet_id
        AND d.local_day BETWEEN w.lo AND w.hi
      WHERE d.transactions > 0
    ) d
  ) r
  GROUP BY client_id, outlet_id, run;
END $$;

-- Only the days whose trading changed (a new day with a sale, a day's first sale, a day's last sale gone): most of
-- ingestion's statements add to days that already trade and change no run.
CREATE FUNCTION outlet_trading_runs_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM outlet_trading_runs_redo(array_agg(client_id), array_agg(outlet_id), array_agg(lo), array_agg(hi))
    FROM (SELECT client_id, outlet_id, min(local_day) AS lo, max(local_day) AS hi
          FROM new_rows WHERE transactions > 0 GROUP BY 1, 2) c
    HAVING count(*) > 0;
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM outlet_trading_runs_redo(array_agg(client_id), array_agg(outlet_id), array_agg(lo), array_agg(hi))
    FROM (SELECT n.client_id, n.outlet_id, min(n.local_day) AS lo, max(n.local_day) AS hi
          FROM new_rows n JOIN old_rows o USING (client_id, outlet_id, local_day)
          WHERE (n.transactions > 0) <> (o.transactions > 0) GROUP BY 1, 2) c
    HAVING count(*) > 0;
  ELSE
    PERFORM outlet_trading_runs_redo(array_agg(client_id), array_agg(outlet_id), array_agg(lo), array_agg(hi))
    FROM (SELECT client_id, outlet_id, min(local_day) AS lo, max(local_day) AS hi
          FROM old_rows WHERE transactions > 0 GROUP BY 1, 2) c
    HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER outlet_trading_runs_insert AFTER INSERT ON rollup_outlet_daily
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION outlet_trading_runs_refresh();
CREATE TRIGGER outlet_trading_runs_update AFTER UPDATE ON rollup_outlet_daily
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION outlet_trading_runs_refresh();
CREATE TRIGGER outlet_trading_runs_delete AFTER DELETE ON rollup_outlet_daily
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION outlet_trading_runs_refresh();
