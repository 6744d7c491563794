-- Receipts arrive from the outlets' point-of-sale capture devices through POST /api/ingest/receipts.
--
-- A device authenticates with a key the client's staff create for exactly one outlet and may revoke. Only the
-- SHA-256 of the key is kept (the key is 32 random bytes, so a slow password hash would add nothing); the
-- prefix is the key's first characters, shown in the list so that staff can tell keys apart.
CREATE TABLE device_keys (
  id            integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  client_id     integer NOT NULL,
  outlet_id     integer NOT NULL,
  name          text NOT NULL,
  key_hash      bytea NOT NULL UNIQUE,
  key_prefix    text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  created_by    integer REFERENCES users (id) ON DELETE SET NULL,
  revoked_at    timestamptz,
  revoked_by    integer REFERENCES users (id) ON DELETE SET NULL,
  last_used_at  timestamptz,
  FOREIGN KEY (client_id, outlet_id) REFERENCES outlets (client_id, id) ON DELETE CASCADE
);
CREATE INDEX device_keys_outlet ON device_keys (client_id, outlet_id);

-- A receipt is identified by its outlet, the point of sale's receipt id and its instant: a batch sent again, or
-- one that overlaps an earlier one, stores nothing twice (INSERT ... ON CONFLICT DO NOTHING). Receipts stored
-- before this rule that share all three (two sales in the same second of an outlet whose till numbers receipts
-- by Unix time) are told apart by their row id appended to the receipt id, keeping every figure as it was.
UPDATE receipts r SET receipt_id = r.receipt_id || '#' || r.id
FROM (
  SELECT client_id, id, row_number() OVER (PARTITION BY client_id, outlet_id, datetime, receipt_id ORDER BY id) AS n
  FROM receipts
) d
WHERE d.client_id = r.client_id AND d.id = r.id AND d.n > 1;

-- The unique key is the receipts list's index with the receipt id moved from its included columns into the key,
-- so idempotency costs no index of its own.
CREATE UNIQUE INDEX receipts_identity ON receipts (client_id, outlet_id, datetime, receipt_id)
  INCLUDE (id, total_amount, discount, void, opened_bill, closed_bill, foc_bill, redeem_bill, payment_method);
DROP INDEX receipts_outlet_time_list;
