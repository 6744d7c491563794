-- Issue 34, unusual days: each morning the daily summary flags the outlets' and malls' days of yesterday whose GMV or
-- transactions are far from the same weekday of the last eight weeks (src/domain/unusualDays.ts: the median and the
-- median absolute deviation of those days, festivals, public holidays and declared non-trading days left out).
-- The rule is the client's: how far, in robust z (|value - median| / (1.4826 x MAD)), a day must be to be flagged,
-- and the fewest usable baseline days a day is judged on (with fewer it is never flagged).
ALTER TABLE clients
  ADD COLUMN unusual_day_threshold numeric(4,2) NOT NULL DEFAULT 3.5
    CHECK (unusual_day_threshold BETWEEN 1 AND 20),
  ADD COLUMN unusual_day_min_baseline smallint NOT NULL DEFAULT 5
    CHECK (unusual_day_min_baseline BETWEEN 3 AND 8);
