-- Cross spending: where the members of one outlet also spend in its mall. Receipts carry the loyalty member who
-- presented a card (member_id, null for non-members), and ingestion keeps one row per outlet, local day and member
-- (receipts that are not void): what the member spent there that day and in how many receipts. An outlet's members
-- over a range are its rows by primary key; where else they spent, the rows of those members by the second key,
-- read from the index alone. Members are the client's (one loyalty programme per client).
ALTER TABLE receipts ADD COLUMN member_id text;

CREATE TABLE rollup_member_outlet_daily (
  client_id  integer NOT NULL,
  outlet_id  integer NOT NULL,
  local_day  date NOT NULL,
  member_id  text NOT NULL,
  spend      int8 NOT NULL DEFAULT 0,
  visits     integer NOT NULL DEFAULT 0,
  PRIMARY KEY (client_id, outlet_id, local_day, member_id)
) WITH (fillfactor = 80);
CREATE INDEX rollup_member_outlet_daily_member
  ON rollup_member_outlet_daily (client_id, member_id, local_day) INCLUDE (outlet_id, spend, visits);
