-- When a month's GTO is due (a day of the following month, in the mall's time zone), whether outlets that have not
-- submitted by then get a reminder, and the reminders sent: at most one a day per outlet and month (the key), so
-- a second run of the job on the same day, or a second server, sends nothing again.
ALTER TABLE clients
  ADD COLUMN gto_due_day smallint NOT NULL DEFAULT 7 CHECK (gto_due_day BETWEEN 1 AND 28),
  ADD COLUMN gto_reminders boolean NOT NULL DEFAULT true;

CREATE TABLE gto_reminders (
  client_id   integer NOT NULL,
  outlet_id   integer NOT NULL,
  month       date NOT NULL,
  sent_on     date NOT NULL,
  recipients  integer NOT NULL CHECK (recipients > 0),
  sent_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, outlet_id, month, sent_on),
  FOREIGN KEY (client_id, outlet_id) REFERENCES outlets (client_id, id)
);
