-- Scheduled e-mails of the Settings subscriptions (§3): void alerts (email_subscribe) and the daily summary
-- (summary_email_subscribe). The jobs run on pg-boss (its own schema, `pgboss`); these tables hold what they
-- decided, so that each decision is taken once and committed together with the delivery jobs it enqueues.

-- Void receipts waiting for their alert. A row is added by the trigger below in the transaction that ingests the
-- receipt, so it commits (or rolls back) with it; receipts that are not void never reach the function. The void
-- alerts job deletes the rows it takes in the transaction that enqueues the alerts. receipt_id is receipts.id.
CREATE TABLE void_alert_pending (
  client_id   integer NOT NULL,
  receipt_id  bigint NOT NULL,
  outlet_id   integer NOT NULL,
  queued_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, receipt_id)
);
CREATE INDEX void_alert_pending_queued ON void_alert_pending (queued_at);

CREATE FUNCTION queue_void_alert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO void_alert_pending (client_id, receipt_id, outlet_id)
  VALUES (NEW.client_id, NEW.id, NEW.outlet_id)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

CREATE TRIGGER receipts_void_alert
  AFTER INSERT ON receipts
  FOR EACH ROW WHEN (NEW.void)
  EXECUTE FUNCTION queue_void_alert();

-- The mall days whose daily summary has been decided: one row per mall and local day, so a day is summarised
-- once whatever runs, restarts or servers there are; the latest row of a mall is where catching up starts.
CREATE TABLE daily_summary_days (
  client_id      integer NOT NULL,
  mall_id        integer NOT NULL,
  day            date NOT NULL,
  summarised_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, mall_id, day),
  FOREIGN KEY (client_id, mall_id) REFERENCES malls (client_id, id) ON DELETE CASCADE
);

-- Every scheduled mail, written in the transaction that decides it together with its pg-boss delivery job.
-- delivered_at is set when it has been delivered (in the outbox's own transaction when there is no SMTP server);
-- message_id is the Message-ID it is sent with, the same on every attempt.
CREATE TABLE scheduled_mails (
  client_id     integer NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  id            bigint GENERATED ALWAYS AS IDENTITY,
  kind          text NOT NULL CHECK (kind IN ('void_alert', 'daily_summary')),
  user_id       integer REFERENCES users (id) ON DELETE SET NULL,
  recipient     text NOT NULL,
  subject       text NOT NULL,
  text          text NOT NULL,
  message_id    text NOT NULL,
  summary_day   date,
  created_at    timestamptz NOT NULL DEFAULT now(),
  delivered_at  timestamptz,
  PRIMARY KEY (client_id, id),
  UNIQUE (id)
);
CREATE INDEX scheduled_mails_created ON scheduled_mails (created_at);
