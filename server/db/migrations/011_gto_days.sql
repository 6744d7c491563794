-- The days of a GTO submission (the tenant declares each day of the month; gto_submissions keeps the month's
-- total, who submitted it and when), and the variance beyond which a client's reviewers see a month flagged.
CREATE TABLE gto_submission_days (
  client_id  integer NOT NULL,
  outlet_id  integer NOT NULL,
  day        date NOT NULL,
  gto        numeric(14,2) NOT NULL CHECK (gto >= 0),
  PRIMARY KEY (client_id, outlet_id, day),
  FOREIGN KEY (client_id, outlet_id) REFERENCES outlets (client_id, id)
);

ALTER TABLE clients
  ADD COLUMN gto_variance_threshold numeric(5,2) NOT NULL DEFAULT 5
    CHECK (gto_variance_threshold >= 0 AND gto_variance_threshold <= 100);

-- The review lists a month's submissions of a client's outlets.
CREATE INDEX gto_submissions_month ON gto_submissions (client_id, month);
