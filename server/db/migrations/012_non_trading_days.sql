-- Non-trading days are declared by the outlet's tenant or by the mall, with a reason, by a user at a time: the
-- mall's list shows who declared each day and when, and a tenant withdraws only the days it declared itself.
-- Days stored before carried no reason sometimes; they get one so that every day has a reason from now on.
UPDATE non_trading_days SET reason = 'Not trading' WHERE btrim(reason) = '';

ALTER TABLE non_trading_days
  ALTER COLUMN reason DROP DEFAULT,
  ADD CONSTRAINT non_trading_days_reason CHECK (char_length(reason) BETWEEN 1 AND 200 AND btrim(reason) <> ''),
  ADD COLUMN declared_by text NOT NULL DEFAULT 'mall' CHECK (declared_by IN ('tenant', 'mall')),
  ADD COLUMN declared_by_user integer REFERENCES users (id) ON DELETE SET NULL,
  ADD COLUMN declared_at timestamptz NOT NULL DEFAULT now();

-- The mall's list reads a client's days over a range of days, across its outlets.
CREATE INDEX non_trading_days_day ON non_trading_days (client_id, day);
