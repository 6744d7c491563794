-- Issue 34, reports by e-mail: a report page subscribed to (its path and the filters of its header), sent on a
-- schedule in its mall's time zone as a PDF of the page (rendered by a headless browser as each recipient) and, for
-- a page that has one, its workbook.

-- A subscription of a client. filters is the page's query string as its address shows it (client, malls, days,
-- hours...); mall_ids are its malls, whose first mall's time zone the schedule follows. weekday (1 Monday .. 7
-- Sunday) only for weekly, month_day (1..28, a day every month has) only for monthly. recipient_ids are users of
-- the client; each is checked again at sending time (active, still in the client, still sees the malls).
CREATE TABLE report_subscriptions (
  client_id      integer NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  id             bigint GENERATED ALWAYS AS IDENTITY,
  owner_id       integer REFERENCES users (id) ON DELETE SET NULL,
  name           text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  page_path      text NOT NULL CHECK (page_path ~ '^/[a-z0-9/_-]{1,100}$'),
  filters        text NOT NULL CHECK (length(filters) <= 1000),
  mall_ids       integer[] NOT NULL CHECK (cardinality(mall_ids) BETWEEN 1 AND 100),
  formats        text[] NOT NULL CHECK (cardinality(formats) BETWEEN 1 AND 2 AND formats <@ ARRAY['pdf', 'workbook']),
  frequency      text NOT NULL CHECK (frequency IN ('daily', 'weekly', 'monthly')),
  weekday        smallint CHECK (weekday BETWEEN 1 AND 7),
  month_day      smallint CHECK (month_day BETWEEN 1 AND 28),
  hour           smallint NOT NULL CHECK (hour BETWEEN 0 AND 23),
  recipient_ids  integer[] NOT NULL CHECK (cardinality(recipient_ids) BETWEEN 1 AND 50),
  active         boolean NOT NULL DEFAULT true,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, id),
  CHECK ((frequency = 'weekly') = (weekday IS NOT NULL)),
  CHECK ((frequency = 'monthly') = (month_day IS NOT NULL))
);

-- One row a period sent (or that failed), inserted in the transaction that enqueues the period's mails: the primary
-- key is what sends a period once, whatever the number of instances or runs. A "send now" has a period key of its
-- own ('now:' and the instant it was asked), so it never takes the scheduled period's place.
CREATE TABLE report_subscription_deliveries (
  client_id        integer NOT NULL,
  subscription_id  bigint NOT NULL,
  period_key       text NOT NULL CHECK (length(period_key) <= 60),
  state            text NOT NULL CHECK (state IN ('sent', 'failed')),
  recipients       integer NOT NULL DEFAULT 0,
  error            text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, subscription_id, period_key),
  FOREIGN KEY (client_id, subscription_id) REFERENCES report_subscriptions (client_id, id) ON DELETE CASCADE
);

-- The files of a scheduled mail (the report's PDF and workbook), kept with it until it is delivered and pruned.
CREATE TABLE scheduled_mail_attachments (
  client_id   integer NOT NULL,
  mail_id     bigint NOT NULL,
  position    smallint NOT NULL CHECK (position BETWEEN 1 AND 10),
  filename    text NOT NULL CHECK (length(filename) BETWEEN 1 AND 200),
  media_type  text NOT NULL,
  bytes       bytea NOT NULL CHECK (octet_length(bytes) <= 10485760),
  PRIMARY KEY (client_id, mail_id, position),
  FOREIGN KEY (client_id, mail_id) REFERENCES scheduled_mails (client_id, id) ON DELETE CASCADE
);

-- The files of a mail kept in the local outbox (no SMTP server), downloadable by the super admin.
CREATE TABLE outbox_attachments (
  outbox_id   bigint NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
  position    smallint NOT NULL CHECK (position BETWEEN 1 AND 10),
  filename    text NOT NULL,
  media_type  text NOT NULL,
  bytes       bytea NOT NULL,
  PRIMARY KEY (outbox_id, position)
);

ALTER TABLE scheduled_mails DROP CONSTRAINT scheduled_mails_kind_check,
  ADD CONSTRAINT scheduled_mails_kind_check
    CHECK (kind IN ('void_alert', 'daily_summary', 'feed_alert', 'feed_recovery', 'alert_rule',
      'report_subscription'));

-- A session the server opens for its own browser to render a page as a recipient: it reads, never writes, and
-- expires in minutes.
ALTER TABLE sessions ADD COLUMN render_only boolean NOT NULL DEFAULT false;

-- Whoever reads Mall Home's figures may subscribe to report pages (the demo roles say the same from the contract's
-- tags).
INSERT INTO role_api_permissions (role_id, permission)
SELECT DISTINCT r.role_id, p.permission FROM role_api_permissions r
CROSS JOIN (VALUES
  ('/api/reportSubscriptions::Read'),
  ('/api/reportSubscriptions::Create'),
  ('/api/reportSubscriptions::Update'),
  ('/api/reportSubscriptions::Delete'),
  ('/api/reportSubscriptions/send::Create'),
  ('/api/reportSubscriptions/recipients::Read')
) AS p(permission)
WHERE r.permission = '/api/mall_report/daily::Read'
ON CONFLICT DO NOTHING;
