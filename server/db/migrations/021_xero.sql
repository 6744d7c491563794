-- The Xero integration (the Apps page): one connection per client, the OAuth attempts under way, and the log of
-- the daily sales journals posted.
--
-- xero_connections: the client's organisation (tenant), its tokens encrypted with AES-256-GCM (server/xero/
-- tokenCrypto.ts: never stored, logged or answered in clear), when the access token expires, who connected it and
-- when, the accounts chosen for the journals, and the organisation's accounts and tax rates as last read from Xero
-- (the options the choices are checked against). refresh_failed_at is set when Xero refused the refresh token: the
-- connection has to be made again.
CREATE TABLE xero_connections (
  client_id              integer PRIMARY KEY REFERENCES clients (id) ON DELETE CASCADE,
  tenant_id              text NOT NULL,
  organisation_name      text NOT NULL,
  base_currency          text,
  access_token_enc       text NOT NULL,
  refresh_token_enc      text NOT NULL,
  access_expires_at      timestamptz NOT NULL,
  refresh_failed_at      timestamptz,
  scope                  text NOT NULL DEFAULT '',
  connected_at           timestamptz NOT NULL DEFAULT now(),
  connected_by           integer REFERENCES users (id) ON DELETE SET NULL,
  sales_account          text,
  tax_type               text,
  clearing_account       text,
  options                jsonb NOT NULL DEFAULT '{}'::jsonb,
  options_read_at        timestamptz,
  updated_at             timestamptz NOT NULL DEFAULT now()
);

-- An authorization under way: started by a signed-in session for a client, found again at the callback by the
-- hash of the callback cookie (binding_hash), its state compared and its PKCE verifier used once (the row is
-- deleted when taken). Rows older than ten minutes are refused and swept.
CREATE TABLE xero_authorizations (
  binding_hash        text PRIMARY KEY,
  session_token_hash  text NOT NULL,
  user_id             integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  client_id           integer NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  state               text NOT NULL,
  code_verifier       text NOT NULL,
  started_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX xero_authorizations_started_at ON xero_authorizations (started_at);

-- The daily sales journals: one row per client, outlet and local day, written in the transaction that decides it
-- (server/jobs/xeroPosting.ts): 'posting' only inside that transaction (the row lock keeps a second run waiting,
-- and it then finds the day posted), then 'posted' with Xero's journal id, 'failed' with Xero's reason (the next
-- run tries again) or 'skipped' (the outlet's currency is not the organisation's). key_generation is part of the
-- Idempotency-Key sent to Xero: the same key again after an answer that may have created the journal (a timeout, a
-- crash), a new one only after Xero refused the journal.
CREATE TABLE xero_postings (
  client_id        integer NOT NULL,
  outlet_id        integer NOT NULL,
  day              date NOT NULL,
  tenant_id        text NOT NULL,
  status           text NOT NULL CHECK (status IN ('posting', 'posted', 'failed', 'skipped')),
  amount           numeric(16,2) NOT NULL,
  currency         text NOT NULL,
  journal_id       text,
  message          text,
  key_generation   integer NOT NULL DEFAULT 0,
  attempts         integer NOT NULL DEFAULT 1,
  posted_at        timestamptz,
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, outlet_id, day),
  FOREIGN KEY (client_id, outlet_id) REFERENCES outlets (client_id, id) ON DELETE CASCADE
);
CREATE INDEX xero_postings_client_day ON xero_postings (client_id, day DESC, outlet_id);
