-- Issues 31 and 32: an open month's projection (breakeven, the rent statements: monthFigures.ts) reads each outlet's
-- days of the month so far and of the four weeks before its today, some thirty days an outlet. Those days are over:
-- what they give for an outlet and its today does not change until a receipt of a past day arrives. This table keeps
-- it, one row an outlet and today, filled by the month-projections job (maintenance.ts) and read in one probe; an
-- outlet without its today's row is read from its days as before, so an empty table gives the same answers.
--   so_far: the sales of the month's days before today (null without a day);
--   rest:   the projection of the days left, today included (null without a day in the four weeks before today).
-- A change of an outlet's day removes its rows of a later today (the trigger below), in the writer's transaction.
-- Ingestion, the one writer of days, holds the outlet's row lock (FOR NO KEY UPDATE) from before its first write
-- until it commits; the job locks the outlets it fills FOR SHARE (SKIP LOCKED: an outlet whose batch is in flight
-- waits for the next run) before it reads their days, so it never stores figures a batch is about to change.
CREATE TABLE month_projections (
  client_id  integer NOT NULL,
  outlet_id  integer NOT NULL,
  today      date NOT NULL,
  so_far     numeric,
  rest       numeric,
  PRIMARY KEY (client_id, outlet_id, today)
);

-- Each trigger names its statement's changed rows `changed` (the new ones of an insert or update, the old ones of a
-- delete; ingestion's updates never move a row to another outlet or day).
CREATE FUNCTION month_projections_stale() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM month_projections p
  USING (SELECT client_id, outlet_id, min(local_day) AS day FROM changed GROUP BY 1, 2) c
  WHERE p.client_id = c.client_id AND p.outlet_id = c.outlet_id AND p.today > c.day;
  RETURN NULL;
END $$;

CREATE TRIGGER month_projections_stale_insert AFTER INSERT ON rollup_outlet_daily
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION month_projections_stale();
CREATE TRIGGER month_projections_stale_update AFTER UPDATE ON rollup_outlet_daily
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION month_projections_stale();
CREATE TRIGGER month_projections_stale_delete AFTER DELETE ON rollup_outlet_daily
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION month_projections_stale();
