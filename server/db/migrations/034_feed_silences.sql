-- Issue 34, data feeds: an outlet that usually trades at this hour and has sent no receipt for the client's set
-- time raises one feed alert to the mall's operators, and one recovery note when its receipts resume.

-- How long an outlet may send no receipt, in an hour it usually trades, before it is silent (minutes).
ALTER TABLE clients
  ADD COLUMN feed_silence_minutes smallint NOT NULL DEFAULT 60 CHECK (feed_silence_minutes BETWEEN 15 AND 1440);

-- The open silences: one row per outlet while it is silent, written in the transaction that enqueues its alert
-- and deleted in the one that enqueues its recovery. The primary key is what makes a silence raised once: two
-- checks that find the outlet silent at once both insert, one of them inserts nothing and mails nobody.
-- since: the outlet's last receipt before the silence (its check's now less the set time when it had none in the
-- five weeks read); last_call: its devices' last call then.
CREATE TABLE feed_silences (
  client_id   integer NOT NULL,
  outlet_id   integer NOT NULL,
  since       timestamptz NOT NULL,
  last_receipt_at timestamptz,
  last_call   timestamptz,
  raised_at   timestamptz NOT NULL,
  PRIMARY KEY (client_id, outlet_id),
  FOREIGN KEY (client_id, outlet_id) REFERENCES outlets (client_id, id) ON DELETE CASCADE
);

ALTER TABLE scheduled_mails DROP CONSTRAINT scheduled_mails_kind_check,
  ADD CONSTRAINT scheduled_mails_kind_check
    CHECK (kind IN ('void_alert', 'daily_summary', 'feed_alert', 'feed_recovery'));

-- Whoever reads the mall reports reads the data feeds, and sees the page beside Mall Home (the demo roles say the
-- same from the contract's tags and the route table).
INSERT INTO role_api_permissions (role_id, permission)
SELECT DISTINCT role_id, '/api/dataFeeds::Read' FROM role_api_permissions
WHERE permission = '/api/mall_report/outlet::Read'
ON CONFLICT DO NOTHING;
UPDATE role_route_permissions SET sub_permissions = sub_permissions || '{data-feeds}'::text[]
WHERE name = 'shopper-connect' AND 'mall-home' = ANY(sub_permissions)
  AND NOT ('data-feeds' = ANY(sub_permissions));
