-- A void receipt wakes the void alert job when the transaction that stores it commits: NOTIFY is delivered on
-- commit, once a transaction however many voids it stores (server/jobs/voidAlerts.ts listens), so an alert goes
-- out within seconds instead of at the next run of the minute schedule, which stays for what a listener missed.
CREATE OR REPLACE FUNCTION queue_void_alert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO void_alert_pending (client_id, receipt_id, outlet_id)
  VALUES (NEW.client_id, NEW.id, NEW.outlet_id)
  ON CONFLICT DO NOTHING;
  PERFORM pg_notify('void_alert_pending', '');
  RETURN NULL;
END
$$;
